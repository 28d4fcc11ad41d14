#!/bin/sh
# stdin input: the arguments object is the whole of stdin; print it back as the result.
cat
