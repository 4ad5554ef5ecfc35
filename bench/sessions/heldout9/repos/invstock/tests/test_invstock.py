from datetime import date, datetime, timedelta, timezone

import pytest

from invstock.barcode import BarcodeError, parse_gs1, validate_ean13
from invstock.reconcile import find_discrepancies, read_counts, report
from invstock.reorder import ReorderPolicy, average_daily_demand, reorder_point, suggest
from invstock.reservations import NotEnoughAvailable, ReservationBook
from invstock.sku import Catalogue, InvalidSku, Sku, normalize_code
from invstock.stock import MoveKind, StockLedger


def test_normalize_code():
    assert normalize_code(" acme-10042-blu ") == "ACME-10042-BLU"
    with pytest.raises(InvalidSku):
        normalize_code("nope")


def test_receive_and_pick():
    led = StockLedger()
    led.receive("ACME-10042", "A-03-2", 24)
    led.pick("ACME-10042", "A-03-2", 5)
    assert led.on_hand("ACME-10042") == 19
    assert [m.kind for m in led.history("ACME-10042")] == [MoveKind.RECEIVE, MoveKind.PICK]


def test_transfer_moves_between_bins():
    led = StockLedger()
    led.receive("ACME-10042", "A-03-2", 10)
    led.transfer("ACME-10042", "A-03-2", "B-01-1", 4)
    assert led.locations("ACME-10042") == {"A-03-2": 6, "B-01-1": 4}


def test_reserve_reduces_available():
    led = StockLedger()
    led.receive("ACME-10042", "A-03-2", 10)
    book = ReservationBook(led)
    book.reserve("SO-1", "ACME-10042", 7)
    assert book.available("ACME-10042") == 3
    with pytest.raises(NotEnoughAvailable):
        book.reserve("SO-2", "ACME-10042", 4)


def test_reorder_point():
    assert average_daily_demand([10] * 30) == 10
    assert reorder_point(10, ReorderPolicy(lead_time_days=5, safety_stock=20)) == 70


def test_suggest_orders_below_point():
    cat = Catalogue()
    cat.add(Sku("ACME-10042", "blue widget", case_size=12))
    led = StockLedger()
    led.receive("ACME-10042", "A-03-2", 30)
    book = ReservationBook(led)
    out = suggest(cat, book, {"ACME-10042": [2] * 30}, {"ACME-10042": ReorderPolicy(10, 15)})
    assert [s.sku for s in out] == ["ACME-10042"]


def test_ean13():
    assert validate_ean13("4006381333931") == "4006381333931"
    with pytest.raises(BarcodeError):
        validate_ean13("4006381333932")


def test_gs1_parse():
    scan = parse_gs1("0109501101530003" + "17261231" + "10AB-123\x1d" + "3024")
    assert scan.gtin == "09501101530003"
    assert scan.expiry == date(2026, 12, 31)
    assert scan.lot == "AB-123"
    assert scan.count == 24


def test_reconcile_report():
    led = StockLedger()
    led.receive("ACME-10042", "A-03-2", 10)
    counts = read_counts("sku,location,counted\nacme-10042,A-03-2,9\n")
    found = find_discrepancies(led, counts)
    assert report(found) == "sku,location,expected,counted,delta\nACME-10042,A-03-2,10,9,-1\n"
