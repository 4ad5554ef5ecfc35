"""The ledger: every money movement, in order."""

from dataclasses import dataclass
from datetime import datetime, timezone


@dataclass(frozen=True)
class Entry:
    account: str
    cents: int
    memo: str
    at: datetime


class Ledger:
    def __init__(self, db):
        self.db = db

    def append(self, account: str, cents: int, memo: str) -> Entry:
        if not isinstance(cents, int):
            raise TypeError("amounts are integer cents")
        entry = Entry(account, cents, memo, datetime.now(timezone.utc))
        self.db.insert("ledger", entry.__dict__)
        return entry

    def balance(self, account: str) -> int:
        rows = self.db.select("ledger", account=account)
        return sum(row["cents"] for row in rows)

    def refund(self, entry: Entry, memo: str) -> Entry:
        # a refund is a new, opposite entry: the original row stays as it was
        return self.append(entry.account, -entry.cents, f"refund: {memo}")
