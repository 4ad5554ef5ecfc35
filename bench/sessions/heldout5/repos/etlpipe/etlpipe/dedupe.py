"""Deduplication of records by a key made of one or more fields, within one run."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .readers import Record


class Deduplicator:
    """Keeps one record per key. Records are held until ``drain`` so a later duplicate can win."""

    def __init__(self, key_fields: list[str]):
        if not key_fields:
            raise ValueError("dedupe needs at least one key field")
        self.key_fields = list(key_fields)
        self._kept: dict[tuple, Record] = {}
        self.duplicates = 0

    def key(self, record: Record) -> tuple:
        return tuple(record.get(f) for f in self.key_fields)

    def add(self, record: Record) -> None:
        k = self.key(record)
        if k in self._kept:
            self.duplicates += 1
            return
        self._kept[k] = record

    def drain(self) -> Iterator[Record]:
        kept, self._kept = self._kept, {}
        yield from kept.values()

    def __len__(self) -> int:
        return len(self._kept)


def dedupe(records: Iterable[Record], key_fields: list[str]) -> list[Record]:
    d = Deduplicator(key_fields)
    for r in records:
        d.add(r)
    return list(d.drain())
