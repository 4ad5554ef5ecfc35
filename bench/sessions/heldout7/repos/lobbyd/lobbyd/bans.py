"""Bans: from the moderation tool's JSON export and from the in-game report pipeline."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone


@dataclass
class Ban:
    player_id: str
    reason: str
    until: datetime | None  # None: permanent

    def active(self, now: datetime) -> bool:
        return self.until is None or now < self.until


class BanList:
    def __init__(self) -> None:
        self.bans: dict[str, Ban] = {}

    def add(self, ban: Ban) -> None:
        old = self.bans.get(ban.player_id)
        if old is None or old.until is not None and (ban.until is None or ban.until > old.until):
            self.bans[ban.player_id] = ban

    def lift(self, player_id: str) -> None:
        self.bans.pop(player_id, None)

    def is_banned(self, player_id: str, now: datetime) -> bool:
        ban = self.bans.get(player_id)
        return ban is not None and ban.active(now)


def load_bans(text: str) -> BanList:
    """Parse the moderation tool's export: ``[{"player": ..., "reason": ..., "until": iso or null}]``."""
    out = BanList()
    for row in json.loads(text):
        until = datetime.fromisoformat(row["until"]) if row.get("until") else None
        out.add(Ban(row["player"], row.get("reason", ""), until))
    return out


def utc(y: int, m: int, d: int, hh: int = 0) -> datetime:
    return datetime(y, m, d, hh, tzinfo=timezone.utc)
