"""Reservations: stock promised to an order but not yet picked.

``available = on_hand - reserved``. A reservation is made when an order is released to the
warehouse and consumed when the pick is confirmed.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import datetime, timezone

from .stock import StockLedger


class NotEnoughAvailable(Exception):
    pass


@dataclass
class Reservation:
    id: int
    order_id: str
    sku: str
    qty: int
    created_at: datetime
    released: bool = False


class ReservationBook:
    def __init__(self, ledger: StockLedger) -> None:
        self.ledger = ledger
        self._res: dict[int, Reservation] = {}
        self._ids = itertools.count(1)

    def reserved(self, sku: str) -> int:
        return sum(r.qty for r in self._res.values() if r.sku == sku and not r.released)

    def available(self, sku: str) -> int:
        return self.ledger.on_hand(sku) - self.reserved(sku)

    def reserve(self, order_id: str, sku: str, qty: int, now: datetime | None = None) -> Reservation:
        if qty <= 0:
            raise ValueError("qty must be positive")
        if qty > self.available(sku):
            raise NotEnoughAvailable(f"{sku}: wanted {qty}, available {self.available(sku)}")
        r = Reservation(next(self._ids), order_id, sku, qty, now or datetime.now(timezone.utc))
        self._res[r.id] = r
        return r

    def release(self, res_id: int) -> None:
        self._res[res_id].released = True

    def for_order(self, order_id: str) -> list[Reservation]:
        return [r for r in self._res.values() if r.order_id == order_id and not r.released]

    def open(self) -> list[Reservation]:
        return [r for r in self._res.values() if not r.released]
