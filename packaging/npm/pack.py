"""Pack agx's npm packages, as esbuild and biome ship theirs: `agx` (the launcher
bin/agx.js) with one optional dependency per platform, `@agx-cli/PLATFORM`, which holds the
binary and installs only where its `os` and `cpu` fields match. Used by scripts/dist.sh and
.github/workflows/release.yml, so both pack the same way.

    python3 pack.py platform OUT_DIR VERSION PLATFORM BINARY   # PLATFORM: linux-x64, win32-x64, …
    python3 pack.py main OUT_DIR VERSION PLATFORM...            # the platforms released

PLATFORM is Node's `process.platform-process.arch`. Each tarball goes into OUT_DIR
(`npm pack`); needs npm on PATH.
"""

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def npm_pack(folder, out_dir):
    npm = shutil.which("npm") or sys.exit("pack.py: npm is not on PATH")
    subprocess.run([npm, "pack", "--silent", "--pack-destination", str(out_dir)],
                   cwd=folder, check=True, stdout=subprocess.DEVNULL)


def pack_platform(out_dir, version, platform, binary):
    os_name, cpu = platform.split("-")
    executable = "agx.exe" if os_name == "win32" else "agx"
    manifest = json.loads((HERE / "platform.package.json").read_text())
    manifest.update(name=f"@agx-cli/{platform}", version=version, os=[os_name], cpu=[cpu])
    manifest["description"] = manifest["description"].replace("PLATFORM", platform)
    with tempfile.TemporaryDirectory() as stage:
        (Path(stage) / "bin").mkdir()
        shutil.copyfile(binary, Path(stage) / "bin" / executable)
        (Path(stage) / "bin" / executable).chmod(0o755)
        (Path(stage) / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
        npm_pack(stage, out_dir)


def pack_main(out_dir, version, platforms):
    with tempfile.TemporaryDirectory() as stage:
        shutil.copytree(HERE / "agx", stage, dirs_exist_ok=True)
        shutil.copyfile(HERE.parent.parent / "README.md", Path(stage) / "README.md")
        manifest = json.loads((Path(stage) / "package.json").read_text())
        manifest["version"] = version
        # Exact versions: the launcher and the binary come from one release.
        manifest["optionalDependencies"] = {f"@agx-cli/{p}": version for p in platforms}
        (Path(stage) / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
        npm_pack(stage, out_dir)


if __name__ == "__main__":
    kind, out_dir, version, *rest = sys.argv[1:]
    out_dir = Path(out_dir).resolve()
    if kind == "platform":
        pack_platform(out_dir, version, *rest)
    elif kind == "main":
        pack_main(out_dir, version, rest)
    else:
        sys.exit(f"pack.py: unknown kind {kind!r} (platform or main)")
