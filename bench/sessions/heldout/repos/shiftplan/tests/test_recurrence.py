from datetime import date, time

import pytest

from shiftplan.recurrence import Pattern, expand_weekly, parse_weekday


def test_weekday_names():
    assert parse_weekday("Monday") == 0
    assert parse_weekday(" sun") == 6
    with pytest.raises(ValueError):
        parse_weekday("funday")


def test_expands_every_week_until_horizon():
    p = Pattern("tue", time(9), 8, start=date(2026, 3, 2))
    slots = expand_weekly(p, horizon=date(2026, 3, 24))
    assert [s.begins.day for s in slots] == [3, 10, 17, 24]
    assert all(s.hours == 8 for s in slots)
