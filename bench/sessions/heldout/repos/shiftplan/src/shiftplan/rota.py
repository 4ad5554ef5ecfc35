"""Who is on call when."""

from __future__ import annotations

from dataclasses import dataclass, field

from .recurrence import Slot


@dataclass
class Shift:
    slot: Slot
    person: str
    note: str = ""


@dataclass
class Rotation:
    name: str
    people: list[str]
    tz: str = "UTC"
    shifts: list[Shift] = field(default_factory=list)
    _turn: int = 0

    def next_person(self) -> str:
        if not self.people:
            raise ValueError(f"rotation {self.name!r} has nobody in it")
        person = self.people[self._turn % len(self.people)]
        self._turn += 1
        return person

    def assign(self, slot: Slot, person: str | None = None) -> Shift:
        shift = Shift(slot, person or self.next_person())
        self.shifts.append(shift)
        return shift

    def fill(self, slots: list[Slot]) -> list[Shift]:
        return [self.assign(s) for s in sorted(slots, key=lambda s: s.begins)]

    def shifts_of(self, person: str) -> list[Shift]:
        return [s for s in self.shifts if s.person == person]

    def swap(self, a: Shift, b: Shift) -> None:
        a.person, b.person = b.person, a.person
