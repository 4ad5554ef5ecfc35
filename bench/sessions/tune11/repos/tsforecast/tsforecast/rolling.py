"""Rolling statistics over a fixed number of points. NaN inside a window makes the result NaN."""

from __future__ import annotations

import math

from .series import NaN, Series, isnan


def _windows(vals: list[float], window: int):
    if window < 1:
        raise ValueError("window must be >= 1")
    for i in range(len(vals)):
        if i + 1 < window:
            yield None
        else:
            yield vals[i + 1 - window:i + 1]


def rolling_mean(series: Series, window: int) -> Series:
    out = []
    for w in _windows(series.vals, window):
        if w is None or any(isnan(x) for x in w):
            out.append(NaN)
        else:
            out.append(sum(w) / window)
    return series.with_values(out)


def rolling_std(series: Series, window: int, ddof: int = 1) -> Series:
    out = []
    for w in _windows(series.vals, window):
        if w is None or any(isnan(x) for x in w) or window - ddof <= 0:
            out.append(NaN)
            continue
        m = sum(w) / window
        out.append(math.sqrt(sum((x - m) ** 2 for x in w) / (window - ddof)))
    return series.with_values(out)


def ewm_mean(series: Series, alpha: float) -> Series:
    """Exponentially weighted mean; NaN points keep the previous state."""
    if not 0 < alpha <= 1:
        raise ValueError("alpha must be in (0, 1]")
    out = []
    state = NaN
    for v in series.vals:
        if not isnan(v):
            state = v if isnan(state) else alpha * v + (1 - alpha) * state
        out.append(state)
    return series.with_values(out)
