"""Content hashing: chunk ids and whole-file digests."""

from __future__ import annotations

import hashlib
from pathlib import Path

CHUNK_ID_LEN = 64  # hex characters


def chunk_id(data: bytes) -> str:
    """The id a chunk is stored under: the hex SHA-1 of its bytes."""
    return hashlib.sha1(data).hexdigest()


def file_digest(path: Path, bufsize: int = 1 << 20) -> str:
    """Digest of a whole file, recorded in the manifest so restore can verify it."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while True:
            block = fh.read(bufsize)
            if not block:
                break
            h.update(block)
    return h.hexdigest()


def is_chunk_id(text: str) -> bool:
    return len(text) in (40, CHUNK_ID_LEN) and all(c in "0123456789abcdef" for c in text)
