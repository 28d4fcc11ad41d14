// agx for VS Code: agx's MCP servers through VS Code's server-definition provider API, so
// no mcp.json is edited (docs/vscode.md in the agx repository).

import * as vscode from "vscode";

import { installServer, runDoctor, showServerInfo } from "./commands";
import { AgxServerProvider } from "./provider";

export function activate(context: vscode.ExtensionContext): AgxServerProvider {
  const log = vscode.window.createOutputChannel("agx");
  const provider = new AgxServerProvider(log);
  context.subscriptions.push(
    log,
    provider,
    // Registered before activate returns, so VS Code can cache the servers (the API asks this).
    vscode.lm.registerMcpServerDefinitionProvider("agx", provider),
    vscode.commands.registerCommand("agx.installServer", () => installServer(provider, log)),
    vscode.commands.registerCommand("agx.showServerInfo", () => showServerInfo(provider, log)),
    vscode.commands.registerCommand("agx.runDoctor", () => runDoctor(provider, log)),
  );
  return provider;
}

export function deactivate(): void {}
