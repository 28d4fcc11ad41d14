"""A loopback MCP Registry API for the CI checks: serves the server.json documents of a
folder (default tests/data/mcp-registry/servers) as `GET /v0.1/servers` (one page) and
`GET /v0.1/servers/{name}/versions/{version|latest}`, with the official `_meta` status read
from an optional `_status` field of each document. Prints its base URL on the first line,
then serves until killed.

Usage: mcp_registry_server.py [FOLDER]
"""

import json
import pathlib
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FOLDER = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "tests/data/mcp-registry/servers")
META = "io.modelcontextprotocol.registry/official"


def entries():
    for path in sorted(FOLDER.glob("*.json")):
        server = json.loads(path.read_text())
        status = server.pop("_status", "active")
        yield {"server": server, "_meta": {META: {"status": status, "isLatest": True}}}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        path = urllib.parse.unquote(url.path)
        if path == "/v0.1/servers":
            return self.reply(200, {"servers": list(entries()), "metadata": {"nextCursor": None}})
        prefix = "/v0.1/servers/"
        if path.startswith(prefix) and "/versions/" in path:
            name, version = path[len(prefix):].rsplit("/versions/", 1)
            for entry in entries():
                server = entry["server"]
                if server["name"] == name and version in ("latest", server["version"]):
                    return self.reply(200, entry)
        self.reply(404, {"error": "Server not found"})

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
