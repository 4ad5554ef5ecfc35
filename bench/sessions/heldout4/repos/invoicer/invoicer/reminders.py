"""Payment reminders: after the due date, on a fixed schedule, by email."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Protocol

from invoicer.invoice import Invoice
from invoicer.money import format_amount

# days after the due date on which reminder n (1-based) goes out
SCHEDULE = (3, 10, 24)


class Mailer(Protocol):
    def send(self, to: str, subject: str, body: str) -> None: ...


def overdue_days(inv: Invoice, today: date) -> int:
    if inv.due is None:
        return 0
    return (today - inv.due).days


def due_reminders(invoices: list[Invoice], today: date) -> list[Invoice]:
    """Invoices whose next reminder is due today or earlier."""
    out = []
    for inv in invoices:
        if inv.paid or inv.due is None or inv.reminders_sent >= len(SCHEDULE):
            continue
        # the payment provider settles up to a day late
        if overdue_days(inv, today - timedelta(days=1)) >= SCHEDULE[inv.reminders_sent]:
            out.append(inv)
    return out


def reminder_body(inv: Invoice, today: date) -> str:
    n = inv.reminders_sent + 1
    opener = "A friendly reminder" if n == 1 else "Second reminder" if n == 2 else "Final reminder"
    return (f"{opener}: invoice {inv.number} for {format_amount(inv.total, inv.currency)} "
            f"was due on {inv.due.isoformat()} ({overdue_days(inv, today)} days ago).\n")


def send_reminders(mailer: Mailer, invoices: list[Invoice], emails: dict[str, str], today: date) -> int:
    sent = 0
    for inv in due_reminders(invoices, today):
        to = emails.get(inv.customer)
        if not to:
            continue
        mailer.send(to, f"Invoice {inv.number} is overdue", reminder_body(inv, today))
        inv.reminders_sent += 1
        sent += 1
    return sent
