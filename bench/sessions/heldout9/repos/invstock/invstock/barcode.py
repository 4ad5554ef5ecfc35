"""Barcode parsing for the RF scanners: EAN-13 on eaches, GS1-128 on cases and pallets.

GS1-128 carries Application Identifiers (AIs): ``(01)`` GTIN, ``(10)`` batch/lot, ``(17)``
expiry YYMMDD, ``(30)`` count of items. Variable-length fields end with the FNC1 group
separator (ASCII 29) or the end of the data.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

GS = "\x1d"

# AI -> (fixed length or None for variable, max length)
AIS: dict[str, tuple[int | None, int]] = {
    "00": (18, 18),
    "01": (14, 14),
    "10": (None, 20),
    "17": (6, 6),
    "30": (None, 8),
    "37": (None, 8),
}


class BarcodeError(ValueError):
    pass


@dataclass
class Scan:
    gtin: str | None = None
    lot: str | None = None
    expiry: date | None = None
    count: int | None = None
    sscc: str | None = None


def ean13_check_digit(first12: str) -> int:
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(first12))
    return (10 - total % 10) % 10


def validate_ean13(code: str) -> str:
    if len(code) != 13 or not code.isdigit():
        raise BarcodeError(f"not an EAN-13: {code!r}")
    if ean13_check_digit(code[:12]) != int(code[12]):
        raise BarcodeError(f"bad check digit: {code}")
    return code


def _expiry(yymmdd: str) -> date:
    yy, mm, dd = int(yymmdd[:2]), int(yymmdd[2:4]), int(yymmdd[4:])
    # GS1: day 00 means the last day of the month
    if dd == 0:
        nxt = date(2000 + yy + (mm == 12), mm % 12 + 1, 1)
        return date.fromordinal(nxt.toordinal() - 1)
    return date(2000 + yy, mm, dd)


def parse_gs1(data: str) -> Scan:
    scan = Scan()
    i = 0
    while i < len(data):
        ai = data[i:i + 2]
        if ai not in AIS:
            raise BarcodeError(f"unknown AI {ai!r} at {i} in {data!r}")
        fixed, maxlen = AIS[ai]
        i += 2
        if fixed is not None:
            value = data[i:i + fixed]
            i += fixed
        else:
            end = data.find(GS, i)
            end = len(data) if end == -1 else end
            value = data[i:end][:maxlen]
            i = end + 1
        if ai == "01":
            scan.gtin = value
        elif ai == "00":
            scan.sscc = value
        elif ai == "10":
            scan.lot = value
        elif ai == "17":
            scan.expiry = _expiry(value)
        elif ai in ("30", "37"):
            scan.count = int(value)
    return scan
