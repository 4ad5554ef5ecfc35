"""Fill a period's shifts with workers."""

from __future__ import annotations

from shiftplan.model import Rota, Shift, Worker
from shiftplan.rules import allowed


def assign(shifts: list[Shift], workers: list[Worker]) -> Rota:
    """Give each shift, earliest first, to the first worker allowed to take it."""
    rota = Rota()
    for shift in sorted(shifts, key=lambda s: s.start):
        for worker in workers:
            if allowed(rota, worker, shift):
                rota.give(worker, shift)
                break
        else:
            rota.unfilled.append(shift)
    return rota


def coverage(rota: Rota, shifts: list[Shift]) -> float:
    """Share of shifts that got someone."""
    if not shifts:
        return 1.0
    return 1 - len(rota.unfilled) / len(shifts)


def unfilled_report(rota: Rota) -> str:
    """The shifts nobody could take, one line each, for the manager's morning mail."""
    if not rota.unfilled:
        return f"All shifts filled."
    lines = [f"{len(rota.unfilled)} shift(s) without anyone:"]
    for s in sorted(rota.unfilled, key=lambda s: s.start):
        lines.append(f"  {s.start:%a %d %b %H:%M}-{s.end:%H:%M}  {s.site:<10} {s.role}  ({s.id})")
    return "\n".join(lines)
