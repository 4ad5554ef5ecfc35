"""Metadata lookup: title, authors and year for an ISBN, through adapters.

Adapters are tried in order; the first that knows the ISBN wins.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .isbn import parse_isbn, to_isbn13


@dataclass
class Metadata:
    isbn13: str
    title: str
    authors: list[str]
    year: int | None = None
    source: str = ""


class Adapter(Protocol):
    name: str

    def lookup(self, isbn13: str) -> Metadata | None: ...


class FixtureAdapter:
    """Answers from a JSON file of records keyed by ISBN-13 (used in tests and offline)."""

    name = "fixtures"

    def __init__(self, path: Path):
        self.path = path
        self._data: dict[str, dict] | None = None

    def _records(self) -> dict[str, dict]:
        if self._data is None:
            self._data = json.loads(self.path.read_text(encoding="utf-8"))
        return self._data

    def lookup(self, isbn13: str) -> Metadata | None:
        rec = self._records().get(isbn13)
        if rec is None:
            return None
        return Metadata(isbn13=isbn13, title=rec["title"], authors=list(rec.get("authors", [])),
                        year=rec.get("year"), source=self.name)


class OpenLibraryAdapter:
    """Placeholder for the Open Library API."""

    name = "openlibrary"

    def lookup(self, isbn13: str) -> Metadata | None:
        raise NotImplementedError("openlibrary lookups are not wired up yet")


def lookup(raw_isbn: str, adapters: list[Adapter]) -> Metadata | None:
    isbn13 = to_isbn13(parse_isbn(raw_isbn))
    for adapter in adapters:
        found = adapter.lookup(isbn13)
        if found is not None:
            return found
    return None
