#!/bin/sh
# A stand-in for a package's own MCP server: echoes each stdin line with where it runs.
while IFS= read -r line; do
    echo "wrapped[$AGX_PACKAGE $EDGE_WRAPPED $(pwd)]: $line"
done
