import pytest

from depot.stock import OutOfStock, StockLedger


def test_reserve_reduces_available():
    led = StockLedger()
    led.receive("BOLT-M6", 100)
    led.reserve("BOLT-M6", 30)
    assert led.available("BOLT-M6") == 70


def test_reserve_too_much():
    led = StockLedger()
    led.receive("BOLT-M6", 5)
    with pytest.raises(OutOfStock):
        led.reserve("BOLT-M6", 6)
