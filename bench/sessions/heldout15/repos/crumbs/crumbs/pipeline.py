"""The nightly job: every export in a folder into the warehouse."""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path

from crumbs.load import connect, load_rows
from crumbs.parse import ExportError, export_files, read_export
from crumbs.stores import Store, load_stores
from crumbs.transform import normalize

log = logging.getLogger("crumbs")


@dataclass
class Summary:
    files: int = 0
    lines: int = 0
    failed: list[str] = field(default_factory=list)


def run(folder: Path, db: Path, stores: dict[str, Store]) -> Summary:
    """Ingest every export in ``folder``; a bad file is reported and skipped, never half-loaded."""
    summary = Summary()
    conn = connect(db)
    try:
        for path in export_files(folder):
            try:
                lines = normalize(read_export(path), stores, path.name)
            except ExportError as e:
                log.error("skipped %s", e)
                summary.failed.append(str(e))
                continue
            summary.lines += load_rows(conn, lines)
            summary.files += 1
    finally:
        conn.close()
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="crumbs", description=__doc__)
    parser.add_argument("folder", type=Path, help="folder of TillPoint exports")
    parser.add_argument("--db", type=Path, default=Path("warehouse.sqlite"))
    parser.add_argument("--stores", type=Path, default=Path("stores.csv"))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    summary = run(args.folder, args.db, load_stores(args.stores))
    print(f"{summary.files} files, {summary.lines} lines, {len(summary.failed)} failed")
    return 1 if summary.failed else 0


if __name__ == "__main__":
    sys.exit(main())
