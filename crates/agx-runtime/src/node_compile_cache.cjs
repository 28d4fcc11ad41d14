// Written by agx (docs/ecosystem.md, "Compiled-code caches"): keeps this package's compiled
// code between starts, in a folder named after the Node version that runs, so an upgrade
// never reads the cache of another version. A cache entry that does not match is compiled
// again and rewritten, so a damaged cache only costs the time it would have saved.
//
// Two caches:
// - Node's own compile cache (`module.enableCompileCache`) for ES modules. Node serializes
//   an entry right after compiling it, so it holds only the functions V8 compiled eagerly.
// - For CommonJS modules required by other modules, V8 code cached *after* the server has
//   started (at its first answer): it then holds every function the start ran, which Node's
//   cache would compile again at each start. Each entry is checked against the source file
//   (path, size, modification time), the Node build and V8's flags, and its own checksum.
'use strict';
const dir = process.env.AGX_NODE_COMPILE_CACHE;
// Not passed on to the server's own child processes.
delete process.env.AGX_NODE_COMPILE_CACHE;
const Module = require('node:module');

// Whether the code cache of required CommonJS modules can be kept: it replaces the loader's
// compile step, so only where that step is the plain one.
function canCacheCommonJS(vm, zlib) {
  return (
    typeof Module.prototype._compile === 'function' &&
    typeof zlib.crc32 === 'function' &&
    vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER !== undefined &&
    !process.sourceMapsEnabled &&
    !process.execArgv.some((a) => a.startsWith('--inspect') || a.startsWith('--experimental-policy'))
  );
}

function cacheCommonJS(root) {
  const fs = require('node:fs');
  const path = require('node:path');
  const vm = require('node:vm');
  const zlib = require('node:zlib');
  if (!canCacheCommonJS(vm, zlib)) return null;
  const folder = path.join(root, 'cjs-' + require('node:v8').cachedDataVersionTag().toString(16));
  fs.mkdirSync(folder, { recursive: true });

  // An entry: "agxc" | crc32 of the rest | source size (u64) | source mtime ns (u64) |
  // filename length (u32) | filename (UTF-8) | V8's cached data.
  const MAGIC = 0x63786761; // "agxc", little-endian
  const HEAD = 28;
  const entryOf = (filename) => path.join(folder, zlib.crc32(filename).toString(16).padStart(8, '0'));

  // `name` is the source's path as UTF-8, recorded in its entry.
  function read(file, filename, name, stat) {
    let bytes;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      return undefined; // not cached yet
    }
    const ok =
      bytes.length > HEAD &&
      bytes.readUInt32LE(0) === MAGIC &&
      bytes.readUInt32LE(4) === zlib.crc32(bytes.subarray(8)) &&
      bytes.readUInt32LE(24) === name.length &&
      bytes.length > HEAD + name.length;
    if (!ok) {
      process.stderr.write(`agx: compiled-code cache entry ${file} is damaged; compiling ${filename} again\n`);
      return undefined;
    }
    // Another file of the same name hash, or this one changed: compiled again, replaced.
    if (
      bytes.readBigUInt64LE(8) !== stat.size ||
      bytes.readBigUInt64LE(16) !== stat.mtimeNs ||
      !bytes.subarray(HEAD, HEAD + name.length).equals(name)
    ) {
      return undefined;
    }
    return bytes.subarray(HEAD + name.length);
  }

  function write(file, name, stat, data) {
    const head = Buffer.alloc(HEAD);
    head.writeUInt32LE(MAGIC, 0);
    head.writeBigUInt64LE(stat.size, 8);
    head.writeBigUInt64LE(stat.mtimeNs, 16);
    head.writeUInt32LE(name.length, 24);
    const bytes = Buffer.concat([head, name, data]);
    bytes.writeUInt32LE(zlib.crc32(bytes.subarray(8)), 4);
    // Written beside and renamed: a server starting meanwhile reads the old entry or this one.
    const staged = `${file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(staged, bytes);
      fs.renameSync(staged, file);
    } catch {
      try {
        fs.unlinkSync(staged);
      } catch {}
    }
  }

  // Node's wrapper of a module, on a line of its own so that line and column numbers in
  // stack traces are the file's.
  const OPEN = '(function (exports, require, module, __filename, __dirname) {\n';
  const CLOSE = '\n})';

  // `import()` in a module compiled here goes to Node's own loader, and Node warns at the
  // first one that this is experimental: agx's choice, not the server's, so not shown.
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning, ...rest) {
    if (String(warning?.message ?? warning).startsWith('vm.USE_MAIN_CONTEXT_DEFAULT_LOADER')) return;
    return Reflect.apply(emitWarning, this, [warning, ...rest]);
  };

  function makeRequire(mod) {
    const require = function require(id) {
      return mod.require(id);
    };
    require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
    require.resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
    require.main = process.mainModule;
    require.extensions = Module._extensions;
    require.cache = Module._cache;
    return require;
  }

  const pending = []; // compiled without a usable entry: written at the first answer
  let depth = 0; // CommonJS modules executing
  const original = Module.prototype._compile;
  Module.prototype._compile = function (content, filename, format) {
    // A module required at the top (the main script, a require from an ES module) keeps the
    // loader's own step: it sets up what the loader shares across the requires below it.
    if (depth === 0 || (format !== undefined && format !== 'commonjs') || !/\.c?js$/.test(filename)) {
      depth++;
      try {
        return Reflect.apply(original, this, arguments);
      } finally {
        depth--;
      }
    }
    let stat;
    try {
      stat = fs.statSync(filename, { bigint: true });
    } catch {
      return Reflect.apply(original, this, arguments);
    }
    const file = entryOf(filename);
    const name = Buffer.from(filename);
    const cachedData = read(file, filename, name, stat);
    // A hashbang line is a comment to the loader; keep its length.
    const source = content.startsWith('#!') ? '//' + content.slice(2) : content;
    let script;
    try {
      script = new vm.Script(OPEN + source + CLOSE, {
        filename,
        lineOffset: -1,
        cachedData,
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
    } catch {
      // Not CommonJS after all (ES module syntax the loader detects): its own step decides.
      return Reflect.apply(original, this, arguments);
    }
    if (cachedData === undefined || script.cachedDataRejected) pending.push({ file, name, stat, script });
    const wrapper = script.runInThisContext({ displayErrors: true });
    depth++;
    try {
      return Reflect.apply(wrapper, this.exports, [
        this.exports,
        makeRequire(this),
        this,
        filename,
        path.dirname(filename),
      ]);
    } finally {
      depth--;
    }
  };

  return function flush() {
    for (const { file, name, stat, script } of pending.splice(0)) {
      try {
        write(file, name, stat, script.createCachedData());
      } catch {
        // The cache is an optimisation: never a reason to fail.
      }
    }
  };
}

if (dir && typeof Module.enableCompileCache === 'function') {
  const root = require('node:path').join(dir, process.version);
  const result = Module.enableCompileCache(root);
  if (result.status === Module.constants.compileCacheStatus.FAILED) {
    process.stderr.write(`agx: the compile cache in ${dir} is not used: ${result.message}\n`);
  } else {
    let flushCommonJS = null;
    try {
      flushCommonJS = cacheCommonJS(root);
    } catch (e) {
      process.stderr.write(`agx: the CommonJS code cache in ${root} is not used: ${e.message}\n`);
    }
    const flush = () => {
      try {
        if (typeof Module.flushCompileCache === 'function') Module.flushCompileCache();
        flushCommonJS?.();
      } catch {
        // The cache is an optimisation: never a reason to fail.
      }
    };
    // Node writes its cache at a normal exit, which a server stopped by its client rarely
    // has: write both when the first message (the answer to `initialize`) goes out, by then
    // the server's start has run; what is compiled later is written at exit.
    const stdout = process.stdout;
    const writeOut = stdout.write;
    stdout.write = function (...args) {
      stdout.write = writeOut;
      flush();
      return writeOut.apply(this, args);
    };
    process.once('exit', flush);
  }
}
