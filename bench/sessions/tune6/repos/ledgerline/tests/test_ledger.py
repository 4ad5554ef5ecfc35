from datetime import date
from decimal import Decimal

import pytest

from ledgerline.accounts import Account, AccountType, Chart
from ledgerline.closing import close_period
from ledgerline.importer import import_csv
from ledgerline.journal import Entry, Journal, Posting, PostingError
from ledgerline.money import CurrencyMismatch, Money, parse_amount
from ledgerline.rates import RateMissing, RateTable
from ledgerline.reports import trial_balance


def eur(x: str) -> Money:
    return Money.of(x, "EUR")


@pytest.fixture
def chart() -> Chart:
    return Chart([
        Account("1200", "Bank", AccountType.ASSET),
        Account("1999", "Suspense", AccountType.ASSET),
        Account("3000", "Retained earnings", AccountType.EQUITY),
        Account("4000", "Sales", AccountType.INCOME),
        Account("6000", "Rent", AccountType.EXPENSE),
    ])


def test_money_rounds_to_minor_unit():
    assert Money.of("10.005", "EUR").amount == Decimal("10.01")
    assert Money.of("10.4", "JPY").amount == Decimal("10")


def test_money_refuses_mixed_currencies():
    with pytest.raises(CurrencyMismatch):
        eur("1") + Money.of("1", "USD")


def test_parse_amount_accounting_negative():
    assert parse_amount("(1,234.50)") == Decimal("-1234.50")


def test_post_and_balance(chart):
    j = Journal(chart)
    j.post(Entry(date(2026, 1, 5), "January rent", [Posting("6000", eur("800")), Posting("1200", eur("-800"))]))
    assert j.balance("1200").amount == Decimal("-800.00")


def test_post_checks_account_currency(chart):
    j = Journal(chart)
    with pytest.raises(PostingError):
        j.post(Entry(date(2026, 1, 5), "x", [Posting("6000", Money.of("1", "USD")),
                                            Posting("1200", Money.of("-1", "USD"))]))


def test_rates_convert():
    t = RateTable()
    t.add("EUR", "USD", date(2026, 3, 2), "1.0842")
    assert t.convert(eur("100"), "USD", date(2026, 3, 2)) == Money.of("108.42", "USD")
    with pytest.raises(RateMissing):
        t.rate("EUR", "USD", date(2026, 3, 3))


def test_import_csv(tmp_path, chart):
    f = tmp_path / "st.csv"
    f.write_text("date,description,amount,account\n2026-01-05,Rent,-800.00,6000\n05.01.2026,?,12,\n")
    result = import_csv(f, chart, "1200")
    assert [e.memo for e in result.entries] == ["Rent", "?"]
    assert result.entries[1].postings[1].account == "1999"


def test_close_period(chart):
    j = Journal(chart)
    j.post(Entry(date(2026, 1, 5), "sale", [Posting("1200", eur("500")), Posting("4000", eur("-500"))]))
    j.post(Entry(date(2026, 1, 6), "rent", [Posting("6000", eur("200")), Posting("1200", eur("-200"))]))
    close_period(j, date(2026, 1, 31))
    assert j.balance("4000").is_zero() and j.balance("6000").is_zero()
    assert j.balance("3000").amount == Decimal("-300.00")


def test_trial_balance(chart):
    j = Journal(chart)
    j.post(Entry(date(2026, 1, 5), "sale", [Posting("1200", eur("500")), Posting("4000", eur("-500"))]))
    assert [(a.code, d, c) for a, d, c in trial_balance(j)] == [("1200", Decimal("500.00"), 0), ("4000", 0, Decimal("500.00"))]
