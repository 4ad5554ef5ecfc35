"""Amounts: parsing what people and banks write, and rounding to a currency's minor unit."""

from decimal import Decimal, InvalidOperation

MINOR_UNITS = {"EUR": 2, "USD": 2, "GBP": 2, "JPY": 0, "CHF": 2}


class AmountError(ValueError):
    pass


def parse_amount(text, decimal_comma=False):
    s = text.strip().replace(" ", "")
    if decimal_comma:
        s = s.replace(".", "").replace(",", ".")
    else:
        s = s.replace(",", "")
    try:
        return Decimal(s)
    except InvalidOperation:
        raise AmountError(f"not an amount: {text!r}") from None


def quantum(currency):
    places = MINOR_UNITS.get(currency, 2)
    return Decimal(1).scaleb(-places)


def round_money(amount, currency):
    return amount.quantize(quantum(currency))


def format_money(amount, currency):
    return f"{round_money(amount, currency):,} {currency}"
