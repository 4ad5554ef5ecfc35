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
    s.bash("python -m pytest -q", "..\n2 passed in 0.05s")
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
    s.bash("python -m pytest -q", "..\n2 passed in 0.05s")
    s.say("Removed the retry loop and `time`; `send()` makes a single attempt again. Non-2xx responses now log "
          "the status code and the first 500 bytes of the body, network errors log as before. I left a one-line "
          "comment saying why there's no retry so nobody adds one back.")
    return [s]


@scenario("webhook-signing-rules", GEO, "rules as a markdown bullet list up front (one a 'for now' limit, one a "
          "process instruction); accepted with 'ship it'",
          [exp("invariant", "geofence/webhooks.py:sign", "hmac-sha256"),
           exp("invariant", "geofence/webhooks.py:build_payload", "raw coordinates"),
           exp("boundary", "geofence/webhooks.py:WebhookSender.__init__", "vault")])
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
    s.bash("ruff check geofence tests && python -m pytest -q", "All checks passed!\n....\n4 passed in 0.06s")
    s.say("Done:\n- `sign()` + both headers on every request\n- `urls` now maps customer → `(url, secret)`\n"
          "- comment on `build_payload` and a test that fails if a coordinate key ever shows up\n\n"
          "ruff is clean, 4 tests pass. Want a short snippet for the customer docs on how to verify?")
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
    s.bash("python -m pytest -q", "..\n2 passed in 0.05s")
    s.say("Registry is keyed by `(customer_id, device_id)` now; nothing else in the repo called `get`/`update` "
          "yet, so no callers to fix.\n\nOne thing that will look odd in the diff: `update()` takes an optional "
          "`received` and, when the device's own timestamp is more than 5 minutes ahead of it, uses our receive "
          "time instead. That's deliberate — cheap trackers commonly "
          "report dates years ahead (2038 is typical) until they get a GPS lock, and a future `at` makes the next "
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
    b.bash("python -m pytest -q", "..\n2 passed in 0.05s")
    b.say("Added `simplify()` (Ramer–Douglas–Peucker, recursive, stdlib only) in `geometry.py` and applied it "
          "in `load()` at ~2 m tolerance. A 6000-vertex fence should drop to a few hundred points; the result "
          "never goes below a triangle.")
    return [a, b]


@scenario("antimeridian", GEO, "a pasted failing test → cause (bbox/ray cast across 180°) → fix with longitude "
          "shifting",
          [exp("gotcha", "geofence/geometry.py:point_in_polygon", "antimeridian")])
def _antimeridian(files):
    s = Session("antimeridian", "2026-11-27T22:10:00.000Z", files)
    s.user("new customer in Fiji, none of their events fire. wrote a quick test in a scratch file, it fails:\n\n```\n"
           "$ python -m pytest -q scratch_test.py\nF\n"
           "=================================== FAILURES ===================================\n"
           "_______________________________ test_fiji_yard ________________________________\n\n"
           "    def test_fiji_yard():\n"
           "        yard = from_geojson([[179.9, -16.8], [-179.9, -16.8], [-179.9, -16.6], [179.9, -16.6]])\n"
           ">       assert point_in_polygon(Point(179.95, -16.7), yard)\n"
           "E       assert False\nE        +  where False = point_in_polygon(Point(lon=179.95, lat=-16.7), "
           "Polygon(ring=(...)))\n\nscratch_test.py:7: AssertionError\n1 failed in 0.04s\n```")
    s.read("geofence/geometry.py")
    s.say("The yard crosses the antimeridian. Its ring goes from 179.9 to -179.9, which is 0.2° wide in "
          "reality, but the bbox computes min -179.9 / max 179.9 and the ray cast sees edges that span 359.8° "
          "the other way round the globe — so the polygon is interpreted as everything *except* the yard.\n\n"
          "I'll add your test to `tests/test_geometry.py`. Fix: when consecutive ring points jump by more than 180° in longitude, the polygon crosses the "
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


@scenario("bad-export-and-circles", GEO, "debugging a load error that turns out to be the user's data; then a "
          "'how would you add circles' question answered with a plan nobody adopts; no edits",
          [])
def _circles(files):
    s = Session("bad-export-and-circles", "2026-11-30T16:40:00.000Z", files)
    s.user("loading the export from staging blows up:\n\n```\nTraceback (most recent call last):\n"
           "  File \"/srv/geofence/bin/reload.py\", line 14, in <module>\n    store = load(Path(sys.argv[1]))\n"
           "  File \"/srv/geofence/geofence/fences.py\", line 40, in load\n"
           "    raise ValueError(f\"{path}: fence #{i} ({item.get('id', '?')}): {e}\") from e\n"
           "ValueError: staging-fences.json: fence #3 (yard-7): a polygon needs at least 3 points, got 2\n```\n\n"
           "is the loader wrong?")
    s.read("geofence/fences.py", offset=33)
    s.bash("python -c \"import json; f=json.load(open('staging-fences.json'))['fences'][3]; "
           "print(f['geometry']['type'], f['geometry']['coordinates'])\"",
           "Polygon [[[178.41, -18.12], [178.43, -18.12], [178.41, -18.12]]]")
    s.say("The loader is doing what it should: `yard-7` in that file really is a degenerate ring — two "
          "distinct points plus the closing point, i.e. a line, not an area. Probably someone double-clicked "
          "while drawing and the dashboard saved it. Deleting or redrawing that fence in staging fixes the "
          "reload; the error message already names the file, the index and the id.")
    s.user("ha ok, it's the test fence I drew on friday. deleted it, loads fine now.\n\nunrelated, for "
           "planning: how much work would circle fences be? some customers want \"within 500 m of this "
           "point\" without drawing anything")
    s.say("Moderate, maybe two days with tests. Roughly what I'd do:\n\n- a `Circle(center, radius_m)` next "
          "to `Polygon`, and `Fence.shape` instead of `Fence.polygon`\n- `contains(pt)` = "
          "`haversine(center, pt) <= radius_m` — that already exists in `distance.py`\n- the loader would "
          "need a GeoJSON extension (GeoJSON has no circles); the usual trick is a `Point` geometry with a "
          "`radius` property\n- the dashboard must draw them, which is the bigger part\n\nIf it were me I'd "
          "also approximate circles as 64-gon polygons on export so older consumers keep working — but that's "
          "a product question.")
    s.user("ok, good enough for the estimate. thanks")
    return [s]


# -- formkit (TypeScript) --------------------------------------------------------------------------------------

FK = "formkit"


@scenario("async-abort", FK, "agent's two options as a question, 'yes, B'; then a failing test the agent pastes "
          "and fixes (the aborted run's AbortError surfacing as an error)",
          [exp("decision", "src/validator.ts:FormValidator.validateField", "AbortSignal", ["sequence number"]),
           exp("gotcha", "src/validator.ts:FormValidator.validateField", "AbortError")])
def _abort(files):
    s = Session("async-abort", "2026-11-26T16:18:00.000Z", files)
    s.user("username field: the availability check is async and when you type fast an older slower response "
           "lands after a newer one, so it says \"taken\" for a name that's free. fix plz")
    s.read("src/validator.ts")
    s.say("Yes — `validateField` awaits every run to completion and the last one to *finish* writes "
          "`state[name].errors`, not the last one to *start*.\n\nTwo ways to fix it:\n\n"
          "**A.** give each run a sequence number per field and ignore results from runs that aren't the "
          "latest. Validators stay `(value) => Promise`, nothing else changes.\n\n"
          "**B.** pass an `AbortSignal` to async validators and abort the previous run when a new one starts. "
          "Validators can hand the signal to `fetch`, so the stale request is actually cancelled — but it "
          "changes the validator signature.\n\nA or B?")
    s.user("yes, B. we're pre-1.0, signature change is fine, and not hammering the api matters more")
    s.edit("src/validator.ts",
           "export type AsyncValidator = (value: Value) => Promise<string | null>;\n",
           "export type AsyncValidator = (value: Value, signal: AbortSignal) => Promise<string | null>;\n")
    s.edit("src/validator.ts",
           "  readonly state: Record<string, FieldState> = {};\n",
           "  readonly state: Record<string, FieldState> = {};\n"
           "  private running: Record<string, AbortController> = {};\n")
    s.edit("src/validator.ts",
           "    if (errors.length === 0 && field.async?.length) {\n"
           "      this.state[name].pending = true;\n"
           "      const results = await Promise.all(field.async.map((v) => v(value)));\n"
           "      for (const msg of results) if (msg) errors.push(msg);\n"
           "      this.state[name].pending = false;\n    }\n",
           "    this.running[name]?.abort();\n"
           "    if (errors.length === 0 && field.async?.length) {\n"
           "      const ctrl = new AbortController();\n      this.running[name] = ctrl;\n"
           "      this.state[name].pending = true;\n"
           "      const results = await Promise.all(field.async.map((v) => v(value, ctrl.signal)));\n"
           "      for (const msg of results) if (msg) errors.push(msg);\n"
           "      this.state[name].pending = false;\n    }\n")
    s.write("test/validator.test.ts",
            "import { describe, expect, it } from \"vitest\";\nimport { required } from \"../src/rules.js\";\n"
            "import { FormValidator } from \"../src/validator.js\";\n\n"
            "const slowTaken = (value: unknown, signal: AbortSignal) =>\n"
            "  new Promise<string | null>((resolve, reject) => {\n"
            "    const t = setTimeout(() => resolve(value === \"bob\" ? \"taken\" : null), value === \"bo\" ? 50 : 5);\n"
            "    signal.addEventListener(\"abort\", () => { clearTimeout(t); reject(new DOMException(\"aborted\", \"AbortError\")); });\n"
            "  });\n\n"
            "describe(\"async validators\", () => {\n"
            "  it(\"a newer run wins over an older slower one\", async () => {\n"
            "    const v = new FormValidator({ user: { rules: [required()], async: [slowTaken] } });\n"
            "    const first = v.validateField(\"user\", \"bo\");\n"
            "    const second = v.validateField(\"user\", \"bob\");\n"
            "    await Promise.allSettled([first, second]);\n"
            "    expect(v.state.user.errors).toEqual([\"taken\"]);\n"
            "    await expect(first).resolves.toEqual([\"taken\"]);\n  });\n});\n")
    s.bash("npx vitest run test/validator.test.ts",
           " ❯ test/validator.test.ts (1 test | 1 failed) 61ms\n"
           "   × async validators > a newer run wins over an older slower one\n"
           "     → promise rejected \"AbortError: aborted\" instead of resolving\n\n"
           "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n"
           " FAIL  test/validator.test.ts > async validators > a newer run wins over an older slower one\n"
           "AssertionError: promise rejected \"AbortError: aborted\" instead of resolving\n"
           " ❯ test/validator.test.ts:18:5\n\n"
           " Test Files  1 failed (1)\n      Tests  1 failed (1)", fail=True)
    s.say("The abort works, but the aborted run's validator rejects with `AbortError` and that rejection "
          "propagates out of `validateField` — in the DOM binding it would end up as an unhandled rejection "
          "on every fast keystroke. An aborted run has nothing to report: it should resolve with whatever the "
          "newer run settles on and leave `state` alone. Catching `AbortError` when our own signal is aborted:")
    s.edit("src/validator.ts",
           "      const results = await Promise.all(field.async.map((v) => v(value, ctrl.signal)));\n"
           "      for (const msg of results) if (msg) errors.push(msg);\n"
           "      this.state[name].pending = false;\n    }\n",
           "      let results: (string | null)[];\n      try {\n"
           "        results = await Promise.all(field.async.map((v) => v(value, ctrl.signal)));\n"
           "      } catch (e) {\n"
           "        // a superseded run: its AbortError is not a validation failure, the newer run decides\n"
           "        if (ctrl.signal.aborted && (e as Error).name === \"AbortError\") return this.settled(name);\n"
           "        throw e;\n      }\n"
           "      if (ctrl.signal.aborted) return this.settled(name);\n"
           "      for (const msg of results) if (msg) errors.push(msg);\n"
           "      this.state[name].pending = false;\n    }\n")
    s.edit("src/validator.ts",
           "  async validateAll(values: Record<string, Value>): Promise<boolean> {\n",
           "  private async settled(name: string): Promise<string[]> {\n"
           "    while (this.state[name].pending) await new Promise((r) => setTimeout(r, 0));\n"
           "    return this.state[name].errors;\n  }\n\n"
           "  async validateAll(values: Record<string, Value>): Promise<boolean> {\n")
    s.bash("npx vitest run", " ✓ test/rules.test.ts (3 tests) 4ms\n ✓ test/validator.test.ts (1 test) 58ms\n\n"
           " Test Files  2 passed (2)\n      Tests  4 passed (4)")
    s.say("Green. Summary:\n- `AsyncValidator` is now `(value, signal) => Promise<string | null>` (breaking, "
          "worth a line in the changelog)\n- starting a run aborts the field's previous one\n- a superseded "
          "run swallows its own `AbortError` and resolves with the newer run's errors; any other error still "
          "throws")
    return [s]


@scenario("i18n-rules", FK, "three rules as a markdown bullet list in one message: a fallback invariant, a "
          "scope limit (no plurals), a choice of where the locale comes from",
          [exp("invariant", "src/messages.ts:format", "falls back to english"),
           exp("boundary", "src/messages.ts:format", "no plural"),
           exp("decision", "src/dom.ts:bindForm", "lang attribute", ["navigator.language"])])
def _i18n(files):
    s = Session("i18n-rules", "2026-11-28T10:44:00.000Z", files)
    s.user("we're getting a german customer. before anyone adds catalogs, how i want messages to work:\n\n"
           "* a missing translation falls back to english. never show the raw code (\"minLength\") to a user\n"
           "* placeholders are `{name}` only, no plural logic in v1 — leave plurals out, the german strings "
           "are written to avoid them\n"
           "* the locale comes from the form's lang attribute (closest `[lang]` ancestor), not from "
           "navigator.language — the site's language switcher sets lang, the browser language is often wrong\n\n"
           "then add de for the built-in rules")
    s.read("src/messages.ts")
    s.read("src/dom.ts", offset=27, limit=6)
    s.say("Today `format` does `catalogs[locale]?.[code] ?? code`, so a missing German string shows "
          "`minLength` — exactly the thing to avoid. Changes:\n\n1. `format`: locale catalog → `en` → a "
          "generic English message; the code never reaches the UI\n2. `bindForm`: default locale = "
          "`form.closest('[lang]')?.lang`, then `en`; an explicit `opts.locale` still wins\n"
          "3. `de` catalog with the five built-in codes")
    s.edit("src/messages.ts",
           "  const template = catalogs[locale]?.[code] ?? code;\n",
           "  // never the bare code: the locale, then English, then a generic English sentence\n"
           "  const template = catalogs[locale]?.[code] ?? en[code] ?? \"This value is not valid.\";\n")
    s.edit("src/messages.ts", "const catalogs: Record<string, Catalog> = { en };\n",
           "const de: Catalog = {\n  required: \"Dieses Feld ist erforderlich.\",\n"
           "  minLength: \"Mindestens {min} Zeichen.\",\n  maxLength: \"Höchstens {max} Zeichen.\",\n"
           "  pattern: \"Das sieht nicht richtig aus.\",\n"
           "  email: \"Geben Sie eine E-Mail-Adresse wie name@example.com ein.\",\n};\n\n"
           "const catalogs: Record<string, Catalog> = { en, de };\n")
    s.edit("src/dom.ts",
           "  const validator = new FormValidator(schema, opts.locale ?? \"en\");\n",
           "  // the page's language switcher sets lang; navigator.language is often not what the user chose\n"
           "  const lang = form.closest<HTMLElement>(\"[lang]\")?.lang.split(\"-\")[0];\n"
           "  const validator = new FormValidator(schema, opts.locale ?? (lang || \"en\"));\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", " ✓ test/rules.test.ts (3 tests) 4ms\n\n"
           " Test Files  1 passed (1)\n      Tests  3 passed (3)")
    s.say("Done — tsc clean, tests pass. `de-AT`/`de-CH` map to `de` via the split. I didn't touch "
          "placeholder syntax: `{min}` stays the only form, no `{count, plural, …}`.")
    s.user("sounds good")
    return [s]


@scenario("debounce-trailing", FK, "agent adds a leading-edge call on its own; the person reverts it "
          "('trailing only') with a reason",
          [exp("decision", "src/debounce.ts:debounce", "trailing only", ["leading"])])
def _debounce(files):
    s = Session("debounce-trailing", "2026-11-25T14:02:00.000Z", files)
    s.user("validation feels laggy on the signup form, you type and nothing happens for a quarter second. "
           "can you make it feel snappier")
    s.read("src/debounce.ts")
    s.say("The lag is the 250 ms trailing debounce in `bindForm`. I'll give `debounce` a `leading` option so "
          "the first keystroke validates immediately and the rest are debounced as before, and turn it on "
          "in `bindForm`.")
    s.edit("src/debounce.ts",
           "export function debounce<A extends unknown[]>(fn: (...args: A) => void, wait: number): Debounced<A> {\n"
           "  let timer: ReturnType<typeof setTimeout> | undefined;\n"
           "  const run = (...args: A) => {\n    if (timer !== undefined) clearTimeout(timer);\n",
           "export function debounce<A extends unknown[]>(\n  fn: (...args: A) => void,\n  wait: number,\n"
           "  opts: { leading?: boolean } = {},\n): Debounced<A> {\n"
           "  let timer: ReturnType<typeof setTimeout> | undefined;\n"
           "  const run = (...args: A) => {\n    if (opts.leading && timer === undefined) fn(...args);\n"
           "    if (timer !== undefined) clearTimeout(timer);\n")
    s.edit("src/dom.ts", "opts.wait ?? 250);\n", "opts.wait ?? 250, { leading: true });\n")
    s.say("Done — first keystroke validates right away.")
    s.user("no, trailing only. validating on the first keystroke shows \"Use at least 3 characters\" after "
           "you type one letter, that's exactly what the debounce is there to avoid. put it back and just "
           "drop the wait to 150")
    s.edit("src/debounce.ts",
           "export function debounce<A extends unknown[]>(\n  fn: (...args: A) => void,\n  wait: number,\n"
           "  opts: { leading?: boolean } = {},\n): Debounced<A> {\n"
           "  let timer: ReturnType<typeof setTimeout> | undefined;\n"
           "  const run = (...args: A) => {\n    if (opts.leading && timer === undefined) fn(...args);\n"
           "    if (timer !== undefined) clearTimeout(timer);\n",
           "// trailing edge only: a leading call would flag half-typed values (\"too short\" after one letter)\n"
           "export function debounce<A extends unknown[]>(fn: (...args: A) => void, wait: number): Debounced<A> {\n"
           "  let timer: ReturnType<typeof setTimeout> | undefined;\n"
           "  const run = (...args: A) => {\n    if (timer !== undefined) clearTimeout(timer);\n")
    s.edit("src/dom.ts", "opts.wait ?? 250, { leading: true });\n", "opts.wait ?? 150);\n")
    s.bash("npx tsc --noEmit -p .", "")
    s.say("Reverted: `debounce` is trailing-only again (with a comment saying why), and the default wait in "
          "`bindForm` is 150 ms.")
    return [s]


@scenario("blur-first", FK, "a decision in the middle of a long message about a release, bundle size and CI; "
          "the agent implements it and does the rest",
          [exp("decision", "src/dom.ts:bindForm", "on blur first", ["every keystroke"])])
def _blur(files):
    s = Session("blur-first", "2026-12-02T09:15:00.000Z", files)
    s.user("morning. bunch of things for 0.4:\n\nthe bundle is 6.1kb min+gz which is fine but I'd like to know "
           "what's in it, can you run a quick esbuild --analyze at some point. also CI is still on node 18, "
           "we can drop that, 20 and 22 only.\n\nre the thing we talked about yesterday with the design folks "
           "— they want errors to show up on blur first, and only after a field has shown an error do we "
           "validate it on every keystroke (so you see it go green as you fix it). not on every keystroke "
           "from the start, people hated the red while typing their email. so that's the behaviour.\n\n"
           "and the changelog needs the AbortSignal thing from last week. I'll write that part myself, "
           "just do the blur thing and the analyze")
    s.read("src/dom.ts")
    s.edit("src/dom.ts",
           "    const check = debounce(async () => showError(input, await validator.validateField(name, input.value)), opts.wait ?? 250);\n"
           "    input.addEventListener(\"input\", () => check());\n",
           "    let shown = false; // after the first blur that showed an error, validate as they type\n"
           "    const run = async () => {\n"
           "      const errors = await validator.validateField(name, input.value);\n"
           "      if (errors.length) shown = true;\n      showError(input, errors);\n    };\n"
           "    const check = debounce(run, opts.wait ?? 250);\n"
           "    input.addEventListener(\"blur\", () => {\n      check.cancel();\n      void run();\n    });\n"
           "    input.addEventListener(\"input\", () => {\n      if (shown) check();\n    });\n")
    s.bash("npx esbuild src/index.ts --bundle --minify --format=esm --analyze --outfile=/tmp/fk.js",
           "\n  /tmp/fk.js  5.9kb\n\n  /tmp/fk.js                 5.9kb  100.0%\n"
           "   ├ src/validator.ts         1.9kb   32.4%\n   ├ src/dom.ts               1.4kb   23.9%\n"
           "   ├ src/rules.ts             1.2kb   20.6%\n   ├ src/messages.ts          0.9kb   15.7%\n"
           "   └ src/debounce.ts          0.2kb    3.8%\n")
    s.say("Blur-first is in `bindForm`:\n- `blur` validates immediately (and cancels a pending debounced run)\n"
          "- `input` validates (debounced) only once that field has shown an error, so it turns green as they "
          "fix it\n\nBundle breakdown: validator 32%, dom 24%, rules 21%, messages 16%, debounce 4% — nothing "
          "surprising, no stray dependency.\n\nThe node 18 removal is in `.github/workflows/ci.yml`, which "
          "isn't in this checkout — want me to draft the matrix change for you to paste?")
    s.user("nah I'll do it, thx")
    return [s]


@scenario("text-not-html", FK, "an invariant set after an XSS report, restated as a correction in a later "
          "session when the agent reaches for innerHTML again",
          [exp("invariant", "src/dom.ts", "innerHTML")])
def _text(files):
    a = Session("text-not-html-1", "2026-11-20T17:30:00.000Z", files)
    a.user("security report from a customer: their async validator returns `${value} is already registered` "
           "and if you type <img src=x onerror=alert(1)> in the field it runs. showError?")
    a.read("src/dom.ts", offset=20, limit=6)
    a.say("Yes: `showError` joins the messages with `<br>` and assigns them to `innerHTML`, so anything a "
          "message interpolates from the user's input is parsed as HTML. I'll build one `<div>` per message "
          "and set `textContent`.")
    a.user("yes. and make that the rule for the dom layer: error text goes in via textContent, never "
           "innerHTML. messages interpolate whatever the user typed, treat them as hostile")
    a.edit("src/dom.ts",
           "  slot.innerHTML = errors.join(\"<br>\");\n",
           "  // textContent only, never innerHTML: messages interpolate what the user typed\n"
           "  slot.replaceChildren(...errors.map((msg) => {\n    const line = document.createElement(\"div\");\n"
           "    line.textContent = msg;\n    return line;\n  }));\n")
    a.bash("npx tsc --noEmit -p .", "")
    a.say("Fixed; each message is its own `div` with `textContent`, and there's a comment stating the rule "
          "on `showError`.")

    b = Session("text-not-html-2", "2026-12-03T11:08:00.000Z", files)
    b.user("add an error summary at the top of the form on submit (list of all errors, each links to its "
           "field). a11y audit wants it")
    b.read("src/dom.ts")
    b.edit("src/dom.ts",
           "export function bindForm(",
           "export function renderSummary(form: HTMLFormElement, errors: Record<string, string[]>): void {\n"
           "  let box = form.querySelector<HTMLElement>(\".fk-summary\");\n"
           "  if (!box) {\n    box = document.createElement(\"div\");\n    box.className = \"fk-summary\";\n"
           "    box.setAttribute(\"role\", \"alert\");\n    form.prepend(box);\n  }\n"
           "  const items = Object.entries(errors).flatMap(([name, msgs]) =>\n"
           "    msgs.map((m) => `<li><a href=\"#${name}\">${m}</a></li>`));\n"
           "  box.innerHTML = items.length ? `<ul>${items.join(\"\")}</ul>` : \"\";\n}\n\n"
           "export function bindForm(")
    b.user("no — no innerHTML, same rule as the field errors. build the li and a elements and set textContent")
    b.edit("src/dom.ts",
           "  const items = Object.entries(errors).flatMap(([name, msgs]) =>\n"
           "    msgs.map((m) => `<li><a href=\"#${name}\">${m}</a></li>`));\n"
           "  box.innerHTML = items.length ? `<ul>${items.join(\"\")}</ul>` : \"\";\n}\n",
           "  const list = document.createElement(\"ul\");\n"
           "  for (const [name, msgs] of Object.entries(errors)) {\n    for (const msg of msgs) {\n"
           "      const link = document.createElement(\"a\");\n      link.href = `#${name}`;\n"
           "      link.textContent = msg;\n      const item = document.createElement(\"li\");\n"
           "      item.append(link);\n      list.append(item);\n    }\n  }\n"
           "  box.replaceChildren(...(list.children.length ? [list] : []));\n}\n")
    b.edit("src/dom.ts",
           "    if (await validator.validateAll(values)) form.submit();\n",
           "    const ok = await validator.validateAll(values);\n"
           "    renderSummary(form, Object.fromEntries(Object.entries(validator.state).map(([n, s]) => [n, s.errors])));\n"
           "    if (ok) form.submit();\n")
    b.bash("npx tsc --noEmit -p .", "")
    b.say("Right, sorry. The summary is built from elements now — `ul > li > a`, message via `textContent`, "
          "`href` pointing at the field id. It's rendered on every submit and emptied when everything passes.")
    return [a, b]


@scenario("unknown-rule", FK, "agent's inline 'return undefined or throw?' question, person picks with a reason",
          [exp("decision", "src/rules.ts:getRule", "throw", ["return undefined"])])
def _unknown(files):
    s = Session("unknown-rule", "2026-11-29T12:20:00.000Z", files)
    s.user("add a `schemaFromJson` so people can write `{\"email\": [\"required\", \"email\"], \"name\": "
           "[[\"minLength\", 2]]}` instead of calling the functions")
    s.read("src/rules.ts", offset=33)
    s.say("`getRule` already maps names to factories, so `schemaFromJson` is a thin loop over it. One "
          "question first: for an unknown name (say a typo, `\"requried\"`), should getRule return undefined "
          "like now and the loader skip it, or throw?")
    s.user("throw. a typo in a schema has to blow up when the form is set up, not silently not-validate "
           "forever")
    s.edit("src/rules.ts",
           "export function getRule(name: string): ((...args: any[]) => Rule) | undefined {\n"
           "  return registry[name];\n}\n",
           "export function getRule(name: string): (...args: any[]) => Rule {\n"
           "  const make = registry[name];\n"
           "  // a typo in a schema must fail at setup, not leave the field unvalidated\n"
           "  if (!make) throw new Error(`unknown rule \"${name}\" (known: ${Object.keys(registry).join(\", \")})`);\n"
           "  return make;\n}\n\n"
           "export type RuleSpec = string | [string, ...unknown[]];\n\n"
           "export function schemaFromJson(spec: Record<string, RuleSpec[]>): Record<string, { rules: Rule[] }> {\n"
           "  return Object.fromEntries(\n    Object.entries(spec).map(([field, specs]) => [\n      field,\n"
           "      { rules: specs.map((s) => (typeof s === \"string\" ? getRule(s)() : getRule(s[0])(...s.slice(1)))) },\n"
           "    ]),\n  );\n}\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", " ✓ test/rules.test.ts (3 tests) 4ms\n\n"
           " Test Files  1 passed (1)\n      Tests  3 passed (3)")
    s.say("Added `schemaFromJson`; `getRule` throws `unknown rule \"requried\" (known: required, minLength, …)` "
          "so the typo shows up at setup.")
    return [s]


@scenario("review-validator", FK, "a code review full of 'should'/'must' suggestions nobody takes up, plus a "
          "process instruction (run tsc first); no edits",
          [])
def _review(files):
    s = Session("review-validator", "2026-11-21T15:55:00.000Z", files)
    s.user("can you review validator.ts before I tag 0.3? run tsc first so we know it builds. don't change "
           "anything, just tell me")
    s.bash("npx tsc --noEmit -p .", "")
    s.read("src/validator.ts")
    s.say("Builds clean. Review of `validator.ts`:\n\n"
          "1. **`pending` can stick** — if an async validator throws, `pending` stays `true` forever. It "
          "should be reset in a `finally`.\n"
          "2. **`validateAll` runs async validators for every field in parallel** — fine for 5 fields, but a "
          "form with several server-side checks will fire them all at once on submit. You might want a "
          "concurrency limit eventually.\n"
          "3. **Unknown field throws** — good; but the message could list the known fields.\n"
          "4. **`locale` is fixed at construction** — if a page switches language the validator must be "
          "recreated. A `setLocale()` would be cheap.\n"
          "5. **Rule errors short-circuit async** — async validators only run when sync rules pass. That's "
          "the right call (no point checking availability of an empty name), maybe worth a doc line.\n\n"
          "None of these block a 0.3 tag in my view; 1 is the only real bug.")
    s.user("good list. I'll open issues for 1 and 4, rest can wait. tagging now")
    s.bash("git tag v0.3.0 && git tag --list 'v0.*'", "v0.1.0\nv0.2.0\nv0.3.0")
    return [s]


@scenario("rename-validate-form", FK, "a terse rename across files; no decision",
          [])
def _rename(files):
    s = Session("rename-validate-form", "2026-11-22T10:12:00.000Z", files)
    s.user("rename validateAll -> validateForm everywhere")
    s.grep("validateAll", ["src/validator.ts", "src/dom.ts"])
    s.edit("src/validator.ts", "  async validateAll(values: Record<string, Value>): Promise<boolean> {\n",
           "  async validateForm(values: Record<string, Value>): Promise<boolean> {\n")
    s.edit("src/dom.ts", "await validator.validateAll(values)", "await validator.validateForm(values)")
    s.bash("npx tsc --noEmit -p . && npx vitest run", " ✓ test/rules.test.ts (3 tests) 4ms\n\n"
           " Test Files  1 passed (1)\n      Tests  3 passed (3)")
    s.say("Renamed in `validator.ts` and its one caller in `dom.ts`; tsc and tests pass.")
    s.user("ty")
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
