"""A small request router: method + path pattern -> handler, with ``{name}`` path parameters."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable


@dataclass
class Request:
    method: str
    path: str
    body: bytes = b""
    params: dict[str, str] = field(default_factory=dict)

    def json(self):
        return json.loads(self.body or b"null")


@dataclass
class Response:
    status: int = 200
    body: object = None

    def encode(self) -> bytes:
        return json.dumps(self.body, default=str).encode()


Handler = Callable[[Request], Response]


class Router:
    def __init__(self) -> None:
        self.routes: list[tuple[str, list[str], Handler]] = []

    def add(self, method: str, pattern: str, handler: Handler) -> None:
        self.routes.append((method.upper(), pattern.strip("/").split("/"), handler))

    def route(self, method: str, pattern: str):
        def register(fn: Handler) -> Handler:
            self.add(method, pattern, fn)
            return fn
        return register

    def dispatch(self, req: Request) -> Response:
        parts = req.path.strip("/").split("/")
        for method, pattern, handler in self.routes:
            if method != req.method or len(pattern) != len(parts):
                continue
            params = {}
            for p, v in zip(pattern, parts):
                if p.startswith("{") and p.endswith("}"):
                    params[p[1:-1]] = v
                elif p != v:
                    break
            else:
                req.params = params
                return handler(req)
        return Response(404, {"error": f"no route for {req.method} {req.path}"})
