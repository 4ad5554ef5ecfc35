"""Players who drop out of a running match.

The game servers report disconnects and heartbeats; the lobby keeps the player's slot so that
they can rejoin the same match.
"""

from __future__ import annotations

from dataclasses import dataclass

WINDOW = 90.0


@dataclass
class Slot:
    player_id: str
    match_id: str
    last_seen: float
    disconnected_at: float | None = None


class ReconnectTracker:
    def __init__(self, window: float = WINDOW) -> None:
        self.window = window
        self.slots: dict[str, Slot] = {}

    def joined(self, player_id: str, match_id: str, now: float) -> None:
        self.slots[player_id] = Slot(player_id, match_id, now)

    def heartbeat(self, player_id: str, now: float) -> None:
        slot = self.slots.get(player_id)
        if slot is not None:
            slot.last_seen = now

    def disconnected(self, player_id: str, now: float) -> None:
        slot = self.slots.get(player_id)
        if slot is not None:
            slot.disconnected_at = now

    def finished(self, match_id: str) -> None:
        for pid in [p for p, s in self.slots.items() if s.match_id == match_id]:
            del self.slots[pid]
