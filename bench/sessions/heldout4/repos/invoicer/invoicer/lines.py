"""Line items: what was sold, how many, at what unit price, under which tax code."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from invoicer.money import round_minor

TAX_CODES = {"standard", "reduced", "exempt", "reverse_charge"}


class LineError(ValueError):
    pass


@dataclass(frozen=True)
class LineItem:
    description: str
    quantity: Decimal
    unit_price: int  # minor units
    tax_code: str = "standard"

    def __post_init__(self) -> None:
        if self.tax_code not in TAX_CODES:
            raise LineError(f"unknown tax code {self.tax_code!r}")
        if self.quantity <= 0:
            raise LineError("quantity must be positive")
        if not self.description.strip():
            raise LineError("a line needs a description")


def line_total(line: LineItem) -> int:
    """Quantity times unit price, in minor units (quantities can be fractional: 1.5 hours)."""
    return round_minor(Decimal(line.quantity) * line.unit_price)


def seat_line(plan: str, seats: int, price_per_seat: int) -> LineItem:
    return LineItem(f"{plan} plan, {seats} seat{'s' if seats != 1 else ''}", Decimal(seats), price_per_seat)


def usage_line(metric: str, units: Decimal, price_per_unit: int) -> LineItem:
    return LineItem(f"{metric} usage ({units} units)", units, price_per_unit)
