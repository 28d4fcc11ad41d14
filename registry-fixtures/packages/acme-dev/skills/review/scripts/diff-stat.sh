#!/bin/sh
# Summarise the change under review: files and lines touched.
exec git diff --stat "${1:-HEAD}"
