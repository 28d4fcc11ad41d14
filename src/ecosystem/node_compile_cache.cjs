// Written by agx (docs/ecosystem.md, "Compiled-code caches"): turns on Node's compile cache
// for this package, in a folder named after the Node version that runs, so an upgrade never
// reads the cache of another version. Node checks every entry and recompiles one that does
// not match, so a damaged cache only costs the time it would have saved.
'use strict';
const dir = process.env.AGX_NODE_COMPILE_CACHE;
// Not passed on to the server's own child processes.
delete process.env.AGX_NODE_COMPILE_CACHE;
const mod = require('node:module');
if (dir && typeof mod.enableCompileCache === 'function') {
  const result = mod.enableCompileCache(require('node:path').join(dir, process.version));
  if (result.status === mod.constants.compileCacheStatus.FAILED) {
    process.stderr.write(`agx: the compile cache in ${dir} is not used: ${result.message}\n`);
  } else if (typeof mod.flushCompileCache === 'function') {
    // Node writes the cache at a normal exit, which a server stopped by its client rarely
    // has: write it when the first message (the answer to `initialize`) goes out, by then
    // the server's code is loaded.
    const stdout = process.stdout;
    const write = stdout.write;
    stdout.write = function (...args) {
      stdout.write = write;
      try {
        mod.flushCompileCache();
      } catch {
        // The cache is an optimisation: never a reason to fail.
      }
      return write.apply(this, args);
    };
  }
}
