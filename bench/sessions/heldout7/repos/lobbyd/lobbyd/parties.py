"""Parties: players who queue together and always land on the same team."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from lobbyd.ratings import Rating

MAX_PARTY = 5
_ids = itertools.count(1)


@dataclass
class Party:
    party_id: str
    leader: str
    members: dict[str, Rating] = field(default_factory=dict)
    region: str = "na"

    @property
    def size(self) -> int:
        return len(self.members)

    @property
    def rating(self) -> float:
        """The rating the matchmaker uses for the whole party."""
        return sum(r.value for r in self.members.values()) / len(self.members)

    def add(self, rating: Rating) -> None:
        if self.size >= MAX_PARTY:
            raise ValueError(f"party {self.party_id} is full")
        self.members[rating.player_id] = rating


class PartyRegistry:
    def __init__(self) -> None:
        self.parties: dict[str, Party] = {}
        self.by_player: dict[str, str] = {}

    def create(self, leader: Rating, region: str) -> Party:
        if leader.player_id in self.by_player:
            raise ValueError(f"{leader.player_id} is already in a party")
        party = Party(f"p{next(_ids)}", leader.player_id, region=region)
        party.add(leader)
        self.parties[party.party_id] = party
        self.by_player[leader.player_id] = party.party_id
        return party

    def join(self, party_id: str, rating: Rating) -> Party:
        if rating.player_id in self.by_player:
            raise ValueError(f"{rating.player_id} is already in a party")
        party = self.parties[party_id]
        party.add(rating)
        self.by_player[rating.player_id] = party_id
        return party

    def leave(self, player_id: str) -> None:
        party_id = self.by_player.pop(player_id)
        party = self.parties[party_id]
        del party.members[player_id]
        if not party.members:
            del self.parties[party_id]
        elif party.leader == player_id:
            party.leader = next(iter(party.members))

    def party_of(self, player_id: str) -> Party | None:
        pid = self.by_player.get(player_id)
        return self.parties.get(pid) if pid else None
