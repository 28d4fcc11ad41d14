#!/usr/bin/env node
// The `agx` command of the npm package: runs the agx binary of this platform's package
// (@agx-cli/<platform>-<arch>, an optional dependency npm installs only where it fits, as
// esbuild and biome do), passing the arguments, stdio and exit status through. agx writes
// the binary's own path (not this launcher's) into client entries: docs/clients.md.
"use strict";
const { spawnSync } = require("child_process");
const path = require("path");

const platformPackage = `@agx-cli/${process.platform}-${process.arch}`;
const executable = process.platform === "win32" ? "agx.exe" : "agx";

function binaryPath() {
  try {
    return require.resolve(`${platformPackage}/bin/${executable}`);
  } catch {
    console.error(
      `agx: no binary for ${process.platform}-${process.arch}: the package ${platformPackage} ` +
        "is not installed.\nReinstall agx without --omit=optional (or --no-optional), or " +
        "see the Install section of agx's README for other ways"
    );
    process.exit(1);
  }
}

const binary = binaryPath();
const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (result.error) {
  console.error(`agx: cannot start ${path.basename(binary)} (${binary}): ${result.error.message}`);
  process.exit(1);
}
if (result.signal) {
  // End the same way the binary did, so a caller sees the signal, not a made-up status.
  process.kill(process.pid, result.signal);
}
process.exit(result.status ?? 1);
