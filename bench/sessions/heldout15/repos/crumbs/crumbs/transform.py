"""From export rows to sale lines."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone

from crumbs.money import AmountError, parse_amount
from crumbs.parse import ExportError
from crumbs.stores import Store, store_for

SALE_TYPES = {"SALE", "RFND", "VOID"}


@dataclass(frozen=True)
class SaleLine:
    store_id: str
    receipt_no: str
    line_no: int
    sold_at: datetime
    business_day: date
    sku: str
    qty: int
    amount: float
    type: str


def parse_timestamp(text: str) -> datetime:
    """A till timestamp ('2025-03-14T06:12:09Z'), always in UTC."""
    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def business_day(sold_at: datetime, store: Store) -> date:
    """The day a sale counts for in the reports."""
    return sold_at.date()


def normalize_row(row: dict[str, str], stores: dict[str, Store], source: str) -> SaleLine:
    """The sale line of ``row``; an ExportError names ``source``, the line and the reason."""
    where = f"{source}:{row.get('_line', '?')}"
    try:
        store = store_for(stores, row["store_id"])
        kind = row["type"].upper()
        if kind not in SALE_TYPES:
            raise ExportError(f"{where}: unknown line type {row['type']!r}")
        sold_at = parse_timestamp(row["sold_at"])
        amount = parse_amount(row["amount"])
        return SaleLine(
            store_id=store.store_id,
            receipt_no=row["receipt_no"],
            line_no=int(row["line_no"]),
            sold_at=sold_at,
            business_day=business_day(sold_at, store),
            sku=row["sku"],
            qty=int(row["qty"]),
            amount=amount,
            type=kind,
        )
    except (KeyError, ValueError, AmountError) as e:
        if isinstance(e, ExportError):
            raise
        raise ExportError(f"{where}: {e}") from None


def normalize(rows: list[dict[str, str]], stores: dict[str, Store], source: str) -> list[SaleLine]:
    """The sale lines of ``rows``, voided lines left out."""
    lines = [normalize_row(row, stores, source) for row in rows]
    return [line for line in lines if line.type != "VOID"]
