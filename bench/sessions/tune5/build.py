"""Writes the tune5 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``geofence`` (Python, a GPS geofencing service) and
``formkit`` (TypeScript, a small form-validation library). Sessions are written with the
``Session`` builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py`` after
changing a scenario (outputs are committed). ``python3 build.py --check`` also replays every
scenario on a copy of its repository (every edit must apply) and checks, with tether's own
parser, that every expected anchor names a definition of the final state.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
TESTS = HERE.parents[2] / "tests"
sys.path.insert(0, str(TESTS / "fixtures" / "transcripts"))
from build import Session  # noqa: E402

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


# -- geofence (Python) -----------------------------------------------------------------------------------

GEO = "geofence"


@scenario("edge-counts-inside", GEO, "agent asks an inline two-option question, person answers with a reason; "
          "then the agent adds a test",
          [exp("decision", "geofence/geometry.py:point_in_polygon", "counts as inside", ["outside"])])
def _edge(files):
    s = Session("edge-counts-inside", "2026-11-30T09:12:00.000Z", files)
    s.user("customer ticket: truck sitting right on the depot fence line flips between enter/exit every few "
           "fixes. can you look at point_in_polygon")
    s.read("geofence/geometry.py")
    s.say("Ray casting as written is undefined for points exactly on an edge: `pt.lon < cross` is strict, so a "
          "point on a left edge counts as inside and one on a right edge as outside, and with GPS noise of a "
          "few cm the same truck lands on both sides.\n\nBefore I pin it down — should a point exactly on the "
          "edge count as inside or outside? Either is easy, I just want it to be one thing everywhere.")
    s.user("on the edge counts as inside. a truck parked on the fence line is at the depot as far as the "
           "customer is concerned")
    s.edit("geofence/geometry.py",
           "def point_in_polygon(pt: Point, poly: Polygon) -> bool:\n"
           "    \"\"\"Ray casting: count the edges a ray going east from ``pt`` crosses.\"\"\"\n",
           "def _on_segment(pt: Point, a: Point, b: Point, eps: float = 1e-12) -> bool:\n"
           "    cross = (b.lon - a.lon) * (pt.lat - a.lat) - (b.lat - a.lat) * (pt.lon - a.lon)\n"
           "    if abs(cross) > eps:\n"
           "        return False\n"
           "    return (min(a.lon, b.lon) - eps <= pt.lon <= max(a.lon, b.lon) + eps\n"
           "            and min(a.lat, b.lat) - eps <= pt.lat <= max(a.lat, b.lat) + eps)\n\n\n"
           "def point_in_polygon(pt: Point, poly: Polygon) -> bool:\n"
           "    \"\"\"Ray casting: count the edges a ray going east from ``pt`` crosses.\n\n"
           "    A point on the boundary is inside (a vehicle on the fence line is at the site).\"\"\"\n")
    s.edit("geofence/geometry.py",
           "    inside = False\n    ring = poly.ring\n    j = len(ring) - 1\n",
           "    ring = poly.ring\n"
           "    if any(_on_segment(pt, ring[i], ring[i - 1]) for i in range(len(ring))):\n"
           "        return True\n"
           "    inside = False\n    j = len(ring) - 1\n")
    s.edit("tests/test_geometry.py", "def test_haversine_one_degree_of_latitude():\n",
           "def test_boundary_is_inside():\n"
           "    assert point_in_polygon(Point(1, 0.5), SQUARE)\n"
           "    assert point_in_polygon(Point(0, 0.5), SQUARE)\n"
           "    assert point_in_polygon(Point(1, 1), SQUARE)\n\n\n"
           "def test_haversine_one_degree_of_latitude():\n")
    s.bash("python -m pytest -q tests/test_geometry.py", "...\n3 passed in 0.04s")
    s.say("Done. Edges and vertices now count as inside via a collinearity check before the ray cast; the "
          "bbox early-return is still inclusive so it doesn't get in the way. Added `test_boundary_is_inside` "
          "covering left edge, right edge and a corner.")
    return [s]


@scenario("dwell-time-debounce", GEO, "options as a table; a CI digression; 'dwell time, 30s, per fence' then "
          "'not per fence, one global setting'",
          [exp("decision", "geofence/events.py:Tracker.observe", "dwell time",
               ["consecutive fixes", "hysteresis", "per fence"])])
def _dwell(files):
    s = Session("dwell-time-debounce", "2026-12-01T13:40:00.000Z", files)
    s.user("we need debouncing on enter/exit. right now a device driving along the boundary of a fence "
           "spams the customer with 20 webhooks. what are the options")
    s.read("geofence/events.py")
    s.say("`Tracker.observe` emits an event on every change of the containing set, so any jitter across "
          "an edge is an event. Three common ways to debounce:\n\n"
          "| approach | how | trade-off |\n|---|---|---|\n"
          "| dwell time | state change only counts after the device stays on the new side for N seconds | "
          "events are N s late; needs timestamps we trust |\n"
          "| consecutive fixes | require K fixes in a row on the new side | depends on the device's report "
          "rate, which varies 1s–5min across your fleet |\n"
          "| hysteresis | shrink the fence by X m for enter, grow it by X m for exit | no delay, but needs "
          "buffered polygons and X in metres per fence |\n\n"
          "I'd lean dwell time, but it depends on how late the customers can tolerate an event.")
    s.user("hm let me check with ops. unrelated but why did CI take 14 minutes on my last PR")
    s.bash("gh run view --log | grep -E 'Installing|pytest' | head", "Installing dependencies ... 11m 52s\n"
           "pytest ... 0m 41s")
    s.say("Nearly all of it is the dependency install step — the cache key includes the run number, so it "
          "never hits. That's in `.github/workflows/ci.yml` which isn't in this checkout; the fix is to key "
          "the cache on `hashFiles('pyproject.toml')`.")
    s.user("ok I'll fix that in the infra repo. ops says a minute late is fine. go with dwell time, 30s, and "
           "make it configurable per fence")
    s.edit("geofence/events.py",
           "class Tracker:\n    def __init__(self, fences: FenceStore):\n        self.fences = fences\n"
           "        self._inside: dict[str, set[str]] = {}\n",
           "DEFAULT_DWELL_S = 30.0\n\n\n"
           "class Tracker:\n    def __init__(self, fences: FenceStore, dwell: dict[str, float] | None = None):\n"
           "        self.fences = fences\n        self.dwell = dwell or {}  # fence_id -> seconds\n"
           "        self._inside: dict[str, set[str]] = {}\n"
           "        self._pending: dict[tuple[str, str], tuple[str, float]] = {}  # (device, fence) -> (kind, since)\n")
    s.say("Added the per-fence dwell table and the pending state; now the `observe` part.")
    s.user("wait, actually not per fence. one global setting. customers are never going to touch it and "
           "support will hate debugging 40 different values")
    s.edit("geofence/events.py",
           "class Tracker:\n    def __init__(self, fences: FenceStore, dwell: dict[str, float] | None = None):\n"
           "        self.fences = fences\n        self.dwell = dwell or {}  # fence_id -> seconds\n",
           "class Tracker:\n    def __init__(self, fences: FenceStore, dwell_s: float = DEFAULT_DWELL_S):\n"
           "        self.fences = fences\n        self.dwell_s = dwell_s\n")
    s.edit("geofence/events.py",
           "        now = self.fences.containing(dev.customer_id, dev.last.point)\n"
           "        before = self._inside.get(dev.device_id, set())\n"
           "        events = [Event(\"enter\", dev.device_id, f, dev.last.at) for f in sorted(now - before)]\n"
           "        events += [Event(\"exit\", dev.device_id, f, dev.last.at) for f in sorted(before - now)]\n"
           "        self._inside[dev.device_id] = now\n        return events\n",
           "        at = dev.last.at\n"
           "        now = self.fences.containing(dev.customer_id, dev.last.point)\n"
           "        before = self._inside.setdefault(dev.device_id, set())\n"
           "        events = []\n"
           "        for fence_id in sorted(now | before | {f for d, f in self._pending if d == dev.device_id}):\n"
           "            key = (dev.device_id, fence_id)\n"
           "            want = \"enter\" if fence_id in now else \"exit\"\n"
           "            settled = (fence_id in before) == (want == \"enter\")\n"
           "            if settled:\n"
           "                self._pending.pop(key, None)\n"
           "                continue\n"
           "            kind, since = self._pending.setdefault(key, (want, at))\n"
           "            if kind != want:\n"
           "                self._pending[key] = (want, at)\n"
           "            elif at - since >= self.dwell_s:\n"
           "                del self._pending[key]\n"
           "                (before.add if want == \"enter\" else before.discard)(fence_id)\n"
           "                events.append(Event(want, dev.device_id, fence_id, since))\n"
           "        return events\n")
    s.bash("python -m pytest -q", "...\n3 passed in 0.05s")
    s.say("Switched to a single `dwell_s` (default 30 s) on the tracker. A change of side becomes pending "
          "and only fires once the device has stayed there for `dwell_s`; flipping back clears it. The event's "
          "`at` is when the device crossed, not when the dwell expired, so customers see the real time. "
          "Existing tests still pass; none of them exercised flapping yet.")
    s.user("sounds good")
    return [s]


@scenario("webhooks-no-retries", GEO, "agent adds retries on its own; person has them taken out ('no retries "
          "here') and says why; the timeout stays",
          [exp("boundary", "geofence/webhooks.py:WebhookSender.send", "no retries")])
def _noretry(files):
    s = Session("webhooks-no-retries", "2026-12-02T10:05:00.000Z", files)
    s.user("webhook sends fail silently, customers say they never got the exit event. log the status code at "
           "least, and the response body if it isn't 2xx")
    s.read("geofence/webhooks.py")
    s.say("Right — a non-2xx response raises `HTTPError` (a subclass of `OSError`) and we only log `e`. I'll "
          "log status and a truncated body, and since transient 5xx are the most common reason I'll also add "
          "3 retries with exponential backoff (0.5s, 1s, 2s).")
    s.edit("geofence/webhooks.py", "import json\nimport logging\nimport urllib.request\n",
           "import json\nimport logging\nimport time\nimport urllib.error\nimport urllib.request\n")
    s.edit("geofence/webhooks.py",
           "        try:\n            with urllib.request.urlopen(req, timeout=self.timeout) as resp:\n"
           "                return 200 <= resp.status < 300\n        except OSError as e:\n"
           "            log.warning(\"webhook to %s failed: %s\", url, e)\n            return False\n",
           "        for attempt in range(4):\n            try:\n"
           "                with urllib.request.urlopen(req, timeout=self.timeout) as resp:\n"
           "                    return 200 <= resp.status < 300\n"
           "            except urllib.error.HTTPError as e:\n"
           "                log.warning(\"webhook to %s: HTTP %s: %s\", url, e.code, e.read(500))\n"
           "                if e.code < 500:\n                    return False\n"
           "            except OSError as e:\n"
           "                log.warning(\"webhook to %s failed: %s\", url, e)\n"
           "            time.sleep(0.5 * 2 ** attempt)\n        return False\n")
    s.user("no retries here. take the loop and the backoff out. send() runs inline in the fix ingestion path, "
           "a customer endpoint that's down would stall every device behind it for 3.5s. redelivery is the "
           "queue team's thing next quarter. just the logging")
    s.edit("geofence/webhooks.py",
           "        for attempt in range(4):\n            try:\n"
           "                with urllib.request.urlopen(req, timeout=self.timeout) as resp:\n"
           "                    return 200 <= resp.status < 300\n"
           "            except urllib.error.HTTPError as e:\n"
           "                log.warning(\"webhook to %s: HTTP %s: %s\", url, e.code, e.read(500))\n"
           "                if e.code < 500:\n                    return False\n"
           "            except OSError as e:\n"
           "                log.warning(\"webhook to %s failed: %s\", url, e)\n"
           "            time.sleep(0.5 * 2 ** attempt)\n        return False\n",
           "        # one attempt only: this runs inline with fix ingestion; redelivery belongs to the queue\n"
           "        try:\n            with urllib.request.urlopen(req, timeout=self.timeout) as resp:\n"
           "                return 200 <= resp.status < 300\n"
           "        except urllib.error.HTTPError as e:\n"
           "            log.warning(\"webhook to %s: HTTP %s: %s\", url, e.code, e.read(500))\n"
           "            return False\n"
           "        except OSError as e:\n"
           "            log.warning(\"webhook to %s failed: %s\", url, e)\n            return False\n")
    s.edit("geofence/webhooks.py", "import json\nimport logging\nimport time\nimport urllib.error\n",
           "import json\nimport logging\nimport urllib.error\n")
    s.bash("python -m pytest -q", "...\n3 passed in 0.05s")
    s.say("Removed the retry loop and `time`; `send()` makes a single attempt again. Non-2xx responses now log "
          "the status code and the first 500 bytes of the body, network errors log as before. I left a one-line "
          "comment saying why there's no retry so nobody adds one back.")
    return [s]


@scenario("webhook-signing-rules", GEO, "rules as a markdown bullet list up front; one bullet is a process "
          "instruction; accepted with 'ship it'",
          [exp("invariant", "geofence/webhooks.py:sign", "hmac-sha256"),
           exp("invariant", "geofence/webhooks.py:build_payload", "raw coordinates")])
def _signing(files):
    s = Session("webhook-signing-rules", "2026-12-02T15:22:00.000Z", files)
    s.user("next: webhook signing. a couple of customers asked how they verify it's us. rules:\n\n"
           "- signature is HMAC-SHA256 over `<timestamp>.<body>` with the customer's secret, hex, in "
           "`X-Geofence-Signature`, timestamp in `X-Geofence-Timestamp`\n"
           "- never put raw coordinates in the payload. fence id + event type + time only, the legal "
           "review was very clear about that\n"
           "- secrets live next to the urls for now, we'll move them to vault later\n"
           "- run ruff before you say you're done pls")
    s.read("geofence/webhooks.py")
    s.say("Plan:\n\n1. `sign(secret, timestamp, body) -> str` — HMAC-SHA256 hex over `f\"{ts}.\"` + body bytes\n"
          "2. `WebhookSender` takes `{customer_id: (url, secret)}` and sets both headers\n"
          "3. `build_payload` stays as is — it already carries only type, device, fence, time — but I'll add a "
          "guard test so a future field like `lat` fails loudly\n\nGoing ahead.")
    s.edit("geofence/webhooks.py", "import json\nimport logging\nimport urllib.request\n",
           "import hashlib\nimport hmac\nimport json\nimport logging\nimport time\nimport urllib.request\n")
    s.edit("geofence/webhooks.py",
           "def build_payload(ev: Event) -> dict:\n",
           "def sign(secret: str, timestamp: int, body: bytes) -> str:\n"
           "    \"\"\"HMAC-SHA256 (hex) over ``<timestamp>.<body>`` with the customer's secret.\"\"\"\n"
           "    return hmac.new(secret.encode(), f\"{timestamp}.\".encode() + body, hashlib.sha256).hexdigest()\n\n\n"
           "def build_payload(ev: Event) -> dict:\n"
           "    # no coordinates, ever: fence, event type, device and time only (legal review)\n")
    s.edit("geofence/webhooks.py",
           "    def __init__(self, urls: dict[str, str], timeout: float = 5.0):\n"
           "        self.urls = urls  # customer_id -> url\n",
           "    def __init__(self, urls: dict[str, tuple[str, str]], timeout: float = 5.0):\n"
           "        self.urls = urls  # customer_id -> (url, secret)\n")
    s.edit("geofence/webhooks.py",
           "        url = self.urls.get(customer_id)\n        if url is None:\n            return False\n"
           "        body = json.dumps(build_payload(ev)).encode()\n"
           "        req = urllib.request.Request(url, data=body, headers={\"Content-Type\": \"application/json\"}, method=\"POST\")\n",
           "        target = self.urls.get(customer_id)\n        if target is None:\n            return False\n"
           "        url, secret = target\n"
           "        body = json.dumps(build_payload(ev)).encode()\n        ts = int(time.time())\n"
           "        headers = {\"Content-Type\": \"application/json\", \"X-Geofence-Timestamp\": str(ts),\n"
           "                   \"X-Geofence-Signature\": sign(secret, ts, body)}\n"
           "        req = urllib.request.Request(url, data=body, headers=headers, method=\"POST\")\n")
    s.write("tests/test_webhooks.py",
            "import hashlib\nimport hmac\n\nfrom geofence.events import Event\n"
            "from geofence.webhooks import build_payload, sign\n\n\n"
            "def test_signature_matches_what_customers_compute():\n"
            "    body = b'{\"type\": \"enter\"}'\n"
            "    expected = hmac.new(b\"s3cret\", b\"1700000000.\" + body, hashlib.sha256).hexdigest()\n"
            "    assert sign(\"s3cret\", 1700000000, body) == expected\n\n\n"
            "def test_payload_has_no_coordinates():\n"
            "    keys = set(build_payload(Event(\"exit\", \"d1\", \"f1\", 1.0)))\n"
            "    assert not keys & {\"lat\", \"lon\", \"latitude\", \"longitude\", \"point\"}\n")
    s.bash("ruff check geofence tests && python -m pytest -q", "All checks passed!\n.....\n5 passed in 0.06s")
    s.say("Done:\n- `sign()` + both headers on every request\n- `urls` now maps customer → `(url, secret)`\n"
          "- comment on `build_payload` and a test that fails if a coordinate key ever shows up\n\n"
          "ruff is clean, 5 tests pass. Want a short snippet for the customer docs on how to verify?")
    s.user("ship it. docs later")
    return [s]


@scenario("registry-per-customer", GEO, "agent proposes a plan and does it, accepted with a thumbs-up; then the "
          "agent explains a deliberate oddity (device clocks in the future)",
          [exp("decision", "geofence/devices.py:DeviceRegistry.register", "customer_id, device_id",
               ["device_id alone"]),
           exp("workaround", "geofence/devices.py:DeviceRegistry.update", "receive time")])
def _registry(files):
    s = Session("registry-per-customer", "2026-12-03T08:31:00.000Z", files)
    s.user("bug from onboarding: acme and northwind both have a tracker with id \"T-0001\" and registering "
           "the second one replaced the first. fix the registry")
    s.read("geofence/devices.py")
    s.say("The registry is a dict keyed by device_id alone, so ids are global — but they come from each "
          "customer's fleet software and only unique within one customer.\n\nI'll key it by "
          "`(customer_id, device_id)` instead, and make `get`/`update` take the customer too. Callers in "
          "`events.py` already have `dev.customer_id`, so the change stays small.")
    s.user("👍")
    s.edit("geofence/devices.py",
           "    def __init__(self):\n        self._devices: dict[str, Device] = {}\n\n"
           "    def register(self, device_id: str, customer_id: str, label: str = \"\") -> Device:\n"
           "        dev = Device(device_id, customer_id, label)\n        self._devices[device_id] = dev\n"
           "        return dev\n\n"
           "    def get(self, device_id: str) -> Device:\n        try:\n"
           "            return self._devices[device_id]\n        except KeyError:\n"
           "            raise UnknownDevice(device_id) from None\n\n"
           "    def update(self, device_id: str, point: Point, at: float) -> Device:\n"
           "        dev = self.get(device_id)\n        dev.last = Fix(point, at)\n        return dev\n",
           "    def __init__(self):\n"
           "        # device ids are only unique within one customer's fleet\n"
           "        self._devices: dict[tuple[str, str], Device] = {}\n\n"
           "    def register(self, device_id: str, customer_id: str, label: str = \"\") -> Device:\n"
           "        dev = Device(device_id, customer_id, label)\n"
           "        self._devices[(customer_id, device_id)] = dev\n        return dev\n\n"
           "    def get(self, customer_id: str, device_id: str) -> Device:\n        try:\n"
           "            return self._devices[(customer_id, device_id)]\n        except KeyError:\n"
           "            raise UnknownDevice(f\"{customer_id}/{device_id}\") from None\n\n"
           "    def update(self, customer_id: str, device_id: str, point: Point, at: float,\n"
           "               received: float | None = None) -> Device:\n"
           "        dev = self.get(customer_id, device_id)\n"
           "        if received is not None and at > received + MAX_CLOCK_AHEAD_S:\n"
           "            # some trackers boot with a clock years ahead until GPS lock; trust our receive time then\n"
           "            at = received\n"
           "        dev.last = Fix(point, at)\n        return dev\n")
    s.edit("geofence/devices.py", "from geofence.geometry import Point\n",
           "from geofence.geometry import Point\n\nMAX_CLOCK_AHEAD_S = 300\n")
    s.grep("registry\\.(get|update)\\(", [])
    s.bash("python -m pytest -q", "...\n3 passed in 0.05s")
    s.say("Registry is keyed by `(customer_id, device_id)` now; nothing else in the repo called `get`/`update` "
          "yet, so no callers to fix.\n\nOne thing that will look odd in the diff: `update()` takes an optional "
          "`received` and, when the device's own timestamp is more than 5 minutes ahead of it, uses our receive "
          "time instead. That's deliberate — I saw it in the ingestion logs last week: the cheap Teltonika-"
          "style trackers report 2038 dates until they get a GPS lock, and a future `at` makes the next "
          "correct fix look older than the one before it. Once the firmware is fixed fleet-wide the "
          "clamp can go. There's a comment on it.")
    s.user("ah yes the 2038 trackers. fine, keep it")
    return [s]


@scenario("stdlib-only", GEO, "a 'don't add a dependency' rule said while rejecting the agent's library pick, "
          "restated in a later session about other code",
          [exp("decision", "geofence/**/*.py", "stdlib only", ["shapely", "rdp"])])
def _stdlib(files):
    a = Session("stdlib-only-1", "2026-11-24T11:02:00.000Z", files)
    a.user("product wants \"device is within 200 m of the depot\" alerts. so I need distance from a point to a "
           "fence polygon (0 if inside)")
    a.read("geofence/distance.py")
    a.say("The robust way is `shapely` for the polygon distance plus `pyproj` to project to a local metric CRS "
          "first — then it's `poly.exterior.distance(pt)` and we get simplification, buffering etc. for free "
          "later. I'd add both to `pyproject.toml`. Alternatively I can write it by hand: project each edge "
          "to local metres around the point and take the min point-to-segment distance.")
    a.user("don't add a dependency for this. this code also ships in the edge agent on customers' raspberry "
           "pis and we keep it stdlib only, shapely wheels on armv7 were a nightmare last year. do it by hand")
    a.edit("geofence/distance.py", "from geofence.geometry import Point\n",
           "from geofence.geometry import Point, Polygon, point_in_polygon\n")
    a.edit("geofence/distance.py", "def nearest(pt: Point, candidates: list[Point]) -> tuple[int, float]:\n",
           "def _local_xy(origin: Point, p: Point) -> tuple[float, float]:\n"
           "    \"\"\"Equirectangular metres around ``origin``; fine at fence scale (a few km).\"\"\"\n"
           "    x = math.radians(p.lon - origin.lon) * math.cos(math.radians(origin.lat)) * EARTH_RADIUS_M\n"
           "    y = math.radians(p.lat - origin.lat) * EARTH_RADIUS_M\n    return x, y\n\n\n"
           "def distance_to_polygon(pt: Point, poly: Polygon) -> float:\n"
           "    \"\"\"Metres from ``pt`` to the nearest edge of ``poly``; 0 inside.\"\"\"\n"
           "    if point_in_polygon(pt, poly):\n        return 0.0\n    best = math.inf\n"
           "    ring = [_local_xy(pt, p) for p in poly.ring]\n"
           "    for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]):\n"
           "        dx, dy = bx - ax, by - ay\n"
           "        t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, -(ax * dx + ay * dy) / (dx * dx + dy * dy)))\n"
           "        best = min(best, math.hypot(ax + t * dx, ay + t * dy))\n    return best\n\n\n"
           "def nearest(pt: Point, candidates: list[Point]) -> tuple[int, float]:\n")
    a.bash("python -c 'from geofence.distance import distance_to_polygon as d; from geofence.geometry import "
           "Point, from_geojson as g; print(round(d(Point(1.001, 0.5), g([[0,0],[1,0],[1,1],[0,1]]))))'", "111")
    a.say("`distance_to_polygon` is in, stdlib only: it projects the ring to local metres around the point "
          "(equirectangular — error well under 1% at fence sizes) and takes the nearest segment. 0.001° east of "
          "the square's edge at the equator gives 111 m, as it should.")

    b = Session("stdlib-only-2", "2026-12-03T14:47:00.000Z", files)
    b.user("the dashboard started exporting fences traced from satellite images, some have 6000 vertices and "
           "point_in_polygon is now the top of the profile. can we simplify them on load")
    b.read("geofence/fences.py")
    b.say("Two ways:\n\n- **`shapely`**: `Polygon(...).simplify(tolerance, preserve_topology=True)` — one line\n"
          "- **`rdp`** package: Ramer–Douglas–Peucker on the coordinate list, small pure-python package\n\n"
          "Either goes in `load()` with a tolerance of ~2 m.")
    b.user("same rule as last time, no new deps, stdlib only. rdp is like 20 lines, write it")
    b.edit("geofence/fences.py", "from geofence.geometry import Point, Polygon, from_geojson, point_in_polygon\n",
           "from geofence.geometry import Point, Polygon, from_geojson, point_in_polygon, simplify\n\n"
           "SIMPLIFY_TOLERANCE_DEG = 2e-5  # ~2 m\n")
    b.edit("geofence/fences.py",
           "            poly = from_geojson(item[\"geometry\"][\"coordinates\"][0])\n",
           "            poly = simplify(from_geojson(item[\"geometry\"][\"coordinates\"][0]), SIMPLIFY_TOLERANCE_DEG)\n")
    b.edit("geofence/geometry.py", "def point_in_polygon(pt: Point, poly: Polygon) -> bool:\n",
           "def _rdp(pts: list[Point], tol: float) -> list[Point]:\n"
           "    if len(pts) < 3:\n        return pts\n    a, b = pts[0], pts[-1]\n"
           "    dx, dy = b.lon - a.lon, b.lat - a.lat\n    norm = (dx * dx + dy * dy) ** 0.5 or 1e-300\n"
           "    dists = [abs(dy * p.lon - dx * p.lat + b.lon * a.lat - b.lat * a.lon) / norm for p in pts[1:-1]]\n"
           "    i = max(range(len(dists)), key=dists.__getitem__) + 1\n"
           "    if dists[i - 1] <= tol:\n        return [a, b]\n"
           "    return _rdp(pts[:i + 1], tol)[:-1] + _rdp(pts[i:], tol)\n\n\n"
           "def simplify(poly: Polygon, tol: float) -> Polygon:\n"
           "    \"\"\"Ramer–Douglas–Peucker on the ring; keeps the original if it would drop below 3 points.\"\"\"\n"
           "    ring = list(poly.ring)\n    out = _rdp(ring + [ring[0]], tol)[:-1]\n"
           "    return Polygon(tuple(out)) if len(out) >= 3 else poly\n\n\n"
           "def point_in_polygon(pt: Point, poly: Polygon) -> bool:\n")
    b.bash("python -m pytest -q", "...\n3 passed in 0.05s")
    b.say("Added `simplify()` (Ramer–Douglas–Peucker, recursive, stdlib only) in `geometry.py` and applied it "
          "in `load()` at ~2 m tolerance. A 6000-vertex fence should drop to a few hundred points; the result "
          "never goes below a triangle.")
    return [a, b]


@scenario("antimeridian", GEO, "a pasted failing test → cause (bbox/ray cast across 180°) → fix with longitude "
          "shifting",
          [exp("gotcha", "geofence/geometry.py:point_in_polygon", "antimeridian")])
def _antimeridian(files):
    s = Session("antimeridian", "2026-11-27T22:10:00.000Z", files)
    s.user("new customer in Fiji, none of their events fire. I wrote a test, it fails:\n\n```\n"
           "$ python -m pytest -q tests/test_geometry.py -k fiji\nF\n"
           "=================================== FAILURES ===================================\n"
           "_______________________________ test_fiji_yard ________________________________\n\n"
           "    def test_fiji_yard():\n"
           "        yard = from_geojson([[179.9, -16.8], [-179.9, -16.8], [-179.9, -16.6], [179.9, -16.6]])\n"
           ">       assert point_in_polygon(Point(179.95, -16.7), yard)\n"
           "E       assert False\nE        +  where False = point_in_polygon(Point(lon=179.95, lat=-16.7), "
           "Polygon(ring=(...)))\n\ntests/test_geometry.py:19: AssertionError\n1 failed, 2 deselected in 0.04s\n```")
    s.read("geofence/geometry.py")
    s.say("The yard crosses the antimeridian. Its ring goes from 179.9 to -179.9, which is 0.2° wide in "
          "reality, but the bbox computes min -179.9 / max 179.9 and the ray cast sees edges that span 359.8° "
          "the other way round the globe — so the polygon is interpreted as everything *except* the yard.\n\n"
          "Fix: when consecutive ring points jump by more than 180° in longitude, the polygon crosses the "
          "antimeridian; shift negative longitudes (ring and point) by +360 before testing.")
    s.edit("tests/test_geometry.py", "def test_haversine_one_degree_of_latitude():\n",
           "def test_fiji_yard():\n"
           "    yard = from_geojson([[179.9, -16.8], [-179.9, -16.8], [-179.9, -16.6], [179.9, -16.6]])\n"
           "    assert point_in_polygon(Point(179.95, -16.7), yard)\n"
           "    assert point_in_polygon(Point(-179.95, -16.7), yard)\n"
           "    assert not point_in_polygon(Point(179.0, -16.7), yard)\n\n\n"
           "def test_haversine_one_degree_of_latitude():\n")
    s.edit("geofence/geometry.py",
           "def point_in_polygon(pt: Point, poly: Polygon) -> bool:\n"
           "    \"\"\"Ray casting: count the edges a ray going east from ``pt`` crosses.\"\"\"\n",
           "def _crosses_antimeridian(ring: tuple[Point, ...]) -> bool:\n"
           "    return any(abs(ring[i].lon - ring[i - 1].lon) > 180 for i in range(len(ring)))\n\n\n"
           "def _shift(p: Point) -> Point:\n    return Point(p.lon + 360, p.lat) if p.lon < 0 else p\n\n\n"
           "def point_in_polygon(pt: Point, poly: Polygon) -> bool:\n"
           "    \"\"\"Ray casting: count the edges a ray going east from ``pt`` crosses.\"\"\"\n"
           "    if _crosses_antimeridian(poly.ring):\n"
           "        # a ring across 180° would otherwise be read as the rest of the globe\n"
           "        poly, pt = Polygon(tuple(_shift(p) for p in poly.ring)), _shift(pt)\n")
    s.bash("python -m pytest -q tests/test_geometry.py", "...\n3 passed in 0.04s")
    s.say("Passes now, including the point just west of 180° (-179.95) and one outside the yard. Fences that "
          "don't cross 180° take the old path unchanged. Note `bbox()` on its own is still wrong for these "
          "polygons — nothing else uses it today.")
    s.user("nice. thx")
    return [s]


@scenario("explain-tracker", GEO, "newcomer questions; a colleague's rule reported second-hand; the agent's "
          "'should'/'must' in explanations and a hypothetical; nothing adopted, no edits",
          [])
def _explain(files):
    s = Session("explain-tracker", "2026-12-01T09:03:00.000Z", files)
    s.user("hi, first week here. how does an enter event actually get produced? like from the HTTP request "
           "with a fix to the webhook")
    s.read("geofence/events.py")
    s.read("geofence/fences.py", offset=20, limit=15)
    s.say("Roughly:\n\n1. ingestion (not in this repo) calls `DeviceRegistry.update(device_id, point, at)` — "
          "that just stores the latest `Fix`\n2. it then calls `Tracker.observe(dev)`, which asks "
          "`FenceStore.containing()` for the set of the customer's fences that contain the point\n3. the "
          "tracker diffs that set against what it remembered for the device: new ids → `enter`, missing ids → "
          "`exit`\n4. each event goes to `WebhookSender.send()`\n\nThe tracker's memory is in-process, so a "
          "restart means every device's first fix after it looks like an `enter` for every fence it's in. "
          "If we ever run more than one ingestion worker, the state must move somewhere shared (redis or the "
          "db) — otherwise two workers would disagree.")
    s.user("ok. Priya said on my old team's slack that you should always store coordinates as integer "
           "microdegrees, never floats. is that a thing here?")
    s.say("It's a real practice (fixed point avoids float rounding and halves storage), but nothing here does "
          "it — `Point` holds floats and that's fine for what we compute: a double has ~15 significant digits, "
          "so at 180° you still have sub-millimetre resolution. Where it would matter is if you compared "
          "points for equality after round-tripping through JSON or a DB; then you'd want either integers or "
          "a tolerance. We don't do that today.")
    s.user("makes sense. not touching anything, just trying to understand. where are the tests for events?")
    s.bash("ls tests", "test_geometry.py")
    s.say("There aren't any yet — only `tests/test_geometry.py`. `Tracker` is easy to test without any I/O if "
          "you want a first PR: build a `FenceStore` by hand, feed a `Device` with successive fixes and assert "
          "the events.")
    s.user("cool, maybe next week")
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
    (HERE / "expected.json").write_text(json.dumps({"set": "tune5", "scenarios": out}, indent=2,
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
