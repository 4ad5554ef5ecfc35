from datetime import datetime


def parse_timestamp(value: str) -> float:
    for fmt in ("%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%d.%m.%Y %H:%M"):
        try:
            return datetime.strptime(value.strip(), fmt).timestamp()
        except ValueError:
            continue
    raise ValueError(f"unrecognised timestamp {value!r}")


def coerce_number(value) -> float | None:
    if value is None or value == "":
        return None
    if isinstance(value, (int, float)):
        return float(value)
    return float(str(value).replace(",", "."))


def normalize_row(row: dict, columns: dict[str, str]) -> dict:
    get = lambda key: row.get(columns.get(key, key))  # noqa: E731
    return {
        "meter_id": str(get("meter_id")).strip(),
        "read_at": parse_timestamp(str(get("read_at"))),
        "value": coerce_number(get("value")),
        "unit": (get("unit") or "kWh").strip(),
    }
