# Sourced by CI scripts: `make_wrapped_conformance AGX DIR` writes and installs
# acme/wrapped-conformance, a wrapped server whose own program is `AGX serve
# agx/conformance/everything` (installed first), and records a filter for it, so that
# `agx serve` proxies it (docs/profiles.md). Its server is `acme/wrapped-conformance/wrapped`.
make_wrapped_conformance() {
    local agx="$1" dir="$2"
    mkdir -p "$dir/agx/servers"
    cat > "$dir/agx.toml" <<TOML
[package]
name = "acme/wrapped-conformance"
version = "1.0.0"
description = "The conformance fixture, wrapped: its program is agx serve"

[extension]
servers = ["wrapped"]
TOML
    printf 'name = "wrapped"\ncommand = ["%s", "serve", "agx/conformance/everything"]\n' "$agx" \
        > "$dir/agx/servers/wrapped.toml"
    "$agx" install --quiet "$dir"
    # A filter that hides nothing the suite calls: the proxy is what is under test.
    "$agx" -q install-server cursor acme/wrapped-conformance/wrapped \
        --config "$dir/mcp.json" --deny 'not_a_tool_*'
}
