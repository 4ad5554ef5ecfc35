"""The catalogue: books by ISBN, saved as one JSON file."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .isbn import parse_isbn


@dataclass
class Book:
    isbn: str
    title: str
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    shelf: str = "read"
    rating: int | None = None
    tags: list[str] = field(default_factory=list)

    def label(self) -> str:
        who = ", ".join(self.authors) or "unknown"
        return f"{self.title} — {who}" + (f" ({self.year})" if self.year else "")


class Catalog:
    def __init__(self, books: dict[str, Book] | None = None):
        self.books: dict[str, Book] = books or {}

    def add(self, book: Book) -> Book:
        book.isbn = parse_isbn(book.isbn)
        if book.isbn in self.books:
            raise KeyError(f"already in the catalogue: {book.isbn}")
        self.books[book.isbn] = book
        return book

    def get(self, isbn: str) -> Book | None:
        return self.books.get(parse_isbn(isbn))

    def remove(self, isbn: str) -> Book:
        return self.books.pop(parse_isbn(isbn))

    def all(self) -> list[Book]:
        return sorted(self.books.values(), key=lambda b: (b.title.lower(), b.isbn))

    def by_shelf(self, shelf: str) -> list[Book]:
        return [b for b in self.all() if b.shelf == shelf]

    def __len__(self) -> int:
        return len(self.books)


def save(catalog: Catalog, path: Path) -> None:
    data = {"version": 1, "books": [asdict(b) for b in catalog.all()]}
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)


def load(path: Path) -> Catalog:
    if not path.exists():
        return Catalog()
    data = json.loads(path.read_text(encoding="utf-8"))
    return Catalog({b["isbn"]: Book(**b) for b in data.get("books", [])})
