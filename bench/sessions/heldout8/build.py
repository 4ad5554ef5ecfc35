"""Writes the heldout8 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``tilecache`` (Python, a caching proxy for XYZ map
tiles) and ``i18nkit`` (TypeScript, a CLI/library for translation strings). Sessions are written
with the ``Session`` builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py``
after changing a scenario (outputs are committed). ``python3 build.py --check`` also replays every
scenario on a copy of its repository (every edit must apply) and checks, with tether's own parser,
that every expected anchor names a definition of the final state.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
TESTS = HERE.parents[2] / "tests"
sys.path.insert(0, str(TESTS / "fixtures" / "transcripts"))
from build import Session  # noqa: E402

SET = "heldout8"
SCENARIOS: list[dict] = []


def repo_files(repo: str) -> dict[str, str]:
    base = HERE / "repos" / repo
    return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8") for p in sorted(base.rglob("*")) if p.is_file()}


def scenario(name: str, repo: str, note: str, expected: list[dict]):
    def register(fn):
        SCENARIOS.append({"name": name, "repo": repo, "note": note, "expected": expected, "fn": fn})
        return fn
    return register


def exp(kind: str, anchor: str, phrase: str, rejected: list[str] | None = None) -> dict:
    return {"kind": kind, "anchor": anchor, "phrase": phrase, "rejected": rejected or []}


# -- tilecache (Python) -----------------------------------------------------------------------------------

TC = "tilecache"
PYTEST_BASE_FAIL = """=================================== FAILURES ===================================
___________________________ test_quadkey_known_value ___________________________

    def test_quadkey_known_value():
        # the example from the Bing Maps tile system docs
>       assert Tile(3, 3, 5).quadkey() == "213"
E       AssertionError: assert '123' == '213'
E         
E         - 213
E         + 123

tests/test_tilecache.py:23: AssertionError
=========================== short test summary info ============================
FAILED tests/test_tilecache.py::test_quadkey_known_value - AssertionError: as..."""


@scenario("quadkey-bits-swapped", TC, "a Spanish speaker pastes a failing pytest; the verbose agent finds that quadkey "
          "and from_quadkey swap the x and y bits the same way (so the round trip hid it) and fixes both",
          [exp("gotcha", "tilecache/tiles.py:Tile.quadkey", "swapped")])
def _quadkey(files):
    s = Session("heldout8-quadkey", "2025-03-03T09:14:00Z", files)
    s.user("Hola! I added the test with the known value from the Bing docs for quadkey and it fails. The round trip "
           "test is passing, so I don't understand how can the quadkey be wrong if it come back to the same tile?? "
           "Here is the output:\n\n```\n$ pytest -q\n..F......                                                      "
           "          [100%]\n" + PYTEST_BASE_FAIL + "\n1 failed, 8 passed in 0.41s\n```\n\nCan you look please? "
           "Maybe the docs example is with other convention, I am not sure.")
    s.read("tilecache/tiles.py", text="Let me look at how the quadkey is built and parsed.")
    s.say("""## What's going on

The docs example is right — for tile x=3, y=5 at z3 the quadkey is `213`. The bug is in our code, and it's in **both** directions:

- `Tile.quadkey()` adds **2** for the x bit and **1** for the y bit.
- `Tile.from_quadkey()` reads it back the same way (bit 1 → y, bit 2 → x).

In the Bing tile system it's the other way round: the **x bit is worth 1** and the **y bit is worth 2** (digit = x_bit + 2·y_bit).

## Why the round trip didn't catch it

Because the two functions are swapped *consistently*, `from_quadkey(t.quadkey())` always gives back `t` — the error cancels out. Only a known value from outside (like the one you added) can expose it. Every quadkey we've produced so far is the transposed one, so anything keyed by quadkey on disk or in logs would be for the wrong tile.

## Fix

Swap the weights in both functions.""")
    s.edit("tilecache/tiles.py",
           "            if digit & 1:\n                y |= mask\n            if digit & 2:\n                x |= mask\n",
           "            if digit & 1:\n                x |= mask\n            if digit & 2:\n                y |= mask\n")
    s.edit("tilecache/tiles.py",
           "            if self.x & mask:\n                digit += 2\n            if self.y & mask:\n                digit += 1\n",
           "            if self.x & mask:\n                digit += 1\n            if self.y & mask:\n                digit += 2\n")
    s.bash("pytest -q", ".........                                                                [100%]\n"
                         "9 passed in 0.38s", description="Run the test suite")
    s.say("""## Result

All 9 tests pass, including `test_quadkey_known_value`.

One thing worth checking on your side: if anything outside this repo stored quadkeys produced by the old code (e.g. a prefetch list), those keys point at the mirrored tile and need to be regenerated.""")
    s.user("Ahh ok, so the x bit and the y bit were swapped in the two sides and this is why the round trip test "
           "never see it. Makes sense. Nothing outside use the quadkeys yet, only the debug endpoint that Luis is "
           "writing. Can you put a short comment on quadkey() so nobody swap them again? Gracias")
    s.edit("tilecache/tiles.py",
           "    def quadkey(self) -> str:\n        digits = []\n",
           "    def quadkey(self) -> str:\n"
           "        # Bing tile system: digit = x_bit + 2 * y_bit. from_quadkey() must mirror this exactly; a swap\n"
           "        # on both sides still round-trips, so only test_quadkey_known_value catches it.\n"
           "        digits = []\n")
    s.bash("pytest -q tests/test_tilecache.py -k quadkey", "..                                                                       [100%]\n"
           "2 passed, 7 deselected in 0.12s", description="Run the quadkey tests")
    s.say("Added the comment above the loop in `quadkey()`; quadkey tests still pass.")
    return [s]


@scenario("eviction-order", TC, "terse person; the agent lays out three eviction orders in a table and recommends "
          "one; the person picks another ('c.') with a reason and adds a 'don't ever' rule about low zooms",
          [exp("decision", "tilecache/store.py:DiskCache.evict", "mtime", ["atime", "access index"]),
           exp("invariant", "tilecache/store.py:DiskCache.evict", "below z6")])
def _eviction(files):
    s = Session("heldout8-eviction", "2025-03-04T14:02:00Z", files)
    s.user("evict() is a stub. disk on tiles-02 filled up last night. make it work")
    s.read("tilecache/store.py")
    s.grep("evict\\(", ["tilecache/store.py"], text="Checking who calls it.")
    s.say("""Nothing calls `evict()` yet, so I'll also need to hook it in — but first the order matters. Three realistic options:

| | order | cost per run | catch |
|---|---|---|---|
| **A** | LRU by file **atime** | one `stat` per file | atime is usually off or lazy (`noatime`/`relatime` mounts) — on most of our hosts it'd degrade to random |
| **B** | LRU from an **access index** we keep ourselves (in-memory dict tile→last hit, flushed to a sidecar file) | cheap reads, extra write path | more code, and the index has to survive restarts / be rebuilt |
| **C** | oldest-first **by mtime** (effectively FIFO by when we last stored it) | one `stat` per file | can evict a popular tile just because it was cached long ago |

I'd go with **B** — it's the only one that actually tracks what's hot. Which one?""")
    s.user("c. keep it dumb, refreshes rewrite the file anyway so mtime is close enough. but don't ever evict below "
           "z6 — those are a few thousand tiny tiles that every page load hits")
    s.edit("tilecache/store.py",
           "from tilecache.tiles import Tile\n\n",
           "from tilecache.tiles import Tile\n\n"
           "# Tiles below this zoom are never evicted: few, tiny, and hit by every page load.\n"
           "KEEP_BELOW_ZOOM = 6\n\n")
    s.edit("tilecache/store.py",
           '''    def evict(self) -> int:
        """Bring the cache under ``max_bytes``. Returns the number of files removed."""
        # TODO: pick an eviction order; for now we only report the overshoot
        over = self.size() - self.max_bytes
        return 0 if over <= 0 else 0
''',
           '''    def evict(self) -> int:
        """Bring the cache under ``max_bytes``, oldest file first by mtime (a refresh rewrites the file, so
        mtime is "last stored"). Tiles below ``KEEP_BELOW_ZOOM`` are never evicted. Returns the number of
        files removed."""
        candidates: list[tuple[float, int, Path]] = []
        total = 0
        for dirpath, _dirs, names in os.walk(self.root):
            for name in names:
                path = Path(dirpath) / name
                try:
                    st = path.stat()
                except FileNotFoundError:
                    continue
                total += st.st_size
                if self._zoom_of(path) < KEEP_BELOW_ZOOM:
                    continue
                candidates.append((st.st_mtime, st.st_size, path))
        removed = 0
        for _mtime, size, path in sorted(candidates):
            if total <= self.max_bytes:
                break
            path.unlink(missing_ok=True)
            total -= size
            removed += 1
        return removed

    def _zoom_of(self, path: Path) -> int:
        # root/<layer>/<z>/<x>/<y>.<ext>
        return int(path.relative_to(self.root).parts[1])
''')
    s.edit("tests/test_tilecache.py",
           "def test_policy_fresh_and_stale():",
           '''def test_evict_oldest_first_keeps_low_zooms(tmp_path):
    import os
    cache = DiskCache(tmp_path, max_bytes=12)
    old, new, low = Tile(8, 1, 1), Tile(8, 1, 2), Tile(3, 1, 1)
    for i, t in enumerate([low, old, new]):
        p = cache.put("osm", t, b"x" * 6)
        os.utime(p, (1000 + i, 1000 + i))
    assert cache.evict() == 1
    assert cache.get("osm", old) is None
    assert cache.get("osm", new) is not None
    assert cache.get("osm", low) is not None


def test_policy_fresh_and_stale():''')
    s.bash("pytest -q", "..F.......                                                               [100%]\n"
           + PYTEST_BASE_FAIL + "\n1 failed, 9 passed in 0.47s", fail=True, description="Run the test suite")
    s.say("New eviction test passes. The one failure is `test_quadkey_known_value`, which fails on main too "
          "(quadkey digit weights) — not touched here.\n\nWant me to call `evict()` from somewhere (after `put`, "
          "or a periodic thread), or will you run it from cron?")
    s.user("cron. leave it")
    s.say("OK — `evict()` is done and left uncalled; run it from cron (e.g. a one-liner "
          "`python -c 'from tilecache.store import DiskCache; DiskCache(\"/var/cache/tiles\").evict()'`).")
    return [s]


@scenario("fetcher-requirements", TC, "an enterprise architect states numbered requirements (SHALL/MUST), incl. a "
          "scope exclusion and a process instruction; the terse agent implements and reports; 'Approved.'",
          [exp("invariant", "tilecache/fetcher.py:Fetcher._should_retry", "4xx"),
           exp("invariant", "tilecache/fetcher.py:Fetcher._delay", "retry-after"),
           exp("boundary", "tilecache/fetcher.py:Fetcher", "circuit breaker")])
def _fetcher(files):
    s = Session("heldout8-fetcher", "2025-03-05T10:30:00Z", files)
    s.user("""Good morning. Please implement the following requirements for the upstream fetcher (tilecache/fetcher.py). Reference: ARCH-212.

R1. A tile request SHALL be attempted at most three (3) times in total, including the first attempt.
R2. The delay between attempts SHALL follow exponential backoff with a base of 0.5 s and full jitter.
R3. Client errors (HTTP 4xx) SHALL NOT be retried, with the sole exception of 429 (Too Many Requests). Rationale: retrying a 403 consumes quota at the provider and has already resulted in one temporary suspension of our key. 404 continues to be returned to the caller as a normal response (ocean tiles).
R4. Where the upstream supplies a Retry-After header, the fetcher MUST honour it in place of the computed backoff, capped at 30 seconds.
R5. A circuit breaker is explicitly out of scope for this iteration. It will be addressed under ARCH-219 together with the multi-upstream work; please do not introduce one now.
R6. Run mypy --strict on the module before handing back.

Kind regards,
H. Lindqvist""")
    s.read("tilecache/fetcher.py")
    s.edit("tilecache/fetcher.py",
           "import logging\nimport time\n",
           "import logging\nimport random\nimport time\n")
    s.edit("tilecache/fetcher.py",
           "log = logging.getLogger(__name__)\n",
           "log = logging.getLogger(__name__)\n\nBACKOFF_BASE = 0.5       # seconds (ARCH-212 R2)\nRETRY_AFTER_CAP = 30.0   # seconds (ARCH-212 R4)\n")
    s.edit("tilecache/fetcher.py",
           '''    def fetch(self, layer: str, tile: Tile) -> Response:
        url = self.url(layer, tile)
        last: Exception | None = None
        for attempt in range(self.attempts):
            try:
                resp = self._get(url)
            except FetchError as e:
                last = e
                self._sleep(1.0)
                continue
            if resp.status == 200:
                return resp
            if resp.status == 404:
                return resp
            last = FetchError(f"upstream returned {resp.status}", resp.status)
            self._sleep(1.0)
        raise last or FetchError("no attempts made")
''',
           '''    def _should_retry(self, status: int) -> bool:
        """5xx and 429 are retried; no other 4xx ever is (a retried 403 burns provider quota, ARCH-212 R3)."""
        if status == 429:
            return True
        return status >= 500

    def _delay(self, attempt: int, resp: Response | None) -> float:
        """Upstream's Retry-After when it sends one (capped), else full-jitter exponential backoff."""
        if resp is not None:
            retry_after = resp.headers.get("Retry-After")
            if retry_after is not None:
                try:
                    return min(float(retry_after), RETRY_AFTER_CAP)
                except ValueError:
                    pass  # HTTP-date form: fall back to backoff
        return random.uniform(0.0, BACKOFF_BASE * (2 ** attempt))

    def fetch(self, layer: str, tile: Tile) -> Response:
        url = self.url(layer, tile)
        last: Exception | None = None
        for attempt in range(self.attempts):
            resp: Response | None = None
            try:
                resp = self._get(url)
            except FetchError as e:
                last = e
            else:
                if resp.status in (200, 404):
                    return resp
                last = FetchError(f"upstream returned {resp.status}", resp.status)
                if not self._should_retry(resp.status):
                    raise last
            if attempt + 1 < self.attempts:
                self._sleep(self._delay(attempt, resp))
        raise last or FetchError("no attempts made")
''')
    s.edit("tests/test_tilecache.py",
           "def test_metrics_render():",
           '''def test_fetch_does_not_retry_403():
    f = Fetcher("https://up/{layer}/{z}/{x}/{y}.png?key={key}", "k", sleep=lambda s: None)
    calls = []
    f._get = lambda url: calls.append(url) or Response(403, b"", {})
    with pytest.raises(FetchError):
        f.fetch("osm", Tile(1, 0, 0))
    assert len(calls) == 1


def test_fetch_honours_retry_after():
    slept = []
    f = Fetcher("https://up/{layer}/{z}/{x}/{y}.png?key={key}", "k", sleep=slept.append)
    answers = [Response(429, b"", {"Retry-After": "120"}), Response(200, b"png", {})]
    f._get = lambda url: answers.pop(0)
    assert f.fetch("osm", Tile(1, 0, 0)).data == b"png"
    assert slept == [30.0]


def test_metrics_render():''')
    s.bash("mypy --strict tilecache/fetcher.py", "Success: no issues found in 1 source file",
           description="Type-check the fetcher")
    s.bash("pytest -q tests/test_tilecache.py -k fetch", "...                                                                      [100%]\n"
           "3 passed, 8 deselected in 0.09s", description="Run the fetcher tests")
    s.say("""Done (ARCH-212):

- R1: `attempts=3` unchanged; no sleep after the last attempt.
- R2: `_delay` — `uniform(0, 0.5 · 2^attempt)`.
- R3: `_should_retry` — only 5xx and 429; 404 still returned as a response, any other 4xx raises at once.
- R4: `Retry-After` (seconds form) used instead of backoff, capped at 30 s; the HTTP-date form falls back to backoff.
- R5: no circuit breaker.
- R6: `mypy --strict` clean. Two new tests (403 not retried, Retry-After capped); fetcher tests pass.""")
    s.user("Acknowledged. The HTTP-date fallback is acceptable for now. Approved.")
    return [s]


@scenario("stale-window", TC, "a lowercase person with typos thinks aloud, first wants stale tiles served forever, "
          "then changes their mind; the agent asks one question at a time; 24 hours for all layers",
          [exp("decision", "tilecache/policy.py:FreshnessPolicy", "24 hours", ["serve stale forever", "1 hour"])])
def _stale(files):
    s = Session("heldout8-stale", "2025-03-06T16:45:00Z", files)
    s.user("so stale_max is None by default rn, which if i read it right means we serve a stale tile forever as "
           "long as we have it on disk? thinking out loud here... for basemaps thats honestly fine, noone cares if "
           "a road is 2 weeks old. ok yeah lets make that explicit, serve stale forever, and write a test for it so "
           "nobody changes it by accident")
    s.read("tilecache/policy.py")
    s.say("Yes — with `stale_max=None`, `decide()` returns `SERVE_AND_REFRESH` for any age past `max_age`, so a "
          "stale tile is served indefinitely while the background refresh keeps failing. I'll document it and pin "
          "it with a test.")
    s.edit("tilecache/policy.py",
           "    stale_max: float | None = None         # how long past max_age a tile may still be served\n",
           "    stale_max: float | None = None         # how long past max_age a tile may still be served;\n"
           "                                           # None = forever (serve stale while upstream is down)\n")
    s.edit("tests/test_tilecache.py",
           "class FakeOpener:",
           '''def test_policy_serves_stale_forever_by_default():
    p = FreshnessPolicy(max_age=100)
    assert p.decide(10 ** 9) is Action.SERVE_AND_REFRESH


class FakeOpener:''')
    s.user("hmm wait. actualy no. the traffic layer goes through this too and a 3 day old traffic tile is worse "
           "than an error, people route on it. we need a cap")
    s.say("Got it — then one question before I change it: how long past `max_age` should a stale tile still be "
          "served — 1 hour or 24 hours? After that, `decide()` returns `FETCH`, and if upstream is still down the "
          "client gets a 502.")
    s.user("24 hours. 1 hour is too agressive for the basemaps, upstream has had half-day outages")
    s.say("And should that be the same for all layers, or only for traffic (which would mean a per-layer policy)?")
    s.user("all layers, keep it simple. 502 after that is fine")
    s.edit("tilecache/policy.py",
           "    stale_max: float | None = None         # how long past max_age a tile may still be served;\n"
           "                                           # None = forever (serve stale while upstream is down)\n",
           "    stale_max: float | None = 24 * 3600    # served stale (refreshing in the background) for at most\n"
           "                                           # 24 hours past max_age, then fetched; 502 if upstream is down\n")
    s.edit("tests/test_tilecache.py",
           '''def test_policy_serves_stale_forever_by_default():
    p = FreshnessPolicy(max_age=100)
    assert p.decide(10 ** 9) is Action.SERVE_AND_REFRESH
''',
           '''def test_policy_stale_window_is_24_hours():
    p = FreshnessPolicy(max_age=100)
    assert p.decide(100 + 24 * 3600) is Action.SERVE_AND_REFRESH
    assert p.decide(101 + 24 * 3600) is Action.FETCH
''')
    s.bash("pytest -q tests/test_tilecache.py -k policy", "..                                                                       [100%]\n"
           "2 passed, 8 deselected in 0.08s", description="Run the policy tests")
    s.say("Changed the default to `stale_max = 24 * 3600` for every layer and replaced the \"forever\" test with "
          "one that pins the 24-hour window. Policy tests pass.")
    s.user("👍")
    return [s]


@scenario("zero-byte-ocean", TC, "a person with emojis and slang reports broken ocean tiles; the agent proposes to "
          "treat zero-byte files as corrupt; the person says they are deliberate (cached upstream 404s) and has a "
          "comment added; only the handler is fixed",
          [exp("workaround", "tilecache/store.py:DiskCache.get", "zero-byte")])
def _zero(files):
    s = Session("heldout8-zero-byte", "2025-03-07T11:20:00Z", files)
    s.user("yo 👋 ocean tiles show up as broken images in the viewer lol. like every bit of sea is the little torn "
           "picture icon 😅 can u check whats up")
    s.read("tilecache/handler.py")
    s.read("tilecache/store.py", offset=30, limit=12)
    s.say("""Found it. When upstream answers **404** (which it does for every tile that's only water), `TileService.get` stores `b""` and returns **200** with `Content-Type: image/png` and an empty body — browsers render that as a broken image. On the next request the zero-byte file comes back from `DiskCache.get` as a normal entry, same result.

I'd fix two things:
1. in `DiskCache.get`, treat a zero-byte file as corrupt: delete it and return `None` (a miss);
2. in the handler, answer a 1×1 transparent PNG instead of an empty body.

OK to do both?""")
    s.user("nah don't touch the zero-byte thing 🙅 thats on purpose. upstream 404s every ocean tile and before we "
           "cached those we were hammering them with like 40k req/min just for water 💀 they literally emailed us. "
           "zero-byte file = 'we asked, theres nothing there', so we never ask again. if u make it a miss we're back "
           "to square one\n\njust do the transparent png part 👍 and drop a comment in get() so the next person "
           "doesnt 'fix' it lol")
    s.edit("tilecache/store.py",
           "        if st.st_size == 0:\n            return Entry(b\"\", st.st_mtime, path)\n",
           "        if st.st_size == 0:\n"
           "            # Deliberate: a zero-byte file is a cached upstream 404 (ocean tiles). It is a hit, not a\n"
           "            # corrupt file — making it a miss sends every water tile back upstream (it once cost us\n"
           "            # ~40k req/min and a complaint from the provider). The handler turns it into a blank PNG.\n"
           "            return Entry(b\"\", st.st_mtime, path)\n")
    s.edit("tilecache/handler.py",
           "log = logging.getLogger(__name__)\n",
           "log = logging.getLogger(__name__)\n\n"
           "# 1x1 fully transparent PNG, served for tiles upstream has nothing for (cached as zero-byte files)\n"
           "TRANSPARENT_PNG = base64.b64decode(\n"
           "    \"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=\")\n")
    s.edit("tilecache/handler.py",
           "import logging\nimport threading\n",
           "import base64\nimport logging\nimport threading\n")
    s.edit("tilecache/handler.py",
           "            return 200, entry.data, {\"Cache-Control\": self.policy.cache_control(self.cache.age(entry))}\n",
           "            return 200, entry.data or TRANSPARENT_PNG, {\"Cache-Control\": self.policy.cache_control(self.cache.age(entry))}\n")
    s.edit("tilecache/handler.py",
           "        return 200, data, {\"Cache-Control\": self.policy.cache_control(0)}\n",
           "        return 200, data or TRANSPARENT_PNG, {\"Cache-Control\": self.policy.cache_control(0)}\n")
    s.bash("pytest -q", "..F......                                                                [100%]\n" + PYTEST_BASE_FAIL
           + "\n1 failed, 8 passed in 0.44s", fail=True, description="Run the test suite")
    s.bash("python -c \"import tilecache.handler as h; print(len(h.TRANSPARENT_PNG), h.TRANSPARENT_PNG[:8])\"",
           "68 b'\\x89PNG\\r\\n\\x1a\\n'", description="Check the PNG constant decodes")
    s.say("Done ✔️\n\n- `DiskCache.get`: left as is, with a comment saying zero-byte = cached 404, on purpose.\n"
          "- `TileService.get`: empty data → 1×1 transparent PNG, both for cache hits and fresh 404s.\n\n"
          "The only failing test is `test_quadkey_known_value`, which already fails on main — unrelated.")
    s.user("ayy nice 🙌 ty")
    return [s]


@scenario("api-key-never-leaks", TC, "a sharp, brief person: in one session the agent logs the upstream URL and is "
          "told not to (it carries the API key); a week later, in the handler, it puts the URL in a 502 body and is "
          "told the same rule in other words",
          [exp("invariant", "tilecache/*.py", "api key")])
def _apikey(files):
    s = Session("heldout8-apikey-1", "2025-03-10T08:55:00Z", files)
    s.user("Log a warning each time a fetch attempt fails. Want to see flaky upstream in the logs.")
    s.read("tilecache/fetcher.py")
    s.edit("tilecache/fetcher.py",
           "            except FetchError as e:\n                last = e\n                self._sleep(1.0)\n",
           "            except FetchError as e:\n                last = e\n"
           "                log.warning(\"fetch %s failed (attempt %d/%d): %s\", url, attempt + 1, self.attempts, e)\n"
           "                self._sleep(1.0)\n")
    s.edit("tilecache/fetcher.py",
           "            last = FetchError(f\"upstream returned {resp.status}\", resp.status)\n            self._sleep(1.0)\n",
           "            last = FetchError(f\"upstream returned {resp.status}\", resp.status)\n"
           "            log.warning(\"fetch %s returned %d (attempt %d/%d)\", url, resp.status, attempt + 1, self.attempts)\n"
           "            self._sleep(1.0)\n")
    s.say("Added a `log.warning` in both failure paths of `Fetcher.fetch` with the URL, the attempt number and the "
          "error/status.")
    s.user("No. Not the URL — it carries the api key in ?key=. Log layer and tile.")
    s.edit("tilecache/fetcher.py",
           "                log.warning(\"fetch %s failed (attempt %d/%d): %s\", url, attempt + 1, self.attempts, e)\n",
           "                log.warning(\"fetch %s/%s failed (attempt %d/%d): %s\", layer, tile.path(), attempt + 1,\n"
           "                            self.attempts, e)\n")
    s.edit("tilecache/fetcher.py",
           "            log.warning(\"fetch %s returned %d (attempt %d/%d)\", url, resp.status, attempt + 1, self.attempts)\n",
           "            log.warning(\"fetch %s/%s returned %d (attempt %d/%d)\", layer, tile.path(), resp.status,\n"
           "                        attempt + 1, self.attempts)\n")
    s.grep("log\\.(warning|info|error).*url", [], text="Checking nothing else logs the URL.")
    s.say("Both warnings now log `layer/z/x/y.png` instead of the URL; nothing else in the package logs it.")
    s.user("Good.")

    t = Session("heldout8-apikey-2", "2025-03-17T13:10:00Z", s.files)
    t.user("502s from the service are useless to debug, body is just 'upstream unreachable: ...'. Put more context "
           "in it.")
    t.read("tilecache/handler.py", offset=35, limit=20)
    t.edit("tilecache/handler.py",
           "            METRICS.inc(\"upstream_errors\", layer=layer)\n            return 502, str(e).encode(), {}\n",
           "            METRICS.inc(\"upstream_errors\", layer=layer)\n"
           "            return 502, f\"GET {self.fetcher.url(layer, tile)} failed: {e}\".encode(), {}\n")
    t.say("The 502 body now names the upstream request that failed, e.g. "
          "`GET https://tiles.example.com/osm/3/4/2.png?key=… failed: upstream returned 503`.")
    t.user("The key again. Nothing that contains the key leaves the process — not logs, not response bodies, not "
           "metric labels. Layer, tile, status.")
    t.edit("tilecache/handler.py",
           "            return 502, f\"GET {self.fetcher.url(layer, tile)} failed: {e}\".encode(), {}\n",
           "            status = f\" (status {e.status})\" if e.status else \"\"\n"
           "            return 502, f\"upstream fetch of {layer}/{tile.path()} failed{status}: {e}\".encode(), {}\n")
    t.bash("pytest -q", "..F......                                                                [100%]\n" + PYTEST_BASE_FAIL
           + "\n1 failed, 8 passed in 0.43s", fail=True, description="Run the test suite")
    t.say("Fixed: the 502 body is now `upstream fetch of osm/3/4/2.png failed (status 503): upstream returned 503` — "
          "no URL. Metric labels are only `layer`/`action` already. The failing test is the known quadkey one.")
    t.user("Fine.")
    return [s, t]


@scenario("explain-request-path", TC, "a newcomer's questions; a hypothetical 'you'd need a lock' about running two "
          "instances; a lead's rule reported second-hand (always send If-None-Match) that nobody adopts",
          [])
def _explain(files):
    s = Session("heldout8-explain", "2025-03-11T15:00:00Z", files)
    s.user("hi, first week on this team. could you walk me through what happens when a tile request comes in? "
           "especially the stale part, I don't get when we go to upstream")
    s.read("tilecache/handler.py")
    s.read("tilecache/policy.py")
    s.say("""Sure. For `GET /osm/5/17/11.png`:

1. `Handler.do_GET` parses the path into a layer (`osm`) and a `Tile(5, 17, 11)`; a bad path is a 400.
2. `TileService.get` rejects unknown layers (404), then asks `DiskCache.get` for the file.
3. `FreshnessPolicy.decide(age)` picks one of three actions:
   - **SERVE** — the file is younger than `max_age` (a week): answered from disk.
   - **SERVE_AND_REFRESH** — older than `max_age` but inside the stale window: answered from disk *and* a daemon thread calls `refresh()`, which fetches and overwrites the file. The client never waits on upstream.
   - **FETCH** — no file, or too old: `Fetcher.fetch` is called in the request, the result is stored, then returned. If upstream fails you get a 502.
4. Every request bumps `tilecache_requests{layer,action}` in `/metrics`.

So upstream is only on the request path for misses (and tiles past the stale window); everything else hits it from the background thread.""")
    s.user("ok that helps. what if we ran two instances behind the load balancer, both on the same NFS cache? would "
           "they both refresh the same tile?")
    s.say("Yes. Each process decides independently, so a popular stale tile could be refreshed by both (and by "
          "several threads in one process, since there's no in-flight tracking either). The writes are safe — "
          "`put` writes a temp file and `os.replace`s it, so readers never see half a tile — but you'd pay double "
          "upstream requests. If you ever went multi-instance you'd want a lock file per tile or a shared "
          "\"refreshing\" marker; today it's one process, so it doesn't come up.")
    s.user("got it. last one: my lead mentioned we should always send If-None-Match to upstream so refreshes are "
           "cheap. do we do that?")
    s.grep("If-None-Match|ETag", [], text="Checking for conditional requests.")
    s.say("No — the fetcher never sends `If-None-Match` or `If-Modified-Since`, and we don't store upstream's "
          "`ETag`. Every refresh downloads the full tile. Adding it would mean keeping the ETag next to each file "
          "(a sidecar or xattr) and treating a 304 as \"touch the file's mtime\". Worth asking whether the "
          "provider counts 304s against the quota, though.")
    s.user("ok thanks, that's plenty for today")
    return [s]


@scenario("rename-bbox-helper", TC, "a terse rename across three files; no decision", [])
def _rename(files):
    s = Session("heldout8-rename", "2025-03-12T09:05:00Z", files)
    s.user("rename tiles_for_bbox -> tiles_in_bbox. everywhere")
    s.grep("tiles_for_bbox", ["tilecache/tiles.py", "tilecache/__init__.py", "tests/test_tilecache.py"])
    s.edit("tilecache/tiles.py", "def tiles_for_bbox(", "def tiles_in_bbox(")
    s.edit("tilecache/__init__.py", "from tilecache.tiles import Tile, tiles_for_bbox\n",
           "from tilecache.tiles import Tile, tiles_in_bbox\n")
    s.edit("tilecache/__init__.py", "__all__ = [\"Tile\", \"tiles_for_bbox\",", "__all__ = [\"Tile\", \"tiles_in_bbox\",")
    s.edit("tests/test_tilecache.py", "from tilecache.tiles import Tile, tiles_for_bbox\n",
           "from tilecache.tiles import Tile, tiles_in_bbox\n")
    s.edit("tests/test_tilecache.py", "def test_tiles_for_bbox_z0():\n    assert tiles_for_bbox(",
           "def test_tiles_in_bbox_z0():\n    assert tiles_in_bbox(")
    s.bash("pytest -q", "..F......                                                                [100%]\n" + PYTEST_BASE_FAIL
           + "\n1 failed, 8 passed in 0.40s", fail=True, description="Run the test suite")
    s.grep("tiles_for_bbox", [])
    s.say("Renamed in `tiles.py`, `__init__.py` (import and `__all__`) and the test. No references left. The one "
          "failure is the pre-existing quadkey test.")
    s.user("ty")
    return [s]


# -- i18nkit (TypeScript) ---------------------------------------------------------------------------------

IK = "i18nkit"


def vitest(passed: int, at: str, failed: int = 0, fail_text: str = "") -> str:
    total = passed + failed
    head = " RUN  v2.1.4 /home/dev/i18nkit\n\n"
    if failed:
        head += f" ❯ test/i18nkit.test.ts ({total} tests | {failed} failed) 14ms\n" + fail_text + "\n"
        files = " Test Files  1 failed (1)\n"
        tests = f"      Tests  {failed} failed | {passed} passed ({total})\n"
    else:
        head += f" ✓ test/i18nkit.test.ts ({total} tests) 7ms\n\n"
        files = " Test Files  1 passed (1)\n"
        tests = f"      Tests  {passed} passed ({total})\n"
    return (head + files + tests + f"   Start at  {at}\n"
            "   Duration  341ms (transform 52ms, setup 0ms, collect 47ms, tests 7ms, environment 0ms, prepare 66ms)\n")


@scenario("plural-rules", IK, "the agent offers lettered options with a recommendation; the person answers 'b' and "
          "nothing else",
          [exp("decision", "src/plural.ts:pluralCategory", "intl.pluralrules", ["hand-written", "make-plural"])])
def _plural(files):
    s = Session("heldout8-plural", "2025-04-01T10:02:00Z", files)
    s.user("pluralCategory is still the english-only stub. polish users get '5 pliki' instead of '5 plików'. fix it")
    s.read("src/plural.ts")
    s.say("""The stub returns `one` for 1 and `other` for everything else, so Polish never reaches `few`/`many`. Options:

**a) hand-written rules** — a small table of CLDR rules for the locales we ship (en, de, fr, pl, cs, ru, ar, ja). No dependency, but we maintain the arithmetic ourselves, and every new locale means reading the CLDR spec.

**b) `Intl.PluralRules`** — built into Node (full ICU since Node 13) and every browser we support. Zero code to maintain, always current CLDR data. Cost: constructing one is not free, so I'd cache one instance per locale.

**c) `make-plural`** — an npm package generated from CLDR. Exact and tree-shakeable, but it's a runtime dependency (~30 kB for all locales) and another thing to bump.

I'd go with **b**.""")
    s.user("b")
    s.edit("src/plural.ts",
           """export function pluralCategory(locale: string, n: number): PluralCategory {
  // TODO: real CLDR rules; English-style for now
  void locale;
  return n === 1 ? "one" : "other";
}
""",
           """const rulesByLocale = new Map<string, Intl.PluralRules>();

function rulesFor(locale: string): Intl.PluralRules {
  let rules = rulesByLocale.get(locale);
  if (rules === undefined) {
    rules = new Intl.PluralRules(locale);
    rulesByLocale.set(locale, rules);
  }
  return rules;
}

/** The CLDR plural category of `n` in `locale`, from the runtime's Intl.PluralRules (one instance per locale). */
export function pluralCategory(locale: string, n: number): PluralCategory {
  return rulesFor(locale).select(n) as PluralCategory;
}
""")
    s.edit("test/i18nkit.test.ts",
           """    expect(selectPlural("en", { one: "# file", other: "# files" }, 3)).toBe("3 files");
  });
""",
           """    expect(selectPlural("en", { one: "# file", other: "# files" }, 3)).toBe("3 files");
  });
  it("uses few/many in Polish", () => {
    const v = { one: "# plik", few: "# pliki", many: "# plików", other: "# pliku" };
    expect([1, 2, 5, 22, 25].map((n) => selectPlural("pl", v, n))).toEqual(["1 plik", "2 pliki", "5 plików", "22 pliki", "25 plików"]);
  });
""")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(8, "10:04:51"), description="Type-check and run tests")
    s.say("Done: `pluralCategory` now uses `Intl.PluralRules`, cached per locale. Added a Polish test "
          "(1 plik, 2 pliki, 5 plików, 22 pliki, 25 plików); all 8 tests pass and tsc is clean.")
    return [s]


@scenario("fallback-default-locale", IK, "the agent just acts and hard-codes 'en' at the end of the fallback chain; "
          "the person corrects it ('don't hard-code en … comes from the project config') with a reason",
          [exp("invariant", "src/fallback.ts:fallbackChain", "hard-code en")])
def _fallback(files):
    s = Session("heldout8-fallback", "2025-04-02T13:40:00Z", files)
    s.user("resolveMessage gives up when neither pt-BR nor pt has the key, so the UI shows the raw key. it should "
           "fall back to the default locale after the chain.")
    s.read("src/fallback.ts")
    s.edit("src/fallback.ts",
           """  for (let i = parts.length; i > 0; i--) {
    chain.push(parts.slice(0, i).join("-"));
  }
  return chain;
""",
           """  for (let i = parts.length; i > 0; i--) {
    chain.push(parts.slice(0, i).join("-"));
  }
  if (!chain.includes("en")) chain.push("en");
  return chain;
""")
    s.say("`fallbackChain` now ends with `en` unless it's already in the chain, so `pt-BR` → `pt` → `en`; "
          "`resolveMessage` picks that up without changes.")
    s.user("no — don't hard-code en. the default locale comes from the project config (defaultLocale), and a bunch "
           "of our customers ship only de and fr, there is no en catalog at all. pass it in.")
    s.edit("src/fallback.ts",
           """export function fallbackChain(locale: string): string[] {
  const parts = normalize(locale).split("-");""",
           """/** `locale`, then each shorter prefix of it, then the project's `defaultLocale` (from config, never assumed). */
export function fallbackChain(locale: string, defaultLocale: string): string[] {
  const parts = normalize(locale).split("-");""")
    s.edit("src/fallback.ts",
           """  if (!chain.includes("en")) chain.push("en");
  return chain;
""",
           """  const last = normalize(defaultLocale);
  if (!chain.includes(last)) chain.push(last);
  return chain;
""")
    s.edit("src/fallback.ts",
           """export function resolveMessage(catalogs: Catalogs, locale: string, key: string): { locale: string; message: Message } | undefined {
  for (const loc of fallbackChain(locale)) {""",
           """export function resolveMessage(
  catalogs: Catalogs,
  locale: string,
  key: string,
  defaultLocale: string,
): { locale: string; message: Message } | undefined {
  for (const loc of fallbackChain(locale, defaultLocale)) {""")
    s.bash("npx tsc --noEmit", "", description="Type-check")
    s.edit("test/i18nkit.test.ts",
           """  it("walks from region to language", () => {
    expect(fallbackChain("pt_br")).toEqual(["pt-BR", "pt"]);
  });
  it("resolves from the first catalog that has the key", () => {
    const catalogs = { pt: { hello: "Olá" }, "pt-BR": {} };
    expect(resolveMessage(catalogs, "pt-BR", "hello")).toEqual({ locale: "pt", message: "Olá" });
  });
""",
           """  it("walks from region to language, then the default locale", () => {
    expect(fallbackChain("pt_br", "de")).toEqual(["pt-BR", "pt", "de"]);
    expect(fallbackChain("de-AT", "de")).toEqual(["de-AT", "de"]);
  });
  it("resolves from the first catalog that has the key", () => {
    const catalogs = { pt: { hello: "Olá" }, "pt-BR": {}, fr: { bye: "Au revoir" } };
    expect(resolveMessage(catalogs, "pt-BR", "hello", "fr")).toEqual({ locale: "pt", message: "Olá" });
    expect(resolveMessage(catalogs, "pt-BR", "bye", "fr")).toEqual({ locale: "fr", message: "Au revoir" });
  });
""")
    s.bash("npx vitest run", vitest(7, "13:44:12"), description="Run tests")
    s.say("Reverted the hard-coded `en`. `fallbackChain(locale, defaultLocale)` and "
          "`resolveMessage(catalogs, locale, key, defaultLocale)` now take the default locale as a required "
          "argument, so callers pass `defaultLocale` from their config. This is a breaking change to both "
          "signatures — worth a line in the changelog. Tests updated (including a `de`-only case); 7 pass.")
    s.user("yep, I'll note it in the changelog")
    return [s]


@scenario("missing-placeholder", IK, "the agent asks an inline 'empty string or throw?' question; the person rejects "
          "both and says what instead, with reasons",
          [exp("decision", "src/interpolate.ts:interpolate", "as-is", ["empty string", "throw"])])
def _placeholder(files):
    s = Session("heldout8-placeholder", "2025-04-03T09:15:00Z", files)
    s.user("translators keep shipping strings with a typo in the variable name, like {nmae}, and nobody notices "
           "because interpolate just drops it. can we make that visible?")
    s.read("src/interpolate.ts")
    s.say("Right now an unknown placeholder becomes `\"\"` (`if (value === undefined) return \"\";`). Two ways to "
          "make it visible — should a missing value still render as an empty string but log a warning, or should "
          "`interpolate` throw so tests catch it?")
    s.user("neither really. keep the placeholder as-is in the output, so \"Hello {nmae}\" shows up literally on the "
           "page — QA sees it immediately and in prod it's ugly but harmless. throwing is way too harsh, a typo in "
           "the french file shouldn't take down checkout. and the empty string is exactly what hides it today.")
    s.edit("src/interpolate.ts",
           "    const value = values[name as string];\n    if (value === undefined) return \"\";\n",
           "    const value = values[name as string];\n"
           "    // Unknown placeholder: keep it as-is (visible in QA, harmless in prod) rather than dropping it or throwing.\n"
           "    if (value === undefined) return match;\n")
    s.edit("test/i18nkit.test.ts",
           """    expect(interpolate("Hi {name} {{x}}", { name: "Ana" })).toBe("Hi Ana {x}");
  });
""",
           """    expect(interpolate("Hi {name} {{x}}", { name: "Ana" })).toBe("Hi Ana {x}");
  });
  it("leaves unknown placeholders in the output", () => {
    expect(interpolate("Hello {nmae}", { name: "Ana" })).toBe("Hello {nmae}");
  });
""")
    s.bash("npx vitest run", vitest(8, "09:18:40"), description="Run tests")
    s.say("Unknown placeholders are now returned unchanged (the original match, including any inner spaces such as "
          "`{ nmae }`). Test added; 8 pass.")
    s.user("great thx")
    return [s]


@scenario("extract-set-false-key", IK, "pasted CLI output with a bogus missing key; the agent reproduces it with a "
          "failing test, finds the regex matches the t( at the end of set( and fixes it",
          [exp("gotcha", "src/extract.ts:extractKeys", "set(")])
def _extract(files):
    s = Session("heldout8-extract", "2025-04-04T15:30:00Z", files)
    s.user("""i18nkit check on the dashboard repo says we're missing a key "user" in every locale. we have no such key and no t("user") anywhere, I grepped.

```
$ npx i18nkit check src
de	user	src/session/store.ts:41
fr	user	src/session/store.ts:41
pl	user	src/session/store.ts:41
de	nav.home	src/layout/Nav.tsx:12
```

line 41 of store.ts is `cache.set("user", current);`""")
    s.read("src/extract.ts")
    s.edit("test/i18nkit.test.ts",
           """  it("skips commented lines", () => {""",
           """  it("does not mistake other calls ending in t( for t()", () => {
    const src = `cache.set("user", current);\\nconst x = list.sort('a');\\nconst y = t("real.key");`;
    expect(extractKeys(src).map((f) => f.key)).toEqual(["real.key"]);
  });
  it("skips commented lines", () => {""", text="Reproducing it with a test first.")
    s.bash("npx vitest run", vitest(7, "15:33:02", failed=1, fail_text="""   × extract > does not mistake other calls ending in t( for t() 4ms
     → expected [ 'user', 'a', 'real.key' ] to deeply equal [ 'real.key' ]

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/i18nkit.test.ts > extract > does not mistake other calls ending in t( for t()
AssertionError: expected [ 'user', 'a', 'real.key' ] to deeply equal [ 'real.key' ]

- Expected
+ Received

  [
+   "user",
+   "a",
    "real.key",
  ]

 ❯ test/i18nkit.test.ts:14:44
"""), fail=True, description="Run tests")
    s.say("Reproduced. The pattern is `t\\(\\s*([\"'])…` with nothing in front of the `t`, so it matches the "
          "last letter of any call whose name ends in t — `set(\"user\")`, `sort('a')`, `split(\",\")`, "
          "`emit(\"…\")`. `i18n.t(` has to keep working, so I'll require that the `t` is not preceded by an "
          "identifier character (a lookbehind), which still allows `.t(` and a bare `t(`.")
    s.edit("src/extract.ts",
           "const CALL = /t\\(\\s*([\"'])((?:\\\\.|(?!\\1).)+)\\1/g;\n",
           "// The lookbehind stops `set(\"user\")`, `sort('a')` etc. from matching on their final t; `i18n.t(` still does.\n"
           "const CALL = /(?<![\\w$])t\\(\\s*([\"'])((?:\\\\.|(?!\\1).)+)\\1/g;\n")
    s.bash("npx vitest run", vitest(8, "15:34:20"), description="Run tests")
    s.say("Fixed. The false key came from `cache.set(\"user\", …)`: the regex matched the `t(` at the end of "
          "`set(`. With the lookbehind only a standalone `t(` or a member call `.t(` counts. All 8 tests pass. "
          "`nav.home` for `de` in your output looks like a genuine missing key.")
    s.user("ha, set( — nice catch. yes nav.home is real, that one's on us")
    return [s]


@scenario("missing-report-grouped", IK, "a long message: holidays, an XLIFF request turned away, the real ask (group "
          "the report by locale, not a flat list) mid-paragraph, a 'do NOT write stub entries' limit, a CI aside",
          [exp("decision", "src/missing.ts:formatReport", "group it by locale", ["flat list"]),
           exp("boundary", "src/missing.ts", "stub entries")])
def _missing(files):
    s = Session("heldout8-missing", "2025-04-07T08:20:00Z", files)
    s.user("""Morning! A few things, sorry for the wall of text. First, I'm off from Thursday until the 22nd, so if anything from this needs a review while I'm away, ping Jonas, he knows the codebase. Second, the Crowdin people asked again whether we could export XLIFF — I told them not this quarter, so no need to look into that. What I actually need today: the missing-key report from `i18nkit check` is unreadable on the dashboard repo, it's ~300 lines across 12 locales, a flat list of tab-separated locale/key/location lines. Let's group it by locale — one header per locale with the count, keys sorted underneath, and the file:line after each key. I tried piping the flat list through sort and it's still a wall, so grouped please. Also, and this matters more than the formatting: the report should only report. Do NOT write stub entries into the catalogs for missing keys, not even behind a flag — the last tool we used did that and we shipped empty strings to production in Polish for two weeks. Oh and the node 18 job on the docs site is red again, ignore that, it's not this repo, I'll deal with it.""")
    s.read("src/missing.ts")
    s.read("src/cli.ts", offset=36, limit=10)
    s.say("Noted on XLIFF, the docs CI and Jonas. `check` only prints the report and never writes — I'll keep it "
          "that way and say so in the module. Grouping now.")
    s.edit("src/missing.ts",
           "// Which extracted keys are missing from which locale's catalog.\n",
           "// Which extracted keys are missing from which locale's catalog. Report only: nothing here writes to a\n"
           "// catalog — no stub entries for missing keys (empty strings once shipped to production in Polish).\n")
    s.edit("src/missing.ts",
           """export function formatReport(missing: Missing[]): string {
  if (missing.length === 0) return "No missing keys.";
  const lines = missing.map((m) => `${m.locale}\\t${m.key}\\t${m.usedAt[0].file}:${m.usedAt[0].line}`);
  return lines.join("\\n");
}
""",
           """/** Grouped by locale (sorted), a header with the count, then the keys (sorted) with their first use. */
export function formatReport(missing: Missing[]): string {
  if (missing.length === 0) return "No missing keys.";
  const byLocale = new Map<string, Missing[]>();
  for (const m of missing) {
    const list = byLocale.get(m.locale) ?? [];
    list.push(m);
    byLocale.set(m.locale, list);
  }
  const out: string[] = [];
  for (const locale of [...byLocale.keys()].sort()) {
    const items = byLocale.get(locale)!.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    out.push(`${locale} (${items.length} missing)`);
    for (const m of items) out.push(`  ${m.key}  ${m.usedAt[0].file}:${m.usedAt[0].line}`);
  }
  return out.join("\\n");
}
""")
    s.edit("test/i18nkit.test.ts",
           """    expect(formatReport(missing)).toContain("de\\ta");""",
           """    expect(formatReport(missing)).toBe("de (1 missing)\\n  a  x.ts:1");""")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(7, "08:26:10"), description="Type-check and run tests")
    s.say("""Done. `i18nkit check` now prints, e.g.:

```
de (2 missing)
  nav.home  src/layout/Nav.tsx:12
  orders.empty  src/orders/List.tsx:88
pl (1 missing)
  nav.home  src/layout/Nav.tsx:12
```

Locales and keys are sorted by code point, so the output is the same on every machine. The exit code is unchanged (1 if anything is missing). Enjoy the time off!""")
    s.user("perfect, thanks!")
    return [s]


@scenario("catalog-stable-order", IK, "a rule set in one session (every catalog written with keys sorted, for "
          "translators' diffs); days later the agent writes a catalog with JSON.stringify in a new CLI command and "
          "is told the rule again in other words",
          [exp("invariant", "src/catalog.ts:writeCatalog", "keys sorted")])
def _stable(files):
    s = Session("heldout8-catalog-1", "2025-04-08T11:00:00Z", files)
    s.user("every time someone runs `i18nkit extract`, the PR shows the whole en.json reordered and translators "
           "can't see what actually changed. writeCatalog has to be deterministic: keys sorted, 2-space indent, "
           "newline at the end. that goes for any catalog we write, always.")
    s.read("src/catalog.ts")
    s.edit("src/catalog.ts",
           """export function writeCatalog(path: string, catalog: Catalog): void {
  writeFileSync(path, JSON.stringify(catalog, null, 2));
}
""",
           """/** Writes a catalog deterministically — keys sorted (by code point), 2-space indent, trailing newline — so a
 * translator's diff only shows what changed. Every catalog file is written through here. */
export function writeCatalog(path: string, catalog: Catalog): void {
  const sorted: Catalog = {};
  for (const key of Object.keys(catalog).sort()) sorted[key] = catalog[key];
  writeFileSync(path, JSON.stringify(sorted, null, 2) + "\\n");
}
""")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(7, "11:03:45"), description="Type-check and run tests")
    s.say("`writeCatalog` now sorts the top-level keys with the default `sort()` (code-point order, so it doesn't "
          "depend on the machine's locale), indents with 2 spaces and ends with a newline. Variants inside a plural "
          "object keep their written order (`one` before `other` reads better than alphabetical). `extract` "
          "already goes through `writeCatalog`, so the next run will reorder en.json once and then stay stable.")
    s.user("good. the one-time reorder is fine, I'll do it in its own PR")

    t = Session("heldout8-catalog-2", "2025-04-14T14:25:00Z", s.files)
    t.user("add `i18nkit rename <old> <new>` — renames a key in every catalog under locales/. we're renaming ~40 "
           "keys for the new nav and doing it by hand in 12 files is miserable")
    t.read("src/cli.ts")
    t.edit("src/cli.ts",
           'import { readdirSync, statSync } from "node:fs";\n',
           'import { readdirSync, statSync, writeFileSync } from "node:fs";\n')
    t.edit("src/cli.ts",
           """    default:
      console.error("usage: i18nkit extract|check <paths...>");""",
           """    case "rename": {
      const [from, to] = args;
      if (!from || !to) {
        console.error("usage: i18nkit rename <old-key> <new-key>");
        return 2;
      }
      let changed = 0;
      for (const name of readdirSync(LOCALES_DIR)) {
        if (!name.endsWith(".json")) continue;
        const path = join(LOCALES_DIR, name);
        const catalog = readCatalog(path);
        if (!(from in catalog)) continue;
        catalog[to] = catalog[from];
        delete catalog[from];
        writeFileSync(path, JSON.stringify(catalog, null, 2) + "\\n");
        changed++;
      }
      console.log(`renamed ${from} -> ${to} in ${changed} catalog(s)`);
      return 0;
    }
    default:
      console.error("usage: i18nkit extract|check|rename <args...>");""")
    t.bash("npx tsc --noEmit", "", description="Type-check")
    t.say("Added `rename`: for each `locales/*.json` that has the old key, it moves the value to the new key and "
          "writes the file back. Catalogs without the key are left untouched.")
    t.user("that write bypasses writeCatalog, so the renamed key lands at the bottom of the file. every catalog file "
           "we touch has to come out in the same stable order, same reason as last week — translators review "
           "these diffs. use writeCatalog.")
    t.edit("src/cli.ts",
           "        writeFileSync(path, JSON.stringify(catalog, null, 2) + \"\\n\");\n",
           "        writeCatalog(path, catalog);\n")
    t.edit("src/cli.ts",
           'import { readdirSync, statSync, writeFileSync } from "node:fs";\n',
           'import { readdirSync, statSync } from "node:fs";\n')
    t.grep("writeFileSync", ["src/catalog.ts"], text="Checking nothing else writes catalogs directly.")
    t.bash("npx tsc --noEmit && npx vitest run", vitest(7, "14:31:02"), description="Type-check and run tests")
    t.say("`rename` now writes through `writeCatalog`, so the renamed key lands in sorted position. `writeFileSync` "
          "is only used inside `catalog.ts` now.")
    t.user("👍")
    return [s, t]


@scenario("review-extract-cli", IK, "'run the linter first' (a process instruction); a review full of should/must "
          "suggestions, none taken up", [])
def _review(files):
    s = Session("heldout8-review", "2025-04-09T16:10:00Z", files)
    s.user("run npm run lint first, then review src/extract.ts and src/cli.ts. anything you'd change?")
    s.bash("npm run lint", "\n> i18nkit@0.7.0 lint\n> eslint src test\n\n", description="Run ESLint")
    s.read("src/extract.ts")
    s.read("src/cli.ts")
    s.say("""Lint is clean. Review:

**extract.ts**
1. The regex only sees string literals. ``t(`checkout.${step}`)`` and `t(key)` are silently skipped — the extractor should at least warn about dynamic keys, or `check` will under-report.
2. It works line by line, so a call split over lines (`t(\\n  "long.key"\\n)`) is missed.
3. The `//` check only skips whole-line comments; `/* t("x") */` is still extracted. A real tokenizer (or the TypeScript compiler API) would fix 1–3 at once.

**cli.ts**
4. `sourceFiles` follows symlinks through `statSync`; a symlink loop would recurse forever. It must use `lstatSync` or keep a visited set.
5. `extract` assumes `locales/en.json` exists; on a fresh project `readCatalog` throws ENOENT with no hint.
6. The `import.meta.url === file://…` check fails on Windows paths and when run through an npm bin symlink — `fileURLToPath` + `realpathSync` is more robust.

None of these is urgent except maybe 4.""")
    s.user("ok, good list. not touching any of it today, I'll turn 4 and 5 into issues")
    return [s]


@scenario("icu-plan-parked", IK, "the person asks how big ICU MessageFormat would be; the agent lays out a plan and "
          "what it would do 'if we did it'; nobody adopts it", [])
def _icu(files):
    s = Session("heldout8-icu", "2025-04-10T10:45:00Z", files)
    s.user("how much work would it be to support ICU MessageFormat inline, like "
           "`{count, plural, one {# file} other {# files}}` and `{gender, select, ...}`? product keeps asking")
    s.read("src/interpolate.ts")
    s.read("src/plural.ts")
    s.say("""Moderate — roughly 2–3 days including tests. What it would take:

1. **Parser** — ICU syntax nests (`{a, plural, one {… {b, select, …} …}}`), so the current regex can't do it. If we did it, I'd write a small recursive-descent parser in a new `src/icu.ts` (≈200 lines) rather than pull in `@formatjs/icu-messageformat-parser`, which is larger than the whole library today.
2. **Formatter** — walk the AST: `plural` reuses `pluralCategory`, `select` is a lookup with `other` as the fallback, `#` is the number formatted for the locale.
3. **Extraction/check** — `check` would need to validate that each plural has an `other` branch and that placeholders match across locales.
4. **Compatibility** — today plurals are objects (`{"one": "...", "other": "..."}`); both forms would have to coexist, or we write a migration.

The riskiest part is 4, not the parser.""")
    s.user("hm, bigger than I thought, mostly because of the migration. let me talk to Priya about whether product "
           "actually needs select before we decide anything")
    s.say("Sounds good. If it helps that conversation, the object form already covers plurals; `select` "
          "(gender etc.) is the part it can't express.")
    return [s]


# -- build and check ------------------------------------------------------------------------------------------


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
    (tether's parser) of the final state, or a file, or a glob matching some file."""
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
            shutil.copytree(HERE / "repos" / sc["repo"], root)
            edits = 0
            for name in sc["sessions"]:
                path = materialize(name, root, Path(tmp) / "t", HERE / "sessions" / name)
                for _event, change in hook_events(path, root):
                    if change is not None:
                        change()
                        edits += 1
            said = " ".join(json.dumps(json.loads(ln)["message"]["content"], ensure_ascii=False).lower()
                            for n in sc["sessions"] for ln in (HERE / "sessions" / n).read_text().splitlines()
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
            # the session files in the builder and the replay end in the same state
            final = repo_files_at(root)
            files = repo_files(sc["repo"])
            fn = next(x["fn"] for x in SCENARIOS if x["name"] == sc["name"])
            fn(files)
            assert final == files, (sc["name"], [k for k in files if files[k] != final.get(k)])
        print(f"ok  {sc['name']}: {len(sc['sessions'])} session(s), {edits} edits, {len(sc['expected'])} expected")


def repo_files_at(base: Path) -> dict[str, str]:
    return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8") for p in sorted(base.rglob("*"))
            if p.is_file() and ".git" not in p.parts}


if __name__ == "__main__":
    build()
    if "--check" in sys.argv:
        check()
