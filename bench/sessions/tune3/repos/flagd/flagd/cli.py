"""`flagd serve --flags FILE [--port N]`: load the flag file and answer HTTP requests."""

from __future__ import annotations

import argparse
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import yaml

from .audit import AuditLog
from .definitions import load_flags
from .evaluator import Evaluator
from .http import Handler


def make_server(handler: Handler, port: int) -> ThreadingHTTPServer:
    class Adapter(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            status, payload = handler.handle(self.command, self.path, body, self.headers.get("X-Actor", "anonymous"))
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = _serve

    return ThreadingHTTPServer(("127.0.0.1", port), Adapter)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="flagd")
    parser.add_argument("command", choices=["serve"])
    parser.add_argument("--flags", required=True)
    parser.add_argument("--port", type=int, default=8013)
    parser.add_argument("--audit", default="audit.jsonl")
    args = parser.parse_args(argv)
    with open(args.flags, encoding="utf-8") as f:
        flags = load_flags(yaml.safe_load(f))
    server = make_server(Handler(Evaluator(flags), AuditLog(args.audit)), args.port)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
