import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS readings (
    meter_id TEXT NOT NULL,
    read_at  REAL NOT NULL,
    value    REAL,
    unit     TEXT NOT NULL
)
"""


class SqliteSink:
    def __init__(self, path: Path):
        self.conn = sqlite3.connect(path)
        self._ensure_table()

    def _ensure_table(self) -> None:
        self.conn.execute(SCHEMA)

    def write_batch(self, rows: list[dict]) -> int:
        self.conn.executemany(
            "INSERT INTO readings (meter_id, read_at, value, unit) VALUES (:meter_id, :read_at, :value, :unit)",
            rows,
        )
        return len(rows)

    def commit(self) -> None:
        self.conn.commit()

    def close(self) -> None:
        self.conn.close()
