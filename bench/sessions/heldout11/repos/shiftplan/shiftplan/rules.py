"""What makes an assignment allowed."""

from __future__ import annotations

from collections import defaultdict

from shiftplan.calendar import is_holiday, week_of
from shiftplan.model import Rota, Shift, Worker


def no_overlap(rota: Rota, worker: Worker, shift: Shift) -> bool:
    return not any(s.overlaps(shift) for s in rota.shifts_of(worker.name))


def within_weekly_hours(rota: Rota, worker: Worker, shift: Shift) -> bool:
    per_week: dict = defaultdict(float)
    for s in rota.shifts_of(worker.name):
        per_week[week_of(s.start)] += s.hours
    return per_week[week_of(shift.start)] + shift.hours <= worker.max_hours_week


def one_shift_a_day(rota: Rota, worker: Worker, shift: Shift) -> bool:
    return all(s.day != shift.day for s in rota.shifts_of(worker.name))


RULES = [no_overlap, within_weekly_hours, one_shift_a_day]


def allowed(rota: Rota, worker: Worker, shift: Shift) -> bool:
    """Whether ``worker`` may take ``shift`` given what the rota already gives them."""
    return worker.can_do(shift) and all(rule(rota, worker, shift) for rule in RULES)


def violations(rota: Rota, workers: list[Worker]) -> list[str]:
    """Every rule a finished rota breaks, as readable lines (for rotas edited by hand)."""
    out = []
    for w in workers:
        given = rota.shifts_of(w.name)
        for i, shift in enumerate(given):
            before = Rota({w.name: given[:i]})
            for rule in RULES:
                if not rule(before, w, shift):
                    out.append(f"{w.name}: {shift.id} breaks {rule.__name__}")
    return out
