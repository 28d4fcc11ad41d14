// The extension against the real agx (target/debug/agx, or AGX_BIN), in a temporary HOME and
// AGX_HOME, with the fixture registry (registry-fixtures/registry).

import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, test } from "node:test";
import type * as vscode from "vscode";

// First: it makes `require("vscode")` load the fake.
import { AGX, NEVER, testControl, World } from "./harness";
import { invalidValue } from "../src/agx";

// A guard against a hang (an event that never comes), not a timing assertion.
const GUARD = { timeout: 120_000 };

let world: World | undefined;
afterEach(() => {
  world?.dispose();
  world = undefined;
});

function byLabel(servers: vscode.McpStdioServerDefinition[], label: string): vscode.McpStdioServerDefinition | undefined {
  return servers.find((s) => s.label === label);
}

test("installing a package fires the change event and adds its servers; an update changes the version", GUARD, async () => {
  world = new World({ pathHasAgx: true });
  const w = world;
  assert.deepEqual(await w.provide(), [], "nothing installed yet");

  const servers = await w.changeAndWait(
    () => w.agx(["install", "acme/weather@=1.1.0"]),
    (list) => byLabel(list, "acme/weather/forecast") !== undefined,
  );
  const forecast = byLabel(servers, "acme/weather/forecast")!;
  assert.equal(forecast.command, AGX, "agx's absolute path, found on PATH");
  assert.deepEqual(forecast.args, ["serve", "acme/weather/forecast"]);
  assert.equal(forecast.version, "1.1.0");
  assert.equal(forecast.cwd, undefined);
  assert.deepEqual(forecast.env, {});
  assert.ok(byLabel(servers, "acme/geo/geo"), "a dependency's server is installed too");
  assert.deepEqual(testControl.errors, []);
  assert.deepEqual(testControl.inputBoxes, [], "listing never prompts");

  // A new version changes `version`, which makes VS Code refresh the server's tools.
  const updated = await w.changeAndWait(
    () => w.agx(["install", "acme/weather@=1.2.0"]),
    (list) => byLabel(list, "acme/weather/forecast")?.version === "1.2.0",
  );
  assert.deepEqual(byLabel(updated, "acme/weather/forecast")!.args, ["serve", "acme/weather/forecast"]);

  // And an uninstall takes it away.
  await w.changeAndWait(
    () => w.agx(["uninstall", "acme/weather"]),
    (list) => byLabel(list, "acme/weather/forecast") === undefined,
  );
});

test("a project workspace provides its locked versions, started in the project folder", GUARD, async () => {
  world = new World({ agxPath: AGX });
  const w = world;
  await w.agx(["install", "acme/weather"]); // the user's own: 1.2.0
  const project = path.join(w.home, "repo");
  fs.mkdirSync(project);
  fs.writeFileSync(
    path.join(project, "agx.toml"),
    '[servers]\nweather = { server = "acme/weather/forecast", version = "~1.1" }\n',
  );
  await w.agx(["sync"], project);
  testControl.setWorkspaceFolders([project]);

  const servers = await w.provide();
  const forecast = servers.filter((s) => s.label === "acme/weather/forecast");
  assert.equal(forecast.length, 1, "the project's pin replaces the user's version in its workspace");
  assert.deepEqual(forecast[0].args, ["serve", "acme/weather/forecast@=1.1.0"]);
  assert.equal(forecast[0].version, "1.1.0");
  assert.equal(forecast[0].cwd?.fsPath, project);
  assert.equal(forecast[0].command, AGX, "the agx.path setting");
  assert.ok(byLabel(servers, "acme/geo/geo"), "the user's other servers stay");

  // Moving the pin rewrites agx.lock: the change event fires and the new version is provided.
  const moved = await w.changeAndWait(
    async () => {
      fs.writeFileSync(
        path.join(project, "agx.toml"),
        '[servers]\nweather = { server = "acme/weather/forecast", version = "~1.2" }\n',
      );
      await w.agx(["sync"], project);
    },
    (list) => byLabel(list, "acme/weather/forecast")?.version === "1.2.0",
  );
  assert.deepEqual(byLabel(moved, "acme/weather/forecast")!.args, ["serve", "acme/weather/forecast@=1.2.0"]);
});

test("a locked version that is not installed yet is not started: the message names agx sync", GUARD, async () => {
  world = new World({ agxPath: AGX });
  const w = world;
  const project = path.join(w.home, "repo");
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, "agx.toml"), '[servers]\nweather = { server = "acme/weather/forecast", version = "~1.1" }\n');
  await w.agx(["lock"], project); // locked, never synced
  testControl.setWorkspaceFolders([project]);
  const forecast = byLabel(await w.provide(), "acme/weather/forecast")!;
  assert.equal(forecast.version, "1.1.0");

  assert.equal(await w.registered.resolveMcpServerDefinition!(forecast, NEVER), undefined);
  assert.equal(testControl.errors.length, 1);
  assert.match(testControl.errors[0], /acme\/weather 1\.1\.0, which .*agx\.lock pins, is not installed\. Run `agx sync` in /);
  assert.ok(testControl.errors[0].endsWith(`${project}.`), testControl.errors[0]);
});

test("resolving a server with a missing secret prompts for it, stores it in agx and returns the definition", GUARD, async () => {
  world = new World({ agxPath: AGX });
  const w = world;
  await w.agx(["install", "acme/quotes"]);
  const quotes = byLabel(await w.provide(), "acme/quotes/quotes")!;
  assert.ok(quotes);
  testControl.answerInputBox = () => "sk-test-canary-42";

  const resolved = await w.registered.resolveMcpServerDefinition!(quotes, NEVER);

  assert.equal(resolved, quotes, "the same definition, to start");
  assert.deepEqual(resolved!.env, {}, "the secret never goes into the definition");
  assert.equal(testControl.inputBoxes.length, 1, "one required setting has no value: api_key");
  const options = testControl.inputBoxes[0].options!;
  assert.equal(options.password, true);
  assert.match(options.title!, /acme\/quotes\/quotes: api_key/);
  assert.match(options.prompt!, /Acme market API key/);
  assert.equal(await w.agx(["config", "get", "acme/quotes", "api_key", "--reveal"]), "sk-test-canary-42\n");

  // Once set, resolving asks nothing.
  assert.equal(await w.registered.resolveMcpServerDefinition!(quotes, NEVER), quotes);
  assert.equal(testControl.inputBoxes.length, 1);
});

test("resolving a definition kept from an earlier session asks agx first; an uninstalled one is not started", GUARD, async () => {
  world = new World({ agxPath: AGX });
  const w = world;
  await w.agx(["install", "acme/quotes"]);
  const { McpStdioServerDefinition } = await import("./fake-vscode");
  const kept = new McpStdioServerDefinition("acme/quotes/quotes", AGX, ["serve", "acme/quotes/quotes"], {}, "1.0.0");
  testControl.answerInputBox = () => "sk-kept";
  assert.equal(await w.registered.resolveMcpServerDefinition!(kept, NEVER), kept, "no provide call came first");
  assert.equal(testControl.inputBoxes.length, 1, "the missing secret is still asked for");

  const gone = new McpStdioServerDefinition("acme/gone/gone", AGX, ["serve", "acme/gone/gone"], {}, "1.0.0");
  assert.equal(await w.registered.resolveMcpServerDefinition!(gone, NEVER), undefined);
  assert.match(testControl.errors.join("\n"), /acme\/gone\/gone is no longer installed/);
});

test("cancelling the prompt returns undefined and stores nothing", GUARD, async () => {
  world = new World({ agxPath: AGX });
  const w = world;
  await w.agx(["install", "acme/quotes"]);
  const quotes = byLabel(await w.provide(), "acme/quotes/quotes")!;
  testControl.answerInputBox = () => undefined;

  assert.equal(await w.registered.resolveMcpServerDefinition!(quotes, NEVER), undefined);
  assert.equal(testControl.inputBoxes.length, 1);
  const list = JSON.parse(await w.agx(["config", "list", "--json"]));
  const apiKey = list.packages[0].settings.find((s: { key: string }) => s.key === "api_key");
  assert.equal(apiKey.source.kind, "unset");
});

test("a server that needs nothing resolves without a prompt", GUARD, async () => {
  world = new World({ agxPath: AGX });
  const w = world;
  await w.agx(["install", "acme/weather"]);
  const forecast = byLabel(await w.provide(), "acme/weather/forecast")!;
  assert.equal(await w.registered.resolveMcpServerDefinition!(forecast, NEVER), forecast);
  assert.deepEqual(testControl.inputBoxes, []);
});

test("agx missing: a notification with the fix, once, and no servers", GUARD, async () => {
  world = new World({ pathHasAgx: false });
  const w = world;
  assert.deepEqual(await w.provide(), []);
  assert.equal(testControl.errors.length, 1);
  assert.match(testControl.errors[0], /agx was not found on PATH/);
  assert.match(testControl.errors[0], /cargo install --path \./);
  assert.match(testControl.errors[0], /agx\.path/);
  assert.deepEqual(await w.provide(), []);
  assert.equal(testControl.errors.length, 1, "not repeated on every listing");

  // A wrong agx.path names the setting; a right one lists again.
  testControl.setConfiguration("agx.path", path.join(w.root, "no-such-agx"));
  assert.deepEqual(await w.provide(), []);
  assert.equal(testControl.errors.length, 2);
  assert.match(testControl.errors[1], /no-such-agx \(the agx\.path setting\)/);
  testControl.setConfiguration("agx.path", AGX);
  await w.agx(["install", "acme/geo"], undefined);
  assert.ok(byLabel(await w.provide(), "acme/geo/geo"));
});

test("an agx older than the extension is named in the output channel, not half-listed", { ...GUARD, skip: process.platform === "win32" }, async () => {
  world = new World();
  const w = world;
  // What `agx list --servers --json` printed before it gave roots and receipts.
  const old = path.join(w.root, "old-agx");
  fs.writeFileSync(old, `#!/bin/sh\necho '{"servers":[{"name":"a/b/c","package":"a/b","version":"1.0.0","installed":true}]}'\n`, { mode: 0o755 });
  testControl.setConfiguration("agx.path", old);
  assert.deepEqual(await w.provide(), []);
  assert.match(testControl.output.get("agx")!, /old-agx is older than this extension .*: update agx/);
});

test("a setting's value is checked against its type and enum before agx gets it", () => {
  const setting = { key: "k", type: "number", secret: false, required: true, source: { kind: "unset" } } as const;
  assert.match(invalidValue(setting, "")!, /required/);
  assert.match(invalidValue(setting, "two")!, /number/);
  assert.equal(invalidValue(setting, "2.5"), undefined);
  assert.match(invalidValue({ ...setting, type: "boolean" }, "yes")!, /true or false/);
  assert.match(invalidValue({ ...setting, type: "string", enum: ["USD", "EUR"] }, "GBP")!, /one of: USD, EUR/);
  assert.equal(invalidValue({ ...setting, type: "string", enum: ["USD", "EUR"] }, "EUR"), undefined);
});

test("agx: Install MCP server… searches, installs the pick, and its servers appear", GUARD, async () => {
  world = new World({ agxPath: AGX });
  const w = world;
  await w.provide(); // VS Code lists at start: the receipts folder is watched from then on
  testControl.answerInputBox = () => "stock quotes";
  testControl.answerQuickPick = (items) => items.find((i) => i.label === "acme/quotes");

  const servers = await w.changeAndWait(
    async () => testControl.commands.get("agx.installServer")!(),
    (list) => byLabel(list, "acme/quotes/quotes") !== undefined,
  );
  assert.equal(byLabel(servers, "acme/quotes/quotes")!.version, "1.0.0");
  assert.equal(testControl.quickPicks.length, 1);
  assert.equal(testControl.quickPicks[0].items[0].description, "1.0.0");
  assert.match(testControl.infos.join("\n"), /installed acme\/quotes/);
  assert.match(testControl.output.get("agx")!, /Installed acme\/quotes v1\.0\.0/);
});

test("agx: Show server info and agx: Run doctor write agx's output to the output channel", GUARD, async () => {
  world = new World({ agxPath: AGX });
  const w = world;
  await w.agx(["install", "acme/weather"]);
  await w.provide();
  testControl.answerQuickPick = (items) => items.find((i) => i.label === "acme/weather/forecast");
  await testControl.commands.get("agx.showServerInfo")!();
  assert.match(testControl.output.get("agx")!, /\$ agx info acme\/weather\/forecast\n/);
  assert.match(testControl.output.get("agx")!, /get_forecast/);

  await testControl.commands.get("agx.runDoctor")!();
  assert.match(testControl.output.get("agx")!, /\$ agx doctor\n[\s\S]*Checked 0 client entries/);
  assert.deepEqual(testControl.errors, []);
});
