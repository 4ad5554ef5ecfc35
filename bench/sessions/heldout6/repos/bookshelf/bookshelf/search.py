"""Search the catalogue by title or author, forgiving typos."""

from __future__ import annotations

import unicodedata

from .catalog import Book, Catalog


def fold(text: str) -> str:
    """Lower-case, accents stripped, punctuation to spaces: 'Cien años' -> 'cien anos'."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join("".join(c if c.isalnum() else " " for c in plain.lower()).split())


def score(query: str, text: str) -> float:
    """How well ``query`` matches ``text``, 0..1. For now: word overlap."""
    q, t = set(fold(query).split()), set(fold(text).split())
    if not q or not t:
        return 0.0
    return len(q & t) / len(q)


def search(catalog: Catalog, query: str, limit: int = 10, threshold: float = 0.5) -> list[tuple[float, Book]]:
    results = []
    for book in catalog.all():
        best = max(score(query, book.title), *(score(query, a) for a in book.authors), 0.0)
        if best >= threshold:
            results.append((best, book))
    results.sort(key=lambda r: (-r[0], r[1].title.lower()))
    return results[:limit]


def by_author(catalog: Catalog, name: str) -> list[Book]:
    """Books with an author equal to ``name`` once both are folded ('more by this author')."""
    key = fold(name)
    return [b for b in catalog.all() if any(fold(a) == key for a in b.authors)]


def by_tag(catalog: Catalog, tag: str) -> list[Book]:
    key = fold(tag)
    return [b for b in catalog.all() if key in {fold(t) for t in b.tags}]
