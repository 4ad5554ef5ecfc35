"""Trial balance, balance sheet and income statement, and a plain-text table for the CLI."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from ledgerline.accounts import Account, AccountType
from ledgerline.journal import Journal


def trial_balance(journal: Journal, until: date | None = None) -> list[tuple[Account, Decimal, Decimal]]:
    """(account, debit, credit) for every account with a balance."""
    rows = []
    for account in journal.chart:
        bal = journal.balance(account.code, until).amount
        if bal == 0:
            continue
        rows.append((account, bal if bal > 0 else Decimal(0), -bal if bal < 0 else Decimal(0)))
    return rows


def _section(journal: Journal, types: tuple[AccountType, ...], until: date | None,
             start: date | None = None) -> dict[str, Decimal]:
    out = {}
    for account in journal.chart:
        if account.type not in types:
            continue
        total = Decimal(0)
        for e in journal.between(start, until):
            total += sum((p.amount.amount for p in e.postings if p.account == account.code), Decimal(0))
        if total:
            out[account.name] = total if account.type.debit_normal else -total
    return out


def balance_sheet(journal: Journal, on: date) -> dict[str, dict[str, Decimal]]:
    return {"assets": _section(journal, (AccountType.ASSET,), on),
            "liabilities": _section(journal, (AccountType.LIABILITY,), on),
            "equity": _section(journal, (AccountType.EQUITY,), on)}


def income_statement(journal: Journal, start: date, end: date) -> dict[str, dict[str, Decimal]]:
    return {"income": _section(journal, (AccountType.INCOME,), end, start),
            "expenses": _section(journal, (AccountType.EXPENSE,), end, start)}


def render_table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths)),
             "  ".join("-" * w for w in widths)]
    for r in rows:
        lines.append("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))))
    return "\n".join(lines)
