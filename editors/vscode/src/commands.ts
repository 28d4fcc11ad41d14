// The commands of the command palette: install a server, show a server's details, run doctor.

import * as vscode from "vscode";

import { AgxFailed, agxJson, errorText, runAgx, type SearchResults } from "./agx";
import type { AgxServerProvider } from "./provider";

/** "agx: Install MCP server…": search the configured sources, pick a package, install it. */
export async function installServer(provider: AgxServerProvider, log: vscode.OutputChannel): Promise<void> {
  const agx = provider.agx();
  if (agx === undefined) {
    return;
  }
  const words = await vscode.window.showInputBox({
    title: "agx: Install MCP server",
    prompt: "Words to search agx's configured registries for (names, descriptions, tools)",
    ignoreFocusOut: true,
    validateInput: (text) => (text.trim() === "" ? "Type a word to search for" : undefined),
  });
  if (words === undefined) {
    return;
  }
  let found: SearchResults;
  try {
    found = await agxJson<SearchResults>(agx, ["search", ...words.trim().split(/\s+/), "--json"]);
  } catch (e) {
    if (!(e instanceof AgxFailed)) {
      throw e;
    }
    void vscode.window.showErrorMessage(`agx: the search failed: ${e.message}`);
    return;
  }
  if (found.results.length === 0) {
    void vscode.window.showInformationMessage(`agx: nothing matches "${words.trim()}"`);
    return;
  }
  const picked = await vscode.window.showQuickPick(
    found.results.map((result) => ({
      label: result.name,
      description: result.version,
      detail: [result.description, result.registry].filter((part) => part).join(" — "),
      result,
    })),
    { title: "agx: Install MCP server", placeHolder: "The package to install", matchOnDescription: true, matchOnDetail: true },
  );
  if (picked === undefined) {
    return;
  }
  // From the source it was found in, whichever registry is the default.
  const args = ["--registry", picked.result.registry, "install", picked.result.name];
  log.appendLine(`$ agx ${args.join(" ")}`);
  const run = await runAgx(agx, args);
  log.append(run.stdout + run.stderr);
  if (run.code !== 0) {
    void vscode.window.showErrorMessage(`agx: installing ${picked.result.name} failed: ${errorText(run, args)}`);
    return;
  }
  provider.refresh();
  void vscode.window.showInformationMessage(`agx: installed ${picked.result.name}; its servers are listed in VS Code's MCP servers`);
}

/** "agx: Show server info": `agx info` of one of the provided servers, in the output channel. */
export async function showServerInfo(provider: AgxServerProvider, log: vscode.OutputChannel): Promise<void> {
  const agx = provider.agx();
  if (agx === undefined) {
    return;
  }
  await provider.definitions();
  const servers = [...provider.provided().entries()].map(([label, launch]) => ({
    label,
    description: launch.version,
    detail: launch.project === undefined ? "installed for you" : `pinned by ${launch.project}`,
    launch,
  }));
  if (servers.length === 0) {
    void vscode.window.showInformationMessage("agx: no server is installed yet (agx: Install MCP server… adds one)");
    return;
  }
  const picked = await vscode.window.showQuickPick(servers, { title: "agx: Show server info", placeHolder: "The server to describe" });
  if (picked === undefined) {
    return;
  }
  await runInto(log, agx, ["info", picked.launch.server], picked.launch.project);
}

/** "agx: Run doctor": `agx doctor` (drift between client files, entries and the store). */
export async function runDoctor(provider: AgxServerProvider, log: vscode.OutputChannel): Promise<void> {
  const agx = provider.agx();
  if (agx !== undefined) {
    // Exit code 1 means problems remain: they are in the output, not an error of the run.
    await runInto(log, agx, ["doctor"], undefined, [0, 1]);
  }
}

/** Runs agx, shows what it printed in the output channel, and reports a failure. */
async function runInto(log: vscode.OutputChannel, agx: string, args: string[], cwd?: string, ok: number[] = [0]): Promise<void> {
  log.appendLine(`$ agx ${args.join(" ")}`);
  const run = await runAgx(agx, args, { cwd });
  log.append(run.stdout + run.stderr);
  log.show(true);
  if (run.code === null || !ok.includes(run.code)) {
    void vscode.window.showErrorMessage(`agx ${args[0]} failed: ${errorText(run, args)}`);
  }
}
