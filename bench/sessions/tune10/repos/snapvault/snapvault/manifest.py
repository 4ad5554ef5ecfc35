"""The manifest of a snapshot: every file backed up, its metadata and its chunk ids."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path


@dataclass
class Entry:
    path: str  # relative to the backup root, POSIX separators
    size: int
    mode: int
    mtime: float
    digest: str
    chunks: list[str] = field(default_factory=list)

    def unchanged(self, st: os.stat_result) -> bool:
        """Whether a file with this stat can reuse this entry without being read again."""
        return st.st_size == self.size and st.st_mtime == self.mtime


@dataclass
class Manifest:
    snapshot: str
    created: str
    source: str
    entries: dict[str, Entry] = field(default_factory=dict)

    @classmethod
    def new(cls, source: Path) -> Manifest:
        now = datetime.now(timezone.utc)
        return cls(snapshot=now.strftime("%Y%m%dT%H%M%SZ"), created=now.isoformat(), source=str(source))

    def add(self, entry: Entry) -> None:
        self.entries[entry.path] = entry

    def chunk_ids(self) -> set[str]:
        return {c for e in self.entries.values() for c in e.chunks}

    def to_dict(self) -> dict:
        return {"snapshot": self.snapshot, "created": self.created, "source": self.source,
                "entries": [asdict(e) for e in sorted(self.entries.values(), key=lambda e: e.path)]}

    @classmethod
    def from_dict(cls, data: dict) -> Manifest:
        m = cls(snapshot=data["snapshot"], created=data["created"], source=data["source"])
        for raw in data["entries"]:
            m.add(Entry(**raw))
        return m

    def save(self, directory: Path) -> Path:
        path = directory / f"{self.snapshot}.json"
        path.write_text(json.dumps(self.to_dict(), indent=1), encoding="utf-8")
        return path


def load(path: Path) -> Manifest:
    return Manifest.from_dict(json.loads(path.read_text(encoding="utf-8")))


def list_snapshots(directory: Path) -> list[str]:
    return sorted(p.stem for p in directory.glob("*.json"))
