"""Content-defined chunking with a gear rolling hash.

A boundary is cut where the low bits of the rolling hash are zero, so inserting bytes near the
start of a file only changes the chunks around the insertion, and the rest deduplicate.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

MIN_SIZE = 64 * 1024
AVG_SIZE = 256 * 1024
MAX_SIZE = 1024 * 1024
_MASK = AVG_SIZE - 1


def _gear_table() -> list[int]:
    """256 pseudo-random 64-bit values, one per byte value."""
    return [hash(("snapvault-gear", i)) & 0xFFFFFFFFFFFFFFFF for i in range(256)]


GEAR = _gear_table()


def cut_points(data: bytes) -> list[int]:
    """Offsets (exclusive ends) of the chunks of ``data``."""
    cuts = []
    start = 0
    h = 0
    n = len(data)
    i = start
    while i < n:
        h = ((h << 1) + GEAR[data[i]]) & 0xFFFFFFFFFFFFFFFF
        size = i - start + 1
        if (size >= MIN_SIZE and (h & _MASK) == 0) or size >= MAX_SIZE:
            cuts.append(i + 1)
            start = i + 1
            h = 0
        i += 1
    if start < n:
        cuts.append(n)
    return cuts


def chunks(fh: BinaryIO, window: int = 8 * MAX_SIZE) -> Iterator[bytes]:
    """Chunks of a stream, reading ``window`` bytes at a time."""
    pending = b""
    while True:
        block = fh.read(window)
        pending += block
        if not pending:
            return
        cuts = cut_points(pending)
        if block:
            # the last cut may move once more data arrives: keep it pending
            cuts = cuts[:-1]
        prev = 0
        for end in cuts:
            yield pending[prev:end]
            prev = end
        pending = pending[prev:]
        if not block:
            return
