"""Money amounts as the tills print them: '12,50', '1.234,00', '-3.10', '€ 4,20'."""

from __future__ import annotations


class AmountError(ValueError):
    """An amount that cannot be read."""


def _clean(text: str) -> str:
    cleaned = text.strip().replace("€", "").replace("\u00a0", "").replace(" ", "")
    if "," in cleaned and "." in cleaned:
        # '1.234,50': the dot groups thousands, the comma is the decimal mark.
        cleaned = cleaned.replace(".", "").replace(",", ".")
    else:
        cleaned = cleaned.replace(",", ".")
    return cleaned


def parse_amount(text: str) -> float:
    """The amount printed as ``text``, in euros."""
    cleaned = _clean(text)
    if not cleaned:
        raise AmountError(f"empty amount: {text!r}")
    try:
        return float(cleaned)
    except ValueError:
        raise AmountError(f"not an amount: {text!r}") from None


def format_amount(value: float) -> str:
    """``value`` the way the finance reports print it: '1234.50'."""
    return f"{value:.2f}"


def total(values: list[float]) -> float:
    """The sum of ``values``."""
    return sum(values)
