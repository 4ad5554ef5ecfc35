"""Writing sale lines to the warehouse (SQLite)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from crumbs.transform import SaleLine

SCHEMA = """
CREATE TABLE IF NOT EXISTS sale_lines (
    store_id     TEXT NOT NULL,
    receipt_no   TEXT NOT NULL,
    line_no      INTEGER NOT NULL,
    sold_at      TEXT NOT NULL,
    business_day TEXT NOT NULL,
    sku          TEXT NOT NULL,
    qty          INTEGER NOT NULL,
    amount       REAL NOT NULL,
    type         TEXT NOT NULL,
    PRIMARY KEY (store_id, receipt_no, line_no)
);
CREATE INDEX IF NOT EXISTS sale_lines_day ON sale_lines (business_day, store_id);
"""

UPSERT = """
INSERT INTO sale_lines (store_id, receipt_no, line_no, sold_at, business_day, sku, qty, amount, type)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (store_id, receipt_no, line_no) DO UPDATE SET
    sold_at = excluded.sold_at,
    business_day = excluded.business_day,
    sku = excluded.sku,
    qty = excluded.qty,
    amount = excluded.amount,
    type = excluded.type
"""


def connect(path: Path) -> sqlite3.Connection:
    """The warehouse at ``path``, its schema created if new."""
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    return conn


def load_rows(conn: sqlite3.Connection, lines: list[SaleLine]) -> int:
    """Upsert ``lines`` in one transaction; the number written."""
    with conn:
        conn.executemany(
            UPSERT,
            [
                (
                    l.store_id,
                    l.receipt_no,
                    l.line_no,
                    l.sold_at.isoformat(),
                    l.business_day.isoformat(),
                    l.sku,
                    l.qty,
                    l.amount,
                    l.type,
                )
                for l in lines
            ],
        )
    return len(lines)


def day_totals(conn: sqlite3.Connection, day: str) -> dict[str, float]:
    """Revenue per store for the business day ``day`` (YYYY-MM-DD)."""
    rows = conn.execute(
        "SELECT store_id, SUM(amount) FROM sale_lines WHERE business_day = ? GROUP BY store_id",
        (day,),
    )
    return {store_id: total for store_id, total in rows}
