"""Checkpoints: where a run got to, so a rerun after a crash resumes instead of starting over."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass
class State:
    source: str
    offset: int = 0          # next record offset to read
    batches: int = 0         # batches written so far
    updated: float = 0.0


class Checkpoint:
    def __init__(self, path: Path):
        self.path = Path(path)

    def load(self, source: str) -> State:
        if not self.path.exists():
            return State(source)
        data = json.loads(self.path.read_text(encoding="utf-8"))
        if data.get("source") != source:
            # a checkpoint of another source: start over rather than skip rows
            return State(source)
        return State(**data)

    def save(self, state: State) -> None:
        state.updated = time.time()
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        tmp.write_text(json.dumps(asdict(state)), encoding="utf-8")
        tmp.replace(self.path)

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)
