// A stand-in for the `vscode` module (VS Code itself cannot run here): exactly the API the
// extension uses, following the declarations of @types/vscode (the types below are checked
// against them), plus `testControl` for the tests to answer prompts and read what was shown.
// test/harness.ts makes `require("vscode")` load this file.

import * as path from "node:path";
import type * as vscode from "vscode";

type Listener<T> = (e: T) => unknown;

function disposable(dispose: () => void): vscode.Disposable {
  return { dispose };
}

export class EventEmitter<T> implements vscode.EventEmitter<T> {
  private listeners: Listener<T>[] = [];

  event: vscode.Event<T> = (listener, thisArgs?, disposables?) => {
    const bound: Listener<T> = (e) => listener.call(thisArgs, e);
    this.listeners.push(bound);
    const d = disposable(() => {
      this.listeners = this.listeners.filter((l) => l !== bound);
    });
    disposables?.push(d);
    return d;
  };

  fire(data: T): void {
    for (const listener of [...this.listeners]) {
      listener(data);
    }
  }

  dispose(): void {
    this.listeners = [];
  }
}

/** `vscode.Uri`, for `file:` URIs only (all the extension makes or reads). */
export class Uri {
  readonly scheme = "file";
  readonly authority = "";
  readonly query = "";
  readonly fragment = "";

  private constructor(readonly fsPath: string) {}

  get path(): string {
    return this.fsPath.split(path.sep).join("/");
  }

  static file(p: string): Uri {
    return new Uri(path.resolve(p));
  }

  toString(): string {
    return `file://${this.path}`;
  }
}

export class McpStdioServerDefinition implements vscode.McpStdioServerDefinition {
  cwd?: vscode.Uri;
  args: string[];
  env: Record<string, string | number | null>;

  constructor(
    readonly label: string,
    public command: string,
    args?: string[],
    env?: Record<string, string | number | null>,
    public version?: string,
  ) {
    this.args = args ?? [];
    this.env = env ?? {};
  }
}

/** What the extension showed, and the answers the test gives. */
export const testControl = {
  providers: new Map<string, vscode.McpServerDefinitionProvider>(),
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  /** `showInputBox` calls, in order, with the answer each got. */
  inputBoxes: [] as { options: vscode.InputBoxOptions | undefined; answer: string | undefined }[],
  /** Answers `showInputBox` (undefined: the user pressed Escape). */
  answerInputBox: (_options: vscode.InputBoxOptions | undefined): string | undefined => undefined,
  quickPicks: [] as { items: vscode.QuickPickItem[]; options: vscode.QuickPickOptions | undefined }[],
  /** Picks from `showQuickPick`'s items (undefined: Escape). */
  answerQuickPick: (_items: vscode.QuickPickItem[]): vscode.QuickPickItem | undefined => undefined,
  errors: [] as string[],
  infos: [] as string[],
  /** Everything written to each output channel, by name. */
  output: new Map<string, string>(),
  configuration: new Map<string, unknown>(),
  workspaceFolders: undefined as vscode.WorkspaceFolder[] | undefined,
  workspaceFoldersChanged: new EventEmitter<vscode.WorkspaceFoldersChangeEvent>(),
  configurationChanged: new EventEmitter<vscode.ConfigurationChangeEvent>(),

  /** Sets the workspace's folders and tells the extension, as VS Code does. */
  setWorkspaceFolders(dirs: string[]): void {
    const before = this.workspaceFolders ?? [];
    const after = dirs.map((dir, index) => ({ uri: Uri.file(dir) as unknown as vscode.Uri, name: path.basename(dir), index }));
    this.workspaceFolders = after.length > 0 ? after : undefined;
    this.workspaceFoldersChanged.fire({ added: after, removed: before });
  },

  /** Sets `section.key` (as `settings.json` would) and tells the extension. */
  setConfiguration(key: string, value: unknown): void {
    this.configuration.set(key, value);
    this.configurationChanged.fire({ affectsConfiguration: (section: string) => key === section || key.startsWith(`${section}.`) });
  },

  reset(): void {
    this.providers.clear();
    this.commands.clear();
    this.inputBoxes = [];
    this.answerInputBox = () => undefined;
    this.quickPicks = [];
    this.answerQuickPick = () => undefined;
    this.errors = [];
    this.infos = [];
    this.output.clear();
    this.configuration.clear();
    this.workspaceFolders = undefined;
  },
};

export const lm: Pick<typeof vscode.lm, "registerMcpServerDefinitionProvider"> = {
  registerMcpServerDefinitionProvider(id, provider) {
    if (testControl.providers.has(id)) {
      throw new Error(`an MCP server-definition provider with id ${id} is registered already`);
    }
    testControl.providers.set(id, provider);
    return disposable(() => testControl.providers.delete(id));
  },
};

export const commands: Pick<typeof vscode.commands, "registerCommand"> = {
  registerCommand(command, callback, thisArg?) {
    if (testControl.commands.has(command)) {
      throw new Error(`command '${command}' already exists`);
    }
    testControl.commands.set(command, (...args) => callback.apply(thisArg, args));
    return disposable(() => testControl.commands.delete(command));
  },
};

async function showInputBox(options?: vscode.InputBoxOptions, token?: vscode.CancellationToken): Promise<string | undefined> {
  if (token?.isCancellationRequested) {
    return undefined;
  }
  const answer = testControl.answerInputBox(options);
  // VS Code does not accept a value that validateInput refuses: the tests type only valid ones.
  if (answer !== undefined && options?.validateInput) {
    const problem = await options.validateInput(answer);
    if (problem) {
      throw new Error(`the fake input box was answered with a value its validation refuses: ${JSON.stringify(problem)}`);
    }
  }
  testControl.inputBoxes.push({ options, answer });
  return answer;
}

async function showQuickPick<T extends vscode.QuickPickItem>(
  items: readonly T[] | Thenable<readonly T[]>,
  options?: vscode.QuickPickOptions,
): Promise<T | undefined> {
  const all = [...(await items)];
  testControl.quickPicks.push({ items: all, options });
  return testControl.answerQuickPick(all) as T | undefined;
}

async function showErrorMessage(message: string): Promise<undefined> {
  testControl.errors.push(message);
  return undefined;
}

async function showInformationMessage(message: string): Promise<undefined> {
  testControl.infos.push(message);
  return undefined;
}

function createOutputChannel(name: string): Pick<vscode.OutputChannel, "name" | "append" | "appendLine" | "show" | "dispose"> {
  testControl.output.set(name, "");
  const write = (text: string) => testControl.output.set(name, (testControl.output.get(name) ?? "") + text);
  return {
    name,
    append: write,
    appendLine: (line: string) => write(`${line}\n`),
    show: () => undefined,
    dispose: () => undefined,
  };
}

export const window = {
  showInputBox: showInputBox as typeof vscode.window.showInputBox,
  showQuickPick: showQuickPick as typeof vscode.window.showQuickPick,
  showErrorMessage: showErrorMessage as typeof vscode.window.showErrorMessage,
  showInformationMessage: showInformationMessage as typeof vscode.window.showInformationMessage,
  createOutputChannel: createOutputChannel as unknown as typeof vscode.window.createOutputChannel,
};

export const workspace = {
  get workspaceFolders(): readonly vscode.WorkspaceFolder[] | undefined {
    return testControl.workspaceFolders;
  },
  getConfiguration(section?: string): Pick<vscode.WorkspaceConfiguration, "get"> {
    return {
      get: <T>(key: string, defaultValue?: T) => {
        const full = section ? `${section}.${key}` : key;
        return testControl.configuration.has(full) ? (testControl.configuration.get(full) as T) : defaultValue;
      },
    };
  },
  onDidChangeWorkspaceFolders: testControl.workspaceFoldersChanged.event,
  onDidChangeConfiguration: testControl.configurationChanged.event,
};
