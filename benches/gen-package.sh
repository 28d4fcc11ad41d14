#!/bin/sh
# Write a valid package with N tools (per-item files, several parameters each), one server
# listing them all, and a text prompt: the input of benches/validate.sh.
#   benches/gen-package.sh DIR N
set -eu
dir=$1
n=$2
mkdir -p "$dir/agx/tools" "$dir/agx/servers" "$dir/agx/prompts" "$dir/bin"

names=""
i=1
while [ "$i" -le "$n" ]; do
    names="$names\"tool_$i\", "
    cat > "$dir/agx/tools/tool_$i.toml" <<TOOL
name = "tool_$i"
title = "Tool $i"
description = "Generated tool number $i"
command = ["sh", "bin/tool.sh"]
timeout = 10
env = { TOOL_NUMBER = "$i" }
annotations = { read_only = true }

[[parameters]]
name = "query"
type = "string"
description = "What to look up"
required = true

[[parameters]]
name = "limit"
type = "integer"
default = 10

[[parameters]]
name = "tags"
type = "array"
items = { type = "string" }
TOOL
    i=$((i + 1))
done

cat > "$dir/agx.toml" <<MANIFEST
[package]
name = "bench/many-tools"
version = "1.0.0"
description = "A generated package with $n tools"

[extension]
servers = ["all"]
tools = [$names]
prompts = ["ask"]
MANIFEST

cat > "$dir/agx/servers/all.toml" <<SERVER
name = "all"
description = "Every tool"
tools = [$names]
prompts = ["ask"]
SERVER

cat > "$dir/agx/prompts/ask.toml" <<'PROMPT'
name = "ask"
content = "Answer {{ question }}{% if detail %} in detail{% endif %}."
[[arguments]]
name = "question"
required = true
[[arguments]]
name = "detail"
PROMPT

printf '#!/bin/sh\necho "{}"\n' > "$dir/bin/tool.sh"
chmod +x "$dir/bin/tool.sh"
