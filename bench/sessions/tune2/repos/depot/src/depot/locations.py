import re

BIN_RE = re.compile(r"^([A-Z])(\d+)-(\d+)$")


def parse_bin(code):
    m = BIN_RE.match(code.strip())
    if not m:
        raise ValueError(f"bad bin code: {code!r}")
    aisle, rack, shelf = m.groups()
    return aisle, int(rack), int(shelf)


def format_bin(aisle, rack, shelf):
    return f"{aisle}{rack}-{shelf}"
