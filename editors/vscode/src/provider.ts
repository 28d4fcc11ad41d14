// The MCP server-definition provider: agx's installed servers (and a workspace project's
// locked ones) as VS Code MCP servers, each started as `agx serve REF`.

import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";

import {
  AgxFailed,
  AgxMissing,
  agxJson,
  errorText,
  findAgx,
  invalidValue,
  type PackageInfo,
  type ProjectTree,
  runAgx,
  type ServerList,
} from "./agx";
import { Debouncer, FolderWatch } from "./watch";

/** The files of a workspace folder that change which project servers it has. */
const PROJECT_FILES = ["agx.lock", "agx.toml", "agx.local.toml"];

/** How long a burst of file changes (an install writes several) is waited out. */
const DEBOUNCE_MS = 300;

/** What a provided definition launches: `resolve` gets the definition back by its label. */
export interface Launch {
  /** The qualified server (`publisher/package/server`). */
  server: string;
  package: string;
  version: string;
  /** The workspace folder whose agx.lock pins it; absent for the user's installs. */
  project?: string;
}

export class AgxServerProvider
  implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>, vscode.Disposable
{
  private readonly changes = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions: vscode.Event<void> = this.changes.event;
  private readonly debounce = new Debouncer(DEBOUNCE_MS, () => this.changes.fire());
  private receiptsWatch: FolderWatch | undefined;
  private projectWatches: FolderWatch[] = [];
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The "agx not found" notification is shown once, until agx is found again. */
  private missingShown = false;
  /** The definitions last provided, by label. */
  private launches = new Map<string, Launch>();

  constructor(private readonly log: vscode.OutputChannel) {
    this.watchProjects();
    this.subscriptions.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watchProjects();
        this.debounce.trigger();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("agx.path")) {
          this.missingShown = false;
          this.debounce.trigger();
        }
      }),
    );
  }

  /** What the last list provided: label to what it launches. */
  provided(): ReadonlyMap<string, Launch> {
    return this.launches;
  }

  /** Asks VS Code to list the servers again (after the install command, say). */
  refresh(): void {
    this.debounce.trigger();
  }

  /**
   * The agx program, or undefined after telling the user (once) how to get it. Never asks
   * anything: VS Code calls the provider eagerly.
   */
  agx(): string | undefined {
    const configured = vscode.workspace.getConfiguration("agx").get<string>("path");
    try {
      const found = findAgx(configured);
      this.missingShown = false;
      return found;
    } catch (e) {
      if (!(e instanceof AgxMissing)) {
        throw e;
      }
      this.log.appendLine(`agx: ${e.message}`);
      if (!this.missingShown) {
        this.missingShown = true;
        const fix = e.configured
          ? "Correct the agx.path setting, or clear it to use agx from PATH."
          : "Install agx (`cargo install --path .` in a clone of the agx repository) and restart VS Code, or set agx.path to the agx program.";
        void vscode.window.showErrorMessage(`agx: ${e.message}, so its MCP servers are not listed. ${fix}`);
      }
      return undefined;
    }
  }

  provideMcpServerDefinitions(token: vscode.CancellationToken): Promise<vscode.McpStdioServerDefinition[]> {
    return this.definitions(abortSignal(token));
  }

  /** The servers to provide, asked of agx now; `provided()` then describes them. */
  async definitions(signal?: AbortSignal): Promise<vscode.McpStdioServerDefinition[]> {
    const agx = this.agx();
    if (agx === undefined) {
      this.launches = new Map();
      return [];
    }
    const definitions: vscode.McpStdioServerDefinition[] = [];
    const launches = new Map<string, Launch>();
    const add = (definition: vscode.McpStdioServerDefinition, launch: Launch): void => {
      definitions.push(definition);
      launches.set(definition.label, launch);
    };

    // A project's pinned servers first: in its workspace, they win over the user's version.
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const dir = folder.uri.fsPath;
      if (!fs.existsSync(path.join(dir, "agx.lock"))) {
        continue;
      }
      try {
        const tree = await agxJson<ProjectTree>(agx, ["tree", "--json", "--project", dir], { cwd: dir, signal });
        for (const key of tree) {
          if (!key.enabled || launches.has(key.launches)) {
            continue;
          }
          const definition = new vscode.McpStdioServerDefinition(key.launches, agx, key.args, {}, key.package.version);
          // agx serve finds the project (and its setting values) from its folder.
          definition.cwd = folder.uri;
          add(definition, { server: key.launches, package: key.package.name, version: key.package.version, project: dir });
        }
      } catch (e) {
        if (!(e instanceof AgxFailed)) {
          throw e;
        }
        this.log.appendLine(`agx: the servers of the project in ${dir} are left out:\n${e.message}`);
      }
    }

    let list: ServerList;
    try {
      list = await agxJson<ServerList>(agx, ["list", "--servers", "--json"], { signal });
      if (typeof list.receipts !== "string" || list.servers.some((s) => !Array.isArray(s.roots))) {
        throw new AgxFailed(`${agx} is older than this extension (its list has no receipts or roots): update agx`);
      }
    } catch (e) {
      if (!(e instanceof AgxFailed)) {
        throw e;
      }
      this.log.appendLine(`agx: cannot list the installed servers:\n${e.message}`);
      this.launches = launches;
      return definitions;
    }
    this.watchReceipts(list.receipts);
    for (const server of list.servers) {
      // Versions that only projects hold are provided in those projects' workspaces.
      if (!server.roots.includes("user") || launches.has(server.name)) {
        continue;
      }
      const definition = new vscode.McpStdioServerDefinition(server.name, agx, ["serve", server.name], {}, server.version);
      add(definition, { server: server.name, package: server.package, version: server.version });
    }
    this.launches = launches;
    return definitions;
  }

  /**
   * Before VS Code starts a server: asks for each required setting that has no value, and
   * stores it in agx (`agx config set … --stdin`: secrets in agx's secret store), never in
   * the definition. Undefined (the server is not started) when the user cancels.
   */
  async resolveMcpServerDefinition(
    server: vscode.McpStdioServerDefinition,
    token: vscode.CancellationToken,
  ): Promise<vscode.McpStdioServerDefinition | undefined> {
    const signal = abortSignal(token);
    if (!this.launches.has(server.label)) {
      // A definition VS Code kept from an earlier session: ask agx what it launches now.
      await this.definitions(signal);
    }
    const launch = this.launches.get(server.label);
    const agx = this.agx();
    if (launch === undefined || agx === undefined) {
      if (agx !== undefined) {
        void vscode.window.showErrorMessage(`agx: ${server.label} is no longer installed (agx list --servers shows what is).`);
      }
      return undefined;
    }
    let info: PackageInfo;
    try {
      info = await agxJson<PackageInfo>(agx, ["info", launch.package, "--json"], { cwd: launch.project, signal });
    } catch (e) {
      if (!(e instanceof AgxFailed)) {
        throw e;
      }
      void vscode.window.showErrorMessage(`agx: cannot start ${server.label}: ${e.message}`);
      return undefined;
    }
    if (launch.project !== undefined && !info.installed_versions?.some((v) => v.version === launch.version)) {
      void vscode.window.showErrorMessage(
        `agx: ${launch.package} ${launch.version}, which ${path.join(launch.project, "agx.lock")} pins, is not installed. Run \`agx sync\` in ${launch.project}.`,
      );
      return undefined;
    }
    for (const setting of info.settings.filter((s) => s.required && s.source.kind === "unset")) {
      const value = await vscode.window.showInputBox(
        {
          title: `${server.label}: ${setting.key}`,
          prompt: `${setting.description ?? setting.key} — required by ${launch.package}; agx keeps it${setting.secret ? " as a secret" : ""} for every client`,
          password: setting.secret,
          placeHolder: setting.enum?.join(" | "),
          ignoreFocusOut: true,
          validateInput: (text) => invalidValue(setting, text),
        },
        token,
      );
      if (value === undefined || token.isCancellationRequested) {
        this.log.appendLine(`agx: ${server.label} not started: no value was given for ${setting.key}`);
        return undefined;
      }
      const args = ["config", "set", launch.package, setting.key, "--stdin"];
      const run = await runAgx(agx, args, { stdin: value, cwd: launch.project });
      if (run.code !== 0) {
        void vscode.window.showErrorMessage(`agx: cannot store ${setting.key} of ${launch.package}: ${errorText(run, args)}`);
        return undefined;
      }
    }
    return server;
  }

  /** Fires the change event when an install, update or uninstall rewrites a receipt. */
  private watchReceipts(receipts: string): void {
    if (this.receiptsWatch?.folder === receipts) {
      return;
    }
    this.receiptsWatch?.dispose();
    this.receiptsWatch = new FolderWatch(receipts, true, () => this.debounce.trigger());
  }

  /** Fires the change event when a workspace folder's agx.lock (or agx.toml) changes. */
  private watchProjects(): void {
    for (const watch of this.projectWatches) {
      watch.dispose();
    }
    this.projectWatches = (vscode.workspace.workspaceFolders ?? []).map(
      (folder) =>
        new FolderWatch(folder.uri.fsPath, false, () => this.debounce.trigger(), (name) => PROJECT_FILES.includes(name)),
    );
  }

  dispose(): void {
    this.receiptsWatch?.dispose();
    for (const watch of this.projectWatches) {
      watch.dispose();
    }
    for (const s of this.subscriptions) {
      s.dispose();
    }
    this.debounce.dispose();
    this.changes.dispose();
  }
}

/** An AbortSignal that ends agx's runs when VS Code cancels the request. */
function abortSignal(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) {
    controller.abort();
  } else {
    token.onCancellationRequested(() => controller.abort());
  }
  return controller.signal;
}
