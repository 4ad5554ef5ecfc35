from dataclasses import dataclass, field

import pytest

from crawlbot.canonical import SeenSet, canonicalize
from crawlbot.fetcher import FetchError, Fetcher
from crawlbot.frontier import Frontier
from crawlbot.ratelimit import HostLimiter
from crawlbot.robots import RobotsCache, parse_robots
from crawlbot.storage import PageStore


@dataclass
class Resp:
    status_code: int
    content: bytes = b""
    url: str = ""
    headers: dict = field(default_factory=dict)


class FakeHttp:
    def __init__(self, routes):
        self.routes = routes
        self.calls = []

    def get(self, url, **kw):
        self.calls.append(url)
        r = self.routes.get(url)
        if isinstance(r, list):
            r = r.pop(0)
        if isinstance(r, Exception):
            raise r
        if r is None:
            return Resp(404, b"", url)
        r.url = r.url or url
        return r


def test_canonicalize_drops_tracking_and_fragment():
    assert canonicalize("HTTP://Example.COM:80/a?utm_source=x&b=2&a=1#top") == "http://example.com/a?a=1&b=2"


def test_canonicalize_empty_path():
    assert canonicalize("https://example.com") == "https://example.com/"


def test_seen_set_dedups_spellings():
    seen = SeenSet()
    assert seen.add("https://example.com/x?fbclid=1")
    assert not seen.add("https://EXAMPLE.com/x")


def test_parse_robots_specific_group():
    rules = parse_robots("User-agent: *\nDisallow: /\n\nUser-agent: crawlbot\nDisallow: /private\nCrawl-delay: 3\n")
    assert rules.allowed("/public")
    assert not rules.allowed("/private/x")
    assert rules.crawl_delay == 3


def test_longest_match_allow_wins():
    rules = parse_robots("User-agent: *\nDisallow: /docs\nAllow: /docs/public\n")
    assert rules.allowed("/docs/public/a")
    assert not rules.allowed("/docs/secret")


def test_robots_404_allows_everything():
    http = FakeHttp({})
    assert RobotsCache(http).allowed("https", "example.com", "/anything")


def test_limiter_spaces_requests_per_host():
    t = [0.0]
    slept = []
    lim = HostLimiter(default_delay=2.0, clock=lambda: t[0], sleep=slept.append)
    lim.wait("https://a.example/1")
    lim.wait("https://a.example/2")
    lim.wait("https://b.example/1")
    assert slept == [2.0]


def test_frontier_depth_and_dedup():
    f = Frontier(max_depth=1)
    assert f.push("https://a.example/")
    assert not f.push("https://a.example/#x")
    assert not f.push("https://a.example/deep", depth=2)
    assert len(f) == 1


def test_fetch_retries_then_succeeds():
    http = FakeHttp({"https://a.example/": [OSError("reset"), Resp(200, b"ok", headers={"Content-Type": "text/html"})]})
    page = Fetcher(http, sleep=lambda s: None).fetch("https://a.example/")
    assert page.body == b"ok"
    assert len(http.calls) == 2


def test_fetch_gives_up():
    http = FakeHttp({"https://a.example/": [OSError("x"), OSError("y"), OSError("z")]})
    with pytest.raises(FetchError):
        Fetcher(http, sleep=lambda s: None).fetch("https://a.example/")


def test_store_roundtrip(tmp_path):
    from crawlbot.fetcher import Page
    store = PageStore(tmp_path)
    store.save(Page("https://a.example/", "https://a.example/", 200, "text/html", b"<html></html>", 0.0))
    assert store.load("https://a.example/") == b"<html></html>"
    assert (tmp_path / "index.jsonl").read_text().count("\n") == 1
