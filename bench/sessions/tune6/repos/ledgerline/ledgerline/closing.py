"""Period closing: income and expense accounts are zeroed into retained earnings."""

from __future__ import annotations

from datetime import date

from ledgerline.journal import Entry, Journal, Posting

RETAINED_EARNINGS = "3000"


def closing_postings(journal: Journal, period_end: date, retained: str = RETAINED_EARNINGS) -> list[Posting]:
    postings: list[Posting] = []
    target = journal.chart.get(retained)
    net = None
    for account in journal.chart:
        if not account.type.temporary:
            continue
        if account.currency != target.currency:
            raise ValueError(f"{account.code} is in {account.currency}; convert before closing")
        bal = journal.balance(account.code, until=period_end)
        if bal.is_zero():
            continue
        postings.append(Posting(account.code, -bal))
        net = bal if net is None else net + bal
    if net is not None:
        postings.append(Posting(retained, net))
    return postings


def close_period(journal: Journal, period_end: date, retained: str = RETAINED_EARNINGS) -> Entry | None:
    """Posts the closing entry dated `period_end`; None when there is nothing to close."""
    postings = closing_postings(journal, period_end, retained)
    if not postings:
        return None
    return journal.post(Entry(period_end, f"Closing {period_end.isoformat()}", postings, ref="close"))
