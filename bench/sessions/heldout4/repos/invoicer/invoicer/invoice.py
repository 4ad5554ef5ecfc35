"""An invoice: a customer, a region, line items, an optional coupon, and its totals."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

from invoicer.discounts import Coupon, discount_for, redeem
from invoicer.lines import LineItem, line_total
from invoicer.numbering import InvoiceNumberer
from invoicer.tax import compute_tax, needs_vat_id


class InvoiceError(ValueError):
    pass


@dataclass
class Invoice:
    customer: str
    region: str
    currency: str = "EUR"
    lines: list[LineItem] = field(default_factory=list)
    coupons: list[Coupon] = field(default_factory=list)
    number: str | None = None
    issued: date | None = None
    due: date | None = None
    vat_id: str | None = None
    notes: str = ""
    paid: bool = False
    reminders_sent: int = 0

    @classmethod
    def draft(cls, numberer: InvoiceNumberer, customer: str, region: str, today: date, **kw) -> Invoice:
        inv = cls(customer=customer, region=region, **kw)
        inv.number = numberer.next_number(today.year)
        return inv

    def add(self, line: LineItem) -> None:
        if self.issued is not None:
            raise InvoiceError("a finalised invoice cannot change")
        self.lines.append(line)

    def add_coupon(self, coupon: Coupon) -> None:
        self.coupons.append(coupon)

    @property
    def subtotal(self) -> int:
        return sum(line_total(line) for line in self.lines)

    @property
    def discount(self) -> int:
        left = self.subtotal
        off = 0
        for coupon in self.coupons:
            d = discount_for(coupon, left)
            off += d
            left -= d
        return off

    @property
    def tax(self) -> int:
        return compute_tax(self.lines, self.region)

    @property
    def total(self) -> int:
        return self.subtotal - self.discount + self.tax

    def finalize(self, today: date, terms_days: int = 14) -> None:
        if not self.lines:
            raise InvoiceError("an invoice needs at least one line")
        if needs_vat_id(self.lines) and not self.vat_id:
            raise InvoiceError("reverse charge needs the customer's VAT id")
        for coupon in self.coupons:
            redeem(coupon, today)
        self.issued = today
        self.due = today + timedelta(days=terms_days)
