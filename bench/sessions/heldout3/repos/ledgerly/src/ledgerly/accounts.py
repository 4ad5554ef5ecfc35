"""The chart of accounts."""

from dataclasses import dataclass, field
from enum import Enum


class AccountType(Enum):
    ASSET = "asset"
    LIABILITY = "liability"
    EQUITY = "equity"
    INCOME = "income"
    EXPENSE = "expense"

    @property
    def debit_normal(self):
        return self in (AccountType.ASSET, AccountType.EXPENSE)


@dataclass
class Account:
    code: str
    name: str
    type: AccountType
    currency: str = "EUR"


@dataclass
class Chart:
    accounts: dict = field(default_factory=dict)

    def add(self, account):
        if account.code in self.accounts:
            raise ValueError(f"account {account.code} already exists")
        self.accounts[account.code] = account
        return account

    def get(self, code):
        try:
            return self.accounts[code]
        except KeyError:
            raise KeyError(f"no account {code}") from None

    def of_type(self, type_):
        return [a for a in self.accounts.values() if a.type is type_]
