import pytest

from tilecache.fetcher import Fetcher, FetchError, Response
from tilecache.metrics import Metrics
from tilecache.policy import Action, FreshnessPolicy
from tilecache.store import DiskCache
from tilecache.tiles import Tile, tiles_for_bbox


def test_tile_from_path():
    assert Tile.from_path("3/4/2.png") == Tile(3, 4, 2)
    with pytest.raises(ValueError):
        Tile.from_path("3/9/2.png")


def test_quadkey_round_trip():
    for t in [Tile(1, 0, 1), Tile(5, 17, 3), Tile(12, 2047, 1360)]:
        assert Tile.from_quadkey(t.quadkey()) == t


def test_quadkey_known_value():
    # the example from the Bing Maps tile system docs
    assert Tile(3, 3, 5).quadkey() == "213"


def test_parent_and_children():
    t = Tile(4, 6, 9)
    assert all(c.parent() == t for c in t.children())


def test_tiles_for_bbox_z0():
    assert tiles_for_bbox(-10, -10, 10, 10, 0) == [Tile(0, 0, 0)]


def test_cache_put_get(tmp_path):
    cache = DiskCache(tmp_path)
    cache.put("osm", Tile(2, 1, 1), b"png-bytes")
    assert cache.get("osm", Tile(2, 1, 1)).data == b"png-bytes"
    assert cache.get("osm", Tile(2, 1, 2)) is None


def test_policy_fresh_and_stale():
    p = FreshnessPolicy(max_age=100)
    assert p.decide(None) is Action.FETCH
    assert p.decide(50) is Action.SERVE
    assert p.decide(150) is Action.SERVE_AND_REFRESH


class FakeOpener:
    def __init__(self, responses):
        self.responses = list(responses)
        self.calls = 0

    def __call__(self, req, timeout):
        self.calls += 1
        r = self.responses.pop(0)
        if isinstance(r, Exception):
            raise r
        return r


def test_fetch_gives_up(monkeypatch):
    f = Fetcher("https://up/{layer}/{z}/{x}/{y}.png?key={key}", "k", sleep=lambda s: None)
    monkeypatch.setattr(f, "_get", lambda url: Response(503, b"", {}))
    with pytest.raises(FetchError):
        f.fetch("osm", Tile(1, 0, 0))


def test_metrics_render():
    m = Metrics()
    m.inc("requests", layer="osm", action="serve")
    assert 'tilecache_requests{action="serve",layer="osm"} 1' in m.render()
