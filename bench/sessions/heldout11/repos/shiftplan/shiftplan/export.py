"""Writing a rota out: CSV for the payroll office, iCalendar for the staff's phones."""

from __future__ import annotations

import csv
import os
from datetime import datetime, timezone
from pathlib import Path

from shiftplan.calendar import zone_of
from shiftplan.model import Rota

CSV_FIELDS = ["worker", "shift", "site", "role", "start", "end", "hours"]


def write_csv(rota: Rota, path: Path) -> None:
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(CSV_FIELDS)
        for name, s in rota.all_shifts():
            out.writerow([name, s.id, s.site, s.role, s.start.isoformat(timespec="minutes"),
                          s.end.isoformat(timespec="minutes"), f"{s.hours:.2f}"])


def _ical_time(moment: datetime, site: str) -> str:
    aware = moment.replace(tzinfo=zone_of(site))
    return aware.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def write_ical(rota: Rota, name: str, path: Path) -> None:
    """One worker's shifts as an .ics file they can subscribe to."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//shiftplan//EN"]
    for s in rota.shifts_of(name):
        lines += [
            "BEGIN:VEVENT",
            f"UID:{s.id}@shiftplan",
            f"DTSTART:{_ical_time(s.start, s.site)}",
            f"DTEND:{_ical_time(s.end, s.site)}",
            f"SUMMARY:{s.role} at {s.site}",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    Path(path).write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
