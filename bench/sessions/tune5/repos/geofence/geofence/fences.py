"""Customer fences, loaded from the JSON the dashboard exports."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from geofence.geometry import Point, Polygon, from_geojson, point_in_polygon


@dataclass(frozen=True)
class Fence:
    id: str
    customer_id: str
    name: str
    polygon: Polygon


class FenceStore:
    def __init__(self):
        self._by_customer: dict[str, list[Fence]] = {}

    def add(self, fence: Fence) -> None:
        self._by_customer.setdefault(fence.customer_id, []).append(fence)

    def for_customer(self, customer_id: str) -> list[Fence]:
        return list(self._by_customer.get(customer_id, []))

    def containing(self, customer_id: str, pt: Point) -> set[str]:
        return {f.id for f in self.for_customer(customer_id) if point_in_polygon(pt, f.polygon)}


def load(path: Path) -> FenceStore:
    store = FenceStore()
    data = json.loads(path.read_text(encoding="utf-8"))
    for i, item in enumerate(data["fences"]):
        try:
            poly = from_geojson(item["geometry"]["coordinates"][0])
        except (KeyError, IndexError, ValueError) as e:
            raise ValueError(f"{path}: fence #{i} ({item.get('id', '?')}): {e}") from e
        store.add(Fence(item["id"], item["customer_id"], item.get("name", item["id"]), poly))
    return store
