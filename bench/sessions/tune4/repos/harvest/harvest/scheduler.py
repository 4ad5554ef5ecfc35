from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Callable

log = logging.getLogger(__name__)


@dataclass
class Job:
    name: str
    every: timedelta
    run: Callable[[], None]
    next_run: datetime | None = None


class Scheduler:
    def __init__(self, clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc)):
        self.clock = clock
        self.jobs: list[Job] = []

    def add(self, job: Job) -> None:
        job.next_run = self.clock()
        self.jobs.append(job)

    def due(self) -> list[Job]:
        now = self.clock()
        return [j for j in self.jobs if j.next_run is not None and j.next_run <= now]

    def run_pending(self) -> None:
        for job in self.due():
            log.info("running %s", job.name)
            try:
                job.run()
            except Exception:
                log.exception("job %s failed", job.name)
            job.next_run = self.clock() + job.every

    def loop(self, tick: float = 30.0) -> None:
        while True:
            self.run_pending()
            time.sleep(tick)
