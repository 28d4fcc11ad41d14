#!/bin/sh
# Write a valid package with N tools (per-item files, several parameters each), one server
# listing them all, and a text prompt: the input of benches/validate.sh. With SKILLS, also
# that many Agent Skills (`skill-1`, …: a SKILL.md, a script and a reference each), for
# benches/skills.sh.
#   benches/gen-package.sh DIR N [SKILLS]
set -eu
dir=$1
n=$2
skills=${3:-0}
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

skill_names=""
i=1
while [ "$i" -le "$skills" ]; do
    skill_names="$skill_names\"skill-$i\", "
    mkdir -p "$dir/skills/skill-$i/scripts" "$dir/skills/skill-$i/references"
    cat > "$dir/skills/skill-$i/SKILL.md" <<SKILL
---
name: skill-$i
description: Generated skill number $i. Use it when the benchmark asks for skill $i.
license: MIT
metadata:
  number: "$i"
---
# Skill $i

Run [the script](scripts/run.sh) and read [the guide](references/guide.md).
SKILL
    printf '#!/bin/sh\necho "skill %s"\n' "$i" > "$dir/skills/skill-$i/scripts/run.sh"
    chmod +x "$dir/skills/skill-$i/scripts/run.sh"
    printf '# Guide %s\n\nWhat skill %s knows.\n' "$i" "$i" > "$dir/skills/skill-$i/references/guide.md"
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
skills = [$skill_names]
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
