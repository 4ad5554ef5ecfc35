from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from pathlib import Path

from harvest.parser import Listing

SCHEMA = """
CREATE TABLE IF NOT EXISTS listings (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,
    external_id TEXT NOT NULL,
    url TEXT NOT NULL,
    title TEXT NOT NULL,
    price REAL,
    location TEXT NOT NULL,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL
);
"""


class RecordStore:
    def __init__(self, path: Path):
        self.db = sqlite3.connect(path)
        self.db.executescript(SCHEMA)

    def upsert(self, item: Listing) -> str:
        """Store one listing; returns "new", "changed" or "same"."""
        now = datetime.now(timezone.utc).isoformat()
        row = self.db.execute("SELECT id, title, price FROM listings WHERE url = ?", (item.url,)).fetchone()
        if row is None:
            self.db.execute(
                "INSERT INTO listings (source, external_id, url, title, price, location, first_seen, last_seen)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (item.source, item.external_id, item.url, item.title, item.price, item.location, now, now),
            )
            self.db.commit()
            return "new"
        changed = (row[1], row[2]) != (item.title, item.price)
        self.db.execute(
            "UPDATE listings SET title = ?, price = ?, location = ?, last_seen = ? WHERE id = ?",
            (item.title, item.price, item.location, now, row[0]),
        )
        self.db.commit()
        return "changed" if changed else "same"

    def count(self, source: str) -> int:
        return self.db.execute("SELECT count(*) FROM listings WHERE source = ?", (source,)).fetchone()[0]

    def close(self) -> None:
        self.db.close()
