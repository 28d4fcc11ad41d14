#!/usr/bin/env python3
"""Generators for benches/store.sh.

  gen_store_fixtures.py sources DIR N         N small package sources bench/pkg-0000 … (one
                                              tool, one prompt, one server each)
  gen_store_fixtures.py catalog REGISTRY N    a folder registry whose catalog.json lists N
                                              packages (index lines too; no tarballs: the
                                              benchmark reads the catalog only)
  gen_store_fixtures.py big DIR MBYTES        a package bench/big with MBYTES of
                                              incompressible data
"""

import json
import os
import sys


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def package_source(dir, name, version, description):
    short = name.split("/")[-1].replace("-", "_")
    write(
        os.path.join(dir, "agx.toml"),
        f'[package]\nname = "{name}"\nversion = "{version}"\ndescription = "{description}"\n\n'
        f'[extension]\nservers = ["main"]\ntools = ["{short}_tool"]\nprompts = ["{short}_prompt"]\n',
    )
    write(
        os.path.join(dir, "agx/servers/main.toml"),
        f'name = "main"\ndescription = "Server of {name}"\ntools = ["{short}_tool"]\nprompts = ["{short}_prompt"]\n',
    )
    write(
        os.path.join(dir, f"agx/tools/{short}_tool.toml"),
        f'name = "{short}_tool"\ndescription = "Tool of {name}"\ncommand = ["sh", "bin/run.sh"]\n'
        '[[parameters]]\nname = "query"\ntype = "string"\nrequired = true\n',
    )
    write(
        os.path.join(dir, f"agx/prompts/{short}_prompt.toml"),
        f'name = "{short}_prompt"\ndescription = "Prompt of {name}"\ncontent = "Hello {{{{ who }}}}"\n'
        '[[arguments]]\nname = "who"\n',
    )
    write(os.path.join(dir, "bin/run.sh"), 'echo \'{"ok": true}\'\n')


def summary(name):
    short = name.split("/")[-1].replace("-", "_")
    return {
        "servers": [
            {
                "name": "main",
                "description": f"Server of {name}",
                "tools": [f"{short}_tool"],
                "prompts": [f"{short}_prompt"],
            }
        ],
        "tools": [
            {
                "name": f"{short}_tool",
                "description": f"Tool of {name}",
                "parameters": [{"name": "query", "type": "string", "required": True}],
            }
        ],
        "prompts": [
            {"name": f"{short}_prompt", "description": f"Prompt of {name}", "arguments": ["who"]}
        ],
    }


def sources(dir, n):
    for i in range(n):
        package_source(
            os.path.join(dir, f"pkg-{i:04}"), f"bench/pkg-{i:04}", "1.0.0", f"Benchmark package {i}"
        )


def catalog(registry, n):
    write(os.path.join(registry, "config.json"), json.dumps({"v": 1, "name": "bench-catalog"}))
    packages = []
    for i in range(n):
        name = f"cat{i % 100:02}/pkg-{i:05}"
        packages.append(
            {
                "name": name,
                "version": "1.0.0",
                "description": f"Catalog package {i} for the list benchmark",
                "extension": summary(name),
            }
        )
    write(os.path.join(registry, "catalog.json"), json.dumps({"v": 1, "packages": packages}))


def big(dir, mbytes):
    package_source(dir, "bench/big", "1.0.0", "A large package for the install benchmark")
    os.makedirs(os.path.join(dir, "data"), exist_ok=True)
    with open(os.path.join(dir, "data/blob.bin"), "wb") as f:
        for _ in range(mbytes):
            f.write(os.urandom(1024 * 1024))


if __name__ == "__main__":
    kind, target, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    {"sources": sources, "catalog": catalog, "big": big}[kind](target, count)
