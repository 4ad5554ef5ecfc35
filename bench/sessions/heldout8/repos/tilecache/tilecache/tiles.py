"""Tile coordinates: XYZ (slippy map) tiles, quadkeys and bounding boxes."""

from __future__ import annotations

import math
from dataclasses import dataclass

MAX_ZOOM = 22


@dataclass(frozen=True, order=True)
class Tile:
    z: int
    x: int
    y: int

    def __post_init__(self) -> None:
        if not 0 <= self.z <= MAX_ZOOM:
            raise ValueError(f"zoom out of range: {self.z}")
        n = 1 << self.z
        if not (0 <= self.x < n and 0 <= self.y < n):
            raise ValueError(f"tile out of range at z{self.z}: {self.x}/{self.y}")

    @classmethod
    def from_path(cls, path: str) -> "Tile":
        """Parse ``z/x/y`` (optionally with an extension on y, e.g. ``3/4/2.png``)."""
        parts = path.strip("/").split("/")
        if len(parts) != 3:
            raise ValueError(f"not a tile path: {path!r}")
        z, x, y = parts
        y = y.split(".", 1)[0]
        return cls(int(z), int(x), int(y))

    @classmethod
    def from_quadkey(cls, key: str) -> "Tile":
        x = y = 0
        for i, ch in enumerate(key):
            mask = 1 << (len(key) - i - 1)
            digit = int(ch)
            if digit & 1:
                y |= mask
            if digit & 2:
                x |= mask
        return cls(len(key), x, y)

    def quadkey(self) -> str:
        digits = []
        for i in range(self.z, 0, -1):
            mask = 1 << (i - 1)
            digit = 0
            if self.x & mask:
                digit += 2
            if self.y & mask:
                digit += 1
            digits.append(str(digit))
        return "".join(digits)

    def path(self, ext: str = "png") -> str:
        return f"{self.z}/{self.x}/{self.y}.{ext}"

    def parent(self) -> "Tile":
        if self.z == 0:
            raise ValueError("z0 has no parent")
        return Tile(self.z - 1, self.x >> 1, self.y >> 1)

    def children(self) -> list["Tile"]:
        z, x, y = self.z + 1, self.x * 2, self.y * 2
        return [Tile(z, x, y), Tile(z, x + 1, y), Tile(z, x, y + 1), Tile(z, x + 1, y + 1)]

    def bounds(self) -> tuple[float, float, float, float]:
        """(west, south, east, north) in degrees."""
        n = 1 << self.z
        west = self.x / n * 360.0 - 180.0
        east = (self.x + 1) / n * 360.0 - 180.0
        north = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * self.y / n))))
        south = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * (self.y + 1) / n))))
        return west, south, east, north


def lonlat_to_tile(lon: float, lat: float, z: int) -> Tile:
    lat = max(min(lat, 85.05112878), -85.05112878)
    n = 1 << z
    x = int((lon + 180.0) / 360.0 * n)
    r = math.radians(lat)
    y = int((1.0 - math.asinh(math.tan(r)) / math.pi) / 2.0 * n)
    return Tile(z, min(max(x, 0), n - 1), min(max(y, 0), n - 1))


def tiles_for_bbox(west: float, south: float, east: float, north: float, z: int) -> list[Tile]:
    """Every tile at zoom ``z`` that touches the box (no antimeridian wrap)."""
    top_left = lonlat_to_tile(west, north, z)
    bottom_right = lonlat_to_tile(east, south, z)
    return [Tile(z, x, y)
            for x in range(top_left.x, bottom_right.x + 1)
            for y in range(top_left.y, bottom_right.y + 1)]
