"""Simple forecasters with a fit/predict interface. Forecast timestamps continue the series' step."""

from __future__ import annotations

from datetime import datetime, timedelta

from .series import Series, isnan


def _step(series: Series) -> timedelta:
    if len(series) < 2:
        raise ValueError("need at least two points to infer the step")
    return series.index[-1] - series.index[-2]


def _future_index(series: Series, horizon: int) -> list[datetime]:
    step = _step(series)
    return [series.index[-1] + step * (i + 1) for i in range(horizon)]


class MeanForecaster:
    def fit(self, series: Series) -> MeanForecaster:
        xs = [v for v in series.vals if not isnan(v)]
        self.level = sum(xs) / len(xs)
        self.series = series
        return self

    def predict(self, horizon: int) -> Series:
        return Series(_future_index(self.series, horizon), [self.level] * horizon, self.series.name)


class SeasonalNaive:
    """Each future point repeats the value one period earlier."""

    def __init__(self, period: int):
        self.period = period

    def fit(self, series: Series) -> SeasonalNaive:
        if len(series) < self.period:
            raise ValueError(f"need at least one period ({self.period} points), got {len(series)}")
        self.last = series.vals[-self.period:]
        self.series = series
        return self

    def predict(self, horizon: int) -> Series:
        vals = [self.last[i % self.period] for i in range(horizon)]
        return Series(_future_index(self.series, horizon), vals, self.series.name)


class Drift:
    """Straight line through the first and last observation."""

    def fit(self, series: Series) -> Drift:
        clean = series.dropna()
        self.first, self.last = clean.vals[0], clean.vals[-1]
        self.slope = (self.last - self.first) / max(1, len(clean) - 1)
        self.series = series
        return self

    def predict(self, horizon: int) -> Series:
        vals = [self.last + self.slope * (i + 1) for i in range(horizon)]
        return Series(_future_index(self.series, horizon), vals, self.series.name)


def mae(actual: Series, predicted: Series) -> float:
    pairs = [(a, p) for a, p in zip(actual.vals, predicted.vals) if not isnan(a) and not isnan(p)]
    return sum(abs(a - p) for a, p in pairs) / len(pairs)
