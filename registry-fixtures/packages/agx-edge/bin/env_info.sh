#!/bin/sh
cat >/dev/null
printf '{"cwd": "%s", "package_dir": "%s", "package": "%s", "tool": "%s", "setting": "%s"}\n' \
    "$(pwd)" "$AGX_PACKAGE_DIR" "$AGX_PACKAGE" "$AGX_TOOL" "$EDGE_SETTING"
