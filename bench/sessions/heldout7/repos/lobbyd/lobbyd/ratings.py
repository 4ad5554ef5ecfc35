"""Player skill ratings.

A plain Elo system: every player starts at 1500, a win against an equal opponent moves both
players by K/2. Team matches update each player against the other team's mean rating.
"""

from __future__ import annotations

from dataclasses import dataclass

START = 1500.0
K = 32.0


@dataclass
class Rating:
    player_id: str
    value: float = START
    games: int = 0

    def __str__(self) -> str:
        return f"{self.player_id}:{self.value:.0f}({self.games})"


def expected_score(a: float, b: float) -> float:
    """Probability that a player rated ``a`` beats one rated ``b``."""
    return 1.0 / (1.0 + 10 ** ((b - a) / 400.0))


def update_ratings(winner: Rating, loser: Rating) -> None:
    """Update both ratings in place after ``winner`` beat ``loser``."""
    ew = expected_score(winner.value, loser.value)
    delta = K * (1.0 - ew)
    winner.value += delta
    loser.value -= delta
    winner.games += 1
    loser.games += 1


def team_mean(team: list[Rating]) -> float:
    return sum(r.value for r in team) / len(team)


def update_team_ratings(winners: list[Rating], losers: list[Rating]) -> None:
    """Each winner is scored against the losers' mean and each loser against the winners' mean."""
    wmean, lmean = team_mean(winners), team_mean(losers)
    for r in winners:
        opp = Rating("_", lmean)
        update_ratings(r, opp)
    for r in losers:
        opp = Rating("_", wmean)
        update_ratings(opp, r)
