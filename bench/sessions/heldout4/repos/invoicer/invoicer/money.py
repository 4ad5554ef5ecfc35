"""Amounts in minor units (int cents) and the few conversions the rest of the package needs."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

# minor units per currency; everything we bill in today has two
MINOR_DIGITS = {"EUR": 2, "USD": 2, "GBP": 2, "CHF": 2}
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "CHF": "CHF "}


class CurrencyError(ValueError):
    pass


def digits(currency: str) -> int:
    try:
        return MINOR_DIGITS[currency]
    except KeyError:
        raise CurrencyError(f"unsupported currency {currency!r}") from None


def to_minor(amount: str | Decimal, currency: str) -> int:
    """'12.34' -> 1234 for a two-digit currency; rounds half up."""
    q = Decimal(1).scaleb(-digits(currency))
    value = Decimal(amount).quantize(q, rounding=ROUND_HALF_UP)
    return int(value.scaleb(digits(currency)))


def round_minor(value: Decimal) -> int:
    """A fractional amount of minor units, rounded half up to a whole one."""
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def format_amount(minor: int, currency: str) -> str:
    """1234, 'EUR' -> '€12.34'; negative amounts get a leading minus."""
    d = digits(currency)
    sign = "-" if minor < 0 else ""
    whole, frac = divmod(abs(minor), 10 ** d)
    body = f"{whole:,}" + (f".{frac:0{d}d}" if d else "")
    return f"{sign}{SYMBOLS.get(currency, currency + ' ')}{body}"
