"""Reorder points: when a SKU's available stock falls to its reorder point, suggest a PO line.

reorder point = average daily demand x lead time (days) + safety stock.
"""

from __future__ import annotations

from dataclasses import dataclass

from .reservations import ReservationBook
from .sku import Catalogue, Sku


@dataclass(frozen=True)
class ReorderPolicy:
    lead_time_days: int
    safety_stock: int
    min_order_qty: int = 1


@dataclass(frozen=True)
class Suggestion:
    sku: str
    available: int
    reorder_point: int
    order_qty: int


def average_daily_demand(picks_last_30_days: list[int]) -> int:
    """Units per day over the last 30 days, rounded up (a partial unit still has to be stocked)."""
    total = sum(picks_last_30_days)
    return -(-total // 30)


def reorder_point(daily_demand: int, policy: ReorderPolicy) -> int:
    return daily_demand * policy.lead_time_days + policy.safety_stock


def order_quantity(sku: Sku, available: int, point: int, policy: ReorderPolicy) -> int:
    """Enough to get back to twice the reorder point, at least the supplier's minimum."""
    want = max(2 * point - available, policy.min_order_qty)
    return want


def suggest(catalogue: Catalogue, book: ReservationBook, demand: dict[str, list[int]],
            policies: dict[str, ReorderPolicy]) -> list[Suggestion]:
    out = []
    for sku in catalogue.active():
        policy = policies.get(sku.code)
        if policy is None:
            continue
        point = reorder_point(average_daily_demand(demand.get(sku.code, [])), policy)
        avail = book.available(sku.code)
        if avail <= point:
            out.append(Suggestion(sku.code, avail, point, order_quantity(sku, avail, point, policy)))
    return sorted(out, key=lambda s: s.available - s.reorder_point)
