"""Polygons in degrees (lon, lat) and the point-in-polygon test."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    lon: float
    lat: float


@dataclass(frozen=True)
class Polygon:
    ring: tuple[Point, ...]

    def __post_init__(self):
        if len(self.ring) < 3:
            raise ValueError(f"a polygon needs at least 3 points, got {len(self.ring)}")

    def bbox(self) -> tuple[float, float, float, float]:
        lons = [p.lon for p in self.ring]
        lats = [p.lat for p in self.ring]
        return min(lons), min(lats), max(lons), max(lats)


def from_geojson(coords: list[list[float]]) -> Polygon:
    pts = [Point(float(x), float(y)) for x, y in coords]
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts = pts[:-1]  # GeoJSON rings repeat the first point at the end
    return Polygon(tuple(pts))


def point_in_polygon(pt: Point, poly: Polygon) -> bool:
    """Ray casting: count the edges a ray going east from ``pt`` crosses."""
    min_lon, min_lat, max_lon, max_lat = poly.bbox()
    if not (min_lon <= pt.lon <= max_lon and min_lat <= pt.lat <= max_lat):
        return False
    inside = False
    ring = poly.ring
    j = len(ring) - 1
    for i in range(len(ring)):
        a, b = ring[i], ring[j]
        if (a.lat > pt.lat) != (b.lat > pt.lat):
            cross = (b.lon - a.lon) * (pt.lat - a.lat) / (b.lat - a.lat) + a.lon
            if pt.lon < cross:
                inside = not inside
        j = i
    return inside
