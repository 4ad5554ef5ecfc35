"""ISBN parsing and validation (ISBN-10 and ISBN-13)."""

from __future__ import annotations

import re

_ALLOWED = re.compile(r"^[0-9X]+$")


class InvalidISBN(ValueError):
    pass


def normalize(raw: str) -> str:
    """Strip spaces and hyphens: '0-306-40615-2' -> '0306406152'."""
    cleaned = raw.strip().replace("-", "").replace(" ", "")
    if not _ALLOWED.match(cleaned):
        raise InvalidISBN(f"not an ISBN: {raw!r}")
    return cleaned


def isbn10_check_digit(first9: str) -> str:
    total = sum((10 - i) * int(d) for i, d in enumerate(first9))
    check = (11 - total % 11) % 11
    return "X" if check == 10 else str(check)


def isbn13_check_digit(first12: str) -> str:
    total = sum((1 if i % 2 == 0 else 3) * int(d) for i, d in enumerate(first12))
    return str((10 - total % 10) % 10)


def is_valid_isbn10(code: str) -> bool:
    if len(code) != 10 or not code[:9].isdigit():
        return False
    return isbn10_check_digit(code[:9]) == code[9]


def is_valid_isbn13(code: str) -> bool:
    if len(code) != 13 or not code.isdigit():
        return False
    return isbn13_check_digit(code[:12]) == code[12]


def to_isbn13(code: str) -> str:
    """An ISBN-10 as its ISBN-13 (978 prefix); an ISBN-13 unchanged."""
    if len(code) == 13:
        return code
    body = "978" + code[:9]
    return body + isbn13_check_digit(body)


def parse_isbn(raw: str) -> str:
    """A validated, normalized ISBN (10 or 13 digits as given)."""
    code = normalize(raw)
    if len(code) == 10 and is_valid_isbn10(code):
        return code
    if len(code) == 13 and is_valid_isbn13(code):
        return code
    raise InvalidISBN(f"bad check digit or length: {raw!r}")


def hyphenate13(code: str) -> str:
    """A display form; real hyphenation needs the range tables, this only splits the prefix."""
    return f"{code[:3]}-{code[3:]}" if len(code) == 13 else code
