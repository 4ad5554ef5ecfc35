"""The HTTP layer: a thin mapping from (method, path, body) to the evaluator and the audit log."""

from __future__ import annotations

import json

from .audit import AuditLog
from .definitions import DefinitionError, parse_flag
from .evaluator import Evaluator, UnknownFlag


class Handler:
    def __init__(self, evaluator: Evaluator, audit: AuditLog):
        self.evaluator = evaluator
        self.audit = audit

    def handle(self, method: str, path: str, body: bytes, actor: str = "anonymous") -> tuple[int, dict]:
        parts = [p for p in path.split("/") if p]
        if method == "POST" and parts[:1] == ["evaluate"] and len(parts) == 2:
            return self.evaluate(parts[1], json.loads(body or b"{}"))
        if method == "PUT" and parts[:1] == ["flags"] and len(parts) == 2:
            return self.put_flag(parts[1], json.loads(body), actor)
        if method == "GET" and parts == ["flags"]:
            return 200, {"flags": sorted(self.evaluator.flags)}
        return 404, {"error": "not found"}

    def evaluate(self, flag_key: str, context: dict) -> tuple[int, dict]:
        try:
            name, value = self.evaluator.evaluate(flag_key, context)
        except UnknownFlag:
            return 404, {"error": f"unknown flag {flag_key}"}
        return 200, {"flag": flag_key, "variant": name, "value": value}

    def put_flag(self, flag_key: str, raw: dict, actor: str) -> tuple[int, dict]:
        try:
            flag = parse_flag(flag_key, raw)
        except DefinitionError as e:
            return 400, {"error": str(e)}
        before = self.evaluator.flags.get(flag_key)
        flags = {**self.evaluator.flags, flag_key: flag}
        self.evaluator.replace(flags)
        self.audit.record(actor, "update" if before else "create", flag_key,
                          before.__dict__ if before else None, raw)
        return 200, {"flag": flag_key}
