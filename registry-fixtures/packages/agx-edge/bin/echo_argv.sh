#!/bin/sh
# argv input: the arguments object is the last argument.
for last in "$@"; do :; done
printf '{"argv": %s}\n' "$last"
