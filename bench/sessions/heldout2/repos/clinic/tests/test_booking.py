from datetime import datetime, timezone

import pytest

from clinic.booking import BookingError, BookingService
from clinic.calendar import PractitionerCalendar


def at(h, m=0):
    return datetime(2026, 3, 2, h, m, tzinfo=timezone.utc)


def test_double_booking_is_refused():
    svc = BookingService(PractitionerCalendar())
    svc.book("dr-lamy", "p1", at(9), at(9, 15))
    with pytest.raises(BookingError):
        svc.book("dr-lamy", "p2", at(9, 5), at(9, 20))


def test_cancel_twice():
    svc = BookingService(PractitionerCalendar())
    a = svc.book("dr-lamy", "p1", at(9), at(9, 15))
    svc.cancel(a.id)
    with pytest.raises(BookingError):
        svc.cancel(a.id)
