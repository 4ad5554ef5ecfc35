"""Writes the tune7 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``crawlbot`` (Python, a polite web crawler) and
``kvcache`` (TypeScript, a small in-process key-value cache for Node). Sessions are written with the
``Session`` builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py`` after
changing a scenario (outputs are committed). ``python3 build.py --check`` also replays every
scenario on a copy of its repository (every edit must apply), checks that the replayed end state is
the builder's, that every expected anchor names a definition of the final state (tether's own
parser), and that every key phrase and rejected phrase occurs in the sessions' text.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
TESTS = HERE.parents[2] / "tests"
sys.path.insert(0, str(TESTS / "fixtures" / "transcripts"))
from build import Session  # noqa: E402

SET = "tune7"
SCENARIOS: list[dict] = []


def repo_files(repo: str) -> dict[str, str]:
    base = HERE / "repos" / repo
    return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8") for p in sorted(base.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts}


def scenario(name: str, repo: str, note: str, expected: list[dict]):
    def register(fn):
        SCENARIOS.append({"name": name, "repo": repo, "note": note, "expected": expected, "fn": fn})
        return fn
    return register


def exp(kind: str, anchor: str, phrase: str, rejected: list[str] | None = None) -> dict:
    return {"kind": kind, "anchor": anchor, "phrase": phrase, "rejected": rejected or []}


def pytest_out(passed: int, secs: str, failed: str = "") -> str:
    head = ("============================= test session starts ==============================\n"
            "platform linux -- Python 3.11.9, pytest-8.2.1, pluggy-1.5.0\n"
            "rootdir: {{ROOT}}\nconfigfile: pyproject.toml\ntestpaths: tests\n"
            f"collected {passed + (1 if failed else 0)} items\n\n")
    if not failed:
        return head + f"tests/test_crawlbot.py {'.' * passed}{' ' * max(1, 55 - passed)}[100%]\n\n" \
            f"============================== {passed} passed in {secs}s ==============================="
    return head + failed


def vitest_out(files: int, tests: int, ms: int) -> str:
    return (" RUN  v1.6.0 {{ROOT}}\n\n"
            f" ✓ test/cache.test.ts  ({tests} tests) {ms}ms\n\n"
            f" Test Files  {files} passed ({files})\n"
            f"      Tests  {tests} passed ({tests})\n"
            "   Start at  10:14:07\n"
            f"   Duration  {ms * 9 + 311}ms (transform 61ms, setup 0ms, collect 74ms, tests {ms}ms, environment 0ms, "
            "prepare 88ms)\n")


# -- crawlbot (Python) ---------------------------------------------------------------------------------

CB = "crawlbot"


@scenario("robots-unreachable", CB,
          "agent lists three numbered options with the RFC's view; the person's long reply wanders (user agent, "
          "uv, a docstring, a day off) and picks 'disallow all' for 5xx/network errors mid-paragraph, after "
          "considering option 3 aloud",
          [exp("decision", "crawlbot/robots.py:RobotsCache.rules_for", "disallow all",
               ["same as 404", "keep the last good rules"])])
def _robots_unreachable(files):
    s = Session("tune7-robots-unreachable", "2026-03-02T09:12:00Z", files)
    s.user("I'm looking at what happens when robots.txt can't be fetched. Right now `rules_for` treats anything "
           "that isn't a 200 as allow-all. For a 404 that's correct, that's the spec. But we got an abuse email "
           "last week from a site whose robots.txt was returning 503 for about forty minutes during a deploy, and "
           "in that window we happily crawled their /admin/ and /cart/ paths, which their robots.txt normally "
           "disallows. Can you look at the code and lay out what we could do about non-404 failures?")
    s.read("crawlbot/robots.py", text="Let me look at the robots cache.")
    s.grep("rules_for", ["crawlbot/robots.py", "crawlbot/crawler.py"])
    s.read("crawlbot/crawler.py", offset=43, limit=12)
    s.say("Right now every non-200 — a 404, a 503, a timeout (`OSError` becomes status 0) — ends in `ALLOW_ALL`, "
          "and that verdict is cached for the full `REFRESH_SECONDS` (24h). So a 40-minute outage at the wrong "
          "moment means a whole day of crawling the host with no rules at all.\n\n"
          "Options for 5xx and network errors:\n\n"
          "1. **Same as 404** — allow everything (today's behaviour). Simplest, but it's exactly what produced "
          "the abuse report.\n"
          "2. **Disallow all** for that host, and look at robots.txt again much sooner than 24h (say 10 minutes) "
          "so a short outage only pauses us briefly.\n"
          "3. **Keep the last good rules** if we have any cached for the host, and fall back to disallow all "
          "only when we've never seen a good copy.\n\n"
          "RFC 9309 §2.3.1.4 says that if robots.txt is unreachable because of server or network errors, the "
          "crawler MUST assume complete disallow. 4xx (including 404) means no rules apply. I'd go with 2, "
          "or 3 if you care about not pausing big sites during blips.")
    s.user("Thanks, that's useful. A few things, in no particular order. The abuse contact also asked that our "
           "user agent carries a contact URL — I checked, `USER_AGENT` already has the about page in it, so "
           "nothing to do there. Piotr keeps asking about moving the project to uv; ignore that for now, it's "
           "not this week's problem. On robots: my first instinct was 3, because throwing away rules we know are "
           "good over a blip feels wasteful, but honestly the stale-rules case is rare, it's another code path "
           "to test, and the RFC is pretty unambiguous. So let's go with disallow all for 5xx and network "
           "errors, and have it look at robots.txt again after ten minutes instead of waiting a whole day. 404 "
           "and the other 4xx stay allow-all, that's what the spec says and what everybody does. Oh, and the "
           "class docstring says 'refreshed once a day', update it if that stops being true. I'm out Thursday "
           "by the way, so if anything comes up, Marta can review.")
    s.edit("crawlbot/robots.py", "REFRESH_SECONDS = 24 * 3600\n",
           "REFRESH_SECONDS = 24 * 3600\nRETRY_SECONDS = 10 * 60\n",
           text="Disallow all for 5xx and network errors, re-checked after ten minutes; 4xx stays allow-all.")
    s.edit("crawlbot/robots.py", "ALLOW_ALL = RobotsRules()\n",
           "ALLOW_ALL = RobotsRules()\nDISALLOW_ALL = RobotsRules(disallow=[\"/\"])\n")
    s.edit("crawlbot/robots.py",
           "class RobotsCache:\n    \"\"\"The rules of each host, fetched on first use and refreshed once a day.\"\"\"\n",
           "class RobotsCache:\n    \"\"\"The rules of each host, fetched on first use and refreshed once a day; a host whose\n"
           "    robots.txt failed with a 5xx or a network error is disallowed and retried after ten minutes.\"\"\"\n")
    s.edit("crawlbot/robots.py",
           "        self._rules: dict[str, tuple[float, RobotsRules]] = {}\n",
           "        self._rules: dict[str, tuple[float, RobotsRules]] = {}  # host -> (valid until, rules)\n")
    s.edit("crawlbot/robots.py",
           "        if cached and now - cached[0] < REFRESH_SECONDS:\n",
           "        if cached and now < cached[0]:\n")
    s.edit("crawlbot/robots.py",
           "        if status == 200:\n            rules = parse_robots(text)\n        else:\n"
           "            rules = ALLOW_ALL\n        self._rules[host] = (now, rules)\n",
           "        if status == 200:\n            rules, ttl = parse_robots(text), REFRESH_SECONDS\n"
           "        elif 400 <= status < 500:\n            rules, ttl = ALLOW_ALL, REFRESH_SECONDS\n"
           "        else:\n"
           "            # 5xx, timeouts, connection errors: RFC 9309 says assume complete disallow. Look again\n"
           "            # soon, so a deploy-time outage only pauses the host.\n"
           "            rules, ttl = DISALLOW_ALL, RETRY_SECONDS\n"
           "        self._rules[host] = (now + ttl, rules)\n")
    s.edit("tests/test_crawlbot.py",
           "def test_limiter_spaces_requests_per_host():\n",
           "def test_robots_5xx_disallows_then_retries():\n"
           "    t = [0.0]\n"
           "    http = FakeHttp({\"https://example.com/robots.txt\": [Resp(503), Resp(200, b\"User-agent: *\\nDisallow: /admin\\n\")]})\n"
           "    cache = RobotsCache(http, clock=lambda: t[0])\n"
           "    assert not cache.allowed(\"https\", \"example.com\", \"/\")\n"
           "    t[0] = 601\n"
           "    assert cache.allowed(\"https\", \"example.com\", \"/\")\n"
           "    assert not cache.allowed(\"https\", \"example.com\", \"/admin/x\")\n\n\n"
           "def test_robots_network_error_disallows():\n"
           "    http = FakeHttp({\"https://example.com/robots.txt\": [OSError(\"timed out\")]})\n"
           "    assert not RobotsCache(http).allowed(\"https\", \"example.com\", \"/\")\n\n\n"
           "def test_limiter_spaces_requests_per_host():\n")
    s.bash("python -m pytest -q", pytest_out(13, "0.94"), description="Run the test suite")
    s.say("Done. `rules_for` now caches `(valid until, rules)`:\n\n"
          "- 200 → parsed rules, 24h\n- 4xx → allow all, 24h (unchanged)\n"
          "- 5xx / timeout / connection error → `DISALLOW_ALL`, re-fetched after 10 minutes\n\n"
          "The docstring says so, and two new tests cover the 503-then-recovers case and a timeout. 13 passed.")
    return [s]


@scenario("limiter-key", CB,
          "lowercase, typos; the person thinks aloud over three turns: asks, picks 'resolved ip', then reverts "
          "to hostname when the agent raises DNS caching; adds a cap on Crawl-delay in the same message",
          [exp("decision", "crawlbot/ratelimit.py:HostLimiter._key", "hostname",
               ["resolved ip", "registered domain"]),
           exp("boundary", "crawlbot/ratelimit.py:HostLimiter.set_delay", "30 seconds")])
def _limiter_key(files):
    s = Session("tune7-limiter-key", "2026-03-03T14:40:00Z", files)
    s.user("the limiter keys on netloc right now, so www.foo.com, foo.com and foo.com:8080 are three diffrent "
           "hosts as far as politeness goes. been thinking about what the key should actualy be. hostname? the "
           "registered domain (so all of *.blogspot.com share one budget - prob too strict)? or the resolved ip, "
           "since what we really care about is not melting one server... thoughts")
    s.read("crawlbot/ratelimit.py")
    s.say("Some trade-offs:\n\n"
          "- **netloc** (today): `foo.com` and `foo.com:8080` are separate, and so is `FOO.com` vs `foo.com` "
          "only because we lower-case it — the port split is the real leak.\n"
          "- **hostname** (netloc minus port and userinfo): cheap, no I/O, matches how robots.txt is scoped. "
          "`www.foo.com` and `foo.com` stay separate, which is usually fine — they're often separate servers.\n"
          "- **registered domain**: needs the public suffix list (a dependency, or a vendored file we must "
          "keep current), and as you say it lumps every blogspot/github.io site into one budget.\n"
          "- **resolved ip**: closest to 'one server', but it puts a DNS lookup in `wait()`, and behind a CDN "
          "thousands of unrelated sites share a handful of IPs, so we'd throttle them all together.\n\n"
          "I'd lean towards hostname.")
    s.user("hm. ip is tempting tbh, shared hosting is exactly where we get the complaints from. ok lets do "
           "resolved ip")
    s.grep("wait\\(", ["crawlbot/ratelimit.py", "crawlbot/crawler.py", "tests/test_crawlbot.py"])
    s.say("Before I write it: resolving inside `_key` means a `socket.getaddrinfo` per `wait()` call (and per "
          "`set_delay`/`delay_for`), blocking, while holding nothing but still on the crawl loop. I'd want a "
          "small DNS cache with its own TTL in front of it, and a decision on what to do when resolution fails "
          "(fall back to hostname?). Is that OK, or do you want the lookup uncached for a first version?")
    s.user("ugh, no. actualy forget the ip thing, dns caching is a rabbit hole and behind cloudflare half the "
           "web is the same ip anyway, you said it yourself. hostname, lowercased, port ignored. and while we're "
           "in there: crawl-delay from robots, we honour it but cap it at 30 seconds. some sites put 3600 in "
           "there and we'd never finish the crawl")
    s.edit("crawlbot/ratelimit.py", "DEFAULT_DELAY = 1.0\n",
           "DEFAULT_DELAY = 1.0\nMAX_CRAWL_DELAY = 30.0  # seconds; some robots.txt ask for an hour\n",
           text="Keying on the hostname (lower-case, no port), and capping Crawl-delay at 30 seconds.")
    s.edit("crawlbot/ratelimit.py",
           "    def _key(self, url: str) -> str:\n        return urlsplit(url).netloc.lower()\n",
           "    def _key(self, url: str) -> str:\n"
           "        \"\"\"The politeness budget's key: the hostname, lower-case, without port or userinfo.\"\"\"\n"
           "        return (urlsplit(url).hostname or \"\").lower()\n")
    s.edit("crawlbot/ratelimit.py",
           "    def set_delay(self, url: str, seconds: float) -> None:\n        self._delays[self._key(url)] = seconds\n",
           "    def set_delay(self, url: str, seconds: float) -> None:\n"
           "        \"\"\"A host's delay (robots.txt Crawl-delay), at most MAX_CRAWL_DELAY.\"\"\"\n"
           "        self._delays[self._key(url)] = min(max(seconds, 0.0), MAX_CRAWL_DELAY)\n")
    s.edit("tests/test_crawlbot.py",
           "def test_frontier_depth_and_dedup():\n",
           "def test_limiter_ignores_port_and_case():\n"
           "    t = [0.0]\n"
           "    slept = []\n"
           "    lim = HostLimiter(default_delay=1.0, clock=lambda: t[0], sleep=slept.append)\n"
           "    lim.wait(\"https://A.example/1\")\n"
           "    lim.wait(\"https://a.example:8443/2\")\n"
           "    assert slept == [1.0]\n\n\n"
           "def test_crawl_delay_is_capped():\n"
           "    lim = HostLimiter()\n"
           "    lim.set_delay(\"https://slow.example/\", 3600)\n"
           "    assert lim.delay_for(\"https://slow.example/x\") == 30.0\n\n\n"
           "def test_frontier_depth_and_dedup():\n")
    s.bash("python -m pytest -q", pytest_out(13, "0.88"), description="Run the test suite")
    s.say("Done: `_key` is now the lower-cased hostname (port and userinfo dropped), and `set_delay` clamps "
          "Crawl-delay to `MAX_CRAWL_DELAY = 30.0`. Two new tests; 13 passed. Note `www.foo.com` and `foo.com` "
          "still get separate budgets.")
    s.user("yep thats fine")
    return [s]


FETCH_OLD = """            if resp.status_code >= 400:
                last = FetchError(url, resp.status_code, f"HTTP {resp.status_code}")
                continue
"""
FETCH_V1 = """            if resp.status_code >= 400:
                last = FetchError(url, resp.status_code, f"HTTP {resp.status_code}")
                if resp.status_code not in RETRYABLE and resp.status_code < 500:
                    raise last
                if resp.status_code == 429:
                    delay = parse_retry_after(resp.headers.get("Retry-After"), self.clock())
                    if delay is not None and attempt + 1 < self.max_attempts:
                        self.sleep(delay)
                continue
"""
FETCH_V2 = FETCH_V1.replace("                if resp.status_code not in RETRYABLE and resp.status_code < 500:\n",
                            "                if resp.status_code != 429 and resp.status_code < 500:\n"
                            "                    # never retry a 4xx other than 429: the answer won't change, and\n"
                            "                    # hammering a 403 is what gets a crawler blocked\n")
RETRY_AFTER_V1 = '''

def parse_retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait from a Retry-After header: delta-seconds or an HTTP-date."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return when.timestamp() - now
'''


@scenario("fetch-retries", CB,
          "agent keeps 403/408 retryable with a reason; person corrects ('no — never retry a 4xx except 429'); "
          "then pastes a traceback from a staging crawl (negative sleep from a Retry-After date in the past), "
          "cause found and fixed",
          [exp("invariant", "crawlbot/fetcher.py:Fetcher.fetch", "never retry a 4xx"),
           exp("gotcha", "crawlbot/fetcher.py:parse_retry_after", "clock skew")])
def _fetch_retries(files):
    s = Session("tune7-fetch-retries", "2026-03-04T10:05:00Z", files)
    s.user("the fetcher retries every 4xx three times with backoff, which is dumb and also rude - a 404 is a "
           "404, asking twice more won't change it. can you make it retry only what's worth retrying? and a 429 "
           "should honour Retry-After instead of our backoff")
    s.read("crawlbot/fetcher.py")
    s.edit("crawlbot/fetcher.py", "import time\nfrom dataclasses import dataclass\n",
           "import time\nfrom dataclasses import dataclass\nfrom email.utils import parsedate_to_datetime\n",
           text="I'll treat 5xx, 429 and network errors as retryable, plus 403 and 408: a few CDNs' bot "
                "protection answers 403 for a burst and then lets you through, and 408 is a timeout by name.")
    s.edit("crawlbot/fetcher.py", "MAX_ATTEMPTS = 3\nBACKOFF = 2.0\n",
           "MAX_ATTEMPTS = 3\nBACKOFF = 2.0\nRETRYABLE = {403, 408, 429}\n")
    s.edit("crawlbot/fetcher.py", "\n\n@dataclass\nclass Page:\n", RETRY_AFTER_V1 + "\n\n@dataclass\nclass Page:\n")
    s.edit("crawlbot/fetcher.py", FETCH_OLD, FETCH_V1)
    s.say("Retries now happen for network errors, 5xx, and 403/408/429; any other 4xx raises `FetchError` "
          "straight away. A 429 sleeps for its Retry-After (seconds or an HTTP-date) before the next attempt.")
    s.user("no — never retry a 4xx except 429. a 403 from bot protection means they don't want us there, and "
           "retrying it is precisely the behaviour that gets a crawler's IP range blocked. 408 too, just drop it, "
           "it's so rare we won't miss it")
    s.edit("crawlbot/fetcher.py", "MAX_ATTEMPTS = 3\nBACKOFF = 2.0\nRETRYABLE = {403, 408, 429}\n",
           "MAX_ATTEMPTS = 3\nBACKOFF = 2.0\n", text="Understood — only 429 among the 4xx.")
    s.edit("crawlbot/fetcher.py", FETCH_V1, FETCH_V2)
    s.edit("tests/test_crawlbot.py", "def test_store_roundtrip(tmp_path):\n",
           "def test_fetch_does_not_retry_4xx():\n"
           "    http = FakeHttp({\"https://a.example/\": [Resp(403), Resp(200, b\"ok\")]})\n"
           "    with pytest.raises(FetchError):\n"
           "        Fetcher(http, sleep=lambda s: None).fetch(\"https://a.example/\")\n"
           "    assert len(http.calls) == 1\n\n\n"
           "def test_fetch_429_honours_retry_after():\n"
           "    slept = []\n"
           "    http = FakeHttp({\"https://a.example/\": [Resp(429, headers={\"Retry-After\": \"7\"}), Resp(200, b\"ok\")]})\n"
           "    Fetcher(http, sleep=slept.append).fetch(\"https://a.example/\")\n"
           "    assert slept[0] == 7.0\n\n\n"
           "def test_store_roundtrip(tmp_path):\n")
    s.bash("python -m pytest -q", pytest_out(13, "0.91"), description="Run the test suite")
    s.say("Only 429 among the 4xx is retried now (with a comment saying why); 13 passed.")
    s.user("ran it against the staging seed list over lunch, it died after ~20 minutes:\n\n```\n"
           "Traceback (most recent call last):\n"
           "  File \"/srv/crawlbot/run.py\", line 41, in <module>\n    crawler.run()\n"
           "  File \"/srv/crawlbot/crawlbot/crawler.py\", line 69, in run\n    while self.fetched < self.max_pages and self.step():\n"
           "  File \"/srv/crawlbot/crawlbot/crawler.py\", line 57, in step\n    page = self.fetcher.fetch(item.url)\n"
           "  File \"/srv/crawlbot/crawlbot/fetcher.py\", line 74, in fetch\n    self.sleep(delay)\n"
           "ValueError: sleep length must be non-negative\n```\n\nthe host was some news site, "
           "Retry-After: Tue, 03 Mar 2026 23:59:00 GMT if that helps")
    s.read("crawlbot/fetcher.py", offset=21, limit=13)
    s.say("That's the HTTP-date branch of `parse_retry_after`. The header's date (yesterday, 23:59 GMT) is "
          "already in the past by our clock, so `when.timestamp() - now` is negative and `time.sleep` refuses "
          "it. Two ways that happens in the wild: clock skew between their server and ours, or a Retry-After "
          "stamped once and then served from a cache for hours. Either way a date in the past means 'now'. "
          "I'll clamp at 0, and also cap it — a date a week ahead shouldn't park the crawler for a week.")
    s.edit("crawlbot/fetcher.py", "    return when.timestamp() - now\n",
           "    # a date in the past (clock skew, or a header served stale from a cache) means now;\n"
           "    # a date far ahead is capped so one host can't park the crawl\n"
           "    return min(max(when.timestamp() - now, 0.0), MAX_RETRY_AFTER)\n")
    s.edit("crawlbot/fetcher.py", "MAX_ATTEMPTS = 3\nBACKOFF = 2.0\n",
           "MAX_ATTEMPTS = 3\nBACKOFF = 2.0\nMAX_RETRY_AFTER = 120.0\n")
    s.edit("tests/test_crawlbot.py", "def test_store_roundtrip(tmp_path):\n",
           "def test_retry_after_date_in_the_past_is_zero():\n"
           "    from crawlbot.fetcher import parse_retry_after\n"
           "    now = 1772582400.0  # 2026-03-04 00:00 UTC\n"
           "    assert parse_retry_after(\"Tue, 03 Mar 2026 23:59:00 GMT\", now) == 0.0\n"
           "    assert parse_retry_after(\"Wed, 11 Mar 2026 00:00:00 GMT\", now) == 120.0\n\n\n"
           "def test_store_roundtrip(tmp_path):\n")
    s.bash("python -m pytest -q", pytest_out(14, "0.93"), description="Run the test suite")
    s.say("Fixed: a Retry-After date in the past now gives 0 seconds and one more than two minutes ahead "
          "gives 120; the test uses the exact header from your traceback. 14 passed.")
    return [s]


@scenario("canonical-identity", CB,
          "a rule stated while the agent adds resumable crawls ('anything used as the identity of a page goes "
          "through canonicalize()'); restated eight days later in other words about other code (redirect "
          "targets poked into the seen set raw)",
          [exp("invariant", "crawlbot/*.py", "canonical form")])
def _canonical_identity(files):
    a = Session("tune7-canonical-identity-1", "2026-03-05T08:30:00Z", files)
    a.user("Restarting a crawl currently refetches everything, even pages that are already sitting in the "
           "store. Can you make the crawler skip a URL when the store already has it? Keep it simple, no "
           "freshness logic yet.")
    a.read("crawlbot/crawler.py")
    a.read("crawlbot/storage.py")
    a.edit("crawlbot/crawler.py",
           "        item = self.frontier.pop()\n        if item is None:\n            return False\n",
           "        item = self.frontier.pop()\n        if item is None:\n            return False\n"
           "        if self.store.has(item.url):\n            return True\n",
           text="A check at the top of `step()`, before robots and the limiter, so stored pages cost nothing.")
    a.say("`step()` now returns early for a URL the store already has. Want a test with a pre-filled store?")
    a.user("Careful, `PageStore.key` hashes the raw URL it's given. So `https://Example.com/a?utm_source=x` "
           "and `https://example.com/a` are two different files, and your `has()` check misses half the "
           "time depending on which spelling the link used. Rule for this codebase, please keep it in mind from "
           "now on: anything we use as the identity of a page — the seen set, store keys, the index — is the "
           "canonical form from `canonicalize()`, never the URL as we happened to find or fetch it. The seen set "
           "already does that; the store doesn't. Fix the store, and yes, add the test.")
    a.edit("crawlbot/storage.py", "from .fetcher import Page\n",
           "from .canonical import canonicalize\nfrom .fetcher import Page\n")
    a.edit("crawlbot/storage.py",
           "    def key(self, url: str) -> str:\n        return hashlib.sha1(url.encode(\"utf-8\")).hexdigest()\n",
           "    def key(self, url: str) -> str:\n"
           "        \"\"\"A page's file name: the hash of its canonical URL, never of the URL as found.\"\"\"\n"
           "        return hashlib.sha1(canonicalize(url).encode(\"utf-8\")).hexdigest()\n")
    a.edit("crawlbot/storage.py",
           "        entry = {\"url\": page.url, \"final_url\"",
           "        entry = {\"url\": canonicalize(page.url), \"final_url\"")
    a.edit("tests/test_crawlbot.py", "def test_store_roundtrip(tmp_path):\n",
           "def test_store_keys_on_canonical_url(tmp_path):\n"
           "    from crawlbot.fetcher import Page\n"
           "    store = PageStore(tmp_path)\n"
           "    store.save(Page(\"https://Example.com/a?utm_source=x\", \"https://example.com/a\", 200, \"text/html\", b\"a\", 0.0))\n"
           "    assert store.has(\"https://example.com/a\")\n"
           "    assert store.load(\"https://example.com/a#top\") == b\"a\"\n\n\n"
           "def test_store_roundtrip(tmp_path):\n")
    a.bash("python -m pytest -q", pytest_out(12, "0.90"), description="Run the test suite")
    a.say("`PageStore.key` (and the index's `url` field) now use `canonicalize()`, so every spelling of a page "
          "maps to the same file. New test included; 12 passed. Note that stores written before this change "
          "have files under raw-URL hashes — a restarted crawl will refetch those once.")
    a.user("that's fine, the old stores are throwaway anyway")

    b = Session("tune7-canonical-identity-2", "2026-03-13T16:02:00Z", a.files)
    b.user("Small one. When a fetch follows a redirect, we only mark the original URL as seen, so if another "
           "page links to the redirect target directly we fetch it again. Mark the final URL as seen too after "
           "a successful fetch.")
    b.read("crawlbot/crawler.py", offset=40, limit=30)
    b.read("crawlbot/frontier.py")
    b.edit("crawlbot/crawler.py",
           "        self.store.save(page)\n        self.fetched += 1\n",
           "        self.store.save(page)\n        self.fetched += 1\n"
           "        if page.final_url != item.url:\n            self.frontier.seen._seen.add(page.final_url)\n",
           text="After the save, I'll record the redirect target in the frontier's seen set.")
    b.user("no, same thing as with the store last week: the canonical form only. you're putting the raw "
           "final_url into `_seen`, which holds canonical strings, so it never matches anything. and don't "
           "reach into `_seen` — `SeenSet.add()` canonicalizes for you, that's the whole point of it.")
    b.edit("crawlbot/crawler.py",
           "        if page.final_url != item.url:\n            self.frontier.seen._seen.add(page.final_url)\n",
           "        if page.final_url != item.url:\n            self.frontier.seen.add(page.final_url)  # canonicalizes\n")
    b.edit("tests/test_crawlbot.py", "def test_store_roundtrip(tmp_path):\n",
           "def test_redirect_target_marked_seen(tmp_path):\n"
           "    from crawlbot.crawler import Crawler\n"
           "    http = FakeHttp({\"https://a.example/old\": Resp(200, b\"x\", url=\"https://A.example/new?utm_medium=m\","
           " headers={\"Content-Type\": \"text/plain\"})})\n"
           "    c = Crawler(http, PageStore(tmp_path), limiter=HostLimiter(0.0, sleep=lambda s: None))\n"
           "    c.seed(\"https://a.example/old\")\n"
           "    c.step()\n"
           "    assert \"https://a.example/new\" in c.frontier.seen\n\n\n"
           "def test_store_roundtrip(tmp_path):\n")
    b.bash("python -m pytest -q", pytest_out(13, "0.97"), description="Run the test suite")
    b.say("Switched to `seen.add(page.final_url)`, which canonicalizes; the test redirects to a differently "
          "spelled target and checks the canonical one is seen. 13 passed.")
    return [a, b]


@scenario("robots-gzip-sniff", CB,
          "non-native English; the person wants to 'clean' odd code; the agent digs the reason out of git log "
          "and asks inline; 'keep it like this, but write a comment'; sitemaps left out of this release",
          [exp("workaround", "crawlbot/robots.py:RobotsCache._download", "gzip magic"),
           exp("boundary", "crawlbot/robots.py:parse_robots", "sitemap")])
def _robots_gzip(files):
    s = Session("tune7-robots-gzip-sniff", "2026-03-06T07:48:00Z", files)
    s.user("Hello, I want to clean robots.py a little bit before we release 0.3.2. The `_download` function "
           "is strange for me: it send `Accept-Encoding: identity` and then it still check the gzip magic bytes "
           "and decompress. If we say identity, the server must not gzip, no? So one of the two is not needed. "
           "Also we do not read the `Sitemap:` lines at all, maybe we should parse them? Please have a look "
           "first, don't change yet.")
    s.read("crawlbot/robots.py", offset=70, limit=20)
    s.bash("git log --format='%h %ad %s' --date=short -S 'x1f' -- crawlbot/robots.py",
           "4be19c2 2025-11-18 robots: sniff gzip magic; some hosts serve robots.txt.gz bytes as robots.txt\n",
           description="Find when the gzip sniffing was added")
    s.bash("git show 4be19c2 --stat --format='%B'",
           "robots: sniff gzip magic; some hosts serve robots.txt.gz bytes as robots.txt\n\n"
           "Seen on two shared hosts (nginx gzip_static misconfigured): the body is gzip but there is no\n"
           "Content-Encoding header, so requests does not decode it and parse_robots sees binary and\n"
           "returns no rules, i.e. allow-all. Asking for identity does not help, they ignore it.\n"
           "Identity stays so well-behaved servers never send us compressed robots.txt at all.\n\n"
           " crawlbot/robots.py | 4 +++-\n 1 file changed, 3 insertions(+), 1 deletion(-)\n",
           description="Show the commit")
    s.say("They look redundant but they cover different servers, according to 4be19c2:\n\n"
          "- `Accept-Encoding: identity` — well-behaved servers then never compress robots.txt, so the normal "
          "path is plain text.\n"
          "- the gzip magic check (`\\x1f\\x8b`) — some misconfigured hosts (nginx `gzip_static`) ignore that "
          "header and send the gzip bytes *without* a `Content-Encoding`, so `requests` doesn't decode them. "
          "Without the sniff, `parse_robots` gets binary, finds no groups and we treat the site as allow-all — "
          "the worst possible failure for robots.\n\n"
          "So removing either one reopens a real case. About `Sitemap:` lines: `parse_robots` skips any key it "
          "doesn't know, so they're ignored today; parsing them is easy, but nothing in the crawler would use "
          "them yet.\n\nShould I drop the gzip sniff anyway, or leave `_download` as it is?")
    s.user("Ok, I understand now, thank you. No, keep it like this, it is a workaround for broken servers and "
           "not a mistake. But please write a comment there why, because next person will ask the same "
           "question like me. For sitemaps: not in this release. We don't read them and I don't want them in "
           "parse_robots now, only later when the frontier has priorities. Maybe write this also in a comment "
           "so nobody adds it by accident.")
    s.edit("crawlbot/robots.py",
           "    def _download(self, scheme: str, host: str):\n",
           "    def _download(self, scheme: str, host: str):\n"
           "        # Both on purpose (4be19c2): identity keeps well-behaved servers from compressing robots.txt,\n"
           "        # and the gzip magic check catches hosts that send gzip bytes anyway with no\n"
           "        # Content-Encoding header; parsed as text those would read as allow-all.\n")
    s.edit("crawlbot/robots.py",
           "    \"\"\"The rules of the group for ``agent``, or of the ``*`` group if there is none.\"\"\"\n",
           "    \"\"\"The rules of the group for ``agent``, or of the ``*`` group if there is none.\n\n"
           "    ``Sitemap:`` lines are ignored on purpose: no sitemap support in this release (it comes with\n"
           "    frontier priorities).\"\"\"\n")
    s.bash("python -m pytest -q", pytest_out(11, "0.86"), description="Run the test suite")
    s.say("Comments added in `_download` (why both, with the commit) and in `parse_robots`' docstring "
          "(sitemaps ignored on purpose for now). No behaviour change; 11 passed.")
    s.user("Perfect, thanks")
    return [s]


@scenario("explain-frontier", CB,
          "a newcomer's questions; a sub-agent explores; a hypothetical 'would have to' about several workers; "
          "a colleague's rule reported second-hand (bloom filter) and not adopted; 'run ruff before you push'",
          [])
def _explain_frontier(files):
    s = Session("tune7-explain-frontier", "2026-03-09T11:20:00Z", files)
    s.meta("Caveat: The messages below were generated by the user while running local commands. DO NOT respond "
           "to these messages or otherwise consider them in your response unless the user explicitly asks you to.")
    s.command("/clear", "")
    s.user("I'm new on this, joined the crawl team on Monday. Can you walk me through how a URL goes from a "
           "seed to a stored page? In particular how the frontier decides what comes next, and what happens to "
           "all that state if the process dies.")
    s.subagent("Trace a URL through crawlbot from Crawler.seed to PageStore.save. Note the order decisions and "
               "which state lives only in memory.",
               "Path: Crawler.seed -> Frontier.push (depth check, SeenSet.add dedup by canonicalize, append to a "
               "deque) -> Crawler.step: Frontier.pop (popleft, FIFO) -> RobotsCache.rules_for (fetch/parse, cached "
               "per host) -> HostLimiter.wait (per-host spacing) -> Fetcher.fetch (retries) -> PageStore.save "
               "(gzip file + index.jsonl line) -> extract_links -> Frontier.push(depth+1).\n"
               "In memory only: the deque, SeenSet, robots cache, limiter's next-times. On disk: pages and "
               "index.jsonl.")
    s.read("crawlbot/frontier.py")
    s.say("The path of one URL:\n\n"
          "1. `Crawler.seed` → `Frontier.push(url, depth=0)`. `push` refuses anything deeper than `max_depth` "
          "(5) and anything `SeenSet.add` has seen — the seen set stores `canonicalize(url)`, so spelling "
          "variants collapse.\n"
          "2. `Crawler.step` → `Frontier.pop()`: plain FIFO over one deque, so it's breadth-first in discovery "
          "order.\n"
          "3. robots (`RobotsCache.rules_for`, cached per host), then `HostLimiter.wait` for the host, then "
          "`Fetcher.fetch`.\n"
          "4. `PageStore.save` writes a gzip file and appends to `index.jsonl`; links in HTML pages are pushed "
          "at depth + 1.\n\n"
          "If the process dies, the frontier, the seen set, the robots cache and the limiter state are gone — "
          "they only live in memory. The pages and the index survive. A restart re-seeds and starts over.")
    s.user("ok that's clear. and if we ran two of these processes on the same seed list, would they share "
           "anything? my colleague Dana says the seen set must always be a bloom filter once you're at scale, "
           "is that true? we're nowhere near scale, I'm just curious how much memory 10 million URLs would take "
           "in the current set.")
    s.say("Two processes would share nothing but the disk: each has its own frontier and seen set, so both "
          "would fetch every page (and both would append to the same `index.jsonl`). If you ever ran several "
          "workers, you'd have to move the seen set and the limiter somewhere shared, or partition hosts "
          "between workers so each host belongs to one process — that second option keeps politeness local.\n\n"
          "On memory: a Python `set` of 10M strings averaging ~70 characters is roughly 10M × (~120 bytes per "
          "str object + ~8–16 bytes of table slot) ≈ 1.3–1.5 GB. A Bloom filter at a 1% false-positive rate "
          "needs about 9.6 bits per item, ~12 MB for 10M — but a false positive means silently never crawling "
          "a page, which is why many crawlers use one only as a pre-filter in front of an exact store. Whether "
          "that's worth it is a call for when you get there.")
    s.user("interesting, thanks. last thing, anything I should know before I push my first change?")
    s.bash("cat pyproject.toml", files["pyproject.toml"], description="Show project config")
    s.say("Not much is configured: pytest via `testpaths`, no linter config in `pyproject.toml`. Tests use fake "
          "HTTP objects (`FakeHttp` in `tests/test_crawlbot.py`) and injected clocks/sleeps, so they run in "
          "under a second and never touch the network.")
    s.user("ok. team convention is to run ruff before you push, I'll do that. thanks!")
    return [s]


@scenario("rename-seen-urls", CB,
          "terse rename across three files ('rename SeenSet to SeenUrls'); the agent asks about a second rename, "
          "'nah, keep it'; 'k'", [])
def _rename_seen(files):
    s = Session("tune7-rename-seen-urls", "2026-03-10T17:31:00Z", files)
    s.user("rename SeenSet -> SeenUrls everywhere")
    s.grep("SeenSet", ["crawlbot/canonical.py", "crawlbot/frontier.py", "tests/test_crawlbot.py"])
    s.edit("crawlbot/canonical.py", "class SeenSet:\n", "class SeenUrls:\n")
    s.edit("crawlbot/frontier.py", "from .canonical import SeenSet, host_of\n",
           "from .canonical import SeenUrls, host_of\n")
    s.edit("crawlbot/frontier.py", "        self.seen = SeenSet()\n", "        self.seen = SeenUrls()\n")
    s.edit("tests/test_crawlbot.py", "from crawlbot.canonical import SeenSet, canonicalize\n",
           "from crawlbot.canonical import SeenUrls, canonicalize\n")
    s.edit("tests/test_crawlbot.py", "    seen = SeenSet()\n", "    seen = SeenUrls()\n")
    s.bash("python -m pytest -q", pytest_out(11, "0.89"), description="Run the test suite")
    s.say("Renamed in `canonical.py`, `frontier.py` and the tests; 11 passed. The attribute is still "
          "`Frontier.seen` — rename that to `seen_urls` as well?")
    s.user("nah, keep it")
    s.bash("git diff --stat", " crawlbot/canonical.py  | 2 +-\n crawlbot/frontier.py   | 4 ++--\n"
           " tests/test_crawlbot.py | 4 ++--\n 3 files changed, 5 insertions(+), 5 deletions(-)\n",
           description="Show the diff summary")
    s.say("Left as is. 3 files changed.")
    s.user("k")
    return [s]


FRONTIER_OLD = '''    def __init__(self, max_depth: int = MAX_DEPTH) -> None:
        self.max_depth = max_depth
        self._queue: deque[Item] = deque()
        self.seen = SeenSet()

    def push(self, url: str, depth: int = 0, referrer: str | None = None) -> bool:
        """Schedule ``url``; False if it is too deep or already seen."""
        if depth > self.max_depth:
            return False
        if not self.seen.add(url):
            return False
        self._queue.append(Item(url, depth, referrer))
        return True

    def pop(self) -> Item | None:
        return self._queue.popleft() if self._queue else None

    def hosts(self) -> set[str]:
        return {host_of(i.url) for i in self._queue}

    def __len__(self) -> int:
        return len(self._queue)
'''
FRONTIER_NEW = '''    def __init__(self, max_depth: int = MAX_DEPTH) -> None:
        self.max_depth = max_depth
        self._queues: dict[str, deque[Item]] = {}  # host -> its items, oldest first
        self._turns: deque[str] = deque()  # hosts with queued items, in round-robin order
        self._sites: set[str] = set()  # the seeds' hosts
        self.seen = SeenSet()

    def push(self, url: str, depth: int = 0, referrer: str | None = None) -> bool:
        """Schedule ``url``; False if it is too deep, off-site or already seen."""
        if depth > self.max_depth:
            return False
        host = host_of(url)
        if depth == 0:
            self._sites.add(host)
        elif host not in self._sites:
            return False  # off-site links are dropped for now, not queued
        if not self.seen.add(url):
            return False
        queue = self._queues.get(host)
        if queue is None:
            queue = self._queues[host] = deque()
            self._turns.append(host)
        queue.append(Item(url, depth, referrer))
        return True

    def pop(self) -> Item | None:
        """The next host's oldest item: FIFO within a host, round-robin across hosts."""
        if not self._turns:
            return None
        host = self._turns.popleft()
        queue = self._queues[host]
        item = queue.popleft()
        if queue:
            self._turns.append(host)
        else:
            del self._queues[host]
        return item

    def hosts(self) -> set[str]:
        return set(self._queues)

    def __len__(self) -> int:
        return sum(len(q) for q in self._queues.values())
'''


@scenario("frontier-order", CB,
          "agent's options as a table; the person's long reply (a metrics endpoint, a test nit, the old Java "
          "crawler) rejects all three and says what instead (per-host queues, round-robin), then puts off-site "
          "links out of scope 'for now'",
          [exp("decision", "crawlbot/frontier.py:Frontier.pop", "round-robin",
               ["global fifo", "priority heap", "ready-time heap"]),
           exp("boundary", "crawlbot/frontier.py:Frontier.push", "off-site")])
def _frontier_order(files):
    s = Session("tune7-frontier-order", "2026-03-11T13:15:00Z", files)
    s.user("The frontier is a single FIFO deque. When we seed with 200 sites, the first site's links pile up at "
           "the front of the queue, and because the limiter makes us wait a second between requests to the same "
           "host, we spend most of the crawl sleeping on one host while 199 others sit idle. Throughput on "
           "yesterday's run was about 0.9 pages/s with 200 seeds, which is basically one host at a time. What are "
           "our options for the ordering?")
    s.read("crawlbot/frontier.py")
    s.read("crawlbot/ratelimit.py", offset=30, limit=12)
    s.say("| option | how | good | bad |\n|---|---|---|---|\n"
          "| **global FIFO** (today) | one deque | trivial, breadth-first | clumps by host, the limiter "
          "serialises us |\n"
          "| **priority heap** by depth | `heapq` on `(depth, seq)` | shallow pages first | same clumping — "
          "depth says nothing about hosts |\n"
          "| **ready-time heap** | heap keyed by each host's next allowed time from the limiter | never sleeps "
          "while any host is ready | the frontier has to read the limiter's clock and state |\n\n"
          "I'd go with the ready-time heap: it's the only one that directly targets the idle time.")
    s.user("Okay, I read this twice. Some context first, because a couple of things are floating around: the "
           "ops folks want a Prometheus endpoint for pages/s eventually, that's not for now and not for you. I "
           "also noticed `test_limiter_spaces_requests_per_host` passes `slept.append` as the sleep function, "
           "which is cute but fine, leave it. On the frontier itself: none of these three, really. The priority "
           "heap doesn't touch the actual problem, and I don't want the frontier to know about the limiter's "
           "clock — that exact coupling bit us in the old Java crawler, where you couldn't test either without "
           "the other. What I want is per-host queues: FIFO within a host, round-robin across hosts, so each "
           "pop takes the next host in turn. With 200 hosts and a one-second delay that's plenty, and it's "
           "obvious and testable. And one scope thing since you'll be in `push()` anyway: for now we only follow "
           "links on the same site as a seed — off-site links get dropped, not queued. We'll do off-site later, "
           "with a budget per seed, but not in this change.")
    s.edit("crawlbot/frontier.py", FRONTIER_OLD, FRONTIER_NEW,
           text="Per-host queues with a round-robin of hosts; `push()` drops links whose host isn't a seed's.")
    s.edit("tests/test_crawlbot.py", "def test_fetch_retries_then_succeeds():\n",
           "def test_frontier_round_robin_across_hosts():\n"
           "    f = Frontier()\n"
           "    f.push(\"https://a.example/\")\n"
           "    f.push(\"https://b.example/\")\n"
           "    f.push(\"https://a.example/2\", depth=1)\n"
           "    f.push(\"https://a.example/3\", depth=1)\n"
           "    f.push(\"https://b.example/2\", depth=1)\n"
           "    order = [f.pop().url for _ in range(5)]\n"
           "    assert order == [\"https://a.example/\", \"https://b.example/\", \"https://a.example/2\",\n"
           "                     \"https://b.example/2\", \"https://a.example/3\"]\n"
           "    assert f.pop() is None\n\n\n"
           "def test_frontier_drops_off_site_links():\n"
           "    f = Frontier()\n"
           "    f.push(\"https://a.example/\")\n"
           "    assert not f.push(\"https://elsewhere.example/x\", depth=1)\n"
           "    assert f.hosts() == {\"a.example\"}\n\n\n"
           "def test_fetch_retries_then_succeeds():\n")
    s.bash("python -m pytest -q", pytest_out(13, "0.92"), description="Run the test suite")
    s.say("Done:\n\n- `Frontier` keeps a deque per host plus a round-robin of hosts; `pop()` takes the next "
          "host's oldest item and puts the host at the back if it still has work.\n"
          "- `push()` remembers the seeds' hosts (depth 0) and drops links to any other host.\n"
          "- `len()` and `hosts()` work over the per-host queues.\n\n"
          "Two new tests (ordering, off-site); 13 passed. The limiter and the frontier still know nothing about "
          "each other.")
    s.user("great, ship it")
    return [s]


# -- kvcache (TypeScript) --------------------------------------------------------------------------------

KV = "kvcache"


@scenario("ttl-sweep", KV,
          "a terse person ('fix', 'b', 'cli never exits now. ?', 'k'); lettered options with reasons; the chosen "
          "interval sweep then keeps a CLI alive — cause found (the timer holds the event loop) and fixed",
          [exp("decision", "src/cache.ts:Cache.sweep", "periodic sweep",
               ["setTimeout per entry", "opportunistically"]),
           exp("gotcha", "src/cache.ts:Cache.startSweeper", "unref")])
def _ttl_sweep(files):
    s = Session("tune7-ttl-sweep", "2026-03-02T15:22:00Z", files)
    s.user("expired entries only go away when someone get()s them. memory just grows on keys nobody reads "
           "again. fix")
    s.read("src/cache.ts")
    s.read("src/clock.ts")
    s.say("Right — expiry is only checked in `get()` (and filtered in `has()`/`entries()`), so an entry that's "
          "never read again stays in the map and counts against `maxSize` forever. Options:\n\n"
          "a) **a setTimeout per entry** — exact, but one timer per key (thousands of them) and every `set()` "
          "has to clear and re-arm one.\n"
          "b) **lazy on read plus a periodic sweep** — keep what `get()` does, and add a `setInterval` that "
          "walks the entries and drops expired ones (default every 60 s, configurable, 0 to turn off). Bounded, "
          "predictable work.\n"
          "c) **sweep opportunistically inside set()** — check a few tail entries per `set()`, no timer at all; "
          "but a cache that stops receiving writes never shrinks.\n\n"
          "Which one?")
    s.user("b")
    s.edit("src/cache.ts", "  sizer?: Sizer<V>;\n  clock?: Clock;\n}\n",
           "  sizer?: Sizer<V>;\n  clock?: Clock;\n"
           "  /** How often expired entries are swept, in ms; 0 turns the sweep off. Default 60 s. */\n"
           "  sweepIntervalMs?: number;\n}\n")
    s.edit("src/cache.ts",
           "  private totalSize = 0;\n  readonly stats = new Stats();\n\n"
           "  constructor(private readonly opts: CacheOptions<V> = {}) {\n"
           "    this.clock = opts.clock ?? systemClock;\n  }\n",
           "  private totalSize = 0;\n  private sweeper: ReturnType<typeof setInterval> | undefined;\n"
           "  readonly stats = new Stats();\n\n"
           "  constructor(private readonly opts: CacheOptions<V> = {}) {\n"
           "    this.clock = opts.clock ?? systemClock;\n"
           "    this.startSweeper(opts.sweepIntervalMs ?? 60_000);\n  }\n")
    s.edit("src/cache.ts",
           "  private drop(node: LruNode<string, V>): void {\n",
           "  /** Drops every expired entry (lazy expiry in get() still applies); returns how many. */\n"
           "  sweep(): number {\n"
           "    const now = this.clock.now();\n"
           "    let n = 0;\n"
           "    for (const node of [...this.lru.entries()]) {\n"
           "      if (isExpired(node.expiresAt, now)) {\n"
           "        this.drop(node);\n"
           "        n++;\n"
           "      }\n"
           "    }\n"
           "    if (n > 0) this.stats.expired(n);\n"
           "    return n;\n"
           "  }\n\n"
           "  /** Stops the sweep timer. */\n"
           "  dispose(): void {\n"
           "    if (this.sweeper) clearInterval(this.sweeper);\n"
           "    this.sweeper = undefined;\n"
           "  }\n\n"
           "  private startSweeper(intervalMs: number): void {\n"
           "    if (intervalMs <= 0) return;\n"
           "    this.sweeper = setInterval(() => this.sweep(), intervalMs);\n"
           "  }\n\n"
           "  private drop(node: LruNode<string, V>): void {\n")
    s.edit("test/cache.test.ts", "  it(\"keeps total size under maxSize\", () => {\n",
           "  it(\"sweeps expired entries nobody reads\", () => {\n"
           "    const clock = new ManualClock(0);\n"
           "    const c = new Cache<number>({ ttlMs: 10, clock, sweepIntervalMs: 0 });\n"
           "    c.set(\"a\", 1).set(\"b\", 2);\n"
           "    clock.advance(10);\n"
           "    expect(c.sweep()).toBe(2);\n"
           "    expect(c.size).toBe(0);\n"
           "    expect(c.stats.expirations).toBe(2);\n"
           "  });\n\n"
           "  it(\"keeps total size under maxSize\", () => {\n")
    s.bash("npx vitest run", vitest_out(1, 9, 14), description="Run the tests")
    s.say("Done: `sweepIntervalMs` option (default 60 000, 0 = off), `sweep()` public so it can be called by "
          "hand, `dispose()` to stop the timer. `get()` still expires lazily. 9 tests pass.")
    s.user("👍")
    s.user("cli never exits now. ?", seconds=1900)
    s.read("src/cache.ts", offset=126, limit=8)
    s.say("That's the sweep timer: an active `setInterval` keeps Node's event loop alive, so any script that "
          "creates a `Cache` and finishes its work just sits there until `dispose()` is called — and nobody "
          "calls `dispose()` in a CLI. The tests didn't show it because vitest tears its workers down itself. "
          "Fix: `unref()` the interval, so the timer still fires while the process has other work but never "
          "keeps it alive on its own.")
    s.edit("src/cache.ts",
           "    this.sweeper = setInterval(() => this.sweep(), intervalMs);\n  }\n",
           "    this.sweeper = setInterval(() => this.sweep(), intervalMs);\n"
           "    // housekeeping must not keep the process alive: a CLI that creates a cache has to exit\n"
           "    this.sweeper.unref();\n  }\n")
    s.bash("npx vitest run && npm run build --silent && node -e \"import('./dist/index.js').then(m => { new m.Cache(); "
           "console.log('exit ok') })\"",
           vitest_out(1, 9, 13) + "exit ok\n", description="Run the tests, build, check a script exits")
    s.say("`unref()`'d; a one-line script that creates a cache now exits immediately. 9 tests pass.")
    s.user("k")
    return [s]


@scenario("size-in-bytes", KV,
          "verbose bug report; the agent's first fix (UTF-16, length × 2) is corrected ('no — it must be the "
          "UTF-8 byte length'); the agent then adds a deliberate flat charge for values JSON can't encode and "
          "says it's on purpose",
          [exp("invariant", "src/size.ts:sizeOf", "utf-8 byte length"),
           exp("workaround", "src/size.ts:sizeOf", "circular")])
def _size_bytes(files):
    s = Session("tune7-size-in-bytes", "2026-03-04T09:41:00Z", files)
    s.user("Morning. A support escalation landed on my desk and I think it's ours. The customer runs the "
           "catalogue service with `maxSize` derived from the container's memory budget — they set it to 64 MB "
           "and expected the cache to stay around there — and the process was OOM-killed at roughly two and a "
           "half times that. Their values are mostly Japanese product descriptions. I'm fairly sure the cause is "
           "that `sizeOf` charges strings by `.length`, which counts UTF-16 code units, and objects by "
           "`JSON.stringify(value).length`, same thing. A three-byte kana is charged as one. I'd like the sizes "
           "to be honest. The keys are charged by `.length` too, in `entrySize`. Can you fix it? Don't worry "
           "about the changelog, I'll write that.")
    s.read("src/size.ts")
    s.edit("src/size.ts", "    case \"string\":\n      return OVERHEAD + value.length;\n",
           "    case \"string\":\n      return OVERHEAD + value.length * 2;\n",
           text="V8 stores non-Latin-1 strings as UTF-16, two bytes per code unit, so I'll charge that.")
    s.edit("src/size.ts", "  return OVERHEAD + JSON.stringify(value).length;\n",
           "  return OVERHEAD + JSON.stringify(value).length * 2;\n")
    s.user("no — it must be the UTF-8 byte length, `Buffer.byteLength(s, \"utf8\")`. what V8 happens to hold "
           "internally isn't the contract; `maxSize` is documented as the bytes of the serialized value, the "
           "same number you'd get writing it to Redis or to a file. times two also overcharges every ASCII "
           "string by 2x, which would shrink every existing user's cache by half on upgrade. keys too, same "
           "measure.")
    s.edit("src/size.ts", "    case \"string\":\n      return OVERHEAD + value.length * 2;\n",
           "    case \"string\":\n      return OVERHEAD + Buffer.byteLength(value, \"utf8\");\n",
           text="Right — UTF-8 bytes everywhere, values and keys.")
    s.edit("src/size.ts", "  return OVERHEAD + JSON.stringify(value).length * 2;\n",
           "  return OVERHEAD + Buffer.byteLength(JSON.stringify(value), \"utf8\");\n")
    s.edit("src/size.ts", "  const size = sizer ? sizer(value, key) : sizeOf(value) + key.length;\n",
           "  const size = sizer ? sizer(value, key) : sizeOf(value) + Buffer.byteLength(key, \"utf8\");\n")
    s.say("While I'm in `sizeOf`: `JSON.stringify` throws on a circular object (\"Converting circular structure "
          "to JSON\") and on a BigInt anywhere inside an object, and today that exception comes out of "
          "`cache.set()`, so caching such a value crashes the caller. I'll add a fallback.")
    s.edit("src/size.ts", "const OVERHEAD = 48;\n",
           "const OVERHEAD = 48;\n/** Charged for values JSON can't encode (circular, BigInt inside). */\nconst UNSIZEABLE = 1024;\n")
    s.edit("src/size.ts", "  return OVERHEAD + Buffer.byteLength(JSON.stringify(value), \"utf8\");\n",
           "  let json: string;\n"
           "  try {\n"
           "    json = JSON.stringify(value);\n"
           "  } catch {\n"
           "    // Deliberate: a circular value (or one holding a BigInt) has no serialized size. Charge a flat\n"
           "    // 1 KiB rather than throw from set(); pass a `sizer` if that estimate matters.\n"
           "    return OVERHEAD + UNSIZEABLE;\n"
           "  }\n"
           "  return OVERHEAD + Buffer.byteLength(json, \"utf8\");\n")
    s.edit("test/cache.test.ts",
           "  it(\"charges strings by length\", () => {\n    expect(sizeOf(\"abcd\")).toBe(sizeOf(\"\") + 4);\n  });\n",
           "  it(\"charges strings by length\", () => {\n    expect(sizeOf(\"abcd\")).toBe(sizeOf(\"\") + 4);\n  });\n\n"
           "  it(\"charges UTF-8 bytes, not code units\", () => {\n"
           "    expect(sizeOf(\"かな\")).toBe(sizeOf(\"\") + 6);\n"
           "    expect(sizeOf({ t: \"é\" })).toBe(sizeOf(\"\") + 10);\n"
           "  });\n\n"
           "  it(\"charges a flat size for circular values\", () => {\n"
           "    const a: Record<string, unknown> = {};\n"
           "    a.self = a;\n"
           "    expect(sizeOf(a)).toBe(sizeOf(\"\") + 1024);\n"
           "  });\n")
    s.bash("npx vitest run", vitest_out(1, 10, 15), description="Run the tests")
    s.say("Sizes are now UTF-8 bytes: strings via `Buffer.byteLength`, objects via the byte length of their "
          "JSON, and keys the same way in `entrySize`. ASCII-only users see no change.\n\n"
          "One thing that looks odd on purpose: when `JSON.stringify` throws (a circular value, or a BigInt "
          "inside an object) `sizeOf` doesn't rethrow — it charges a flat 1 KiB (`UNSIZEABLE`). That's "
          "deliberate: such a value has no serialized size, and throwing from `set()` would break any caller that "
          "caches ORM objects with back-references. There's a comment saying so. 10 tests pass.")
    s.user("Fine by me, the comment is enough. Thanks.")
    return [s]


@scenario("write-through-order", KV,
          "a person thinking aloud over several turns: leans 'cache first, delete on failure', is argued out of "
          "it, picks 'store first', reverses a detail mid-message (leave the cache alone → invalidate), and "
          "extends the order to delete()",
          [exp("decision", "src/writeThrough.ts:WriteThroughCache.set", "store first", ["cache first"])])
def _write_through(files):
    s = Session("tune7-write-through-order", "2026-03-06T10:10:00Z", files)
    s.user("I'm looking at `WriteThroughCache.set` and I keep going back and forth on whether the order is "
           "right. It sets the cache first and then awaits the store. Argument for cache first: readers in this "
           "process see the new value immediately, and the store write is the slow part, so we don't hold up "
           "anyone. Argument against: if `store.write` rejects, the cache holds a value that was never "
           "persisted, and every reader in this process sees it until TTL or eviction, while the other pods "
           "read the old one from the store. Which is a fun bug to chase at 2am. I think... cache first is "
           "still fine, we just delete the key from the cache when the write fails. What do you think?")
    s.read("src/writeThrough.ts")
    s.say("Cache first + delete on failure leaves two holes:\n\n"
          "1. Between `cache.set` and the rejection, readers here see a value that may never exist anywhere "
          "else. With a slow store (timeouts of seconds) that window is long.\n"
          "2. Concurrent writes: `set(k, A)` caches A and starts writing; `set(k, B)` caches B and writes; "
          "A's write fails and the cleanup deletes `k` — throwing away B, which *did* persist. Or worse, if "
          "B's write lands first and A's later, cache says A... it depends on which cleanup runs.\n\n"
          "Store first: readers keep seeing the old value until the write resolves, then the new one; if it "
          "fails, nothing here changed. The cost is that a reader right after `await set()` starts is "
          "slightly stale, which a write-through cache already accepts across processes. I'd go store first.")
    s.user("Yeah ok, the concurrent-set case kills it, I hadn't thought of that. Store first, and only touch "
           "the cache once `write()` has resolved. If write rejects, let the error propagate and leave the "
           "cache alone — hmm, no, actually, on failure delete the key from the cache: a failed write may "
           "still have landed (timeout after commit), so whatever we have cached might now be older than the "
           "store, and the next read should go to the store. So: store first, on failure invalidate and "
           "rethrow.")
    s.edit("src/writeThrough.ts",
           "  async set(key: string, value: V): Promise<void> {\n"
           "    this.cache.set(key, value);\n"
           "    await this.store.write(key, value);\n  }\n",
           "  /** Store first; the cache only sees values the store accepted. */\n"
           "  async set(key: string, value: V): Promise<void> {\n"
           "    try {\n"
           "      await this.store.write(key, value);\n"
           "    } catch (err) {\n"
           "      // a failed write may still have landed (timeout after commit): don't serve a guess\n"
           "      this.cache.delete(key);\n"
           "      throw err;\n"
           "    }\n"
           "    this.cache.set(key, value);\n  }\n",
           text="Store first; invalidate and rethrow on failure.")
    s.say("`set()` done. `delete()` has the same shape today — cache first, then `store.remove`. Same order "
          "there (store, then cache), or leave it?")
    s.user("same order, store then cache")
    s.edit("src/writeThrough.ts",
           "  async delete(key: string): Promise<void> {\n"
           "    this.cache.delete(key);\n"
           "    await this.store.remove(key);\n  }\n",
           "  async delete(key: string): Promise<void> {\n"
           "    await this.store.remove(key);\n"
           "    this.cache.delete(key);\n  }\n")
    s.edit("test/cache.test.ts", "  it(\"reads through on a miss\", async () => {\n",
           "  it(\"leaves nothing cached when the store write fails\", async () => {\n"
           "    const store = new MemoryStore<number>();\n"
           "    store.write = async () => {\n"
           "      throw new Error(\"timeout\");\n"
           "    };\n"
           "    const wt = new WriteThroughCache(new Cache<number>(), store);\n"
           "    wt.cache.set(\"a\", 1);\n"
           "    await expect(wt.set(\"a\", 2)).rejects.toThrow(\"timeout\");\n"
           "    expect(wt.cache.has(\"a\")).toBe(false);\n"
           "  });\n\n"
           "  it(\"reads through on a miss\", async () => {\n")
    s.bash("npx vitest run", vitest_out(1, 9, 16), description="Run the tests")
    s.say("Both `set()` and `delete()` now go to the store first and touch the cache only after it resolved; "
          "a failed write invalidates the key and rethrows. New test for the failure path; 9 pass.")
    return [s]


@scenario("has-side-effect-free", KV,
          "terse request; the agent's long report ends with an inline two-bullet question about has(); "
          "'2nd one. no side effects in has/peek'",
          [exp("decision", "src/cache.ts:Cache.has", "side-effect free", ["drop an expired entry"])])
def _has_peek(files):
    s = Session("tune7-has-side-effect-free", "2026-03-09T16:55:00Z", files)
    s.user("add peek()")
    s.read("src/cache.ts", offset=40, limit=30)
    s.edit("src/cache.ts", "  has(key: string): boolean {\n",
           "  /** The value without touching recency or stats; undefined if absent or expired. */\n"
           "  peek(key: string): V | undefined {\n"
           "    const node = this.map.get(key);\n"
           "    if (!node || isExpired(node.expiresAt, this.clock.now())) return undefined;\n"
           "    return node.value;\n"
           "  }\n\n"
           "  has(key: string): boolean {\n")
    s.edit("test/cache.test.ts", "  it(\"counts hits and misses\", () => {\n",
           "  it(\"peek does not change recency or stats\", () => {\n"
           "    const c = new Cache<number>({ maxEntries: 2 });\n"
           "    c.set(\"a\", 1).set(\"b\", 2);\n"
           "    expect(c.peek(\"a\")).toBe(1);\n"
           "    c.set(\"c\", 3);\n"
           "    expect(c.peek(\"a\")).toBeUndefined();\n"
           "    expect(c.stats.snapshot()).toMatchObject({ hits: 0, misses: 0 });\n"
           "  });\n\n"
           "  it(\"counts hits and misses\", () => {\n")
    s.bash("npx vitest run", vitest_out(1, 9, 12), description="Run the tests")
    s.say("Added `Cache.peek(key)`:\n\n"
          "- returns the value if present and not expired, otherwise `undefined`;\n"
          "- doesn't move the entry in the LRU list, so peeking never saves an entry from eviction;\n"
          "- doesn't count a hit or a miss, so dashboards built on `hitRate` aren't skewed by debug tooling;\n"
          "- an expired entry is reported absent but left in place (the next `get()` removes it and counts the "
          "expiration).\n\n"
          "Test added (peek doesn't protect `a` from eviction, stats stay at zero); 9 tests pass. I didn't "
          "export anything new from `index.ts` since `peek` is a method on `Cache`.\n\n"
          "One question while I was in there: `has()` behaves like `peek()` today — no recency, no stats — but "
          "it's a bit inconsistent with `get()` about expired entries. Should `has()`:\n"
          "- drop an expired entry like `get()` does (and count an expiration), or\n"
          "- stay side-effect free like `peek()`?")
    s.user("2nd one. no side effects in has/peek")
    s.edit("src/cache.ts", "  has(key: string): boolean {\n",
           "  /** Side-effect free, like peek(): no recency, no stats, and an expired entry is reported absent\n"
           "   * but not dropped (get() does that). */\n"
           "  has(key: string): boolean {\n")
    s.say("Left `has()` as it is and documented it as side-effect free, same as `peek()`.")
    return [s]


@scenario("stats-cumulative", KV,
          "the agent zeroes the counters in clear() unasked; 'don't do that … cumulative … only resetStats()'; "
          "two weeks later the agent restores counters from a dump and is corrected with the same rule in "
          "other words about other code",
          [exp("invariant", "src/stats.ts:Stats", "cumulative")])
def _stats_cumulative(files):
    a = Session("tune7-stats-cumulative-1", "2026-03-03T11:00:00Z", files)
    a.user("ops would like to be able to zero the cache counters from the admin endpoint after a deploy, so "
           "the dashboard shows the new build's hit rate. can you add a `resetStats()` on Cache?")
    a.read("src/cache.ts", offset=85, limit=14)
    a.read("src/stats.ts")
    a.edit("src/cache.ts",
           "    this.totalSize = 0;\n  }\n",
           "    this.totalSize = 0;\n    this.stats.reset();\n  }\n\n"
           "  /** Zeroes the hit, miss, set, eviction and expiration counters. */\n"
           "  resetStats(): void {\n    this.stats.reset();\n  }\n",
           text="Adding `resetStats()`, and for consistency `clear()` will reset the counters too — an empty "
                "cache starting from zero.")
    a.say("Added `Cache.resetStats()`; `clear()` now also zeroes the stats so a cleared cache starts fresh.")
    a.user("don't do that, take it out of clear(). the counters are cumulative for the life of the process: "
           "the metrics exporter turns them into rates by taking deltas, and a counter that drops to zero "
           "because someone cleared the cache looks like a process restart and gives you a garbage spike. "
           "clear() empties the data, it doesn't touch the counters. only resetStats() zeroes them, when a "
           "human asks for it.")
    a.edit("src/cache.ts",
           "    this.totalSize = 0;\n    this.stats.reset();\n  }\n",
           "    this.totalSize = 0;\n    // not the stats: counters are cumulative, only resetStats() zeroes them\n  }\n")
    a.edit("test/cache.test.ts", "  it(\"counts hits and misses\", () => {\n",
           "  it(\"keeps counters across clear(), zeroes them on resetStats()\", () => {\n"
           "    const c = new Cache<number>();\n"
           "    c.set(\"a\", 1);\n"
           "    c.get(\"a\");\n"
           "    c.clear();\n"
           "    expect(c.stats.hits).toBe(1);\n"
           "    c.resetStats();\n"
           "    expect(c.stats.snapshot()).toMatchObject({ hits: 0, sets: 0 });\n"
           "  });\n\n"
           "  it(\"counts hits and misses\", () => {\n")
    a.bash("npx vitest run", vitest_out(1, 9, 12), description="Run the tests")
    a.say("Taken out of `clear()` (with a comment saying why); `resetStats()` is the only thing that zeroes the "
          "counters. Test added; 9 pass.")

    b = Session("tune7-stats-cumulative-2", "2026-03-17T14:25:00Z", a.files)
    b.user("when we dump a cache for debugging it'd be handy to have the stats in the dump too, as a `stats` "
           "field next to the entries, so we can see what the hit rate was on the box it came from")
    b.read("src/serialize.ts")
    b.edit("src/serialize.ts", "import { Cache } from \"./cache.js\";\n",
           "import { Cache } from \"./cache.js\";\nimport type { StatsSnapshot } from \"./stats.js\";\n")
    b.edit("src/serialize.ts", "\n/** The live entries of `cache`, most recently used first. */\n",
           "\nexport interface Snapshot<V> {\n  stats: StatsSnapshot;\n  entries: SnapshotEntry<V>[];\n}\n\n"
           "/** The live entries of `cache`, most recently used first. */\n")
    b.edit("src/serialize.ts", "  return JSON.stringify(entries);\n",
           "  return JSON.stringify({ stats: cache.stats.snapshot(), entries });\n")
    b.edit("src/serialize.ts", "  const entries = JSON.parse(text) as SnapshotEntry<V>[];\n",
           "  const { stats, entries } = JSON.parse(text) as Snapshot<V>;\n  cache.stats.load(stats);\n")
    b.edit("src/stats.ts", "  reset(): void {\n",
           "  /** Takes the counters of a snapshot (a restored dump). */\n"
           "  load(s: StatsSnapshot): void {\n"
           "    this.hits = s.hits;\n    this.misses = s.misses;\n    this.sets = s.sets;\n"
           "    this.evictions = s.evictions;\n    this.expirations = s.expirations;\n  }\n\n"
           "  reset(): void {\n",
           text="And on `restore()` the counters come back from the dump, so a restored cache continues where "
                "the dumped one left off.")
    b.user("no, leave the counters alone on restore. same as with clear() the other week: they only ever go up "
           "for the life of the process, and nothing but resetStats() may set them back — a restore that "
           "rewrites them would break the exporter's deltas just the same. the stats in the dump are there to "
           "be read by a human, that's all.")
    b.edit("src/stats.ts",
           "  /** Takes the counters of a snapshot (a restored dump). */\n"
           "  load(s: StatsSnapshot): void {\n"
           "    this.hits = s.hits;\n    this.misses = s.misses;\n    this.sets = s.sets;\n"
           "    this.evictions = s.evictions;\n    this.expirations = s.expirations;\n  }\n\n", "",
           text="Removing `Stats.load` again.")
    b.edit("src/serialize.ts",
           "  const { stats, entries } = JSON.parse(text) as Snapshot<V>;\n  cache.stats.load(stats);\n",
           "  // the dump's stats are for reading only: never copied into this process's cumulative counters\n"
           "  const { entries } = JSON.parse(text) as Snapshot<V>;\n")
    b.edit("test/cache.test.ts",
           "    expect([...b.entries()].map(([k]) => k)).toEqual([\"y\", \"x\"]);\n  });\n",
           "    expect([...b.entries()].map(([k]) => k)).toEqual([\"y\", \"x\"]);\n  });\n\n"
           "  it(\"dumps stats but does not restore them\", () => {\n"
           "    const a = new Cache<number>();\n"
           "    a.set(\"x\", 1);\n"
           "    a.get(\"x\");\n"
           "    expect(JSON.parse(dump(a)).stats.hits).toBe(1);\n"
           "    const b = new Cache<number>();\n"
           "    restore(b, dump(a));\n"
           "    expect(b.stats.hits).toBe(0);\n"
           "  });\n")
    b.bash("npx vitest run", vitest_out(1, 10, 13), description="Run the tests")
    b.say("The dump is now `{ stats, entries }`; `restore()` reads only the entries and leaves the counters "
          "alone (comment in place, `Stats.load` removed). Test added; 10 pass.")
    return [a, b]


SERIALIZE_V1 = '''import { Cache } from "./cache.js";

export const FORMAT_VERSION = 1;

export interface SnapshotEntry<V> {
  key: string;
  value: V;
  /** Absolute expiry, wall-clock ms. */
  expiresAt: number;
}

export interface Snapshot<V> {
  v: number;
  entries: SnapshotEntry<V>[];
}

/** The live entries of `cache`, most recently used first, as versioned JSON. Values must survive
 * JSON.stringify: Dates come back as strings, Maps and Buffers don't round-trip. */
export function dump<V>(cache: Cache<V>): string {
  const entries: SnapshotEntry<V>[] = [];
  for (const [key, value, expiresAt] of cache.entries()) {
    entries.push({ key, value, expiresAt });
  }
  const snapshot: Snapshot<V> = { v: FORMAT_VERSION, entries };
  return JSON.stringify(snapshot);
}

/** Loads a `dump` into `cache`, oldest first so recency order is kept; entries already expired at
 * `now` are skipped. Returns how many were loaded. */
export function restore<V>(cache: Cache<V>, text: string, now: number = Date.now()): number {
  const snapshot = JSON.parse(text) as Snapshot<V>;
  if (snapshot.v !== FORMAT_VERSION) {
    throw new Error(`kvcache: unsupported dump format ${snapshot.v}, expected ${FORMAT_VERSION}`);
  }
  let n = 0;
  for (const e of [...snapshot.entries].reverse()) {
    if (e.expiresAt <= now) continue;
    cache.set(e.key, e.value, { expiresAt: e.expiresAt });
    n++;
  }
  return n;
}
'''

VITEST_FAIL = """ RUN  v1.6.0 {{ROOT}}

 ❯ test/cache.test.ts  (10 tests | 1 failed) 19ms
   ❯ serialize > round-trips entries in recency order

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/cache.test.ts > serialize > round-trips entries in recency order
AssertionError: expected [] to deeply equal [ 'y', 'x' ]

- Expected
+ Received

- Array [
-   "y",
-   "x",
- ]
+ Array []

 ❯ test/cache.test.ts:85:46
     83|     const b = new Cache<number>();
     84|     restore(b, dump(a));
     85|     expect([...b.entries()].map(([k]) => k)).toEqual(["y", "x"]);
       |                                             ^
     86|   });
     87|

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯

 Test Files  1 failed (1)
      Tests  1 failed | 9 passed (10)
   Start at  15:02:44
   Duration  402ms (transform 58ms, setup 0ms, collect 70ms, tests 19ms, environment 0ms, prepare 91ms)
"""


@scenario("dump-format", KV,
          "the agent sets out two questions (format as a table, expiry as prose); a long reply with a README "
          "aside picks versioned JSON and absolute expiry mid-paragraph, rejecting v8.serialize, msgpack and "
          "remaining TTL with reasons; the round-trip test then fails (Infinity becomes null in JSON) and is "
          "fixed",
          [exp("decision", "src/serialize.ts:dump", "version field", ["v8.serialize", "msgpack"]),
           exp("decision", "src/serialize.ts:restore", "absolute expiresat", ["remaining ttl"]),
           exp("gotcha", "src/serialize.ts:dump", "infinity")])
def _dump_format(files):
    s = Session("tune7-dump-format", "2026-03-12T14:30:00Z", files)
    s.user("We want to use dump/restore to warm caches across deploys: dump on SIGTERM, restore on boot. "
           "Today `dump()` writes a bare JSON array with whatever `expiresAt` the entry has, `restore()` throws "
           "the expiry away and sets everything with the default TTL, and values go through JSON, so Dates "
           "come back as strings and Buffers as `{type, data}`. What would you change to make this usable "
           "for that?")
    s.read("src/serialize.ts")
    s.read("src/cache.ts", offset=16, limit=10)
    s.say("Two separate questions.\n\n**Format**\n\n"
          "| | plain JSON (+ version field) | v8.serialize | msgpack |\n|---|---|---|---|\n"
          "| Dates, Maps, Buffers | lost (caller's problem) | survive (structured clone) | via extension types |\n"
          "| readable by another Node version | yes | not guaranteed — tied to the V8 wire format | yes |\n"
          "| dependency | none | none | `@msgpack/msgpack` |\n"
          "| debuggable with `jq` | yes | no | no |\n\n"
          "**Expiry**\n\n"
          "- *absolute expiresAt* (wall-clock ms): exact if both processes' clocks agree; time spent on disk "
          "counts.\n"
          "- *remaining TTL* (ms left at dump time): independent of clocks, but the time a dump sits on disk "
          "doesn't count, so an entry dumped with 10 minutes left gets 10 fresh minutes whenever it's "
          "restored.\n\n"
          "Either way `restore()` should honour the dumped expiry instead of the default TTL.")
    s.user("Okay. Bunch of stuff, bear with me. First, unrelated: the README example still does `new Cache({ "
           "max: 100 })`, which hasn't been the option name since 1.2 — someone should fix that, not you, I'll "
           "do it in the docs pass. For the format, plain JSON with a version field, `{ v: 1, entries: [...] }`, "
           "so we can change it later without guessing. v8.serialize is tempting for Dates and Buffers, but we "
           "roll Node upgrades independently of the services, and I don't want a dump written by one Node that "
           "the next one can't read; msgpack means pulling in a dependency for something JSON does well "
           "enough here. Values that don't survive JSON are the caller's problem, just document it. "
           "For expiry: store the absolute expiresAt in wall-clock ms. I know it leans on clocks agreeing, but "
           "NTP is a solved problem on our boxes, and during a slow rollout a dump can sit on disk for twenty "
           "minutes — remaining TTL would resurrect things that should be long dead. Restore skips anything "
           "that's already expired. Sound reasonable?")
    s.say("Yes. I'll add an absolute `expiresAt` to `SetOptions` so `restore()` can hand the dumped expiry "
          "straight to `set()`.")
    s.edit("src/cache.ts", "export interface SetOptions {\n  ttlMs?: number;\n}\n",
           "export interface SetOptions {\n  ttlMs?: number;\n"
           "  /** Absolute expiry in the cache clock's ms; wins over ttlMs. Used by restore(). */\n"
           "  expiresAt?: number;\n}\n")
    s.edit("src/cache.ts",
           "      expiresAt: expiryOf(this.clock.now(), options.ttlMs ?? this.opts.ttlMs),\n",
           "      expiresAt: options.expiresAt ?? expiryOf(this.clock.now(), options.ttlMs ?? this.opts.ttlMs),\n")
    s.write("src/serialize.ts", SERIALIZE_V1)
    s.edit("test/cache.test.ts",
           "    expect([...b.entries()].map(([k]) => k)).toEqual([\"y\", \"x\"]);\n  });\n",
           "    expect([...b.entries()].map(([k]) => k)).toEqual([\"y\", \"x\"]);\n  });\n\n"
           "  it(\"skips entries that expired while on disk\", () => {\n"
           "    const clock = new ManualClock(1_000);\n"
           "    const a = new Cache<number>({ clock });\n"
           "    a.set(\"old\", 1, { ttlMs: 10 }).set(\"new\", 2, { ttlMs: 10_000 });\n"
           "    const b = new Cache<number>({ clock });\n"
           "    expect(restore(b, dump(a), 2_000)).toBe(1);\n"
           "    expect([...b.entries()].map(([k]) => k)).toEqual([\"new\"]);\n"
           "  });\n\n"
           "  it(\"rejects an unknown format version\", () => {\n"
           "    expect(() => restore(new Cache(), JSON.stringify({ v: 2, entries: [] }))).toThrow(/format 2/);\n"
           "  });\n")
    s.bash("npx vitest run", VITEST_FAIL, fail=True, description="Run the tests")
    s.say("The old round-trip test now restores nothing. Those entries have no TTL, so their `expiresAt` is "
          "`Infinity` — and `JSON.stringify(Infinity)` is `\"null\"`. On restore `null <= now` coerces to "
          "`0 <= now`, which is true, so every entry without a TTL is treated as long expired and skipped. "
          "The new expiry test didn't catch it because both its entries have TTLs. I'll write no-expiry as an "
          "explicit `null` in the format and map it back to `Infinity` on restore.")
    s.edit("src/serialize.ts", "  /** Absolute expiry, wall-clock ms. */\n  expiresAt: number;\n",
           "  /** Absolute expiry, wall-clock ms; null for none (JSON has no Infinity, it writes null). */\n"
           "  expiresAt: number | null;\n")
    s.edit("src/serialize.ts", "    entries.push({ key, value, expiresAt });\n",
           "    entries.push({ key, value, expiresAt: Number.isFinite(expiresAt) ? expiresAt : null });\n")
    s.edit("src/serialize.ts",
           "    if (e.expiresAt <= now) continue;\n    cache.set(e.key, e.value, { expiresAt: e.expiresAt });\n",
           "    if (e.expiresAt !== null && e.expiresAt <= now) continue;\n"
           "    cache.set(e.key, e.value, { expiresAt: e.expiresAt ?? Infinity });\n")
    s.bash("npx vitest run", vitest_out(1, 10, 15), description="Run the tests")
    s.say("Fixed; 10 pass. Summary:\n\n"
          "- `dump()` writes `{ v: 1, entries: [{ key, value, expiresAt }] }`, `expiresAt` absolute wall-clock "
          "ms or `null` for no expiry; the doc comment says values must survive `JSON.stringify`.\n"
          "- `restore(cache, text, now = Date.now())` rejects other versions, skips entries expired at `now`, "
          "and passes the dumped expiry to `set()` (new `SetOptions.expiresAt`).\n"
          "- Tests for expired-on-disk entries and an unknown version.")
    s.user("lovely, thanks")
    return [s]


@scenario("review-lru", KV,
          "'run the linter first'; a review of lru.ts and cache.ts full of 'should'/'must' suggestions and a "
          "hypothetical about worker threads; nothing is taken up, no edits", [])
def _review_lru(files):
    s = Session("tune7-review-lru", "2026-03-16T09:05:00Z", files)
    s.user("run the linter first, then review lru.ts and cache.ts for me. don't edit anything, just tell me "
           "what you'd change and why. I'm deciding what goes into 1.5.")
    s.bash("npm run lint", "\n> @acme/kvcache@1.4.0 lint\n> eslint src test\n\n", description="Run eslint")
    s.read("src/lru.ts")
    s.read("src/cache.ts")
    s.say("Lint is clean. Review, most important first:\n\n"
          "1. **`evict()` duplicates `drop()`** — it deletes from the map and adjusts `totalSize` by hand after "
          "`popBack()`. If `drop()` ever gains a step (a dispose callback, say), eviction will silently skip "
          "it. It should call a shared helper.\n"
          "2. **`LruList.remove` trusts its caller** — removing a node that isn't in the list corrupts "
          "`length` and can null out `head`. Every caller is correct today, but a debug assertion would catch "
          "future misuse cheaply.\n"
          "3. **`set()` on an existing key drops and re-inserts** the node, which allocates a new object and "
          "counts nothing as an update. Updating in place and `moveToFront` would be cheaper and would let you "
          "add an `updates` counter.\n"
          "4. **An entry larger than `maxSize`** is inserted and then immediately evicted — along with "
          "everything else, because `evict()` pops from the tail until the total fits. A single oversized "
          "`set()` empties the cache. It should probably be rejected up front (or not cached) instead.\n"
          "5. **`entries()` skips expired entries** but never removes them, so iterating doesn't free "
          "anything; fine, just worth a comment.\n\n"
          "Not a change, but if you ever wanted to share one cache between worker threads, this structure "
          "would have to move to a `SharedArrayBuffer`-backed layout with locking — the linked list of JS "
          "objects can't be shared at all. I wouldn't go there.")
    s.user("good list. 4 is nasty, I didn't know that. I'll open issues for 1, 2 and 4 and we'll see what fits "
           "in 1.5, nothing for today. thanks")
    return [s]


@scenario("tiered-plan", KV,
          "the agent sketches a numbered plan for a Redis tier; the person parks it ('let's not'); a teammate's "
          "opinion reported second-hand ('always go through the adapter'), not adopted; no edits", [])
def _tiered_plan(files):
    s = Session("tune7-tiered-plan", "2026-03-18T15:40:00Z", files)
    s.user("We're vaguely thinking about putting a Redis tier behind the in-process cache next quarter, so a "
           "miss here checks Redis before the database. Could you sketch how you'd fit that into kvcache? Not "
           "asking you to build it, I want to see how big it is.")
    s.read("src/writeThrough.ts")
    s.read("src/index.ts")
    s.say("Here's how I'd do it, roughly in order:\n\n"
          "1. **A `Tier<V>` interface** — `get`, `set(key, value, expiresAt)`, `delete` — all async. The "
          "in-process `Cache` gets a thin async wrapper implementing it.\n"
          "2. **A `TieredCache`** that takes an ordered list of tiers plus the `BackingStore`: `get` walks the "
          "tiers, and on a hit in tier *n* back-fills tiers 0…n-1 with the same absolute expiry.\n"
          "3. **Writes** go store-first, then invalidate (not set) the lower tiers, so two processes can't "
          "leave Redis and memory disagreeing for a whole TTL.\n"
          "4. **Serialization** for Redis values: reuse `dump`'s JSON rules per value.\n"
          "5. **Stats per tier** — a `Stats` per tier, aggregated in `TieredCache.stats()`.\n\n"
          "Size: roughly 250 lines plus tests, and a `redis` peer dependency for the adapter — I'd put the Redis "
          "tier itself in a separate package so kvcache stays dependency-free.")
    s.user("hm, that's more than I hoped. let's not, at least not now, the redis thing may well not happen. "
           "fwiw my teammate Karim thinks we should always go through the WriteThroughCache adapter even for "
           "the pure in-memory case, so there's one code path. what's your take, just curious?")
    s.say("It would unify the code paths, but for a pure in-memory use there's no store to write through to, "
          "so you'd be passing a no-op `BackingStore` and paying a promise per `get()` for nothing. I'd keep "
          "both entry points and only reach for the adapter when there's a real store behind it — but it's a "
          "style call for the team.")
    s.user("yeah. ok, parking all of this. thanks")
    return [s]


# -- build and check -------------------------------------------------------------------------------------


def build() -> None:
    out = []
    (HERE / "sessions").mkdir(exist_ok=True)
    for sc in SCENARIOS:
        sessions = sc["fn"](repo_files(sc["repo"]))
        for s in sessions:
            (HERE / "sessions" / f"{s.name}.jsonl").write_text(s.jsonl(), encoding="utf-8")
        out.append({"name": sc["name"], "repo": sc["repo"], "sessions": [f"{s.name}.jsonl" for s in sessions],
                    "note": sc["note"], "expected": sc["expected"]})
    (HERE / "expected.json").write_text(json.dumps({"set": SET, "scenarios": out}, indent=2,
                                                   ensure_ascii=False) + "\n", encoding="utf-8")


def check() -> None:
    """Replays each scenario on a copy of its repository; every expected anchor must name a definition
    (tether's parser) of the final state, or a file, or a glob matching some file; every phrase and
    rejected phrase must occur in the sessions' text."""
    import shutil
    import tempfile
    sys.path.insert(0, str(TESTS))
    sys.path.insert(0, str(HERE.parents[2] / "server"))
    from capture_fixtures import hook_events, materialize
    from tether.core.languages import for_path
    from tether.core.syntax import SourceFile
    for sc in json.loads((HERE / "expected.json").read_text(encoding="utf-8"))["scenarios"]:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "repo"
            shutil.copytree(HERE / "repos" / sc["repo"], root,
                            ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
            edits = 0
            for name in sc["sessions"]:
                path = materialize(name, root, Path(tmp) / "t", HERE / "sessions" / name)
                for _event, change in hook_events(path, root):
                    if change is not None:
                        change()
                        edits += 1
            said = " ".join(json.dumps(json.loads(ln)["message"]["content"], ensure_ascii=False).lower()
                            for n in sc["sessions"]
                            for ln in (HERE / "sessions" / n).read_text(encoding="utf-8").splitlines()
                            if json.loads(ln).get("type") in ("user", "assistant"))
            for e in sc["expected"]:
                for phrase in (e["phrase"], *e["rejected"]):
                    assert phrase.lower() in said, (sc["name"], phrase)
                rel, _, name = e["anchor"].partition(":")
                if "*" in rel:
                    assert list(root.glob(rel)), (sc["name"], e["anchor"])
                    continue
                text = (root / rel).read_text(encoding="utf-8")
                if name:
                    names = {d.qualname for d in SourceFile(text, for_path(rel)).defs}
                    assert name in names, (sc["name"], e["anchor"], sorted(names))
            # the builder's files and the replay end in the same state
            final = repo_files_at(root)
            files = repo_files(sc["repo"])
            fn = next(x["fn"] for x in SCENARIOS if x["name"] == sc["name"])
            fn(files)
            assert final == files, (sc["name"], [k for k in files if files[k] != final.get(k)])
        print(f"ok  {sc['name']}: {len(sc['sessions'])} session(s), {edits} edits, {len(sc['expected'])} expected")
    kinds: dict[str, int] = {}
    for sc in SCENARIOS:
        for e in sc["expected"]:
            kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    print(f"{len(SCENARIOS)} scenarios, {sum(len(sc['fn'](repo_files(sc['repo']))) for sc in SCENARIOS)} sessions, "
          f"{sum(kinds.values())} expected {kinds}, "
          f"{sum(len(e['rejected']) for sc in SCENARIOS for e in sc['expected'])} rejected, "
          f"{sum(not sc['expected'] for sc in SCENARIOS)} without a note")


def repo_files_at(base: Path) -> dict[str, str]:
    return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8") for p in sorted(base.rglob("*"))
            if p.is_file() and ".git" not in p.parts and "__pycache__" not in p.parts}


if __name__ == "__main__":
    build()
    if "--check" in sys.argv:
        check()
