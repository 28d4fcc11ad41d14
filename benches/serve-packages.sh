#!/usr/bin/env bash
# Install the server of benches/serve.sh and of the PGO training (scripts/pgo.sh): 5 packages
# of 10 tools each, from a folder registry written under WORK_DIR, into the agx home of the
# environment (AGX_HOME, HOME). `agx serve bench/p0/all` then offers all 50 tools.
#   benches/serve-packages.sh AGX WORK_DIR
set -euo pipefail
AGX=$1
TMP=$2
REG="$TMP/registry"
"$AGX" registry init --quiet "$REG" >/dev/null
for p in 1 2 3 4 0; do
    dir="$TMP/src/p$p"
    mkdir -p "$dir/agx"
    {
        echo "[package]"
        echo "name = \"bench/p$p\""
        echo "version = \"1.0.0\""
        echo "description = \"Benchmark package $p\""
        if [[ $p == 0 ]]; then
            echo "[dependencies]"
            for d in 1 2 3 4; do echo "\"bench/p$d\" = \"^1.0\""; done
        fi
        echo "[extension]"
        [[ $p == 0 ]] && echo 'servers = ["all"]'
        printf 'tools = ['
        for t in $(seq 0 9); do printf '"t%s_%s", ' "$p" "$t"; done
        echo ']'
    } > "$dir/agx.toml"
    : > "$dir/agx/tools.toml"
    for t in $(seq 0 9); do
        cat >> "$dir/agx/tools.toml" <<TOML
[t${p}_${t}]
name = "t${p}_${t}"
description = "Benchmark tool $t of package $p: echoes its arguments"
command = ["cat"]
annotations = { read_only = true }

[[t${p}_${t}.parameters]]
name = "text"
type = "string"
description = "Anything"
required = true

[[t${p}_${t}.parameters]]
name = "count"
type = "integer"
description = "A number"

TOML
    done
    if [[ $p == 0 ]]; then
        {
            echo "[all]"
            echo 'name = "all"'
            printf 'tools = ['
            for q in 0 1 2 3 4; do for t in $(seq 0 9); do
                if [[ $q == 0 ]]; then printf '"t0_%s", ' "$t"; else printf '"bench/p%s/t%s_%s", ' "$q" "$q" "$t"; fi
            done; done
            echo ']'
        } > "$dir/agx/servers.toml"
    fi
    "$AGX" registry add --quiet "$REG" "$dir" >/dev/null
done
"$AGX" install --quiet --registry "$REG" bench/p0 >/dev/null
