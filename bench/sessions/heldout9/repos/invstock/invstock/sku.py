"""SKUs: the catalogue entries the warehouse stocks.

A SKU code is what the ERP sends us (``ACME-10042-BLU``); we keep it upper-cased and stripped.
``case_size`` is how many eaches ship in one case from the supplier.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

SKU_PATTERN = re.compile(r"^[A-Z0-9]{2,8}-[0-9]{3,6}(-[A-Z0-9]{1,4})?$")


class InvalidSku(ValueError):
    pass


def normalize_code(code: str) -> str:
    """``" acme-10042-blu "`` -> ``"ACME-10042-BLU"``."""
    cleaned = code.strip().upper().replace("_", "-")
    if not SKU_PATTERN.match(cleaned):
        raise InvalidSku(f"not a SKU code: {code!r}")
    return cleaned


@dataclass
class Sku:
    code: str
    description: str
    case_size: int = 1
    unit_cost_cents: int = 0
    gtin: str | None = None
    zones: list[str] = field(default_factory=list)
    active: bool = True

    def __post_init__(self) -> None:
        self.code = normalize_code(self.code)
        if self.case_size < 1:
            raise InvalidSku(f"{self.code}: case_size must be >= 1, got {self.case_size}")


class Catalogue:
    """All SKUs, by code and by GTIN (the barcode on the case)."""

    def __init__(self) -> None:
        self._by_code: dict[str, Sku] = {}
        self._by_gtin: dict[str, Sku] = {}

    def add(self, sku: Sku) -> None:
        if sku.code in self._by_code:
            raise InvalidSku(f"duplicate SKU {sku.code}")
        self._by_code[sku.code] = sku
        if sku.gtin:
            self._by_gtin[sku.gtin] = sku

    def get(self, code: str) -> Sku:
        return self._by_code[normalize_code(code)]

    def by_gtin(self, gtin: str) -> Sku | None:
        return self._by_gtin.get(gtin)

    def active(self) -> list[Sku]:
        return [s for s in self._by_code.values() if s.active]

    def __len__(self) -> int:
        return len(self._by_code)
