"""Accounts and the chart of accounts."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum


class AccountType(Enum):
    ASSET = "asset"
    LIABILITY = "liability"
    EQUITY = "equity"
    INCOME = "income"
    EXPENSE = "expense"

    @property
    def debit_normal(self) -> bool:
        """Assets and expenses grow with debits; the rest with credits."""
        return self in (AccountType.ASSET, AccountType.EXPENSE)

    @property
    def temporary(self) -> bool:
        """Income and expense accounts are closed into equity at period end."""
        return self in (AccountType.INCOME, AccountType.EXPENSE)


class UnknownAccount(KeyError):
    pass


@dataclass(frozen=True)
class Account:
    code: str
    name: str
    type: AccountType
    currency: str = "EUR"
    parent: str | None = None


class Chart:
    """The chart of accounts, by code."""

    def __init__(self, accounts: Iterable[Account] = ()) -> None:
        self._by_code: dict[str, Account] = {}
        for a in accounts:
            self.add(a)

    def add(self, account: Account) -> None:
        if account.code in self._by_code:
            raise ValueError(f"duplicate account code {account.code}")
        if account.parent is not None and account.parent not in self._by_code:
            raise UnknownAccount(account.parent)
        self._by_code[account.code] = account

    def get(self, code: str) -> Account:
        try:
            return self._by_code[code]
        except KeyError:
            raise UnknownAccount(code) from None

    def __contains__(self, code: object) -> bool:
        return code in self._by_code

    def __iter__(self) -> Iterator[Account]:
        return iter(sorted(self._by_code.values(), key=lambda a: a.code))

    def children(self, code: str) -> list[Account]:
        return [a for a in self if a.parent == code]

    def find(self, name: str) -> Account | None:
        name = name.casefold()
        return next((a for a in self if a.name.casefold() == name), None)

    @classmethod
    def from_rows(cls, rows: Iterable[dict[str, str]]) -> Chart:
        """Rows of a chart CSV: code, name, type, currency (optional), parent (optional)."""
        chart = cls()
        for row in rows:
            chart.add(Account(row["code"], row["name"], AccountType(row["type"].strip().lower()),
                              row.get("currency") or "EUR", row.get("parent") or None))
        return chart
