from __future__ import annotations

import os
import smtplib
from email.message import EmailMessage

from .models import Appointment, Patient

CLINIC_NAME = "Cabinet Médical Sainte-Anne"


def _ics(appt: Appointment) -> str:
    fmt = "%Y%m%dT%H%M%SZ"
    return "\r\n".join([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//clinic//booking//EN",
        "BEGIN:VEVENT", f"UID:{appt.id}@clinic", f"DTSTART:{appt.start.strftime(fmt)}",
        f"DTEND:{appt.end.strftime(fmt)}", f"SUMMARY:{CLINIC_NAME}", "END:VEVENT", "END:VCALENDAR", ""])


def build_reminder(appt: Appointment, patient: Patient) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = os.environ.get("CLINIC_MAIL_FROM", "rendezvous@example.org")
    msg["To"] = patient.email
    msg["Subject"] = f"Rappel : votre rendez-vous du {appt.start:%d/%m à %H:%M}"
    msg.set_content(f"Bonjour {patient.name},\n\nNous vous rappelons votre rendez-vous au {CLINIC_NAME}.\n")
    msg.add_attachment(_ics(appt), subtype="calendar", filename="rendezvous.ics")
    return msg


class Mailer:
    def __init__(self) -> None:
        self.host = os.environ.get("CLINIC_SMTP_HOST", "localhost")
        self.port = int(os.environ.get("CLINIC_SMTP_PORT", "25"))

    def send(self, msg: EmailMessage) -> None:
        with smtplib.SMTP(self.host, self.port, timeout=10) as smtp:
            smtp.send_message(msg)
