from pathlib import Path

import pytest

from crumbs.load import connect, day_totals
from crumbs.money import AmountError, parse_amount
from crumbs.parse import ExportError, read_export
from crumbs.pipeline import run
from crumbs.stores import Store

STORES = {"B01": Store("B01", "Prenzlauer Berg", "Europe/Berlin")}
HEADER = "store_id;receipt_no;line_no;sold_at;sku;qty;amount;type\n"


def export(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def test_amounts():
    assert parse_amount("12,50") == 12.5
    assert parse_amount("1.234,00") == 1234.0
    assert parse_amount("€ 4,20") == 4.2
    with pytest.raises(AmountError):
        parse_amount("abc")


def test_missing_column(tmp_path):
    path = tmp_path / "B01_20250314.csv"
    path.write_text("store_id;receipt_no\nB01;1\n", encoding="utf-8")
    with pytest.raises(ExportError, match="missing columns"):
        read_export(path)


def test_run_is_idempotent(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    export(folder, "B01_20250314.csv", "B01;1001;1;2025-03-14T07:02:11Z;BRZ-01;2;3,80;SALE\n")
    db = tmp_path / "w.sqlite"
    assert run(folder, db, STORES).lines == 1
    assert run(folder, db, STORES).lines == 1
    conn = connect(db)
    assert conn.execute("SELECT COUNT(*) FROM sale_lines").fetchone()[0] == 1
    assert day_totals(conn, "2025-03-14") == {"B01": 3.8}


def test_bad_file_is_skipped(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    export(folder, "B01_20250314.csv", "B01;1001;1;2025-03-14T07:02:11Z;BRZ-01;2;zwei;SALE\n")
    summary = run(folder, tmp_path / "w.sqlite", STORES)
    assert summary.files == 0
    assert "B01_20250314.csv:2" in summary.failed[0]
