"""Amounts are kept in minor units (cents) as ints."""

from decimal import ROUND_HALF_EVEN, Decimal

MINOR_UNITS = {"EUR": 2, "USD": 2, "GBP": 2, "JPY": 0}


def to_minor(amount: str | Decimal, currency: str) -> int:
    exp = Decimal(1).scaleb(-MINOR_UNITS[currency])
    return int((Decimal(amount) / exp).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))


def format_money(minor: int, currency: str) -> str:
    digits = MINOR_UNITS[currency]
    if digits == 0:
        return f"{minor} {currency}"
    return f"{minor / 10 ** digits:.{digits}f} {currency}"
