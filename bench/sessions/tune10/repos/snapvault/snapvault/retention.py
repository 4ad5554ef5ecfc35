"""Retention policy: which snapshots to keep, which to prune."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass
class Policy:
    keep_last: int = 3
    keep_daily: int = 7
    keep_weekly: int = 4
    keep_monthly: int = 6

    def is_empty(self) -> bool:
        return not (self.keep_last or self.keep_daily or self.keep_weekly or self.keep_monthly)


def parse_snapshot_time(name: str) -> datetime:
    return datetime.strptime(name, "%Y%m%dT%H%M%SZ")


def bucket_key(ts: datetime, period: str) -> str:
    if period == "daily":
        return ts.strftime("%Y-%m-%d")
    if period == "weekly":
        year, week, _ = ts.isocalendar()
        return f"{year}-W{week:02d}"
    if period == "monthly":
        return ts.strftime("%Y-%m")
    raise ValueError(period)


def select_kept(snapshots: list[str], policy: Policy) -> set[str]:
    """The snapshots the policy keeps: the newest of each bucket, newest buckets first."""
    newest_first = sorted(snapshots, reverse=True)
    kept = set(newest_first[: policy.keep_last])
    for period, count in (("daily", policy.keep_daily), ("weekly", policy.keep_weekly),
                          ("monthly", policy.keep_monthly)):
        seen: list[str] = []
        for name in newest_first:
            key = bucket_key(parse_snapshot_time(name), period)
            if key in seen:
                continue
            if len(seen) >= count:
                break
            seen.append(key)
            kept.add(name)
    return kept


def select_prunable(snapshots: list[str], policy: Policy) -> list[str]:
    if policy.is_empty():
        raise ValueError("refusing to prune with an empty policy")
    kept = select_kept(snapshots, policy)
    return sorted(s for s in snapshots if s not in kept)
