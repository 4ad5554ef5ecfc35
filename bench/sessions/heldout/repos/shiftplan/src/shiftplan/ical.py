"""A rota as an iCalendar feed people can subscribe to."""

from __future__ import annotations

from datetime import datetime

from .rota import Rotation, Shift

PRODID = "-//shiftplan//rota export//EN"


def escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def format_dt(dt: datetime) -> str:
    return dt.strftime("%Y%m%dT%H%M%S")


def event(shift: Shift, rota: str) -> list[str]:
    return [
        "BEGIN:VEVENT",
        f"DTSTART:{format_dt(shift.slot.begins)}",
        f"DTEND:{format_dt(shift.slot.ends)}",
        f"SUMMARY:{escape(f'{rota}: {shift.person}')}",
        "END:VEVENT",
    ]


def calendar(rota: Rotation) -> str:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}"]
    for shift in rota.shifts:
        lines += event(shift, rota.name)
    lines.append("END:VCALENDAR")
    return "\r\n".join(lines) + "\r\n"
