#!/usr/bin/env python3
"""Loads a large model before doing anything: too slow to be probed."""
import time

time.sleep(30)
print("{}")
