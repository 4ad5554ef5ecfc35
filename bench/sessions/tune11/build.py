"""Writes the tune11 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``tsforecast`` (Python, time-series utilities for meter
data) and ``ratelimitr`` (TypeScript, rate-limiting HTTP middleware). Sessions are written with the
``Session`` builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py`` after
changing a scenario (outputs are committed). ``python3 build.py --check`` also replays every
scenario on a copy of its repository (every edit must apply) and checks, with tether's own
parser, that every expected anchor names a definition of the final state.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
TESTS = HERE.parents[2] / "tests"
sys.path.insert(0, str(TESTS / "fixtures" / "transcripts"))
from build import Session  # noqa: E402

SET = "tune11"
SCENARIOS: list[dict] = []


def repo_files(repo: str) -> dict[str, str]:
    base = HERE / "repos" / repo
    return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8") for p in sorted(base.rglob("*")) if p.is_file()}


def scenario(name: str, repo: str, note: str, expected: list[dict]):
    def register(fn):
        SCENARIOS.append({"name": name, "repo": repo, "note": note, "expected": expected, "fn": fn})
        return fn
    return register


def exp(kind: str, anchor: str, phrase: str, rejected: list[str] | None = None) -> dict:
    return {"kind": kind, "anchor": anchor, "phrase": phrase, "rejected": rejected or []}


def pytest_ok(n: int, secs: str = "0.62") -> str:
    return f"{'.' * n:<72} [100%]\n{n} passed in {secs}s"


def vitest_ok(n: int, ms: int = 14) -> str:
    return (f"\n RUN  v2.1.4 /home/dev/ratelimitr\n\n ✓ test/ratelimit.test.ts ({n} tests) {ms}ms\n\n"
            f" Test Files  1 passed (1)\n      Tests  {n} passed ({n})\n   Start at  10:12:44\n"
            f"   Duration  389ms (transform 57ms, setup 0ms, collect 61ms, tests {ms}ms, environment 0ms, "
            f"prepare 88ms)\n")


# -- tsforecast (Python) ---------------------------------------------------------------------------------

TSF = "tsforecast"


@scenario("monotonic-index", TSF,
          "data scientist states the index as a fact ('the index is always monotonic, don't re-sort') after the agent "
          "adds a defensive sort to resample; a week later, on a new rolling function, the agent adds an order check "
          "and is told the same thing in other words",
          [exp("invariant", "tsforecast/*.py", "monotonic")])
def _monotonic(files):
    s = Session("tune11-monotonic-index-1", "2025-03-04T09:12:00Z", files)
    s.user("Two things for `resample`, the second is the important one.\n\n"
           "1. Add `how=\"first\"`. It should mean the first non-NaN value in the bucket, i.e. the mirror of what "
           "`last` does after the NaN skipping.\n\n"
           "2. Empty buckets. Right now if a meter is silent for an hour the 15-min output simply skips those "
           "buckets, and downstream everything that works by position (rolling, decompose) treats t and t+1h as "
           "adjacent samples. That's wrong in a way that doesn't show up in the plots. What I want: with step Δ "
           "and b_0 = bucket_start(t_0), the output index is b_k = b_0 + kΔ for k = 0..K where b_K = "
           "bucket_start(t_n), every k, and buckets that got no points are NaN.\n\n"
           "Example, 15min, mean: points 00:00 → 1.0, 00:05 → 2.0, 01:10 → 3.0 should give\n"
           "00:00 → 1.5, 00:15 → NaN, 00:30 → NaN, 00:45 → NaN, 01:00 → 3.0.\n\n"
           "Please keep it a single pass; this runs over roughly 35k points per meter-year at 15 min and the "
           "backfill is ~1200 meters × 6 years of 1-minute raw data.")
    s.read("tsforecast/resample.py")
    s.read("tests/test_tsforecast.py", limit=30)
    s.edit("tsforecast/resample.py", '    "last": lambda xs: xs[-1],\n',
           '    "first": lambda xs: xs[0],\n    "last": lambda xs: xs[-1],\n',
           text="The bucket list already excludes NaN points, so `first` is just `xs[0]`.")
    s.edit("tsforecast/resample.py",
           '    """One value per bucket that has at least one point; NaN points are skipped."""\n',
           '    """One value per bucket from the first point\'s bucket to the last one\'s; buckets without points are\n'
           '    NaN, NaN points are skipped."""\n')
    s.edit("tsforecast/resample.py",
           "    bucket: list[float] = []\n    for ts, v in series:\n        start = bucket_start(ts, step)\n"
           "        if start != current:\n            if current is not None:\n                out_idx.append(current)\n"
           "                out_vals.append(agg(bucket) if bucket else NaN)\n            current, bucket = start, []\n",
           "    bucket: list[float] = []\n    points = sorted(series, key=lambda p: p[0])\n    for ts, v in points:\n"
           "        start = bucket_start(ts, step)\n        if start != current:\n            if current is not None:\n"
           "                out_idx.append(current)\n                out_vals.append(agg(bucket) if bucket else NaN)\n"
           "                # buckets with no points between the previous bucket and this one\n"
           "                empty = current + step\n                while empty < start:\n"
           "                    out_idx.append(empty)\n                    out_vals.append(NaN)\n"
           "                    empty += step\n            current, bucket = start, []\n",
           text="Now the gap buckets. When the bucket changes, I emit NaN for every step between the closed bucket "
                "and the new one. I'll also sort the points first so that an out-of-order point can't reopen an "
                "earlier bucket and produce duplicate timestamps.")
    s.edit("tests/test_tsforecast.py", "def test_forward_fill_limit():\n",
           "def test_resample_emits_empty_buckets():\n"
           "    s = Series([T0, T0 + timedelta(minutes=5), T0 + timedelta(minutes=70)], [1.0, 2.0, 3.0])\n"
           "    out = resample(s, \"15min\")\n"
           "    assert out.index == [T0 + timedelta(minutes=15 * k) for k in range(5)]\n"
           "    assert out.vals[0] == 1.5 and out.vals[4] == 3.0\n"
           "    assert all(isnan(v) for v in out.vals[1:4])\n\n\n"
           "def test_resample_first_skips_nan():\n"
           "    s = Series([T0, T0 + timedelta(minutes=5)], [NaN, 2.0])\n"
           "    assert resample(s, \"15min\", \"first\").vals == [2.0]\n\n\n"
           "def test_forward_fill_limit():\n",
           text="Your example as a test, plus one for `first`.")
    s.bash("python -m pytest -q", pytest_ok(13, "0.71"), description="Run the test suite")
    s.say("Done:\n\n- `how=\"first\"` — first non-NaN value of the bucket.\n"
          "- Buckets without points between the first and the last bucket are now emitted as NaN, still in one "
          "pass over the points.\n- I also sort the points by timestamp before the pass, so out-of-order input "
          "doesn't produce duplicate buckets.\n\nYour example is `test_resample_emits_empty_buckets`; 13 passed.")
    s.user("Thanks — the gap logic is exactly right, and thanks for turning the example into a test.\n\n"
           "The sort has to go though. The index is always monotonic, don't re-sort. Every series that reaches this "
           "library comes out of load_csv or load_columnar, the exports are written in time order (that's in the "
           "vendor contract, and ingestion validates it before anything is stored). So the sort is protecting "
           "against something that can't happen, and it isn't free: sorted() over the 1-minute backfill is "
           "O(n log n) and materialises a list of tuples per meter, where the pass itself is O(n) and streams. "
           "I'd rather the library trust its input here and ingestion stay the one place that checks.\n\n"
           "Unrelated: I noticed `coverage` uses hours_in_day — I'll have a look at that myself later, ignore it.")
    s.edit("tsforecast/resample.py", "    points = sorted(series, key=lambda p: p[0])\n    for ts, v in points:\n",
           "    for ts, v in series:\n",
           text="Removing the sort; the pass takes the points in the order they come.")
    s.bash("python -m pytest -q", pytest_ok(13, "0.66"), description="Run the test suite")
    s.say("Sort removed — `resample` now relies on the index being in time order, as the loaders guarantee. "
          "13 passed.")
    s2 = Session("tune11-monotonic-index-2", "2025-03-11T14:40:00Z", files)
    s2.user("Next piece: a time-based rolling sum. `rolling_sum_time(series, window: timedelta)` → for each point t, "
            "the sum of the non-NaN values in (t − window, t]. The reason we need this over rolling_mean with a "
            "point count: after outages the spacing is irregular even after resampling (the meter sometimes "
            "reports late and the late points land in the right bucket but the gap filler hasn't run yet), and a "
            "count-based window then spans more wall-clock time than intended. Concretely with window = 60min and "
            "points at 00:00 (1), 00:10 (2), 00:50 (NaN), 01:05 (4) I'd expect 1, 3, 3, 6.\n\n"
            "Two-pointer over the index please, O(n).")
    s2.read("tsforecast/rolling.py")
    s2.edit("tsforecast/rolling.py", "import math\n\nfrom .series", "import math\nfrom datetime import timedelta\n\nfrom .series")
    s2.edit("tsforecast/rolling.py", "def ewm_mean(series: Series, alpha: float) -> Series:\n",
            "def rolling_sum_time(series: Series, window: timedelta) -> Series:\n"
            "    \"\"\"Sum of the non-NaN values in ``(t - window, t]`` for each point ``t``, in one pass.\"\"\"\n"
            "    if window <= timedelta(0):\n        raise ValueError(\"window must be positive\")\n"
            "    idx, vals = series.index, series.vals\n"
            "    if any(b < a for a, b in zip(idx, idx[1:])):\n"
            "        raise ValueError(\"rolling_sum_time needs the index in time order\")\n"
            "    out: list[float] = []\n    left = 0\n    total = 0.0\n"
            "    for right, t in enumerate(idx):\n        if not isnan(vals[right]):\n            total += vals[right]\n"
            "        while idx[left] <= t - window:\n            if not isnan(vals[left]):\n"
            "                total -= vals[left]\n            left += 1\n        out.append(total)\n"
            "    return series.with_values(out)\n\n\n"
            "def ewm_mean(series: Series, alpha: float) -> Series:\n",
            text="Two pointers: `right` adds each point, `left` drops points that fell out of the window.")
    s2.edit("tests/test_tsforecast.py", "from tsforecast.rolling import ewm_mean, rolling_mean, rolling_std\n",
            "from tsforecast.rolling import ewm_mean, rolling_mean, rolling_std, rolling_sum_time\n")
    s2.edit("tests/test_tsforecast.py", "def test_ewm_keeps_state_over_nan():\n",
            "def test_rolling_sum_time_irregular():\n"
            "    idx = [T0, T0 + timedelta(minutes=10), T0 + timedelta(minutes=50), T0 + timedelta(minutes=65)]\n"
            "    s = Series(idx, [1.0, 2.0, NaN, 4.0])\n"
            "    assert rolling_sum_time(s, timedelta(minutes=60)).vals == [1.0, 3.0, 3.0, 6.0]\n\n\n"
            "def test_ewm_keeps_state_over_nan():\n")
    s2.bash("python -m pytest -q", pytest_ok(14, "0.70"), description="Run the test suite")
    s2.say("Added `rolling_sum_time` with your example as a test (14 passed). Since the two-pointer silently gives "
           "wrong sums if the timestamps ever go backwards, I put a guard at the top that raises `ValueError` when "
           "the index isn't in time order.")
    s2.user("Drop the guard. As I said for resample last week: timestamps arrive in increasing order, the loaders "
            "guarantee it, and nothing in this package sorts or re-checks the order. The guard is a full extra pass "
            "over the index for a property that can't be false here; if it ever is false that's an ingestion bug "
            "and gets fixed there, not papered over in every function.")
    s2.edit("tsforecast/rolling.py",
            "    idx, vals = series.index, series.vals\n"
            "    if any(b < a for a, b in zip(idx, idx[1:])):\n"
            "        raise ValueError(\"rolling_sum_time needs the index in time order\")\n",
            "    idx, vals = series.index, series.vals\n")
    s2.bash("python -m pytest -q", pytest_ok(14, "0.64"), description="Run the test suite")
    s2.say("Guard removed; 14 passed.")
    return [s, s2]


@scenario("interpolate-gaps", TSF,
          "voice-dictated request; agent proposes options inline in prose (forward-fill or linear interpolation, with "
          "a max gap); the person picks linear and sets the limit over two run-on turns",
          [exp("decision", "tsforecast/fill.py:interpolate", "linear interpolation", ["forward fill"]),
           exp("boundary", "tsforecast/fill.py:interpolate", "max gap")])
def _interpolate(files):
    s = Session("tune11-interpolate-gaps", "2025-03-06T16:02:00Z", files)
    s.user("ok so the meter data has holes in it and when we run the decompose on it the decompose just drops "
           "everything near a nan so the trend has these big holes in it to, i need the gaps filled before that "
           "what would you use there's a forward fill already but im not sure its the right thing for this")
    s.read("tsforecast/fill.py")
    s.read("tsforecast/decompose.py", limit=36)
    s.say("Right — `centred_average` skips any window that contains a NaN, so one missing reading knocks out "
          "a whole period's worth of trend around it.\n\n"
          "We could reuse `forward_fill`, or add linear interpolation between the two readings either side of a "
          "gap. Forward-fill is simpler and already there, but it puts a flat step into the series, and the moving "
          "average then smears that step into the trend and the residuals. Linear interpolation keeps the slope "
          "across the gap, but it will happily invent values across a long outage too, so I'd pair it with a "
          "maximum gap length above which we leave the NaNs alone. Which way do you want to go, and what's a "
          "sensible maximum — a few hours?")
    s.user("yeah lets do the linear one, forward fill makes those steps i've seen them in the plots and thought "
           "it was the meters. max gap four hours so for the 15 minute data thats 16 points, anything longer than "
           "that stays nan we dont want to make up a whole day of readings there the decompose can deal with a "
           "long outage being nan")
    s.say("Got it — 16 points for 15-minute data. One more case: NaNs at the very start or end of a series have "
          "only one neighbour. Leave those as NaN too?")
    s.user("yes leave them theirs nothing to interpolate from")
    s.edit("tsforecast/fill.py", "        runs.append((start, len(series.vals)))\n    return runs\n",
           "        runs.append((start, len(series.vals)))\n    return runs\n\n\n"
           "def interpolate(series: Series, max_gap: int) -> Series:\n"
           "    \"\"\"Linear interpolation across runs of at most ``max_gap`` NaN points.\n\n"
           "    Longer runs, and NaN at the start or the end of the series, stay NaN.\n    \"\"\"\n"
           "    out = list(series.vals)\n    for start, end in gaps(series):\n"
           "        if start == 0 or end == len(out) or end - start > max_gap:\n            continue\n"
           "        left, right = out[start - 1], out[end]\n        span = end - start + 1\n"
           "        for k in range(start, end):\n"
           "            out[k] = left + (right - left) * (k - start + 1) / span\n"
           "    return series.with_values(out)\n")
    s.edit("tests/test_tsforecast.py", "from tsforecast.fill import forward_fill, gaps\n",
           "from tsforecast.fill import forward_fill, gaps, interpolate\n")
    s.edit("tests/test_tsforecast.py", "def test_rolling_mean_and_std():\n",
           "def test_interpolate_short_gaps_only():\n"
           "    s = hourly([1.0, NaN, NaN, 4.0, NaN, NaN, NaN, 8.0, NaN])\n"
           "    out = interpolate(s, max_gap=2).vals\n"
           "    assert out[:4] == [1.0, 2.0, 3.0, 4.0]\n"
           "    assert all(isnan(v) for v in out[4:7]) and isnan(out[8])\n\n\n"
           "def test_rolling_mean_and_std():\n")
    s.bash("python -m pytest -q", pytest_ok(12, "0.58"), description="Run the test suite")
    s.say("Added `fill.interpolate(series, max_gap)`: linear between the neighbours of each NaN run of at most "
          "`max_gap` points; longer runs and leading/trailing NaNs stay NaN. For your 15-minute data that's "
          "`interpolate(s, max_gap=16)` before `seasonal_decompose`. 12 passed.")
    s.user("perfect thanks")
    return [s]


@scenario("dst-coverage", TSF,
          "SRE pastes alert log lines with one line of comment; the agent reproduces, finds that subtracting aware "
          "datetimes sharing the same tzinfo ignores the offset (every day is 24h) and fixes it",
          [exp("gotcha", "tsforecast/tz.py:hours_in_day", "same tzinfo")])
def _dst(files):
    s = Session("tune11-dst-coverage", "2024-04-01T06:31:00Z", files)
    s.user("2024-04-01T02:10:07Z WARN quality.coverage meter=DE-0113 day=2024-03-31 tz=Europe/Berlin coverage=0.958 threshold=0.99\n"
           "2024-04-01T02:10:07Z WARN quality.coverage meter=DE-0114 day=2024-03-31 tz=Europe/Berlin coverage=0.958 threshold=0.99\n"
           "2024-04-01T02:10:08Z WARN quality.coverage meter=DE-0171 day=2024-03-31 tz=Europe/Berlin coverage=0.958 threshold=0.99\n"
           "2024-04-01T02:10:08Z WARN quality.coverage meter=DE-0172 day=2024-03-31 tz=Europe/Berlin coverage=0.958 threshold=0.99\n"
           "[... 409 more, every DE meter]\n\n"
           "data's complete, checked DE-0113 by hand: 92 rows.")
    s.read("tsforecast/resample.py", offset=70)
    s.read("tsforecast/tz.py")
    s.bash("python -c 'from datetime import date; from tsforecast.tz import hours_in_day; "
           "print(hours_in_day(date(2024, 3, 31), \"Europe/Berlin\"), hours_in_day(date(2024, 10, 27), \"Europe/Berlin\"))'",
           "24.0 24.0", description="Check hours_in_day on the DST days",
           text="92 rows is exactly 23 hours × 4 — 31 March was the spring-forward day. 92/96 = 0.958, so the "
                "expected count must be using 24 hours.")
    s.say("Confirmed: `hours_in_day` returns 24 for both transition days. `day_bounds` builds both ends with the "
          "same `ZoneInfo` object, and when two aware datetimes share the same tzinfo, Python subtracts them as "
          "wall-clock times and ignores their UTC offsets — so midnight to midnight is always 24h, whatever DST "
          "does in between. Writing a failing test first.",
          thinking="datetime subtraction: if both operands have the same tzinfo attribute, the tzinfo is ignored "
                   "and the base datetimes are subtracted. ZoneInfo instances are cached per key, so day_bounds' "
                   "two ends share it. Convert to UTC before subtracting.")
    s.edit("tests/test_tsforecast.py", "from tsforecast.resample import resample\n",
           "from tsforecast.resample import coverage, resample\n")
    s.edit("tests/test_tsforecast.py", "from tsforecast.rolling import ewm_mean, rolling_mean, rolling_std\n",
           "from tsforecast.rolling import ewm_mean, rolling_mean, rolling_std\nfrom tsforecast.tz import hours_in_day\n")
    s.edit("tests/test_tsforecast.py", "def test_forward_fill_limit():\n",
           "def test_hours_in_day_dst():\n"
           "    assert hours_in_day(date(2024, 3, 31), \"Europe/Berlin\") == 23\n"
           "    assert hours_in_day(date(2024, 10, 27), \"Europe/Berlin\") == 25\n"
           "    assert hours_in_day(date(2024, 6, 1), \"Europe/Berlin\") == 24\n\n\n"
           "def test_coverage_short_day_complete():\n"
           "    start = datetime(2024, 3, 30, 23, 0, tzinfo=timezone.utc)  # local midnight, CET\n"
           "    s = Series([start + timedelta(minutes=15 * i) for i in range(92)], [1.0] * 92)\n"
           "    assert coverage(s, date(2024, 3, 31), \"Europe/Berlin\", timedelta(minutes=15)) == 1.0\n\n\n"
           "def test_forward_fill_limit():\n")
    s.bash("python -m pytest -q",
           "..F.F.........                                                           [100%]\n"
           "=================================== FAILURES ===================================\n"
           "____________________________ test_hours_in_day_dst _____________________________\n\n"
           "    def test_hours_in_day_dst():\n"
           ">       assert hours_in_day(date(2024, 3, 31), \"Europe/Berlin\") == 23\n"
           "E       AssertionError: assert 24.0 == 23\n"
           "E        +  where 24.0 = hours_in_day(datetime.date(2024, 3, 31), 'Europe/Berlin')\n\n"
           "tests/test_tsforecast.py:34: AssertionError\n"
           "______________________ test_coverage_short_day_complete _______________________\n\n"
           "    def test_coverage_short_day_complete():\n"
           "        start = datetime(2024, 3, 30, 23, 0, tzinfo=timezone.utc)  # local midnight, CET\n"
           "        s = Series([start + timedelta(minutes=15 * i) for i in range(92)], [1.0] * 92)\n"
           ">       assert coverage(s, date(2024, 3, 31), \"Europe/Berlin\", timedelta(minutes=15)) == 1.0\n"
           "E       assert 0.9583333333333334 == 1.0\n\n"
           "tests/test_tsforecast.py:42: AssertionError\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_tsforecast.py::test_hours_in_day_dst - AssertionError: assert 24.0 == 23\n"
           "FAILED tests/test_tsforecast.py::test_coverage_short_day_complete - assert 0.9583333333333334 == 1.0\n"
           "2 failed, 11 passed in 0.74s", fail=True, description="Run the test suite")
    s.edit("tsforecast/tz.py", "    start, end = day_bounds(day, ZoneInfo(tz))\n    return (end - start) / timedelta(hours=1)\n",
           "    start, end = day_bounds(day, ZoneInfo(tz))\n"
           "    # Both ends share the same tzinfo, and Python subtracts such datetimes as wall-clock times,\n"
           "    # ignoring their offsets (always 24h). Subtract in UTC.\n"
           "    return (to_utc(end) - to_utc(start)) / timedelta(hours=1)\n",
           text="The fix: subtract in UTC.")
    s.bash("python -m pytest -q", pytest_ok(13, "0.69"), description="Run the test suite")
    s.say("Fixed. Cause: `hours_in_day` subtracted two datetimes with the same tzinfo, which Python does on the "
          "wall clock, so 31 March counted 24 hours (96 expected 15-min samples) instead of 23 (92). Now it "
          "converts both ends to UTC first: 23 / 25 / 24 for spring, autumn and a normal day, and a complete "
          "short day has coverage 1.0. 13 passed. The autumn day would have shown coverage 1.04 — nobody alerts on "
          "that, which is why it went unnoticed last October.")
    s.user("👍 deploying. will re-run the 31st.")
    return [s]


@scenario("decompose-short", TSF,
          "tech lead says 'your call' on short series; agent chooses to raise ValueError; later in the session the "
          "lead overrides it (trend only, seasonal None) because the dashboard calls it for every new meter",
          [exp("decision", "tsforecast/decompose.py:seasonal_decompose", "seasonal as none", ["raise a valueerror"])])
def _decompose(files):
    s = Session("tune11-decompose-short", "2025-02-18T08:47:00Z", files)
    s.user("nightly decompose batch died again on a new meter:\n\n```\nTraceback (most recent call last):\n"
           "  File \"/srv/batch/jobs/decompose_all.py\", line 41, in run\n    d = seasonal_decompose(s, period=672)\n"
           "  File \"/srv/batch/.venv/lib/python3.11/site-packages/tsforecast/decompose.py\", line 45, in seasonal_decompose\n"
           "    means.append(sum(xs) / len(xs))\n                   ~~~~~~~~^~~~~~~~~\n"
           "ZeroDivisionError: division by zero\n```\n\n"
           "Meter was installed 5 days ago, so less than two weekly periods. Handle short series properly in "
           "seasonal_decompose — your call on what it should do.")
    s.read("tsforecast/decompose.py")
    s.say("With fewer than about two periods, some positions in the period have no detrended value at all, hence "
          "the empty list. I'll make `seasonal_decompose` raise a ValueError with a clear message when the "
          "series is shorter than two periods — a seasonal estimate from less than that isn't meaningful, and a "
          "named error is easier to handle in the batch than a ZeroDivisionError from inside the averaging.")
    s.edit("tsforecast/decompose.py",
           "    vals = series.vals\n    trend = centred_average(vals, period)\n",
           "    vals = series.vals\n    if len(vals) < 2 * period:\n"
           "        raise ValueError(f\"need at least two periods ({2 * period} points) to decompose, got {len(vals)}\")\n"
           "    trend = centred_average(vals, period)\n")
    s.edit("tests/test_tsforecast.py", "def test_seasonal_naive_repeats_last_period():\n",
           "def test_decompose_short_series_raises():\n"
           "    with pytest.raises(ValueError, match=\"two periods\"):\n"
           "        seasonal_decompose(hourly([1.0] * 7), 4)\n\n\n"
           "def test_seasonal_naive_repeats_last_period():\n")
    s.bash("python -m pytest -q", pytest_ok(12, "0.61"), description="Run the test suite")
    s.say("Done: short series now raise `ValueError(\"need at least two periods (1344 points) …\")`. The batch job "
          "will want to catch that and skip the meter (it's outside this repo, so I haven't touched it). 12 passed.")
    s.user("Hm. Thinking about who else calls this — no, I'm going to overrule that. The batch isn't the only "
           "caller: the dashboard calls seasonal_decompose for every meter it renders, and a new meter is the "
           "normal case, not an error. Every caller would end up wrapping it in the same try/except. Return the "
           "trend as far as it can be computed, with seasonal as None and resid as None, when there's less than "
           "two full periods. Don't raise.")
    s.edit("tsforecast/decompose.py", "    seasonal: Series\n    resid: Series\n",
           "    seasonal: Series | None  # None when the series is shorter than two periods\n    resid: Series | None\n")
    s.edit("tsforecast/decompose.py",
           "    vals = series.vals\n    if len(vals) < 2 * period:\n"
           "        raise ValueError(f\"need at least two periods ({2 * period} points) to decompose, got {len(vals)}\")\n"
           "    trend = centred_average(vals, period)\n",
           "    vals = series.vals\n    trend = centred_average(vals, period)\n    if len(vals) < 2 * period:\n"
           "        # New meters: no seasonal estimate yet, but the trend is still useful to the dashboard.\n"
           "        return Decomposition(series.with_values(trend), None, None)\n")
    s.edit("tests/test_tsforecast.py",
           "def test_decompose_short_series_raises():\n"
           "    with pytest.raises(ValueError, match=\"two periods\"):\n"
           "        seasonal_decompose(hourly([1.0] * 7), 4)\n",
           "def test_decompose_short_series_gives_trend_only():\n"
           "    d = seasonal_decompose(hourly([1.0] * 7), 4)\n"
           "    assert d.seasonal is None and d.resid is None\n"
           "    assert d.trend.vals[2:5] == [1.0, 1.0, 1.0]\n")
    s.bash("python -m pytest -q", pytest_ok(12, "0.60"), description="Run the test suite")
    s.say("Changed: with fewer than two periods, `seasonal_decompose` returns the trend (NaN where the centred "
          "average can't be computed) and `seasonal=None`, `resid=None`. `Decomposition`'s fields are typed "
          "`Series | None` accordingly, so callers that read `.seasonal` need a None check. 12 passed.")
    s.user("good. merging")
    return [s]


@scenario("default-forecaster", TSF,
          "data scientist explains MASE at length; the agent answers with a markdown table and recommends Holt-Winters; "
          "the person picks seasonal naive, rules out statsmodels, and caps the horizon at two seasons",
          [exp("decision", "tsforecast/forecast.py:forecast", "seasonal naive", ["holt-winters", "statsmodels"]),
           exp("boundary", "tsforecast/forecast.py:forecast", "two seasons")])
def _forecaster(files):
    s = Session("tune11-default-forecaster", "2025-03-13T10:05:00Z", files)
    s.user("The notebook people keep asking which class to use, so I'd like a plain `forecast(series, horizon, "
           "period)` entry point that picks the model for them. Before you write it: what should the default "
           "model be?\n\n"
           "Some context so we're talking about the same thing. We evaluate with MASE: the out-of-sample MAE "
           "scaled by the in-sample MAE of the seasonal naive forecast,\n\n"
           "    MASE = MAE_h / ( 1/(n−m) · Σ_{t=m+1..n} |y_t − y_{t−m}| )\n\n"
           "with m the season length (96 for 15-min data with a daily cycle, 672 for weekly). So MASE = 1 means "
           "'as good as repeating the last season', and a default model has to beat that clearly to earn its "
           "complexity. Load profiles are dominated by the daily and weekly cycles; trends exist but are slow "
           "(weeks to months), so over a horizon of a day or two they're negligible. Holidays are the big error "
           "source and nothing simple handles them anyway.")
    s.read("tsforecast/forecast.py")
    s.say("Here's how the candidates compare for a default:\n\n"
          "| option | what it does | for | against |\n|---|---|---|---|\n"
          "| Seasonal naive | repeats the last season | no parameters; MASE ≈ 1 by construction; already here "
          "(`SeasonalNaive`) | no trend, no smoothing of a noisy last season |\n"
          "| Drift | straight line through first and last point | captures trend | ignores the daily cycle — "
          "poor for load profiles |\n"
          "| Holt-Winters (additive), hand-written | level + trend + m seasonal states, exponential smoothing | "
          "usually beats seasonal naive on smooth profiles | three smoothing parameters to fit; we'd write the "
          "optimiser ourselves; 96–672 seasonal states to initialise |\n"
          "| ETS via statsmodels | `ExponentialSmoothing` from statsmodels | well tested, fits parameters | adds "
          "statsmodels (and numpy, scipy, pandas) to a package with no dependencies |\n\n"
          "I'd lean towards Holt-Winters: it's the usual step up from seasonal naive and should get MASE below 1 "
          "on the smoother meters.")
    s.user("Seasonal naive. Two reasons, both boring. (1) We ran Holt-Winters in last quarter's backtests (via "
           "statsmodels, in a notebook) on 300 meters: median MASE 0.97 week-ahead, with an IQR of 0.88–1.09, i.e. "
           "indistinguishable from the naive baseline within noise, and worse on meters with a holiday in the "
           "fit window. Writing and maintaining our own optimiser over 672 seasonal states for a 3% gain that "
           "isn't even significant is a bad trade. (2) statsmodels is out — this package has no dependencies on "
           "purpose, the ingest workers run on slim images and pulling in scipy for a default is not happening.\n\n"
           "One more thing while you're in there: cap the horizon at two seasons. Past 2m the seasonal naive just "
           "repeats the same day again and again, and people read a flat repeated pattern 3 weeks out as a real "
           "forecast. For horizon > 2 * period raise ValueError and say why.")
    s.edit("tsforecast/forecast.py", "def mae(actual: Series, predicted: Series) -> float:\n",
           "def forecast(series: Series, horizon: int, period: int) -> Series:\n"
           "    \"\"\"The default forecast: seasonal naive over ``period`` points.\n\n"
           "    Horizons beyond two seasons are refused: past that it only repeats the last season.\n    \"\"\"\n"
           "    if horizon > 2 * period:\n"
           "        raise ValueError(f\"horizon {horizon} is more than two seasons ({2 * period} points); \"\n"
           "                         \"seasonal naive would only repeat the last season\")\n"
           "    return SeasonalNaive(period).fit(series).predict(horizon)\n\n\n"
           "def mae(actual: Series, predicted: Series) -> float:\n")
    s.edit("tests/test_tsforecast.py", "from tsforecast.forecast import Drift, SeasonalNaive, mae\n",
           "from tsforecast.forecast import Drift, SeasonalNaive, forecast, mae\n")
    s.edit("tests/test_tsforecast.py", "def test_drift():\n",
           "def test_forecast_default_is_seasonal_naive():\n"
           "    s = hourly([1.0, 2.0, 3.0] * 3)\n"
           "    assert forecast(s, 4, period=3).vals == [1.0, 2.0, 3.0, 1.0]\n\n\n"
           "def test_forecast_refuses_long_horizon():\n"
           "    with pytest.raises(ValueError, match=\"two seasons\"):\n"
           "        forecast(hourly([1.0, 2.0, 3.0] * 3), 7, period=3)\n\n\n"
           "def test_drift():\n")
    s.bash("python -m pytest -q", pytest_ok(13, "0.63"), description="Run the test suite")
    s.say("Added `forecast(series, horizon, period)`: seasonal naive, and a `ValueError` explaining why when the "
          "horizon exceeds two seasons. No new dependencies. 13 passed.")
    s.user("thanks, that's it")
    return [s]


@scenario("vendor-24h", TSF,
          "SRE asks for a tidy-up; the agent removes the '24:00' special case as dead code and asks 'ok to keep?'; "
          "the SRE explains the vendor really writes 24:00 and has it put back",
          [exp("workaround", "tsforecast/loaders.py:_parse_ts", "24:00")])
def _vendor(files):
    s = Session("tune11-vendor-24h", "2025-01-22T13:15:00Z", files)
    s.user("loaders.py is getting ugly. tidy it up, no behaviour change.")
    s.read("tsforecast/loaders.py")
    s.edit("tsforecast/loaders.py",
           "def _parse_ts(text: str, tz: str) -> datetime:\n    text = text.strip()\n"
           "    # The vendor writes midnight at the end of a day as \"24:00\" of that day.\n"
           "    if text.endswith(\" 24:00\"):\n        day = datetime.strptime(text[:-6], \"%d.%m.%Y\")\n"
           "        return to_utc(localize(day + timedelta(days=1), tz))\n"
           "    return to_utc(localize(datetime.strptime(text, TS_FORMAT), tz))\n",
           "def _parse_ts(text: str, tz: str) -> datetime:\n"
           "    return to_utc(localize(datetime.strptime(text.strip(), TS_FORMAT), tz))\n")
    s.edit("tsforecast/loaders.py", "from datetime import datetime, timedelta\n", "from datetime import datetime\n")
    s.edit("tsforecast/loaders.py",
           "    index = [_parse_ts(r[ts_col], tz) for r in rows]\n    vals = [_parse_value(r[value_col]) for r in rows]\n"
           "    return Series(index, vals, Path(path).stem)\n",
           "    return Series([_parse_ts(r[ts_col], tz) for r in rows], [_parse_value(r[value_col]) for r in rows],\n"
           "                  Path(path).stem)\n")
    s.say("Tidied `loaders.py`:\n\n- `_parse_ts` is now a single `strptime` — I dropped the `\" 24:00\"` branch, "
          "since `TS_FORMAT` is `%H:%M` and a clock never reads 24:00, it looked like a leftover from an older "
          "format.\n- `load_csv` builds the series in one expression; unused `timedelta` import removed.\n\n"
          "ok to keep?")
    s.user("no. vendor really writes 24:00 — last reading of the day is stamped \"31.01.2024 24:00\", not 00:00 of "
           "the next day. strptime throws on it. that branch is the whole reason imports work. put it back. rest is "
           "fine")
    s.edit("tsforecast/loaders.py", "from datetime import datetime\n", "from datetime import datetime, timedelta\n")
    s.edit("tsforecast/loaders.py",
           "def _parse_ts(text: str, tz: str) -> datetime:\n"
           "    return to_utc(localize(datetime.strptime(text.strip(), TS_FORMAT), tz))\n",
           "def _parse_ts(text: str, tz: str) -> datetime:\n    text = text.strip()\n"
           "    # Deliberate: the vendor stamps the last reading of a day \"DD.MM.YYYY 24:00\" (not 00:00 of the next\n"
           "    # day), which strptime rejects. It means midnight at the end of that day. Do not remove.\n"
           "    if text.endswith(\" 24:00\"):\n        day = datetime.strptime(text[:-6], \"%d.%m.%Y\")\n"
           "        return to_utc(localize(day + timedelta(days=1), tz))\n"
           "    return to_utc(localize(datetime.strptime(text, TS_FORMAT), tz))\n")
    s.bash("python -m pytest -q", pytest_ok(11, "0.57"), description="Run the test suite")
    s.say("Put back, with a comment saying why it's there so the next tidy-up doesn't remove it again. The "
          "`load_csv` change stays. 11 passed — `test_parse_ts_24_00` covers it; I should have run the tests "
          "before asking.")
    s.user("k")
    return [s]


@scenario("explore-rolling", TSF,
          "questions only: how rolling_std treats ddof and NaN; a colleague's rule ('always ddof=0') reported and "
          "not adopted; the agent's hypothetical about irregular sampling; no change",
          [])
def _explore(files):
    s = Session("tune11-explore-rolling", "2025-03-20T15:22:00Z", files)
    s.user("A few questions before I use rolling_std in the anomaly notebook, no changes needed:\n\n"
           "1. What ddof does it use and why?\n2. What happens when there's a NaN inside the window?\n"
           "3. My colleague Jonas says we should always use ddof=0 for rolling stats in this package because 'a "
           "window is the population, not a sample'. Is that what the code does?")
    s.read("tsforecast/rolling.py")
    s.say("1. `rolling_std(series, window, ddof=1)` — the sample standard deviation by default, dividing by "
          "`window - ddof`. With ddof=1 it's the unbiased variance estimate for the process the window was drawn "
          "from; if `window - ddof` is 0 or less (window=1, ddof=1), the result is NaN.\n\n"
          "2. Any NaN inside the window makes that point's result NaN — the window isn't shrunk or re-weighted. "
          "The first `window - 1` points are NaN as well, since the window isn't full yet.\n\n"
          "3. No — the default is ddof=1, and nothing in the package forces ddof=0. For a z-score style anomaly "
          "check with windows of 96 points the difference is a factor of √(96/95) ≈ 1.005, so it won't change "
          "which points you flag. You can pass `ddof=0` explicitly if you want to match Jonas's numbers.\n\n"
          "One caveat: these windows count points, not time. If you ever ran this on irregularly sampled data, a "
          "96-point window could span much more than a day, and you'd want a time-based window instead.")
    s.user("Makes sense. I'll pass ddof explicitly in the notebook and leave the package as it is. Thanks.")
    return [s]


@scenario("rename-between", TSF,
          "voice-dictated plain rename (Series.between -> Series.slice) across two files; no decision beyond the "
          "naming",
          [])
def _rename(files):
    s = Session("tune11-rename-between", "2025-03-21T11:03:00Z", files)
    s.user("can you rename the between method on series to slice because between reads like its inclusive on both "
           "ends and its not, and then update wherever its used")
    s.grep(r"\.between\(|def between", ["tsforecast/series.py", "tsforecast/resample.py"])
    s.edit("tsforecast/series.py", "    def between(self, start: datetime, end: datetime) -> Series:\n",
           "    def slice(self, start: datetime, end: datetime) -> Series:\n")
    s.edit("tsforecast/resample.py", "series.between(start, end)", "series.slice(start, end)")
    s.bash("python -m pytest -q", pytest_ok(11, "0.55"), description="Run the test suite")
    s.say("Renamed `Series.between` to `Series.slice` and updated its one caller in `resample.coverage`. The "
          "docstring already says `start <= ts < end`. 11 passed.")
    s.user("cool thanks")
    return [s]


@scenario("parquet-plan", TSF,
          "agent lays out a plan for real parquet support (pyarrow extra); the data scientist defers it and asks for "
          "a small unrelated fix instead; the plan is not adopted",
          [])
def _parquet(files):
    s = Session("tune11-parquet-plan", "2025-03-25T09:40:00Z", files)
    s.user("How much work would it be to read real parquet files instead of our columnar JSON dumps? The data "
           "platform team is moving the raw exports to parquet next quarter.")
    s.read("tsforecast/loaders.py")
    s.say("Here's what I'd do:\n\n1. Add an optional extra, `tsforecast[parquet]`, depending on `pyarrow`.\n"
          "2. `load_parquet(path, ts_col=\"ts\", value_col=\"value\")` in `loaders.py`, importing pyarrow lazily "
          "inside the function with a clear error if the extra isn't installed.\n3. Convert the timestamp "
          "column to UTC-aware datetimes and nulls to NaN, like `load_columnar`.\n4. Tests skipped when pyarrow "
          "is missing.\n\nAbout an hour, most of it in the timestamp handling (parquet stores int64 with a unit and "
          "an optional timezone).")
    s.user("Hm, let me think about that one — whether we take on pyarrow at all is a bigger question than this "
           "function and I want to talk to the platform team first. For now, something small: dump_columnar "
           "checks for NaN with `v != v`, which confused me for a minute. Use isnan like everywhere else.")
    s.edit("tsforecast/loaders.py", "from .series import NaN, Series\n", "from .series import NaN, Series, isnan\n")
    s.edit("tsforecast/loaders.py", "[None if v != v else v for v in series.vals]",
           "[None if isnan(v) else v for v in series.vals]")
    s.bash("python -m pytest -q", pytest_ok(11, "0.56"), description="Run the test suite")
    s.say("`dump_columnar` now uses `isnan`. 11 passed.")
    return [s]


# -- ratelimitr (TypeScript) -----------------------------------------------------------------------------

RL = "ratelimitr"

MW_TEST_IMPORTS = ('import type { IncomingMessage } from "node:http";\n',
                   'import type { IncomingMessage, ServerResponse } from "node:http";\n'
                   'import { rateLimit } from "../src/middleware.js";\n')


@scenario("continuous-refill", RL,
          "SRE pastes per-second counts showing clients synchronised on the refill boundary; the agent offers (a) "
          "continuous refill or (b) jittered interval boundaries; 'a'",
          [exp("decision", "src/tokenBucket.ts:TokenBucket.take", "continuous refill", ["jitter"])])
def _refill(files):
    s = Session("tune11-continuous-refill", "2025-02-03T10:41:00Z", files)
    s.user("```\n$ awk '{print $4, $9}' access.log | grep acct_7731 | cut -c14-21,22- | sort | uniq -c | head -8\n"
           "   1198 10:41:00 200\n      3 10:41:01 429\n      2 10:41:02 429\n      4 10:41:17 429\n"
           "   1201 10:42:00 200\n      2 10:42:03 429\n   1199 10:43:00 200\n      1 10:43:30 429\n```\n"
           "their clients learned our refill boundary. token bucket, 1200/min.")
    s.read("src/tokenBucket.ts")
    s.say("Yes — `take` refills in whole intervals: `Math.floor((now - updatedAt) / refillIntervalMs)` intervals' "
          "worth of tokens, all at once. With refill = capacity per minute, the bucket goes from empty to full at "
          "each boundary, so a client that fires its whole budget at :00 gets exactly what it wants, and everyone "
          "else on that key gets 429s for the rest of the minute.\n\n"
          "Two ways out:\n\n"
          "a) **Continuous refill** — tokens accrue per millisecond (`refillAmount / refillIntervalMs`), kept as a "
          "fractional count. There's no boundary to synchronise to; a client that waits 50 ms gets 1 token back. "
          "This is the textbook token bucket and it's a small change to `take`.\n"
          "b) **Keep interval refills but jitter the boundary per key** (hash of the key → offset within the "
          "interval). Spreads different keys apart, but each key still gets its whole budget back in one step, so "
          "this customer's burst just moves to another second.\n\n"
          "I'd do (a). Which one?")
    s.user("a")
    s.edit("src/tokenBucket.ts", "  /** Tokens added per refill. */\n",
           "  /** Tokens added per `refillIntervalMs`, accrued continuously. */\n")
    s.edit("src/tokenBucket.ts",
           "    const intervals = Math.floor((now - state.updatedAt) / refillIntervalMs);\n"
           "    let tokens = Math.min(capacity, state.tokens + intervals * refillAmount);\n"
           "    const updatedAt = state.updatedAt + intervals * refillIntervalMs;\n"
           "    const allowed = tokens >= cost;\n    if (allowed) tokens -= cost;\n"
           "    const ttl = Math.ceil((capacity / refillAmount) * refillIntervalMs);\n"
           "    await this.store.set(`tb:${key}`, JSON.stringify({ tokens, updatedAt }), ttl);\n"
           "    const missing = Math.max(0, cost - tokens);\n"
           "    const resetAt = allowed ? now : updatedAt + Math.ceil(missing / refillAmount) * refillIntervalMs;\n",
           "    // Continuous refill: tokens accrue per millisecond, so there is no boundary for clients to sync to.\n"
           "    const ratePerMs = refillAmount / refillIntervalMs;\n"
           "    let tokens = Math.min(capacity, state.tokens + Math.max(0, now - state.updatedAt) * ratePerMs);\n"
           "    const allowed = tokens >= cost;\n    if (allowed) tokens -= cost;\n"
           "    const ttl = Math.ceil(capacity / ratePerMs);\n"
           "    await this.store.set(`tb:${key}`, JSON.stringify({ tokens, updatedAt: now }), ttl);\n"
           "    const missing = Math.max(0, cost - tokens);\n"
           "    const resetAt = allowed ? now : now + Math.ceil(missing / ratePerMs);\n")
    s.edit("test/ratelimit.test.ts", "    expect(results).toEqual([true, true, true, false]);\n  });\n",
           "    expect(results).toEqual([true, true, true, false]);\n  });\n\n"
           "  it(\"refills continuously, not at interval boundaries\", async () => {\n"
           "    const tb = new TokenBucket(new MemoryStore(() => 0), { capacity: 10, refillAmount: 10, refillIntervalMs: 1000 });\n"
           "    for (let i = 0; i < 10; i++) await tb.take(\"a\", 0);\n"
           "    expect((await tb.take(\"a\", 50)).allowed).toBe(false);\n"
           "    expect((await tb.take(\"a\", 100)).allowed).toBe(true);\n"
           "    expect((await tb.take(\"a\", 150)).allowed).toBe(false);\n  });\n")
    s.bash("npx vitest run", vitest_ok(9), description="Run the tests")
    s.say("Done — continuous refill. Tokens are stored as a fraction, `updatedAt` is the time of the last take, "
          "and `resetAt` for a refused request is when the missing token will have accrued (for 1200/min that's "
          "≤ 50 ms, so `Retry-After` will say 1). 9 tests pass.")
    s.user("ship")
    return [s]


@scenario("xff-rightmost", RL,
          "voice-dictated report of key spoofing via X-Forwarded-For; the agent proposes keeping the leftmost entry "
          "with a private-address filter; corrected: it must be the rightmost hop, never the leftmost",
          [exp("invariant", "src/keys.ts:clientIp", "rightmost", ["leftmost"])])
def _xff(files):
    s = Session("tune11-xff-rightmost", "2025-02-10T17:20:00Z", files)
    s.user("somebody on the security channel posted this from the edge logs and said our limiter is trivial to get "
           "around, there the same client getting a new key on every request can you look at it\n\n"
           "```\n203.0.113.50 GET /v1/search 200 xff=\"1.1.1.1, 203.0.113.50\" rl_key=ip:1.1.1.1\n"
           "203.0.113.50 GET /v1/search 200 xff=\"1.1.1.2, 203.0.113.50\" rl_key=ip:1.1.1.2\n"
           "203.0.113.50 GET /v1/search 200 xff=\"1.1.1.3, 203.0.113.50\" rl_key=ip:1.1.1.3\n```")
    s.read("src/keys.ts")
    s.say("They're right. With `trustProxy` on, `clientIp` keys on the first (leftmost) entry of "
          "X-Forwarded-For, and that entry is whatever the client put in the header before it reached our load "
          "balancer — here it changes on every request, so every request gets a fresh bucket.\n\n"
          "The smallest fix would be to keep taking the leftmost entry but skip it when it's a private or "
          "reserved address, falling back to the next one. Shall I do that?")
    s.user("no that doesn't help they can just send a different public address every time like in the log, it has "
           "to be the right most one, the one our load balancer adds at the end, thats the only one we know is "
           "real. the left most is whatever the client feels like sending so never use that for the key")
    s.edit("src/keys.ts", "  return xff.split(\",\")[0].trim();\n",
           "  // Only the last hop was appended by our own load balancer; everything left of it is whatever the\n"
           "  // client sent. Key on the rightmost entry, never the leftmost.\n"
           "  const hops = xff.split(\",\").map((h) => h.trim()).filter(Boolean);\n"
           "  return hops[hops.length - 1] ?? peerIp(req);\n")
    s.edit("test/ratelimit.test.ts",
           "    expect(clientIp(req({ \"x-forwarded-for\": \"1.2.3.4\" }))).toBe(\"10.0.0.9\");\n  });\n",
           "    expect(clientIp(req({ \"x-forwarded-for\": \"1.2.3.4\" }))).toBe(\"10.0.0.9\");\n  });\n"
           "  it(\"takes the rightmost X-Forwarded-For hop\", () => {\n"
           "    const r = req({ \"x-forwarded-for\": \"1.1.1.1, 203.0.113.50\" });\n"
           "    expect(clientIp(r, { trustProxy: true })).toBe(\"203.0.113.50\");\n  });\n")
    s.bash("npx vitest run", vitest_ok(9), description="Run the tests")
    s.say("Fixed: with `trustProxy`, `clientIp` now uses the rightmost X-Forwarded-For entry — the address our "
          "load balancer appended — and falls back to the socket address if the header is empty. The spoofed "
          "requests in that log would all key on `ip:203.0.113.50`. 9 tests pass.")
    s.user("great thank you")
    return [s]


@scenario("store-fail-open", RL,
          "tech lead says 'your call' on store errors; the agent picks fail closed (503); later in the session the "
          "lead overrides: fail open with a throttled warning",
          [exp("decision", "src/middleware.ts:rateLimit", "fail open", ["fail closed"])])
def _failopen(files):
    s = Session("tune11-store-fail-open", "2025-02-12T09:30:00Z", files)
    s.user("When the store throws (our RedisStore from the infra package times out under load now and then), the "
           "middleware's promise rejects and express turns it into a 500 with a stack trace in the body. Handle "
           "store errors properly in the middleware. Your call what the request should get.")
    s.read("src/middleware.ts")
    s.say("I'll fail closed (503): if we can't read the limiter state we can't tell whether this client is over "
          "its limit, and letting everything through during a store outage is exactly when an abusive client "
          "would hurt most. The response is a 503 with `Retry-After: 1` and a JSON body, and the request doesn't "
          "reach the handler.")
    s.edit("src/middleware.ts",
           "    const t = now();\n    const decision = await check(await key(req), t);\n    setHeaders(res, decision, t);\n",
           "    const t = now();\n    let decision: Decision;\n    try {\n"
           "      decision = await check(await key(req), t);\n    } catch {\n"
           "      // Fail closed: without the store we cannot tell whether this client is over its limit.\n"
           "      res.statusCode = 503;\n      res.setHeader(\"Retry-After\", \"1\");\n"
           "      res.setHeader(\"Content-Type\", \"application/json\");\n"
           "      res.end(JSON.stringify({ error: \"rate_limiter_unavailable\" }));\n      return;\n    }\n"
           "    setHeaders(res, decision, t);\n")
    s.edit("test/ratelimit.test.ts", *MW_TEST_IMPORTS)
    s.edit("test/ratelimit.test.ts", "describe(\"headers\", () => {\n",
           "describe(\"rateLimit middleware\", () => {\n"
           "  const failing = {\n    get: async () => { throw new Error(\"ETIMEDOUT\"); },\n"
           "    set: async () => {},\n    incr: async () => 0,\n  };\n"
           "  it(\"answers 503 when the store fails\", async () => {\n"
           "    const mw = rateLimit({ algorithm: \"sliding-window\", limit: 5, windowMs: 1000, store: failing });\n"
           "    const res = { statusCode: 200, setHeader() {}, end() {} } as unknown as ServerResponse;\n"
           "    let called = false;\n    await mw(req({}), res, () => { called = true; });\n"
           "    expect(called).toBe(false);\n    expect(res.statusCode).toBe(503);\n  });\n});\n\n"
           "describe(\"headers\", () => {\n")
    s.bash("npx vitest run", vitest_ok(9), description="Run the tests")
    s.say("Done: store errors now produce a 503 with `Retry-After: 1` instead of a 500; test added, 9 pass.")
    s.user("Reading this again with the March incident in mind — I'm overriding that. Fail open: call next() and "
           "log a warning. The limiter protects us from abusive clients, but a Redis blip must not turn into a "
           "full API outage; that's exactly what happened when the session store went down in March and "
           "everything behind it returned 503s for 20 minutes. Don't spam the log though, once per burst of "
           "errors is enough.")
    s.edit("src/middleware.ts",
           "    } catch {\n"
           "      // Fail closed: without the store we cannot tell whether this client is over its limit.\n"
           "      res.statusCode = 503;\n      res.setHeader(\"Retry-After\", \"1\");\n"
           "      res.setHeader(\"Content-Type\", \"application/json\");\n"
           "      res.end(JSON.stringify({ error: \"rate_limiter_unavailable\" }));\n      return;\n    }\n",
           "    } catch (err) {\n"
           "      // Fail open: a store outage must not become an API outage. Warn at most once per 10 s.\n"
           "      if (t - lastWarnAt >= 10_000) {\n        lastWarnAt = t;\n"
           "        console.warn(`ratelimitr: store error, letting requests through: ${String(err)}`);\n      }\n"
           "      return next();\n    }\n")
    s.edit("src/middleware.ts", "  return async function rateLimitMiddleware(",
           "  let lastWarnAt = -Infinity;\n\n  return async function rateLimitMiddleware(")
    s.edit("test/ratelimit.test.ts",
           "  it(\"answers 503 when the store fails\", async () => {\n",
           "  it(\"lets the request through when the store fails\", async () => {\n")
    s.edit("test/ratelimit.test.ts",
           "    expect(called).toBe(false);\n    expect(res.statusCode).toBe(503);\n",
           "    expect(called).toBe(true);\n    expect(res.statusCode).toBe(200);\n")
    s.bash("npx vitest run",
           "\n RUN  v2.1.4 /home/dev/ratelimitr\n\nstderr | test/ratelimit.test.ts > rateLimit middleware > lets the "
           "request through when the store fails\nratelimitr: store error, letting requests through: Error: ETIMEDOUT\n\n"
           " ✓ test/ratelimit.test.ts (9 tests) 15ms\n\n Test Files  1 passed (1)\n      Tests  9 passed (9)\n"
           "   Start at  09:58:02\n   Duration  402ms (transform 60ms, setup 0ms, collect 63ms, tests 15ms, "
           "environment 0ms, prepare 91ms)\n", description="Run the tests")
    s.say("Switched to fail open: on a store error the middleware logs `ratelimitr: store error, letting requests "
          "through` (at most once every 10 s per middleware instance) and calls `next()`; no rate-limit headers "
          "are set on those responses. Test updated; 9 pass.")
    s.user("👍")
    return [s]


@scenario("headers-both", RL,
          "voice-dictated request; the agent presents a table (legacy only / draft only / both sets) and offers to "
          "simplify retryAfterSeconds; the person picks both sets and explains the clamp to 1 (an SDK's hot loop)",
          [exp("decision", "src/headers.ts:setHeaders", "both sets", ["legacy only", "draft only"]),
           exp("workaround", "src/headers.ts:retryAfterSeconds", "hot loop")])
def _headers(files):
    s = Session("tune11-headers-both", "2025-02-24T14:05:00Z", files)
    s.user("we need to support the new rate limit headers the ietf ones because some of the customers sdk's read "
           "those now instead of the x- ones, what are our options there")
    s.read("src/headers.ts")
    s.read("src/middleware.ts", offset=40)
    s.say("Today `setHeaders` sends only the legacy `X-RateLimit-Limit/Remaining/Reset` (Reset as an epoch "
          "timestamp) plus `Retry-After` on 429s. Options:\n\n"
          "| option | sends | for | against |\n|---|---|---|---|\n"
          "| A. Legacy only | `X-RateLimit-*` | nothing changes | the SDKs that moved to the draft see no "
          "limits |\n"
          "| B. Draft only | `RateLimit: limit=…, remaining=…, reset=…` + `RateLimit-Policy: 10;w=60` | standard "
          "track, one set of headers | breaks every client still reading `X-RateLimit-*` |\n"
          "| C. Both sets | legacy and draft side by side | nobody breaks; the legacy set can be removed in a "
          "major | ~60 bytes more per response |\n\n"
          "Note the draft's `reset` is seconds *until* reset, not an epoch time like our `X-RateLimit-Reset`.\n\n"
          "Unrelated, while I'm in here: `retryAfterSeconds` clamps to a minimum of 1. I could simplify it to a "
          "plain `Math.ceil`, so a limit that's already due says `Retry-After: 0` — want that too?")
    s.user("lets do both for now, the old ones get dropped in the next major but not in this pr. and no leave the "
           "max one alone its on purpose, the android sdk treats retry after zero as retry right away and it goes "
           "into a hot loop hammering us, we had that last year it was a whole thing")
    s.edit("src/headers.ts",
           "export function retryAfterSeconds(resetAt: number, now: number): number {\n",
           "// Never 0, on purpose: our Android SDK treats \"Retry-After: 0\" as \"retry immediately\" and spins in a\n"
           "// hot loop against the API.\n"
           "export function retryAfterSeconds(resetAt: number, now: number): number {\n",
           text="First a comment on the clamp so nobody \"simplifies\" it later.")
    s.edit("src/headers.ts",
           "/** Legacy X-RateLimit-* headers, as most clients still read them. */\n"
           "export function setHeaders(res: ServerResponse, d: Decision, now: number = Date.now()): void {\n",
           "/**\n * Both sets: the legacy X-RateLimit-* headers (most clients still read them) and the IETF draft\n"
           " * RateLimit / RateLimit-Policy fields. The legacy set goes in the next major.\n */\n"
           "export function setHeaders(res: ServerResponse, d: Decision, now: number = Date.now(), windowMs?: number): void {\n"
           "  const resetIn = Math.max(0, Math.ceil((d.resetAt - now) / 1000));\n")
    s.edit("src/headers.ts",
           "  res.setHeader(\"X-RateLimit-Reset\", String(Math.ceil(d.resetAt / 1000)));\n",
           "  res.setHeader(\"X-RateLimit-Reset\", String(Math.ceil(d.resetAt / 1000)));\n"
           "  res.setHeader(\"RateLimit\", `limit=${d.limit}, remaining=${d.remaining}, reset=${resetIn}`);\n"
           "  if (windowMs !== undefined) {\n"
           "    res.setHeader(\"RateLimit-Policy\", `${d.limit};w=${Math.ceil(windowMs / 1000)}`);\n  }\n")
    s.edit("src/middleware.ts", "    setHeaders(res, decision, t);\n", "    setHeaders(res, decision, t, opts.windowMs);\n")
    s.edit("test/ratelimit.test.ts", 'import { retryAfterSeconds } from "../src/headers.js";\n',
           'import { retryAfterSeconds, setHeaders } from "../src/headers.js";\n')
    s.edit("test/ratelimit.test.ts", 'import type { IncomingMessage } from "node:http";\n',
           'import type { IncomingMessage, ServerResponse } from "node:http";\n')
    s.edit("test/ratelimit.test.ts", "    expect(retryAfterSeconds(1000, 1000)).toBe(1);\n  });\n",
           "    expect(retryAfterSeconds(1000, 1000)).toBe(1);\n  });\n"
           "  it(\"sends both header sets\", () => {\n    const set: Record<string, string> = {};\n"
           "    const res = { setHeader: (k: string, v: string) => { set[k] = v; } } as unknown as ServerResponse;\n"
           "    setHeaders(res, { allowed: true, limit: 10, remaining: 7, resetAt: 5000 }, 1000, 60_000);\n"
           "    expect(set[\"X-RateLimit-Remaining\"]).toBe(\"7\");\n"
           "    expect(set[\"RateLimit\"]).toBe(\"limit=10, remaining=7, reset=4\");\n"
           "    expect(set[\"RateLimit-Policy\"]).toBe(\"10;w=60\");\n  });\n")
    s.bash("npx vitest run", vitest_ok(9, 13), description="Run the tests")
    s.say("Done: `setHeaders` sends both sets — `X-RateLimit-*` as before plus `RateLimit` and `RateLimit-Policy` "
          "(the middleware passes its window for the policy). `retryAfterSeconds` is unchanged, now with a comment "
          "on why it never returns 0. 9 tests pass.")
    s.user("nice one")
    return [s]


@scenario("memory-store-lazy", RL,
          "SRE pastes heap numbers; the agent adds a setInterval sweeper and asks 'ok to keep?'; the SRE says no "
          "timers in the store, expire lazily on writes, and no Redis store in this package",
          [exp("invariant", "src/store.ts:MemoryStore", "no timers", ["setinterval"]),
           exp("boundary", "src/store.ts", "redis")])
def _store(files):
    s = Session("tune11-memory-store-lazy", "2025-03-03T07:55:00Z", files)
    s.user("```\n$ curl -s localhost:9464/metrics | grep -E 'heap_used|ratelimit_store'\n"
           "nodejs_heap_size_used_bytes 1.931e+09\nratelimitr_memory_store_entries 9412077\n"
           "$ uptime\n 07:53:12 up 6:02\n```\nmemory store never forgets anything.")
    s.read("src/store.ts")
    s.say("Right: expired entries are only removed when the same key is read again. One-off keys (scanners, "
          "rotating IPs) are never read again, so they stay forever.")
    s.edit("src/store.ts", "  constructor(private readonly now: () => number = Date.now) {}\n",
           "  private readonly sweeper: NodeJS.Timeout;\n\n"
           "  constructor(private readonly now: () => number = Date.now, sweepEveryMs = 60_000) {\n"
           "    this.sweeper = setInterval(() => this.sweep(), sweepEveryMs);\n  }\n\n"
           "  /** Drop every expired entry. */\n  sweep(): void {\n    const t = this.now();\n"
           "    for (const [k, e] of this.entries) if (e.expiresAt <= t) this.entries.delete(k);\n  }\n\n"
           "  /** Stop the sweeper (call on shutdown). */\n  close(): void {\n    clearInterval(this.sweeper);\n  }\n")
    s.bash("npx vitest run", vitest_ok(8, 12), description="Run the tests")
    s.say("Added a sweeper: `MemoryStore` now runs `sweep()` every 60 s via `setInterval` and drops every expired "
          "entry; `close()` stops it on shutdown. Tests pass. ok to keep?")
    s.user("no. no timers in the store. an interval keeps the event loop alive (every consumer's test suite hangs "
           "or needs close()), and on lambda the process is frozen between invocations anyway. expire lazily: on "
           "writes, every N writes scan a bounded batch. and before you ask — not adding a redis store here, that "
           "lives in infra.")
    s.edit("src/store.ts",
           "  private readonly sweeper: NodeJS.Timeout;\n\n"
           "  constructor(private readonly now: () => number = Date.now, sweepEveryMs = 60_000) {\n"
           "    this.sweeper = setInterval(() => this.sweep(), sweepEveryMs);\n  }\n\n"
           "  /** Drop every expired entry. */\n  sweep(): void {\n    const t = this.now();\n"
           "    for (const [k, e] of this.entries) if (e.expiresAt <= t) this.entries.delete(k);\n  }\n\n"
           "  /** Stop the sweeper (call on shutdown). */\n  close(): void {\n    clearInterval(this.sweeper);\n  }\n",
           "  private writes = 0;\n\n"
           "  constructor(private readonly now: () => number = Date.now) {}\n\n"
           "  /**\n   * Lazy expiry, no timers: every 1000th write drops the expired entries among the oldest `batch`.\n"
           "   * Map iteration is insertion order, so the oldest keys are looked at first.\n   */\n"
           "  private sweep(batch = 1000): void {\n    const t = this.now();\n    let seen = 0;\n"
           "    for (const [k, e] of this.entries) {\n      if (seen++ >= batch) break;\n"
           "      if (e.expiresAt <= t) this.entries.delete(k);\n    }\n  }\n")
    s.edit("src/store.ts", "    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });\n",
           "    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });\n"
           "    if (++this.writes % 1000 === 0) this.sweep();\n")
    s.edit("src/store.ts", "    this.entries.set(key, { value: String(next), expiresAt });\n    return next;\n",
           "    this.entries.set(key, { value: String(next), expiresAt });\n"
           "    if (++this.writes % 1000 === 0) this.sweep();\n    return next;\n")
    s.edit("test/ratelimit.test.ts", "describe(\"keys\", () => {\n",
           "describe(\"MemoryStore\", () => {\n  it(\"drops expired entries lazily on writes\", async () => {\n"
           "    let t = 0;\n    const store = new MemoryStore(() => t);\n"
           "    for (let i = 0; i < 999; i++) await store.set(`k${i}`, \"1\", 10);\n"
           "    t = 20;\n    await store.set(\"fresh\", \"1\", 10);\n    expect(store.size).toBe(1);\n  });\n});\n\n"
           "describe(\"keys\", () => {\n")
    s.bash("npx vitest run", vitest_ok(9, 19), description="Run the tests")
    s.say("Replaced: no timer, no `close()`. Every 1000th `set`/`incr` scans at most 1000 of the oldest entries and "
          "drops the expired ones, so the work per write is bounded and one-off keys get collected as traffic "
          "flows. 9 tests pass.")
    s.user("ok")
    return [s]


@scenario("no-network-in-request-path", RL,
          "tech lead rejects DNS lookups for allowlist hostnames ('nothing in the request path does network I/O "
          "besides the store'); a week later rejects a per-request call to the accounts service for key tiers with "
          "the same rule in other words, about other code",
          [exp("invariant", "src/*.ts", "request path")])
def _nonet(files):
    s = Session("tune11-no-network-1", "2025-02-26T11:10:00Z", files)
    s.user("Ops wants to put `monitoring.internal` into the allowlist instead of the IPs — the monitoring boxes "
           "get new addresses whenever they're rebuilt. Can you add hostname entries?")
    s.read("src/allowlist.ts")
    s.say("Plan: entries that don't parse as a CIDR are treated as hostnames; `has()` resolves them with "
          "`dns.promises.lookup` and caches the addresses for 60 s. That makes `has()` async, so the middleware "
          "would `await allow.has(...)`. Shall I go ahead?")
    s.user("No. Nothing in the request path does network I/O apart from the store call itself. A DNS lookup on a "
           "cache miss puts the resolver's latency and its failures on whichever request happens to hit the miss, "
           "and we've had resolver hiccups take out services before. So no hostnames in the allowlist: ops will "
           "template the IPs into the config at deploy time. Make the error message tell them that, since that's "
           "what they'll run into.")
    s.edit("src/allowlist.ts", "    throw new Error(`not an IPv4 CIDR: ${cidr}`);\n",
           "    throw new Error(`not an IPv4 CIDR: ${cidr} (hostnames are not supported; put the addresses in the config)`);\n")
    s.edit("test/ratelimit.test.ts", "    expect(() => parseCidr(\"example.com\")).toThrow();\n",
           "    expect(() => parseCidr(\"example.com\")).toThrow(/hostnames are not supported/);\n")
    s.bash("npx vitest run", vitest_ok(8), description="Run the tests")
    s.say("Done: a hostname entry now fails at startup with `not an IPv4 CIDR: monitoring.internal (hostnames are "
          "not supported; put the addresses in the config)`. 8 tests pass.")
    s2 = Session("tune11-no-network-2", "2025-03-05T15:45:00Z", files)
    s2.user("Per-key tiers: premium API keys should get 10x the normal limit. The accounts service knows each key's "
            "plan (GET /v1/keys/:key/plan).")
    s2.read("src/middleware.ts")
    s2.read("src/keys.ts", offset=28)
    s2.say("I'd add a `planFor(key)` helper that calls the accounts service with `fetch`, caches the plan in the "
           "store for 5 minutes, and scales the limit by the plan's multiplier. One call per key every 5 minutes, "
           "so the added latency is rare. Sound OK?")
    s2.user("Same rule as with the allowlist hostnames: no outbound calls while a request is being handled, other "
            "than the store. A 5-minute cache still means some request waits on the accounts service, and when "
            "that service is down we'd be slow everywhere. Take the tiers as a static map in the options, "
            "`tiers: { [apiKey]: multiplier }`; the deploy reloads the config when plans change.")
    s2.edit("src/middleware.ts", "  allowlist?: string[];\n",
            "  allowlist?: string[];\n  /** API key -> limit multiplier (e.g. 10 for premium). Static: nothing is looked up per request. */\n"
            "  tiers?: Record<string, number>;\n")
    s2.edit("src/middleware.ts", 'import { clientIp, defaultKey, type KeyFn } from "./keys.js";\n',
            'import { apiKey, clientIp, defaultKey, type KeyFn } from "./keys.js";\n')
    s2.edit("src/middleware.ts",
            "  const limiter =\n    opts.algorithm === \"token-bucket\"\n"
            "      ? new TokenBucket(store, { capacity: opts.limit, refillAmount: opts.limit, refillIntervalMs: opts.windowMs })\n"
            "      : new SlidingWindow(store, { limit: opts.limit, windowMs: opts.windowMs });\n\n"
            "  const check = (k: string, t: number): Promise<Decision> =>\n"
            "    limiter instanceof TokenBucket ? limiter.take(k, t) : limiter.hit(k, t);\n",
            "  const makeLimiter = (limit: number) =>\n    opts.algorithm === \"token-bucket\"\n"
            "      ? new TokenBucket(store, { capacity: limit, refillAmount: limit, refillIntervalMs: opts.windowMs })\n"
            "      : new SlidingWindow(store, { limit, windowMs: opts.windowMs });\n"
            "  const limiters = new Map<number, TokenBucket | SlidingWindow>();\n"
            "  const limiterFor = (multiplier: number) => {\n    let l = limiters.get(multiplier);\n"
            "    if (!l) limiters.set(multiplier, (l = makeLimiter(Math.round(opts.limit * multiplier))));\n"
            "    return l;\n  };\n\n"
            "  const check = (req: IncomingMessage, k: string, t: number): Promise<Decision> => {\n"
            "    const presented = apiKey(req);\n"
            "    const limiter = limiterFor((presented && opts.tiers?.[presented]) || 1);\n"
            "    return limiter instanceof TokenBucket ? limiter.take(k, t) : limiter.hit(k, t);\n  };\n")
    s2.edit("src/middleware.ts", "    const decision = await check(await key(req), t);\n",
            "    const decision = await check(req, await key(req), t);\n")
    s2.edit("test/ratelimit.test.ts", *MW_TEST_IMPORTS)
    s2.edit("test/ratelimit.test.ts", "describe(\"headers\", () => {\n",
            "describe(\"tiers\", () => {\n  it(\"multiplies the limit for listed keys\", async () => {\n"
            "    const mw = rateLimit({ algorithm: \"sliding-window\", limit: 1, windowMs: 1000, tiers: { prem: 3 }, now: () => 5 });\n"
            "    const res = () => ({ statusCode: 200, setHeader() {}, end() {} }) as unknown as ServerResponse;\n"
            "    let passed = 0;\n"
            "    for (let i = 0; i < 4; i++) await mw(req({ \"x-api-key\": \"prem\" }), res(), () => { passed++; });\n"
            "    expect(passed).toBe(3);\n  });\n});\n\n"
            "describe(\"headers\", () => {\n")
    s2.bash("npx vitest run", vitest_ok(9, 16), description="Run the tests")
    s2.say("Added `tiers` to the options: the presented API key's multiplier scales the limit (one limiter per "
           "multiplier, created lazily), keys not in the map get 1×. No calls outside the store. 9 tests pass.")
    s2.user("good")
    return [s, s2]


@scenario("bucket-clock-skew", RL,
          "non-native English speaker pastes a failing test of their own; the agent finds that Math.floor of a "
          "slightly negative elapsed time (clock skew between instances) subtracts a whole refill, and clamps it",
          [exp("gotcha", "src/tokenBucket.ts:TokenBucket.take", "clock skew")])
def _skew(files):
    s = Session("tune11-bucket-clock-skew", "2025-03-10T13:02:00Z", files)
    s.user("Hello, since we run 3 instances behind the balancer some customers get 429 after only 2 requests, "
           "limit is 100 per minute and Retry-After say ~60 seconds. With 1 instance never. I write a test which "
           "reproduce it I think, but I don't understand why it fail. Can you look please?\n\n```ts\n"
           "  it(\"allows a request from an instance whose clock is a bit behind\", async () => {\n"
           "    const tb = new TokenBucket(new MemoryStore(() => 0), { capacity: 100, refillAmount: 100, refillIntervalMs: 60_000 });\n"
           "    await tb.take(\"a\", 10_000);\n"
           "    expect((await tb.take(\"a\", 9_800)).allowed).toBe(true); // other instance, clock 200ms behind\n"
           "  });\n```\n\n```\n FAIL  test/ratelimit.test.ts > TokenBucket > allows a request from an instance "
           "whose clock is a bit behind\nAssertionError: expected false to be true // Object.is equality\n```")
    s.edit("test/ratelimit.test.ts", "    expect(results).toEqual([true, true, true, false]);\n  });\n",
           "    expect(results).toEqual([true, true, true, false]);\n  });\n\n"
           "  it(\"allows a request from an instance whose clock is a bit behind\", async () => {\n"
           "    const tb = new TokenBucket(new MemoryStore(() => 0), { capacity: 100, refillAmount: 100, refillIntervalMs: 60_000 });\n"
           "    await tb.take(\"a\", 10_000);\n"
           "    expect((await tb.take(\"a\", 9_800)).allowed).toBe(true); // other instance, clock 200ms behind\n"
           "  });\n", text="Adding your test to the suite first.")
    s.bash("npx vitest run",
           "\n RUN  v2.1.4 /home/dev/ratelimitr\n\n ❯ test/ratelimit.test.ts (9 tests | 1 failed) 21ms\n"
           "   × TokenBucket > allows a request from an instance whose clock is a bit behind 4ms\n"
           "     → expected false to be true // Object.is equality\n\n"
           "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n"
           " FAIL  test/ratelimit.test.ts > TokenBucket > allows a request from an instance whose clock is a bit behind\n"
           "AssertionError: expected false to be true // Object.is equality\n\n- Expected\n+ Received\n\n- true\n+ false\n\n"
           " ❯ test/ratelimit.test.ts:25:52\n\n Test Files  1 failed (1)\n      Tests  1 failed | 8 passed (9)\n",
           fail=True, description="Run the tests")
    s.read("src/tokenBucket.ts", offset=36, limit=16)
    s.say("Found it. The second call comes 200 ms \"before\" the stored `updatedAt`, so\n\n"
          "```\nintervals = Math.floor((9_800 - 10_000) / 60_000) = Math.floor(-0.0033) = -1\n```\n\n"
          "`Math.floor` rounds a small negative number down to −1, not to 0. So the bucket gets a *negative* refill "
          "of 100 tokens: 99 − 100 = −1 tokens, the request is refused, and `updatedAt` moves one minute back — "
          "that's your Retry-After of about 60 s. With one instance the clock never goes backwards, so it never "
          "happens; with three, a few ms of clock skew between instances is enough.\n\n"
          "Fix: never count a negative number of intervals, and so never move `updatedAt` backwards.")
    s.edit("src/tokenBucket.ts", "    const intervals = Math.floor((now - state.updatedAt) / refillIntervalMs);\n",
           "    // Instances' clocks differ by a few ms (clock skew). A take from a clock behind `updatedAt` must not\n"
           "    // count as a negative refill: Math.floor(-0.003) is -1, which took a whole refill away.\n"
           "    const intervals = Math.max(0, Math.floor((now - state.updatedAt) / refillIntervalMs));\n")
    s.bash("npx vitest run", vitest_ok(9), description="Run the tests")
    s.say("Fixed, your test passes (9 tests). The state's `updatedAt` now only moves forward, so a request that "
          "lands on an instance with a slightly late clock sees the same tokens as the others.")
    s.user("Ah, I see now, Math.floor with negative. Thank you very much!")
    return [s]


@scenario("review-middleware", RL,
          "tech lead asks for a review and gives a process instruction (run the linter first, always); the agent's "
          "should/must suggestions are not taken up; nothing changes",
          [])
def _review(files):
    s = Session("tune11-review-middleware", "2025-03-18T16:30:00Z", files)
    s.user("Review middleware.ts before I tag 1.3. Run `npm run lint` first — and in general, always run the "
           "linter before telling me something is done.")
    s.bash("npm run lint", "\n> ratelimitr@1.2.0 lint\n> eslint src test\n\n", description="Run eslint")
    s.read("src/middleware.ts")
    s.say("Lint is clean. Review of `middleware.ts`:\n\n"
          "1. **Key function errors** — if a custom `key` throws or rejects, the promise rejects and Express answers "
          "500. It should probably be caught and treated like a missing key.\n"
          "2. **Headers after send** — if a handler earlier in the chain has already sent the response, "
          "`setHeaders` will throw `ERR_HTTP_HEADERS_SENT`; the middleware must check `res.headersSent` first.\n"
          "3. **Allowlist and IPv6** — `Allowlist.has` returns false for any IPv6 address, so IPv6 clients can "
          "never be allowlisted. Worth a note in the README at least.\n"
          "4. **Limiter per call** — `check` does an `instanceof` on every request; a bound function chosen once "
          "would be tidier.\n\nNone of these is a regression since 1.2.")
    s.user("ok, noted. none of that for 1.3 though, tagging as is.")
    return [s]


# -- build and check ------------------------------------------------------------------------------------------


def build() -> None:
    out = []
    (HERE / "sessions").mkdir(exist_ok=True)
    for sc in SCENARIOS:
        sessions = sc["fn"](repo_files(sc["repo"]))
        for s in sessions:
            (HERE / "sessions" / f"{s.name}.jsonl").write_text(s.jsonl(), encoding="utf-8")
        out.append({"name": sc["name"], "repo": sc["repo"], "sessions": [f"{s.name}.jsonl" for s in sessions],
                    "note": sc["note"], "expected": sc["expected"]})
    (HERE / "expected.json").write_text(json.dumps({"set": SET, "scenarios": out}, indent=2,
                                                   ensure_ascii=False) + "\n", encoding="utf-8")


def check() -> None:
    """Replays each scenario on a copy of its repository; every expected anchor must name a definition
    (tether's parser) of the final state, or a file, or a glob matching some file."""
    import shutil
    import tempfile
    sys.path.insert(0, str(TESTS))
    sys.path.insert(0, str(HERE.parents[2] / "server"))
    from capture_fixtures import hook_events, materialize
    from tether.core.languages import for_path
    from tether.core.syntax import SourceFile
    for sc in json.loads((HERE / "expected.json").read_text(encoding="utf-8"))["scenarios"]:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "repo"
            shutil.copytree(HERE / "repos" / sc["repo"], root)
            edits = 0
            for name in sc["sessions"]:
                path = materialize(name, root, Path(tmp) / "t", HERE / "sessions" / name)
                for _event, change in hook_events(path, root):
                    if change is not None:
                        change()
                        edits += 1
            said = " ".join(json.dumps(json.loads(ln)["message"]["content"], ensure_ascii=False).lower()
                            for n in sc["sessions"] for ln in (HERE / "sessions" / n).read_text().splitlines()
                            if json.loads(ln).get("type") in ("user", "assistant"))
            for e in sc["expected"]:
                for phrase in (e["phrase"], *e["rejected"]):
                    assert phrase.lower() in said, (sc["name"], phrase)
                rel, _, name = e["anchor"].partition(":")
                if "*" in rel:
                    assert list(root.glob(rel)), (sc["name"], e["anchor"])
                    continue
                text = (root / rel).read_text(encoding="utf-8")
                if name:
                    names = {d.qualname for d in SourceFile(text, for_path(rel)).defs}
                    assert name in names, (sc["name"], e["anchor"], sorted(names))
            # the session files in the builder and the replay end in the same state
            final = repo_files_at(root)
            files = repo_files(sc["repo"])
            fn = next(x["fn"] for x in SCENARIOS if x["name"] == sc["name"])
            fn(files)
            assert final == files, (sc["name"], [k for k in files if files[k] != final.get(k)])
        print(f"ok  {sc['name']}: {len(sc['sessions'])} session(s), {edits} edits, {len(sc['expected'])} expected")


def repo_files_at(base: Path) -> dict[str, str]:
    return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8") for p in sorted(base.rglob("*"))
            if p.is_file() and ".git" not in p.parts}


if __name__ == "__main__":
    build()
    if "--check" in sys.argv:
        check()
