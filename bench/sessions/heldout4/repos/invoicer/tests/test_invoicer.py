from datetime import date
from decimal import Decimal

import pytest

from invoicer.discounts import Coupon, CouponError, discount_for, validate
from invoicer.invoice import Invoice, InvoiceError
from invoicer.lines import LineItem, line_total
from invoicer.money import format_amount, to_minor
from invoicer.numbering import InvoiceNumberer
from invoicer.reminders import due_reminders, reminder_body
from invoicer.render import render_html, render_text
from invoicer.tax import compute_tax, rate_for


def make(region="DE", **kw):
    inv = Invoice(customer="Acme GmbH", region=region, **kw)
    inv.add(LineItem("Pro plan, 3 seats", Decimal(3), 1200))
    return inv


def test_money_roundtrip():
    assert to_minor("12.345", "EUR") == 1235
    assert format_amount(123456, "EUR") == "€1,234.56"
    assert format_amount(-50, "USD") == "-$0.50"


def test_line_total_fractional_quantity():
    assert line_total(LineItem("Consulting", Decimal("1.5"), 9000)) == 13500


def test_line_rejects_unknown_tax_code():
    with pytest.raises(ValueError):
        LineItem("x", Decimal(1), 100, tax_code="luxury")


def test_tax_de_standard():
    assert compute_tax([LineItem("a", Decimal(1), 10000)], "DE") == 1900


def test_exempt_has_no_tax():
    assert rate_for("DE", "exempt") == 0


def test_percent_coupon():
    c = Coupon("SPRING10", percent_off=Decimal(10))
    assert discount_for(c, 3600) == 360


def test_fixed_coupon_never_exceeds_subtotal():
    c = Coupon("FIFTY", amount_off=5000)
    assert discount_for(c, 3600) == 3600


def test_expired_coupon():
    c = Coupon("OLD", percent_off=Decimal(5), expires=date(2024, 12, 31))
    with pytest.raises(CouponError):
        validate(c, date(2025, 1, 1))


def test_totals():
    inv = make()
    assert inv.subtotal == 3600
    assert inv.tax == 684
    assert inv.total == 4284


def test_finalize_sets_due_date():
    inv = make()
    inv.finalize(date(2025, 3, 1))
    assert inv.due == date(2025, 3, 15)
    with pytest.raises(InvoiceError):
        inv.add(LineItem("late", Decimal(1), 1))


def test_numbering(tmp_path):
    n = InvoiceNumberer(tmp_path / "numbers.json")
    assert n.next_number(2025) == "INV-2025-0001"
    assert n.next_number(2025) == "INV-2025-0002"
    assert n.peek(2025) == "INV-2025-0003"


def test_render_text_has_total():
    inv = make()
    assert "Total" in render_text(inv)
    assert "€42.84" in render_text(inv)


def test_render_html():
    assert "<h1>Invoice (draft)</h1>" in render_html(make())


def test_reminders_schedule():
    inv = make()
    inv.finalize(date(2025, 3, 1))  # due 2025-03-15
    assert due_reminders([inv], date(2025, 3, 18)) == []
    assert due_reminders([inv], date(2025, 3, 19)) == [inv]
    assert reminder_body(inv, date(2025, 3, 19)).startswith("A friendly reminder")
