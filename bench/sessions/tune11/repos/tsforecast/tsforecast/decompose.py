"""Classical additive decomposition: series = trend + seasonal + residual.

The trend is a centred moving average over one period (a 2 x period average for even periods),
the seasonal component the mean detrended value per position in the period, centred on zero.
"""

from __future__ import annotations

from dataclasses import dataclass

from .series import NaN, Series, isnan


@dataclass
class Decomposition:
    trend: Series
    seasonal: Series
    resid: Series


def centred_average(vals: list[float], period: int) -> list[float]:
    n = len(vals)
    half = period // 2
    out = [NaN] * n
    for i in range(half, n - half):
        if period % 2:
            w = vals[i - half:i + half + 1]
            weights = [1.0] * period
        else:
            w = vals[i - half:i + half + 1]
            weights = [0.5] + [1.0] * (period - 1) + [0.5]
        if any(isnan(x) for x in w):
            continue
        out[i] = sum(x * k for x, k in zip(w, weights)) / period
    return out


def seasonal_decompose(series: Series, period: int) -> Decomposition:
    vals = series.vals
    trend = centred_average(vals, period)
    detrended = [NaN if isnan(t) or isnan(v) else v - t for v, t in zip(vals, trend)]
    means = []
    for pos in range(period):
        xs = [d for d in detrended[pos::period] if not isnan(d)]
        means.append(sum(xs) / len(xs))
    shift = sum(means) / period
    seasonal = [means[i % period] - shift for i in range(len(vals))]
    resid = [NaN if isnan(t) else v - t - s for v, t, s in zip(vals, trend, seasonal)]
    return Decomposition(series.with_values(trend), series.with_values(seasonal), series.with_values(resid))
