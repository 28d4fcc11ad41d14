// Loads the compiled extension unmodified, with `require("vscode")` answered by the fake,
// in a temporary HOME and AGX_HOME, against the real agx binary.

import * as fs from "node:fs";
import Module = require("node:module");
import * as os from "node:os";
import * as path from "node:path";
import type * as vscode from "vscode";

import { runAgx } from "../src/agx";
import type * as extension from "../src/extension";
import type { AgxServerProvider } from "../src/provider";
import * as fake from "./fake-vscode";

type Resolve = (request: string, ...rest: unknown[]) => string;
const moduleInternals = Module as unknown as { _resolveFilename: Resolve };
const resolveFilename = moduleInternals._resolveFilename;
const fakePath = require.resolve("./fake-vscode");
moduleInternals._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
  return request === "vscode" ? fakePath : resolveFilename.call(this, request, ...rest);
};

/** The repository: out/test/ is three levels below editors/vscode/.. */
export const REPO = path.resolve(__dirname, "../../../..");

/** The agx binary under test: AGX_BIN, else the debug build. */
export const AGX = fs.realpathSync(
  process.env.AGX_BIN ?? path.join(REPO, "target", "debug", process.platform === "win32" ? "agx.exe" : "agx"),
);

export const { testControl } = fake;

/** A cancellation token that is never cancelled. */
export const NEVER: vscode.CancellationToken = {
  isCancellationRequested: false,
  onCancellationRequested: () => ({ dispose: () => undefined }),
};

/** One test's world: a fresh HOME and AGX_HOME, the extension activated in it. */
export class World {
  readonly root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agx-vscode-test-")));
  readonly home = path.join(this.root, "home");
  readonly agxHome = path.join(this.root, "agx-home");
  readonly provider: AgxServerProvider;
  private readonly context = { subscriptions: [] as { dispose(): unknown }[] };
  private readonly savedEnv = { ...process.env };

  /** `pathHasAgx`: agx is found on PATH (else only through the agx.path setting, if set). */
  constructor(options: { pathHasAgx?: boolean; agxPath?: string } = {}) {
    fs.mkdirSync(this.home);
    testControl.reset();
    // agx and everything it starts see only the temporary folders; secrets go to a file.
    process.env.HOME = this.home;
    process.env.USERPROFILE = this.home;
    process.env.AGX_HOME = this.agxHome;
    process.env.AGX_KEYRING = "file";
    process.env.AGX_REGISTRY = path.join(REPO, "registry-fixtures", "registry");
    // Never the real MCP Registry from a test (AGX_REGISTRY already replaces every source).
    process.env.AGX_OFFICIAL_REGISTRY = "off";
    for (const name of ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "AGX_PROJECT"]) {
      delete process.env[name];
    }
    const others = (this.savedEnv.PATH ?? "")
      .split(path.delimiter)
      .filter((dir) => dir !== "" && !fs.existsSync(path.join(dir, path.basename(AGX))));
    process.env.PATH = [...(options.pathHasAgx ? [path.dirname(AGX)] : []), ...others].join(path.delimiter);
    if (options.agxPath !== undefined) {
      testControl.configuration.set("agx.path", options.agxPath);
    }
    // Loaded once per test file; `activate` is what VS Code calls.
    const ext = require("../src/extension") as typeof extension;
    this.provider = ext.activate(this.context as unknown as vscode.ExtensionContext);
  }

  /** The provider as VS Code sees it: the one registered under the contributed id. */
  get registered(): vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> {
    const provider = testControl.providers.get("agx");
    if (provider === undefined) {
      throw new Error("the extension registered no provider with id agx");
    }
    return provider as vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>;
  }

  async provide(): Promise<vscode.McpStdioServerDefinition[]> {
    return (await this.registered.provideMcpServerDefinitions(NEVER)) ?? [];
  }

  /** Runs the real agx as a user would in a terminal; fails the test when it fails. */
  async agx(args: string[], cwd?: string, stdin?: string): Promise<string> {
    const run = await runAgx(AGX, args, { cwd, stdin });
    if (run.code !== 0) {
      throw new Error(`agx ${args.join(" ")} failed (${run.code}):\n${run.stdout}${run.stderr}`);
    }
    return run.stdout;
  }

  /**
   * Runs `change` and waits until the provider fires its change event after which `until`
   * holds for the provided servers (VS Code lists again on every event).
   */
  async changeAndWait(
    change: () => Promise<unknown>,
    until: (servers: vscode.McpStdioServerDefinition[]) => boolean,
  ): Promise<vscode.McpStdioServerDefinition[]> {
    const event = this.registered.onDidChangeMcpServerDefinitions;
    if (event === undefined) {
      throw new Error("the provider has no onDidChangeMcpServerDefinitions");
    }
    let notify = () => {};
    let fired = 0;
    const subscription = event(() => {
      fired += 1;
      notify();
    });
    try {
      await change();
      for (;;) {
        if (fired === 0) {
          await new Promise<void>((resolve) => (notify = resolve));
        }
        fired = 0;
        const servers = await this.provide();
        if (until(servers)) {
          return servers;
        }
      }
    } finally {
      subscription.dispose();
    }
  }

  dispose(): void {
    for (const d of this.context.subscriptions) {
      d.dispose();
    }
    for (const key of Object.keys(process.env)) {
      if (!(key in this.savedEnv)) {
        delete process.env[key];
      }
    }
    Object.assign(process.env, this.savedEnv);
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
