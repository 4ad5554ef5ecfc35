"""Stock movements and the on-hand ledger.

Every change to stock is a ``Movement`` appended to the ledger; ``on_hand`` is the sum of
movements per (SKU, location). Locations are bin codes like ``A-03-2``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone
from enum import Enum


class MoveKind(str, Enum):
    RECEIVE = "receive"
    PICK = "pick"
    ADJUST = "adjust"
    TRANSFER_OUT = "transfer_out"
    TRANSFER_IN = "transfer_in"


@dataclass(frozen=True)
class Movement:
    sku: str
    location: str
    qty: int
    kind: MoveKind
    at: datetime
    ref: str = ""


class InsufficientStock(Exception):
    def __init__(self, sku: str, location: str, wanted: int, have: int):
        super().__init__(f"{sku}@{location}: wanted {wanted}, on hand {have}")
        self.sku, self.location, self.wanted, self.have = sku, location, wanted, have


def _now() -> datetime:
    return datetime.now(timezone.utc)


class StockLedger:
    def __init__(self) -> None:
        self.movements: list[Movement] = []
        self._on_hand: dict[tuple[str, str], int] = defaultdict(int)

    def _append(self, m: Movement) -> Movement:
        self.movements.append(m)
        self._on_hand[(m.sku, m.location)] += m.qty
        return m

    def on_hand(self, sku: str, location: str | None = None) -> int:
        if location is not None:
            return self._on_hand.get((sku, location), 0)
        return sum(q for (s, _), q in self._on_hand.items() if s == sku)

    def locations(self, sku: str) -> dict[str, int]:
        return {loc: q for (s, loc), q in self._on_hand.items() if s == sku and q}

    def receive(self, sku: str, location: str, qty: int, ref: str = "") -> Movement:
        if qty <= 0:
            raise ValueError("receive qty must be positive")
        return self._append(Movement(sku, location, qty, MoveKind.RECEIVE, _now(), ref))

    def pick(self, sku: str, location: str, qty: int, ref: str = "") -> Movement:
        if qty <= 0:
            raise ValueError("pick qty must be positive")
        return self._append(Movement(sku, location, -qty, MoveKind.PICK, _now(), ref))

    def adjust(self, sku: str, location: str, delta: int, reason: str) -> Movement:
        if not reason:
            raise ValueError("an adjustment needs a reason")
        return self._append(Movement(sku, location, delta, MoveKind.ADJUST, _now(), reason))

    def transfer(self, sku: str, src: str, dst: str, qty: int, ref: str = "") -> tuple[Movement, Movement]:
        out = self._append(Movement(sku, src, -qty, MoveKind.TRANSFER_OUT, _now(), ref))
        inn = self._append(Movement(sku, dst, qty, MoveKind.TRANSFER_IN, _now(), ref))
        return out, inn

    def history(self, sku: str, kind: MoveKind | None = None) -> list[Movement]:
        return [m for m in self.movements if m.sku == sku and (kind is None or m.kind == kind)]
