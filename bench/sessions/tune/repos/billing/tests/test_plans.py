from datetime import date

from billing.plans import next_period_end


def test_plain_month():
    assert next_period_end(date(2026, 3, 10), 1) == date(2026, 4, 10)


def test_year():
    assert next_period_end(date(2026, 3, 10), 12) == date(2027, 3, 10)
