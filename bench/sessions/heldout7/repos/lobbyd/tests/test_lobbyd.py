from lobbyd.bans import Ban, BanList, load_bans, utc
from lobbyd.matchmaker import Matchmaker, split_teams
from lobbyd.parties import PartyRegistry
from lobbyd.queues import QueueEntry, QueueManager, region_for
from lobbyd.ratings import Rating, expected_score, update_ratings
from lobbyd.reconnect import ReconnectTracker


def entry(pid, size=1, rating=1500.0, region="eu", at=0.0):
    return QueueEntry(pid, size, rating, region, at)


def test_expected_score_equal():
    assert expected_score(1500, 1500) == 0.5


def test_update_moves_both():
    a, b = Rating("a"), Rating("b")
    update_ratings(a, b)
    assert a.value > 1500 > b.value
    assert a.games == b.games == 1


def test_party_rating_and_leave():
    reg = PartyRegistry()
    p = reg.create(Rating("a", 1400), "eu")
    reg.join(p.party_id, Rating("b", 1600))
    assert p.size == 2
    reg.leave("a")
    assert p.leader == "b"


def test_region_for_unknown():
    import pytest
    with pytest.raises(ValueError):
        region_for("mars", {})


def test_split_teams_sizes():
    es = [entry("p1", 3), entry("p2", 2), entry("p3", 2), entry("p4", 1), entry("p5", 1), entry("p6", 1)]
    a, b = split_teams(es)
    assert sum(e.size for e in a) == 5 and sum(e.size for e in b) == 5


def test_tick_makes_a_match():
    qm = QueueManager()
    for i in range(10):
        qm.enqueue(entry(f"s{i}"))
    made = Matchmaker(qm).tick(now=100.0)
    assert len(made) == 1 and made[0].players() == 10
    assert len(qm.queue("eu")) == 0


def test_reconnect_finished_clears():
    t = ReconnectTracker()
    t.joined("a", "m1", 0.0)
    t.finished("m1")
    assert "a" not in t.slots


def test_bans_longest_wins():
    bl = BanList()
    bl.add(Ban("x", "spam", utc(2026, 1, 2)))
    bl.add(Ban("x", "grief", utc(2026, 1, 9)))
    assert bl.is_banned("x", utc(2026, 1, 5))
    assert not bl.is_banned("x", utc(2026, 1, 10))


def test_load_bans_permanent():
    bl = load_bans('[{"player": "x", "reason": "cheat", "until": null}]')
    assert bl.is_banned("x", utc(2030, 1, 1))
