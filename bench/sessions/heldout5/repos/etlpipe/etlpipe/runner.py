"""The runner: source -> schema -> transforms -> dedupe -> writer, in batches, with checkpoints."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from .checkpoint import Checkpoint
from .dedupe import Deduplicator
from .readers import Record, open_source
from .schema import Schema
from .transforms import Transform, compose
from .writers import BatchWriter

log = logging.getLogger("etlpipe")


@dataclass
class RunStats:
    read: int = 0
    invalid: int = 0
    dropped: int = 0
    duplicates: int = 0
    written: int = 0
    errors: list[str] = field(default_factory=list)


class Runner:
    def __init__(self, source: Path, schema: Schema, writer: BatchWriter, checkpoint: Checkpoint,
                 transform: Transform | None = None, dedupe_on: list[str] | None = None,
                 batch_size: int = 1000):
        self.source = Path(source)
        self.schema = schema
        self.writer = writer
        self.checkpoint = checkpoint
        self.transform = transform or compose([])
        self.dedupe_on = dedupe_on
        self.batch_size = batch_size
        self.stats = RunStats()

    def _validate(self, offset: int, record: Record) -> Record | None:
        clean, errors = self.schema.validate(record)
        if errors:
            self.stats.invalid += 1
            self.stats.errors.append(f"record {offset}: {'; '.join(errors)}")
            return None
        return clean

    def _flush(self, state, batch: list[Record]) -> None:
        if self.dedupe_on:
            d = Deduplicator(self.dedupe_on)
            for r in batch:
                d.add(r)
            self.stats.duplicates += d.duplicates
            batch = list(d.drain())
        if batch:
            self.writer.write(state.batches, batch)
            self.stats.written += len(batch)
        state.batches += 1

    def run(self) -> RunStats:
        state = self.checkpoint.load(str(self.source))
        if state.offset:
            log.info("resuming %s at record %d", self.source, state.offset)
        batch: list[Record] = []
        for offset, raw in open_source(self.source, start=state.offset):
            self.stats.read += 1
            clean = self._validate(offset, raw)
            if clean is None:
                continue
            out = self.transform(clean)
            if out is None:
                self.stats.dropped += 1
                continue
            batch.append(out)
            if len(batch) >= self.batch_size:
                state.offset = offset + 1
                self.checkpoint.save(state)
                self._flush(state, batch)
                batch = []
        if batch:
            self._flush(state, batch)
        self.checkpoint.clear()
        return self.stats
