"""Invoice numbers, e.g. INV-2025-0042, kept in a small JSON state file."""

from __future__ import annotations

import json
import os
from pathlib import Path


class InvoiceNumberer:
    def __init__(self, state_path: Path, prefix: str = "INV"):
        self.state_path = Path(state_path)
        self.prefix = prefix

    def _load(self) -> dict:
        if not self.state_path.exists():
            return {"last": 0}
        return json.loads(self.state_path.read_text(encoding="utf-8"))

    def _save(self, state: dict) -> None:
        tmp = self.state_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(state), encoding="utf-8")
        os.replace(tmp, self.state_path)

    def next_number(self, year: int) -> str:
        state = self._load()
        state["last"] += 1
        self._save(state)
        return f"{self.prefix}-{year}-{state['last']:04d}"

    def peek(self, year: int) -> str:
        """The number the next call would hand out, without taking it."""
        return f"{self.prefix}-{year}-{self._load()['last'] + 1:04d}"
