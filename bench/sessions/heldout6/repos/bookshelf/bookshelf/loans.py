"""Loans to friends: who has which book, since when, and until when."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path


class LoanError(Exception):
    pass


@dataclass
class Loan:
    isbn: str
    borrower: str
    lent_on: date
    due: date | None = None
    returned_on: date | None = None

    @property
    def open(self) -> bool:
        return self.returned_on is None

    def overdue(self, today: date) -> bool:
        return self.open and self.due is not None and today > self.due

    def days_out(self, today: date) -> int:
        end = self.returned_on or today
        return (end - self.lent_on).days


class LoanBook:
    def __init__(self, loans: list[Loan] | None = None):
        self.loans: list[Loan] = loans or []

    def current(self, isbn: str) -> Loan | None:
        return next((ln for ln in self.loans if ln.isbn == isbn and ln.open), None)

    def lend(self, isbn: str, borrower: str, on: date | None = None, due: date | None = None) -> Loan:
        if self.current(isbn) is not None:
            raise LoanError(f"{isbn} is already lent to {self.current(isbn).borrower}")
        loan = Loan(isbn=isbn, borrower=borrower.strip(), lent_on=on or date.today(), due=due)
        self.loans.append(loan)
        return loan

    def return_book(self, isbn: str, on: date | None = None) -> Loan:
        loan = self.current(isbn)
        if loan is None:
            raise LoanError(f"{isbn} is not lent out")
        loan.returned_on = on or date.today()
        return loan

    def overdue(self, today: date | None = None) -> list[Loan]:
        today = today or date.today()
        return sorted((ln for ln in self.loans if ln.overdue(today)), key=lambda ln: ln.due)

    def by_borrower(self, borrower: str) -> list[Loan]:
        key = borrower.strip().lower()
        return [ln for ln in self.loans if ln.borrower.lower() == key and ln.open]


def _encode(loan: Loan) -> dict:
    return {"isbn": loan.isbn, "borrower": loan.borrower, "lent_on": loan.lent_on.isoformat(),
            "due": loan.due.isoformat() if loan.due else None,
            "returned_on": loan.returned_on.isoformat() if loan.returned_on else None}


def _decode(d: dict) -> Loan:
    opt = lambda v: date.fromisoformat(v) if v else None  # noqa: E731
    return Loan(isbn=d["isbn"], borrower=d["borrower"], lent_on=date.fromisoformat(d["lent_on"]),
                due=opt(d.get("due")), returned_on=opt(d.get("returned_on")))


def save_loans(book: LoanBook, path: Path) -> None:
    path.write_text(json.dumps([_encode(ln) for ln in book.loans], indent=2), encoding="utf-8")


def load_loans(path: Path) -> LoanBook:
    if not path.exists():
        return LoanBook()
    return LoanBook([_decode(d) for d in json.loads(path.read_text(encoding="utf-8"))])
