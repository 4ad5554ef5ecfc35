from __future__ import annotations

from datetime import datetime, timedelta

from .calendar import PractitionerCalendar
from .models import Patient

RETENTION = timedelta(days=365 * 6)


def expired(patient: Patient, now: datetime) -> bool:
    return patient.last_visit is not None and now - patient.last_visit > RETENTION


def purge_expired(patients: dict[str, Patient], calendar: PractitionerCalendar, now: datetime) -> list[str]:
    """Removes patients whose last visit is older than the retention period."""
    gone = [pid for pid, p in patients.items() if expired(p, now)]
    for pid in gone:
        del patients[pid]
        for appt in calendar.all():
            if appt.patient_id == pid:
                calendar.remove(appt.id)
    return gone
