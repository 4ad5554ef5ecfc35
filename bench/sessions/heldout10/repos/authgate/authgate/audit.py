"""Audit log of security-relevant events (logins, resets, second-factor changes)."""

from __future__ import annotations

import json
import sqlite3
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL,
    kind TEXT NOT NULL,
    user_id INTEGER,
    ip TEXT,
    detail TEXT NOT NULL DEFAULT '{}'
)
"""


class AuditLog:
    def __init__(self, path: str = ":memory:", clock=time.time):
        self.db = sqlite3.connect(path)
        self.db.execute(SCHEMA)
        self.clock = clock

    def record(self, kind: str, user_id: int | None = None, ip: str | None = None, **detail) -> int:
        cur = self.db.execute(
            "INSERT INTO audit (at, kind, user_id, ip, detail) VALUES (?, ?, ?, ?, ?)",
            (self.clock(), kind, user_id, ip, json.dumps(detail, sort_keys=True)),
        )
        self.db.commit()
        return cur.lastrowid

    def for_user(self, user_id: int, limit: int = 100) -> list[dict]:
        rows = self.db.execute(
            "SELECT id, at, kind, ip, detail FROM audit WHERE user_id = ? ORDER BY id DESC LIMIT ?",
            (user_id, limit),
        ).fetchall()
        return [{"id": r[0], "at": r[1], "kind": r[2], "ip": r[3], **json.loads(r[4])} for r in rows]

    def count(self, kind: str | None = None) -> int:
        if kind is None:
            return self.db.execute("SELECT COUNT(*) FROM audit").fetchone()[0]
        return self.db.execute("SELECT COUNT(*) FROM audit WHERE kind = ?", (kind,)).fetchone()[0]
