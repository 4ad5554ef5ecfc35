"""The store registry: which tills exist, where they are, what they sell in."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo


@dataclass(frozen=True)
class Store:
    store_id: str
    name: str
    timezone: str
    currency: str = "EUR"

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


class StoreError(ValueError):
    """A bad line in the store registry."""


def load_stores(path: Path) -> dict[str, Store]:
    """The stores listed in ``path`` (CSV: store_id,name,timezone,currency), by id."""
    stores: dict[str, Store] = {}
    with path.open(newline="", encoding="utf-8") as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            store_id = (row.get("store_id") or "").strip()
            if not store_id:
                raise StoreError(f"{path}:{line}: store_id is empty")
            if store_id in stores:
                raise StoreError(f"{path}:{line}: store {store_id} is listed twice")
            timezone = (row.get("timezone") or "Europe/Berlin").strip()
            try:
                ZoneInfo(timezone)
            except Exception:
                raise StoreError(f"{path}:{line}: unknown timezone {timezone!r}") from None
            stores[store_id] = Store(
                store_id=store_id,
                name=(row.get("name") or store_id).strip(),
                timezone=timezone,
                currency=(row.get("currency") or "EUR").strip().upper(),
            )
    return stores


def store_for(stores: dict[str, Store], store_id: str) -> Store:
    """The store ``store_id``; a KeyError names it if the registry lacks it."""
    try:
        return stores[store_id]
    except KeyError:
        raise KeyError(f"store {store_id!r} is not in the registry") from None
