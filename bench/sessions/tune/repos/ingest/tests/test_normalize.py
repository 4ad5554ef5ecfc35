from ingest.normalize import coerce_number, normalize_row


def test_decimal_comma():
    assert coerce_number("12,5") == 12.5


def test_row_defaults_unit():
    row = normalize_row({"meter_id": " M-1 ", "read_at": "2026-05-01 10:00:00", "value": "3"}, {})
    assert row["meter_id"] == "M-1" and row["unit"] == "kWh"
