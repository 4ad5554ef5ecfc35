"""Downsampling onto a fixed grid.

Buckets are aligned to the Unix epoch in UTC (so 15-minute buckets start at :00, :15, ...),
except daily buckets, which start at local midnight of the series' timezone.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from .series import NaN, Series, isnan
from .tz import day_bounds, hours_in_day

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)

FREQS = {
    "1min": timedelta(minutes=1),
    "5min": timedelta(minutes=5),
    "15min": timedelta(minutes=15),
    "1h": timedelta(hours=1),
}


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)


AGGS = {
    "mean": _mean,
    "sum": sum,
    "min": min,
    "max": max,
    "last": lambda xs: xs[-1],
    "count": len,
}


def parse_freq(freq: str) -> timedelta:
    try:
        return FREQS[freq]
    except KeyError:
        raise ValueError(f"unsupported frequency {freq!r}; one of {sorted(FREQS)}") from None


def bucket_start(ts: datetime, step: timedelta) -> datetime:
    n = (ts - EPOCH) // step
    return EPOCH + n * step


def resample(series: Series, freq: str, how: str = "mean") -> Series:
    """One value per bucket that has at least one point; NaN points are skipped."""
    step = parse_freq(freq)
    agg = AGGS[how]
    out_idx: list[datetime] = []
    out_vals: list[float] = []
    current: datetime | None = None
    bucket: list[float] = []
    for ts, v in series:
        start = bucket_start(ts, step)
        if start != current:
            if current is not None:
                out_idx.append(current)
                out_vals.append(agg(bucket) if bucket else NaN)
            current, bucket = start, []
        if not isnan(v):
            bucket.append(v)
    if current is not None:
        out_idx.append(current)
        out_vals.append(agg(bucket) if bucket else NaN)
    return Series(out_idx, out_vals, series.name)


def coverage(series: Series, day: date, tz: str, step: timedelta) -> float:
    """Share of the expected samples of a local day that are present and not NaN."""
    start, end = day_bounds(day, ZoneInfo(tz))
    present = sum(1 for t, v in series.between(start, end) if not isnan(v))
    expected = hours_in_day(day, tz) * (timedelta(hours=1) / step)
    return present / expected if expected else 0.0
