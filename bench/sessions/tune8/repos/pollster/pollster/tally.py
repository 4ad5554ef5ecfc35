"""Vote tallying: plurality for single-choice questions, instant-runoff for ranked ones."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Round:
    counts: dict[str, int]
    eliminated: list[str] = field(default_factory=list)


@dataclass
class RankedResult:
    winner: str | None
    rounds: list[Round]
    exhausted: int = 0


def plurality(ballots: list[str | None], choices: tuple[str, ...]) -> dict[str, int]:
    counts = {c: 0 for c in choices}
    for b in ballots:
        if b is not None:
            counts[b] += 1
    return counts


def _first_preferences(ballots: list[list[str]], remaining: set[str]) -> tuple[Counter, int]:
    counts: Counter = Counter({c: 0 for c in remaining})
    exhausted = 0
    for ballot in ballots:
        top = next((c for c in ballot if c in remaining), None)
        if top is None:
            exhausted += 1
        else:
            counts[top] += 1
    return counts, exhausted


def _lowest(counts: Counter) -> list[str]:
    fewest = min(counts.values())
    return sorted(c for c, n in counts.items() if n == fewest)


def ranked_choice(ballots: list[list[str]], choices: tuple[str, ...]) -> RankedResult:
    """Instant-runoff: drop the candidate with the fewest first preferences until one has a
    majority of the ballots still in play."""
    remaining = set(choices)
    rounds: list[Round] = []
    exhausted = 0
    while remaining:
        counts, exhausted = _first_preferences(ballots, remaining)
        rnd = Round(counts=dict(counts))
        rounds.append(rnd)
        live = sum(counts.values())
        leader, top = max(counts.items(), key=lambda kv: kv[1]) if counts else (None, 0)
        if live and top * 2 > live:
            return RankedResult(winner=leader, rounds=rounds, exhausted=exhausted)
        if len(remaining) == 1:
            return RankedResult(winner=next(iter(remaining)), rounds=rounds, exhausted=exhausted)
        out = _lowest(counts)[0]
        rnd.eliminated.append(out)
        remaining.discard(out)
    return RankedResult(winner=None, rounds=rounds, exhausted=exhausted)
