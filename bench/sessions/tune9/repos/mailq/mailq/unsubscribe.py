"""The unsubscribe list: addresses that asked not to get mail from us."""

from __future__ import annotations

import json
from pathlib import Path


def normalize(address: str) -> str:
    return address.strip().lower()


class UnsubscribeList:
    def __init__(self, path: Path | None = None):
        self.path = Path(path) if path else None
        self._addresses: set[str] = set()
        if self.path and self.path.exists():
            self._addresses = set(json.loads(self.path.read_text(encoding="utf-8")))

    def __contains__(self, address: str) -> bool:
        return normalize(address) in self._addresses

    def __len__(self) -> int:
        return len(self._addresses)

    def add(self, address: str) -> None:
        self._addresses.add(normalize(address))
        self._save()

    def remove(self, address: str) -> None:
        self._addresses.discard(normalize(address))
        self._save()

    def _save(self) -> None:
        if self.path:
            self.path.write_text(json.dumps(sorted(self._addresses), indent=1), encoding="utf-8")
