"""Per-region queues.

Players queue in the region their client reports. A queue entry is a party (a solo player is a
party of one); entries are served oldest first.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

REGIONS = ("na", "eu", "sea", "oce", "sa")

# below this many waiting entries OCE players are queued in SEA
OCE_MIN_QUEUE = 6


@dataclass
class QueueEntry:
    party_id: str
    size: int
    rating: float
    region: str
    joined_at: float


@dataclass
class RegionQueue:
    region: str
    entries: deque[QueueEntry] = field(default_factory=deque)

    def push(self, entry: QueueEntry) -> None:
        self.entries.append(entry)

    def remove(self, party_id: str) -> bool:
        for e in self.entries:
            if e.party_id == party_id:
                self.entries.remove(e)
                return True
        return False

    def waiting(self) -> int:
        return sum(e.size for e in self.entries)

    def __len__(self) -> int:
        return len(self.entries)


def region_for(requested: str, sizes: dict[str, int]) -> str:
    if requested not in REGIONS:
        raise ValueError(f"unknown region {requested!r}")
    if requested == "oce" and sizes.get("oce", 0) < OCE_MIN_QUEUE:
        return "sea"
    return requested


class QueueManager:
    def __init__(self) -> None:
        self.queues = {r: RegionQueue(r) for r in REGIONS}
        self._where: dict[str, str] = {}

    def sizes(self) -> dict[str, int]:
        return {r: q.waiting() for r, q in self.queues.items()}

    def enqueue(self, entry: QueueEntry) -> str:
        if entry.party_id in self._where:
            raise ValueError(f"{entry.party_id} is already queued")
        region = region_for(entry.region, self.sizes())
        self.queues[region].push(entry)
        self._where[entry.party_id] = region
        return region

    def dequeue(self, party_id: str) -> bool:
        region = self._where.pop(party_id, None)
        return region is not None and self.queues[region].remove(party_id)

    def queue(self, region: str) -> RegionQueue:
        return self.queues[region]
