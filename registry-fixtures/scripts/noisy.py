#!/usr/bin/env python3
"""Prints its logs on stdout with its answer."""
import json
import sys

print("loading configuration...")
print(json.dumps({"success": True, "_simple": True, "args": sys.argv[1:]}))
