"""Import a Goodreads library export (Settings → Import and export → Export library)."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from .catalog import Book, Catalog
from .isbn import InvalidISBN


@dataclass
class ImportReport:
    added: int = 0
    duplicates: int = 0
    skipped: list[str] = field(default_factory=list)


def _authors(row: dict[str, str]) -> list[str]:
    names = [row.get("Author", "").strip()]
    names += [a.strip() for a in row.get("Additional Authors", "").split(",")]
    return [n for n in names if n]


def _year(row: dict[str, str]) -> int | None:
    for col in ("Original Publication Year", "Year Published"):
        value = row.get(col, "").strip()
        if value.isdigit():
            return int(value)
    return None


def row_to_book(row: dict[str, str]) -> Book | None:
    isbn = row.get("ISBN13", "").strip() or row.get("ISBN", "").strip()
    if not isbn:
        return None
    rating = int(row.get("My Rating") or 0)
    return Book(isbn=isbn, title=row["Title"].strip(), authors=_authors(row), year=_year(row),
                shelf=row.get("Exclusive Shelf", "read") or "read", rating=rating or None)


def import_rows(rows: list[dict[str, str]], catalog: Catalog) -> ImportReport:
    report = ImportReport()
    for row in rows:
        book = row_to_book(row)
        if book is None:
            report.skipped.append(f"{row.get('Title', '?')}: no ISBN")
            continue
        try:
            catalog.add(book)
        except KeyError:
            report.duplicates += 1
            continue
        except InvalidISBN as exc:
            report.skipped.append(f"{book.title}: {exc}")
            continue
        report.added += 1
    return report


def import_csv(path: Path, catalog: Catalog) -> ImportReport:
    with path.open(newline="", encoding="utf-8-sig") as fh:
        return import_rows(list(csv.DictReader(fh)), catalog)
