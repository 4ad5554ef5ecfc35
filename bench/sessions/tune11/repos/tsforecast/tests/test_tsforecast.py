from datetime import date, datetime, timedelta, timezone

import pytest

from tsforecast import NaN, Series, isnan
from tsforecast.decompose import seasonal_decompose
from tsforecast.fill import forward_fill, gaps
from tsforecast.forecast import Drift, SeasonalNaive, mae
from tsforecast.loaders import _parse_ts
from tsforecast.resample import resample
from tsforecast.rolling import ewm_mean, rolling_mean, rolling_std

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)


def hourly(vals):
    return Series([T0 + timedelta(hours=i) for i in range(len(vals))], list(vals), "m1")


def test_resample_mean_skips_nan():
    s = Series([T0 + timedelta(minutes=5 * i) for i in range(6)], [1.0, 2.0, NaN, 4.0, 5.0, 6.0])
    out = resample(s, "15min")
    assert out.vals == [1.5, 5.0]
    assert out.index == [T0, T0 + timedelta(minutes=15)]


def test_resample_sum():
    s = Series([T0 + timedelta(minutes=i) for i in range(10)], [1.0] * 10)
    assert resample(s, "5min", "sum").vals == [5.0, 5.0]


def test_forward_fill_limit():
    s = hourly([1.0, NaN, NaN, NaN, 5.0])
    assert forward_fill(s, limit=2).vals[:3] == [1.0, 1.0, 1.0]
    assert isnan(forward_fill(s, limit=2).vals[3])


def test_gaps():
    assert gaps(hourly([1.0, NaN, NaN, 4.0, NaN])) == [(1, 3), (4, 5)]


def test_rolling_mean_and_std():
    s = hourly([1.0, 2.0, 3.0, 4.0])
    assert rolling_mean(s, 2).vals[1:] == [1.5, 2.5, 3.5]
    assert rolling_std(s, 4).vals[3] == pytest.approx(1.2909944)


def test_ewm_keeps_state_over_nan():
    assert ewm_mean(hourly([2.0, NaN, 4.0]), 0.5).vals == [2.0, 2.0, 3.0]


def test_decompose_recovers_season():
    pattern = [0.0, 10.0, 0.0, -10.0]
    s = hourly([100 + pattern[i % 4] for i in range(24)])
    d = seasonal_decompose(s, 4)
    assert d.seasonal.vals[:4] == pytest.approx(pattern)


def test_seasonal_naive_repeats_last_period():
    s = hourly([1.0, 2.0, 3.0, 1.0, 2.0, 3.0])
    assert SeasonalNaive(3).fit(s).predict(4).vals == [1.0, 2.0, 3.0, 1.0]


def test_drift():
    assert Drift().fit(hourly([0.0, 1.0, 2.0])).predict(2).vals == [3.0, 4.0]


def test_mae():
    assert mae(hourly([1.0, 2.0]), hourly([2.0, 2.0])) == 0.5


def test_parse_ts_24_00():
    assert _parse_ts("31.01.2024 24:00", "Europe/Berlin") == datetime(2024, 1, 31, 23, 0, tzinfo=timezone.utc)
