"""Money: an amount in one currency, kept as a Decimal at the currency's minor unit."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

MINOR_UNITS = {"EUR": 2, "USD": 2, "GBP": 2, "CHF": 2, "SEK": 2, "NOK": 2, "JPY": 0, "KWD": 3}


class CurrencyMismatch(ValueError):
    """Two amounts in different currencies were combined."""


@dataclass(frozen=True)
class Money:
    amount: Decimal
    currency: str

    def __post_init__(self) -> None:
        if self.currency not in MINOR_UNITS:
            raise ValueError(f"unknown currency {self.currency!r}")
        if not isinstance(self.amount, Decimal):
            raise TypeError(f"amount must be a Decimal, got {type(self.amount).__name__}")

    @classmethod
    def of(cls, amount: str | int | Decimal, currency: str) -> Money:
        return cls(Decimal(str(amount)), currency).round()

    @classmethod
    def zero(cls, currency: str) -> Money:
        return cls(Decimal(0), currency)

    def round(self) -> Money:
        exp = Decimal(1).scaleb(-MINOR_UNITS[self.currency])
        return Money(self.amount.quantize(exp, rounding=ROUND_HALF_UP), self.currency)

    def _same(self, other: Money) -> None:
        if other.currency != self.currency:
            raise CurrencyMismatch(f"{self.currency} and {other.currency}")

    def __add__(self, other: Money) -> Money:
        self._same(other)
        return Money(self.amount + other.amount, self.currency)

    def __sub__(self, other: Money) -> Money:
        self._same(other)
        return Money(self.amount - other.amount, self.currency)

    def __neg__(self) -> Money:
        return Money(-self.amount, self.currency)

    def is_zero(self) -> bool:
        return self.amount == 0

    def __str__(self) -> str:
        return f"{self.amount:,.{MINOR_UNITS[self.currency]}f} {self.currency}"


def parse_amount(text: str) -> Decimal:
    """'1,234.50', '-12', '(12.50)' (accountants' negative) -> Decimal."""
    s = text.strip().replace(",", "").replace(" ", "")
    negative = s.startswith("(") and s.endswith(")")
    if negative:
        s = s[1:-1]
    try:
        value = Decimal(s)
    except InvalidOperation:
        raise ValueError(f"not an amount: {text!r}") from None
    return -value if negative else value
