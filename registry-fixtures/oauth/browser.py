#!/usr/bin/env python3
"""A scripted browser for agx's sign-in tests (`AGX_BROWSER="python3 browser.py"`): it opens
the authorization URL it is given and follows the redirect back to agx's loopback listener,
as a person's browser does after they approve. Writes what it saw to `$AGX_TEST_BROWSER_LOG`
when set."""

import os
import sys
import urllib.request

url = sys.argv[1]
log = os.environ.get("AGX_TEST_BROWSER_LOG")
try:
    with urllib.request.urlopen(url, timeout=30) as response:
        page = response.read().decode(errors="replace")
    outcome = "%d %s" % (response.status, page)
except Exception as error:  # the test reads the log to say why
    outcome = "failed: %s" % error
if log:
    with open(log, "a") as f:
        f.write("%s\n%s\n" % (url, outcome))
