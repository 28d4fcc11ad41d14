# Sourced by the CI scripts that drive agx with the official MCP Python SDK: `mcp_python`
# prints the interpreter of $AGX_CI_CACHE/venv holding the pinned `mcp`, installing it first
# when the venv is missing or holds another version (needs PyPI then).
MCP_VERSION=2.3.0
mcp_python() {
    venv="${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/venv"
    if [ "$("$venv/bin/python" -c "import importlib.metadata as m; print(m.version('mcp'))" 2>/dev/null)" != "$MCP_VERSION" ]; then
        echo "==> pip install mcp==$MCP_VERSION into $venv" >&2
        python3 -m venv "$venv" >&2 || return 1
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_VERSION" >&2 || return 1
    fi
    echo "$venv/bin/python"
}
