"""Percentage rollouts: which users get a flag's non-default variant."""

from __future__ import annotations

BUCKETS = 10_000


def bucket(flag_key: str, user_id: str) -> int:
    """A number in [0, BUCKETS) for this user and flag."""
    return hash(f"{flag_key}:{user_id}") % BUCKETS


def in_rollout(flag_key: str, user_id: str, percent: int) -> bool:
    if percent >= 100:
        return True
    if percent <= 0:
        return False
    return bucket(flag_key, user_id) < percent * BUCKETS // 100
