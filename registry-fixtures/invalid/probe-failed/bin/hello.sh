#!/bin/sh
echo 'no weather service configured' >&2
exit 3
