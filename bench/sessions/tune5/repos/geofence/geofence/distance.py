"""Great-circle distances."""

from __future__ import annotations

import math

from geofence.geometry import Point

EARTH_RADIUS_M = 6_371_000.0


def haversine(a: Point, b: Point) -> float:
    """Metres between two points on a sphere."""
    lat1, lat2 = math.radians(a.lat), math.radians(b.lat)
    dlat = lat2 - lat1
    dlon = math.radians(b.lon - a.lon)
    h = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlon / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(math.sqrt(h))


def nearest(pt: Point, candidates: list[Point]) -> tuple[int, float]:
    """Index and distance of the closest candidate."""
    if not candidates:
        raise ValueError("no candidates")
    best = min(range(len(candidates)), key=lambda i: haversine(pt, candidates[i]))
    return best, haversine(pt, candidates[best])
