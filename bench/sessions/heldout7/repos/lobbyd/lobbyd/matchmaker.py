"""Match creation: pull parties from a region queue and build two teams of TEAM_SIZE."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from lobbyd.queues import QueueEntry, QueueManager

TEAM_SIZE = 5
MAX_SPREAD = 300.0
_match_ids = itertools.count(1)


@dataclass
class Match:
    match_id: str
    region: str
    team_a: list[QueueEntry]
    team_b: list[QueueEntry]
    created_at: float

    def players(self) -> int:
        return sum(e.size for e in self.team_a + self.team_b)


def split_teams(entries: list[QueueEntry]) -> tuple[list[QueueEntry], list[QueueEntry]]:
    """Split the picked parties into two teams of TEAM_SIZE players each."""
    a: list[QueueEntry] = []
    b: list[QueueEntry] = []
    for e in sorted(entries, key=lambda e: -e.size):
        if sum(x.size for x in a) + e.size <= TEAM_SIZE:
            a.append(e)
        else:
            b.append(e)
    return a, b


def pick(entries: list[QueueEntry], need: int, spread: float) -> list[QueueEntry] | None:
    """Oldest-first: the first run of entries within ``spread`` of the oldest that adds up to ``need``."""
    if not entries:
        return None
    anchor = entries[0]
    chosen, total = [], 0
    for e in entries:
        if abs(e.rating - anchor.rating) > spread or total + e.size > need:
            continue
        chosen.append(e)
        total += e.size
        if total == need:
            return chosen
    return None


class Matchmaker:
    def __init__(self, queues: QueueManager) -> None:
        self.queues = queues
        self.matches: list[Match] = []

    def tick(self, now: float) -> list[Match]:
        made = []
        for region, q in self.queues.queues.items():
            while True:
                chosen = pick(list(q.entries), 2 * TEAM_SIZE, MAX_SPREAD)
                if chosen is None:
                    break
                a, b = split_teams(chosen)
                if sum(e.size for e in a) != TEAM_SIZE:
                    break
                for e in chosen:
                    self.queues.dequeue(e.party_id)
                m = Match(f"m{next(_match_ids)}", region, a, b, now)
                made.append(m)
        self.matches.extend(made)
        return made
