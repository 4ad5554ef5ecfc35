"""The rota's data: shifts, workers and who was given what."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta


@dataclass(frozen=True)
class Shift:
    """One shift at one site. ``start``/``end`` are local wall-clock times of the site."""

    id: str
    site: str
    start: datetime
    end: datetime
    role: str = "carer"

    def __post_init__(self):
        if self.end <= self.start:
            raise ValueError(f"shift {self.id}: end {self.end} is not after start {self.start}")

    @property
    def hours(self) -> float:
        return (self.end - self.start) / timedelta(hours=1)

    @property
    def day(self) -> date:
        return self.start.date()

    def overlaps(self, other: Shift) -> bool:
        return self.start < other.end and other.start < self.end


@dataclass
class Worker:
    name: str
    roles: set[str]
    max_hours_week: float = 40.0
    unavailable: set[date] = field(default_factory=set)

    def can_do(self, shift: Shift) -> bool:
        return shift.role in self.roles and shift.day not in self.unavailable


@dataclass
class Rota:
    """Assignments of one planning period, and the shifts nobody could take."""

    assignments: dict[str, list[Shift]] = field(default_factory=dict)
    unfilled: list[Shift] = field(default_factory=list)

    def give(self, worker: Worker, shift: Shift) -> None:
        self.assignments.setdefault(worker.name, []).append(shift)

    def shifts_of(self, name: str) -> list[Shift]:
        return sorted(self.assignments.get(name, []), key=lambda s: s.start)

    def hours_of(self, name: str) -> float:
        return sum(s.hours for s in self.assignments.get(name, []))

    def all_shifts(self) -> list[tuple[str, Shift]]:
        pairs = [(name, s) for name, shifts in self.assignments.items() for s in shifts]
        return sorted(pairs, key=lambda p: (p[1].start, p[0]))
