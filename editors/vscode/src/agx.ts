// Running the agx program: where it is, and what its commands print (shapes in docs/json.md).

import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** What one run of agx gave back. */
export interface AgxRun {
  /** The exit code (null when a signal ended it). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** agx could not be found where the setting (or PATH) says. */
export class AgxMissing extends Error {
  constructor(
    message: string,
    readonly configured: boolean,
  ) {
    super(message);
  }
}

/** agx ran but failed; `message` is agx's own error text (what, where, and the hint). */
export class AgxFailed extends Error {}

/**
 * The absolute path of agx: the `agx.path` setting when given (relative to nothing: it must
 * be absolute or a bare name looked up on PATH), else `agx` on PATH. VS Code starts the
 * servers with this exact path, so a server runs the same agx the list came from.
 */
export function findAgx(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const wanted = configured?.trim() || "agx";
  if (path.isAbsolute(wanted)) {
    if (isExecutable(wanted)) {
      return wanted;
    }
    throw new AgxMissing(`agx was not found at ${wanted} (the agx.path setting)`, true);
  }
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter((d) => d !== "")) {
    for (const name of candidates(wanted, env)) {
      const full = path.resolve(dir, name);
      if (isExecutable(full)) {
        return full;
      }
    }
  }
  throw new AgxMissing(`${wanted} was not found on PATH`, configured?.trim() ? true : false);
}

/** The file names a bare command may have: Windows adds the PATHEXT extensions. */
function candidates(name: string, env: NodeJS.ProcessEnv): string[] {
  if (process.platform === "win32") {
    const exts = (env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";").filter((e) => e !== "");
    return [name, ...exts.map((e) => name + e.toLowerCase())];
  }
  return [name];
}

function isExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) {
      return false;
    }
    // Windows has no execute bit: a file with a PATHEXT extension is a program.
    fs.accessSync(file, process.platform === "win32" ? fs.constants.F_OK : fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface RunOptions {
  cwd?: string;
  /** Written to agx's standard input (for `agx config set … --stdin`), then closed. */
  stdin?: string;
  /** Ends the run (SIGTERM) when it fires. */
  signal?: AbortSignal;
}

/** Runs `agx args…` without a shell; never throws for a non-zero exit. */
export function runAgx(agx: string, args: string[], options: RunOptions = {}): Promise<AgxRun> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      agx,
      args,
      {
        cwd: options.cwd,
        // agx prints progress bars and colours only on a terminal; say so all the same.
        env: { ...process.env, NO_COLOR: "1", AGX_NO_PROGRESS: "1" },
        maxBuffer: 64 * 1024 * 1024,
        signal: options.signal,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") {
          // It did not run at all (removed meanwhile, or cancelled).
          reject(error);
          return;
        }
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
    // A child that exits without reading its input (agx refusing its arguments) closes the
    // pipe: its exit code and message report that, not the write's EPIPE.
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(options.stdin);
  });
}

/** Runs `agx args…` and parses what it prints as JSON; an AgxFailed with agx's error text. */
export async function agxJson<T>(agx: string, args: string[], options: RunOptions = {}): Promise<T> {
  const run = await runAgx(agx, args, options);
  if (run.code !== 0) {
    throw new AgxFailed(errorText(run, args));
  }
  try {
    return JSON.parse(run.stdout) as T;
  } catch (e) {
    throw new AgxFailed(`agx ${args.join(" ")} printed no JSON (${String(e)}): is ${agx} an old agx?`);
  }
}

/** agx's error message (it ends with its hint), or the exit code when it printed none. */
export function errorText(run: AgxRun, args: string[]): string {
  const text = run.stderr.trim();
  return text !== "" ? text : `agx ${args.join(" ")} failed with exit code ${run.code}`;
}

// The JSON shapes this extension reads (docs/json.md); only the fields it uses.

/** `agx list --servers --json`. */
export interface ServerList {
  servers: { name: string; package: string; version: string; roots: string[] }[];
  /** The folder whose changes mean installs changed. */
  receipts: string;
}

/** `agx tree --json`: one per server key of the project's agx.lock. */
export type ProjectTree = {
  key: string;
  launches: string;
  args: string[];
  enabled: boolean;
  package: { name: string; version: string };
}[];

/** A declared setting in `agx info PKG --json`. */
export interface SettingInfo {
  key: string;
  description?: string;
  type: "string" | "number" | "boolean" | "path";
  secret: boolean;
  required: boolean;
  enum?: string[];
  source: { kind: "env" | "stored" | "default" | "unset" };
}

/**
 * Why `text` is not a value of `setting` (as `agx config set` would refuse it), or
 * undefined when it is one.
 */
export function invalidValue(setting: SettingInfo, text: string): string | undefined {
  if (text === "") {
    return `${setting.key} is required: type a value, or press Escape to not start the server`;
  }
  if (setting.enum !== undefined && !setting.enum.includes(text)) {
    return `${setting.key} must be one of: ${setting.enum.join(", ")}`;
  }
  switch (setting.type) {
    case "number":
      return text.trim() !== "" && Number.isFinite(Number(text)) ? undefined : `${setting.key} is a number, such as 3 or 2.5`;
    case "boolean":
      return text === "true" || text === "false" ? undefined : `${setting.key} is true or false`;
    default:
      return undefined;
  }
}

/** `agx info PKG --json`. */
export interface PackageInfo {
  name: string;
  installed_versions?: { version: string; roots: string[] }[];
  settings: SettingInfo[];
}

/** `agx search WORDS --json`. */
export interface SearchResults {
  results: { name: string; version: string; description?: string; kind: string; registry: string }[];
}
