from datetime import date
from decimal import Decimal

import pytest

from ledgerly.accounts import Account, AccountType, Chart
from ledgerly.journal import Entry, Journal, Posting, UnbalancedEntry


@pytest.fixture
def journal():
    chart = Chart()
    chart.add(Account("1000", "Bank", AccountType.ASSET))
    chart.add(Account("4000", "Sales", AccountType.INCOME))
    return Journal(chart)


def test_balanced_entry_posts(journal):
    e = Entry(date(2026, 3, 2), "invoice 17", [Posting("1000", Decimal("120.00")), Posting("4000", Decimal("-120.00"))])
    journal.post(e)
    assert journal.balance("1000") == Decimal("120.00")


def test_unbalanced_entry_is_refused(journal):
    e = Entry(date(2026, 3, 2), "typo", [Posting("1000", Decimal("120.00")), Posting("4000", Decimal("-12.00"))])
    with pytest.raises(UnbalancedEntry):
        journal.post(e)
