from datetime import datetime, timedelta, timezone

from shiftplan.recurrence import Slot
from shiftplan.rota import Rotation


def slot(day, hours=12):
    begins = datetime(2026, 5, day, 8, tzinfo=timezone.utc)
    return Slot(begins, begins + timedelta(hours=hours))


def test_fill_takes_turns():
    r = Rotation("infra", ["ana", "bo", "cy"])
    shifts = r.fill([slot(3), slot(1), slot(2), slot(4)])
    assert [s.person for s in shifts] == ["ana", "bo", "cy", "ana"]
    assert shifts[0].slot.begins.day == 1
