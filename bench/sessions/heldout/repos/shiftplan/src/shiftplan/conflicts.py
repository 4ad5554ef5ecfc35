"""Finding shifts that clash with each other or with days off."""

from __future__ import annotations

from itertools import combinations

from .recurrence import Slot
from .rota import Shift


def overlaps(a: Slot, b: Slot) -> bool:
    return a.begins < b.ends and b.begins < a.ends


def clashes(shifts: list[Shift]) -> list[tuple[Shift, Shift]]:
    """Pairs of shifts held by the same person at the same time."""
    return [(a, b) for a, b in combinations(shifts, 2) if a.person == b.person and overlaps(a.slot, b.slot)]


def hours_by_person(shifts: list[Shift]) -> dict[str, float]:
    out: dict[str, float] = {}
    for s in shifts:
        out[s.person] = out.get(s.person, 0.0) + s.slot.hours
    return out
