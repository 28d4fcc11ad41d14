#!/usr/bin/env node
// A dependency-free MCP server over stdio (one JSON-RPC message per line), packed into an
// MCPB bundle by agx's tests. `greet` uses the --greeting argument the bundle's
// user_config fills in; `whoami` reports its folder and the length of HELLO_API_KEY.
"use strict";
const readline = require("node:readline");
const path = require("node:path");

const flag = process.argv.indexOf("--greeting");
const greeting = flag >= 0 ? process.argv[flag + 1] : "Hello";

const tools = [
  {
    name: "greet",
    description: "Greet someone",
    inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  },
  { name: "whoami", description: "Where the server runs", inputSchema: { type: "object" } },
];

function text(t) {
  return { content: [{ type: "text", text: t }] };
}

function answer(request) {
  switch (request.method) {
    case "initialize":
      return {
        protocolVersion: request.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "hello-bundle", version: "1.2.0" },
      };
    case "tools/list":
      return { tools };
    case "tools/call": {
      const args = request.params.arguments || {};
      if (request.params.name === "greet") return text(`${greeting}, ${args.name}!`);
      if (request.params.name === "whoami")
        return text(`${path.basename(path.dirname(__dirname))} key:${(process.env.HELLO_API_KEY || "").length}`);
      return { content: [{ type: "text", text: "unknown tool" }], isError: true };
    }
    case "ping":
      return {};
    default:
      return undefined;
  }
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const request = JSON.parse(line);
  if (request.id === undefined) return; // a notification
  const result = answer(request);
  const reply =
    result === undefined
      ? { jsonrpc: "2.0", id: request.id, error: { code: -32601, message: "method not found" } }
      : { jsonrpc: "2.0", id: request.id, result };
  process.stdout.write(JSON.stringify(reply) + "\n");
});
