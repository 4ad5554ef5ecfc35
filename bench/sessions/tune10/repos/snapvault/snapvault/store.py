"""The chunk store: one file per chunk under ``objects/``, fanned out by the id's first two characters."""

from __future__ import annotations

import os
from pathlib import Path

from .crypto import Encryptor
from .hashing import chunk_id


class ChunkStore:
    def __init__(self, root: Path, encryptor: Encryptor | None = None):
        self.root = root
        self.objects = root / "objects"
        self.encryptor = encryptor

    def init(self) -> None:
        self.objects.mkdir(parents=True, exist_ok=True)
        (self.root / "snapshots").mkdir(exist_ok=True)

    def path_for(self, cid: str) -> Path:
        return self.objects / cid[:2] / cid[2:]

    def has(self, cid: str) -> bool:
        return self.path_for(cid).exists()

    def put(self, data: bytes) -> str:
        cid = chunk_id(data)
        path = self.path_for(cid)
        if path.exists():
            return cid
        path.parent.mkdir(exist_ok=True)
        payload = self.encryptor.seal(data) if self.encryptor else data
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        return cid

    def get(self, cid: str) -> bytes:
        payload = self.path_for(cid).read_bytes()
        return self.encryptor.open(payload) if self.encryptor else payload

    def all_ids(self) -> set[str]:
        return {p.parent.name + p.name for p in self.objects.glob("??/*") if not p.name.endswith(".tmp")}

    def delete(self, cids: set[str]) -> int:
        n = 0
        for cid in cids:
            try:
                self.path_for(cid).unlink()
                n += 1
            except FileNotFoundError:
                pass
        return n
