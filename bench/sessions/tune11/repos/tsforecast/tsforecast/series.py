"""A minimal time series: parallel lists of timestamps and float values.

Missing values are ``NaN`` (``None`` is accepted on input and treated the same way by ``isnan``).
Timestamps are timezone-aware ``datetime`` objects; the loaders produce them in UTC.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Iterator

NaN = float("nan")


def isnan(x: float | None) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


@dataclass
class Series:
    index: list[datetime]
    vals: list[float]
    name: str = ""

    def __post_init__(self) -> None:
        if len(self.index) != len(self.vals):
            raise ValueError(f"index has {len(self.index)} entries, vals has {len(self.vals)}")

    def __len__(self) -> int:
        return len(self.index)

    def __iter__(self) -> Iterator[tuple[datetime, float]]:
        return iter(zip(self.index, self.vals))

    def between(self, start: datetime, end: datetime) -> Series:
        """Points with ``start <= ts < end``."""
        pairs = [(t, v) for t, v in self if start <= t < end]
        return Series([t for t, _ in pairs], [v for _, v in pairs], self.name)

    def dropna(self) -> Series:
        pairs = [(t, v) for t, v in self if not isnan(v)]
        return Series([t for t, _ in pairs], [v for _, v in pairs], self.name)

    def map(self, fn: Callable[[float], float]) -> Series:
        return Series(list(self.index), [NaN if isnan(v) else fn(v) for v in self.vals], self.name)

    def with_values(self, vals: list[float]) -> Series:
        return Series(list(self.index), list(vals), self.name)

    def count_missing(self) -> int:
        return sum(1 for v in self.vals if isnan(v))
