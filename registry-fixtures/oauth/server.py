#!/usr/bin/env python3
"""A loopback MCP server that asks for a sign-in, with its own authorization server, for
agx's tests of `agx auth` (tests/it/auth.rs; docs/auth.md). Python's standard library only.

It answers as the hosted MCP servers do (MCP authorization, 2025-11-25):
- `/mcp` (Streamable HTTP, JSON responses) wants `Authorization: Bearer TOKEN`; without a
  valid one it answers 401 with `WWW-Authenticate: Bearer resource_metadata="…", scope="…"`;
- `/.well-known/oauth-protected-resource/mcp` (RFC 9728) names the authorization server;
- `/.well-known/oauth-authorization-server` (RFC 8414), `/register` (RFC 7591 dynamic
  registration), `/authorize` (redirects at once with a code, as if the person approved),
  `/token` (authorization code with PKCE S256 checked, `resource` checked against RFC 8707,
  refresh tokens rotated on use; client credentials for a client with a secret).
Options: `--no-dcr` (no registration endpoint; a pre-registered client `agx-preregistered`
with secret `pre-secret` and a public one, `agx-public`, exist), `--open` (no sign-in asked for), `--ttl SECONDS`.
For tests: `POST /admin/expire` expires every access token, `POST /admin/revoke` revokes
every refresh token, `GET /admin/log` lists what the metadata URLs, the token endpoint and
`/mcp` saw.
Prints `listening on http://127.0.0.1:PORT` when ready.
"""

import base64
import hashlib
import json
import secrets
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SCOPE = "mcp:tools"
PRE_ID, PRE_SECRET = "agx-preregistered", "pre-secret"
PUBLIC_ID = "agx-public"


class State:
    def __init__(self, args):
        self.lock = threading.Lock()
        self.dcr = "--no-dcr" not in args
        self.open = "--open" in args
        self.ttl = int(args[args.index("--ttl") + 1]) if "--ttl" in args else 3600
        self.clients = {PRE_ID: {"secret": PRE_SECRET, "redirect_uris": None},
                        PUBLIC_ID: {"secret": None, "redirect_uris": None}}
        self.codes = {}
        self.access = {}  # token -> expiry
        self.refresh = {}  # token -> client_id
        self.log = []


STATE = State(sys.argv[1:])


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # One write per response, sent at once: no delayed-ACK stalls in measurements.
    wbufsize = -1
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    @property
    def base(self):
        return "http://%s" % self.headers["Host"]

    def send_json(self, status, body, headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path.startswith("/.well-known/"):
            with STATE.lock:
                STATE.log.append({"at": "metadata", "path": url.path})
        if url.path in ("/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"):
            if STATE.open:
                return self.send_json(404, {"error": "not_found"})
            return self.send_json(200, {
                "resource": self.base + "/mcp",
                "authorization_servers": [self.base],
                "scopes_supported": [SCOPE],
            })
        if url.path == "/.well-known/oauth-authorization-server":
            if STATE.open:
                return self.send_json(404, {"error": "not_found"})
            metadata = {
                "issuer": self.base,
                "authorization_endpoint": self.base + "/authorize",
                "token_endpoint": self.base + "/token",
                "response_types_supported": ["code"],
                "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post"],
                "scopes_supported": [SCOPE],
                "authorization_response_iss_parameter_supported": True,
            }
            if STATE.dcr:
                metadata["registration_endpoint"] = self.base + "/register"
            return self.send_json(200, metadata)
        if url.path == "/authorize":
            return self.authorize(query)
        if url.path == "/admin/log":
            with STATE.lock:
                return self.send_json(200, STATE.log)
        if url.path == "/mcp":
            if not self.authorized():
                return
            self.send_response(405)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_json(404, {"error": "not_found"})

    def authorize(self, q):
        client = STATE.clients.get(q.get("client_id"))
        problems = []
        if client is None:
            problems.append("unknown client")
        elif client["redirect_uris"] is not None and q.get("redirect_uri") not in client["redirect_uris"]:
            problems.append("redirect_uri not registered")
        if q.get("response_type") != "code":
            problems.append("response_type")
        if q.get("code_challenge_method") != "S256" or not q.get("code_challenge"):
            problems.append("no S256 PKCE challenge")
        if q.get("resource") != self.base + "/mcp":
            problems.append("resource %r" % q.get("resource"))
        if not q.get("state"):
            problems.append("no state")
        if problems:
            return self.send_json(400, {"error": "invalid_request", "error_description": "; ".join(problems)})
        code = secrets.token_urlsafe(16)
        with STATE.lock:
            STATE.codes[code] = {
                "client_id": q["client_id"],
                "redirect_uri": q.get("redirect_uri"),
                "challenge": q["code_challenge"],
                "scope": q.get("scope", ""),
            }
        location = q["redirect_uri"] + "?" + urllib.parse.urlencode(
            {"code": code, "state": q["state"], "iss": self.base})
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        body = self.read_body()
        if url.path == "/register" and STATE.dcr:
            request = json.loads(body or b"{}")
            client_id = "dcr-" + secrets.token_hex(6)
            with STATE.lock:
                STATE.clients[client_id] = {"secret": None, "redirect_uris": request.get("redirect_uris", [])}
            return self.send_json(201, {"client_id": client_id, "redirect_uris": request.get("redirect_uris", []),
                                        "token_endpoint_auth_method": "none"})
        if url.path == "/token":
            return self.token(dict(urllib.parse.parse_qsl(body.decode())))
        if url.path == "/admin/expire":
            with STATE.lock:
                for token in STATE.access:
                    STATE.access[token] = 0
            return self.send_json(200, {})
        if url.path == "/admin/revoke":
            with STATE.lock:
                STATE.refresh.clear()
            return self.send_json(200, {})
        if url.path == "/mcp":
            return self.mcp(body)
        self.send_json(404, {"error": "not_found"})

    def client_of(self, form):
        """The authenticated client: basic, post or none (public)."""
        auth = self.headers.get("Authorization", "")
        if auth.startswith("Basic "):
            client_id, _, secret = base64.b64decode(auth[6:]).decode().partition(":")
            client_id, secret = urllib.parse.unquote(client_id), urllib.parse.unquote(secret)
        else:
            client_id, secret = form.get("client_id"), form.get("client_secret")
        client = STATE.clients.get(client_id)
        if client is None or (client["secret"] is not None and client["secret"] != secret):
            return None
        return client_id

    def token(self, form):
        client_id = self.client_of(form)
        grant = form.get("grant_type")
        with STATE.lock:
            STATE.log.append({"at": "token", "grant": grant})
        if client_id is None:
            return self.send_json(401, {"error": "invalid_client"})
        if form.get("resource") not in (None, self.base + "/mcp"):
            return self.send_json(400, {"error": "invalid_target"})
        if grant == "authorization_code":
            with STATE.lock:
                code = STATE.codes.pop(form.get("code"), None)
            if code is None or code["client_id"] != client_id or code["redirect_uri"] != form.get("redirect_uri"):
                return self.send_json(400, {"error": "invalid_grant"})
            verifier = form.get("code_verifier", "")
            if b64url(hashlib.sha256(verifier.encode()).digest()) != code["challenge"]:
                return self.send_json(400, {"error": "invalid_grant", "error_description": "PKCE verifier"})
            if form.get("resource") != self.base + "/mcp":
                return self.send_json(400, {"error": "invalid_target", "error_description": "resource missing"})
            return self.issue(client_id, code["scope"])
        if grant == "client_credentials":
            # Confidential clients only; no refresh token (the client asks again).
            if STATE.clients[client_id]["secret"] is None:
                return self.send_json(401, {"error": "invalid_client"})
            if form.get("resource") != self.base + "/mcp":
                return self.send_json(400, {"error": "invalid_target", "error_description": "resource missing"})
            return self.issue(client_id, form.get("scope", SCOPE), refresh=False)
        if grant == "refresh_token":
            with STATE.lock:
                owner = STATE.refresh.pop(form.get("refresh_token"), None)
            if owner != client_id:
                return self.send_json(400, {"error": "invalid_grant"})
            return self.issue(client_id, SCOPE)
        self.send_json(400, {"error": "unsupported_grant_type"})

    def issue(self, client_id, scope, refresh=True):
        access = "at-" + secrets.token_urlsafe(24)
        answer = {"access_token": access, "token_type": "Bearer", "expires_in": STATE.ttl,
                  "scope": scope or SCOPE}
        with STATE.lock:
            STATE.access[access] = time.time() + STATE.ttl
            entry = {"at": "issued", "access_token": access}
            if refresh:
                answer["refresh_token"] = entry["refresh_token"] = "rt-" + secrets.token_urlsafe(24)
                STATE.refresh[answer["refresh_token"]] = client_id
            STATE.log.append(entry)
        self.send_json(200, answer)

    def authorized(self):
        if STATE.open:
            return True
        auth = self.headers.get("Authorization", "")
        token = auth[7:] if auth.startswith("Bearer ") else None
        with STATE.lock:
            valid = token is not None and STATE.access.get(token, 0) > time.time()
            STATE.log.append({"at": "mcp", "token": token, "valid": valid})
        if valid:
            return True
        challenge = 'Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp", scope="%s"' % (
            self.base, SCOPE)
        if token is not None:
            challenge += ', error="invalid_token"'
        self.send_json(401, {"error": "unauthorized"}, [("WWW-Authenticate", challenge)])
        return False

    def mcp(self, body):
        if not self.authorized():
            return
        message = json.loads(body or b"{}")
        if "id" not in message:
            self.send_response(202)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        method = message.get("method")
        if method == "initialize":
            result = {"protocolVersion": message["params"].get("protocolVersion", "2025-11-25"),
                      "capabilities": {"tools": {}},
                      "serverInfo": {"name": "oauth-fixture", "version": "1.0.0"}}
        elif method == "tools/list":
            result = {"tools": [{"name": "whoami", "description": "Say that the sign-in worked.",
                                 "inputSchema": {"type": "object", "properties": {}}}]}
        elif method == "tools/call":
            result = {"content": [{"type": "text", "text": "signed in"}]}
        elif method == "ping":
            result = {}
        else:
            return self.send_json(200, {"jsonrpc": "2.0", "id": message["id"],
                                        "error": {"code": -32601, "message": "no method " + str(method)}})
        self.send_json(200, {"jsonrpc": "2.0", "id": message["id"], "result": result})

    def do_DELETE(self):
        self.send_response(405)
        self.send_header("Content-Length", "0")
        self.end_headers()


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
