from __future__ import annotations

from datetime import datetime, timedelta

from .calendar import PractitionerCalendar
from .mailer import Mailer, build_reminder
from .models import Appointment, Patient


def reminder_time(appt: Appointment) -> datetime:
    """When the reminder for ``appt`` goes out."""
    return appt.start - timedelta(hours=24)


def due_reminders(calendar: PractitionerCalendar, now: datetime) -> list[Appointment]:
    return [a for a in calendar.all()
            if a.status == "booked" and not a.reminder_sent and reminder_time(a) <= now < a.start]


def send_due(calendar: PractitionerCalendar, patients: dict[str, Patient], mailer: Mailer, now: datetime) -> int:
    sent = 0
    for appt in due_reminders(calendar, now):
        patient = patients.get(appt.patient_id)
        if patient is None or not patient.email:
            continue
        mailer.send(build_reminder(appt, patient))
        appt.reminder_sent = True
        sent += 1
    return sent
