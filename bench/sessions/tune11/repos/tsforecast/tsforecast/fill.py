"""Missing-value filling. Meters drop out (radio, power cuts); gaps show up as NaN."""

from __future__ import annotations

from .series import NaN, Series, isnan


def forward_fill(series: Series, limit: int | None = None) -> Series:
    """Carry the last seen value forward, at most ``limit`` points in a row."""
    out: list[float] = []
    last = NaN
    run = 0
    for v in series.vals:
        if isnan(v):
            run += 1
            out.append(last if limit is None or run <= limit else NaN)
        else:
            last, run = v, 0
            out.append(v)
    return series.with_values(out)


def fill_value(series: Series, value: float) -> Series:
    return series.with_values([value if isnan(v) else v for v in series.vals])


def gaps(series: Series) -> list[tuple[int, int]]:
    """Runs of NaN as half-open ``(start, end)`` positions."""
    runs: list[tuple[int, int]] = []
    start = None
    for i, v in enumerate(series.vals):
        if isnan(v) and start is None:
            start = i
        elif not isnan(v) and start is not None:
            runs.append((start, i))
            start = None
    if start is not None:
        runs.append((start, len(series.vals)))
    return runs
