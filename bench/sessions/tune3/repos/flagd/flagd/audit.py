"""Who changed which flag, when, from what to what."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class AuditEntry:
    at: float
    actor: str
    action: str
    flag_key: str
    before: dict | None
    after: dict | None
    reason: str = ""


class AuditLog:
    def __init__(self, path: str):
        self.path = path
        self.entries: list[AuditEntry] = []

    def record(self, actor: str, action: str, flag_key: str, before: dict | None, after: dict | None,
               reason: str = "") -> AuditEntry:
        entry = AuditEntry(time.time(), actor, action, flag_key, before, after, reason)
        self.entries.append(entry)
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(asdict(entry)) + "\n")
        return entry

    def for_flag(self, flag_key: str) -> list[AuditEntry]:
        return [e for e in self.entries if e.flag_key == flag_key]
