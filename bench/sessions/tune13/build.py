"""Writes the tune13 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``webhookd`` (Python, a webhook delivery service) and
``sheetcalc`` (TypeScript, a spreadsheet formula engine). Sessions are written with the ``Session``
builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py`` after changing a scenario
(outputs are committed). ``python3 build.py --check`` also replays every scenario on a copy of its
repository (every edit must apply) and checks, with tether's own parser, that every expected anchor
names a definition of the final state.
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


def pytest_ok(n: int, secs: str = "0.41") -> str:
    return ("============================= test session starts ==============================\n"
            "platform linux -- Python 3.12.7, pytest-8.3.3, pluggy-1.5.0\n"
            "rootdir: {{ROOT}}\nconfigfile: pyproject.toml\ncollected %d items\n\n"
            "tests/test_webhookd.py %s [100%%]\n\n"
            "============================== %d passed in %ss ===============================" % (n, "." * n, n, secs))


def vitest_ok(n: int, ms: int = 9) -> str:
    return (f"\n RUN  v2.1.9 {{{{ROOT}}}}\n\n ✓ test/sheet.test.ts ({n} tests) {ms}ms\n\n"
            f" Test Files  1 passed (1)\n      Tests  {n} passed ({n})\n   Start at  10:02:11\n"
            f"   Duration  412ms (transform 118ms, setup 0ms, collect 151ms, tests {ms}ms, environment 0ms, prepare 71ms)")


# -- webhookd (Python) ----------------------------------------------------------------------------------

WH = "webhookd"


@scenario("sign-timestamp", WH, "French speaker, formal English; agent proposes inline ('I could either … or …'); "
          "the person picks 'body only' plus a timestamp header, the agent does it, then the person thinks again and "
          "reverts to signing the timestamp with the body; keeps the old header one more version",
          [exp("decision", "webhookd/signing.py:sign_payload", "sign the timestamp", ["body only"]),
           exp("decision", "webhookd/signing.py:build_headers", "one more version")])
def _sign(files):
    s = Session("sign-timestamp", "2026-03-03T09:14:00.000Z", files)
    s.user("Good morning. A customer (Brevia) has asked us if our signatures protect against the replay of an old "
           "request. I think that today they do not, because we sign only the body. Can you look at signing.py and "
           "propose me what to do? I would like that we stay compatible with our SDKs if it is possible.")
    s.read("webhookd/signing.py")
    s.grep("build_headers|sign_payload", ["webhookd/signing.py", "webhookd/delivery.py", "tests/test_webhookd.py"])
    s.say("You're right: `sign_payload` is an HMAC-SHA256 of the body alone, so a captured request verifies forever "
          "and can be replayed as often as someone likes.\n\n"
          "I could either keep signing the body only and add an `X-Webhookd-Timestamp` header that receivers check "
          "for freshness — the signature doesn't change, so every SDK keeps verifying as today — or sign the timestamp "
          "and the body together (`t=<unix>,v1=<hmac of \"<t>.<body>\">`, the scheme Stripe uses), which is the one "
          "that actually stops replays but needs a release of each SDK. Which way do you want to go?")
    s.user("Hmm. The compatibility is important for us, the SDKs exist in five languages. Let us keep the body only "
           "and add the header with the timestamp. Go with that.")
    s.edit("webhookd/signing.py", 'SIGNATURE_HEADER = "X-Webhookd-Signature"\n',
           'SIGNATURE_HEADER = "X-Webhookd-Signature"\nTIMESTAMP_HEADER = "X-Webhookd-Timestamp"\n')
    s.edit("webhookd/signing.py",
           "def build_headers(secret: str, event_id: str, event_type: str, body: bytes, user_agent: str) -> dict[str, str]:\n",
           "def build_headers(secret: str, event_id: str, event_type: str, body: bytes, user_agent: str,\n"
           "                  timestamp: int) -> dict[str, str]:\n")
    s.edit("webhookd/signing.py", '        "X-Webhookd-Event-Id": event_id,\n',
           '        "X-Webhookd-Event-Id": event_id,\n        TIMESTAMP_HEADER: str(timestamp),\n')
    s.edit("webhookd/delivery.py",
           "        headers = build_headers(sub.secret, event.id, event.type, body, self.settings.user_agent)\n",
           "        headers = build_headers(sub.secret, event.id, event.type, body, self.settings.user_agent,\n"
           "                                int(self.clock()))\n")
    s.edit("tests/test_webhookd.py",
           '    headers = build_headers(sub.secret, "evt_1", "order.created", body, "webhookd/test")\n',
           '    headers = build_headers(sub.secret, "evt_1", "order.created", body, "webhookd/test", 1_000_000)\n'
           '    assert headers["X-Webhookd-Timestamp"] == "1000000"\n')
    s.bash("python -m pytest -q", pytest_ok(6))
    s.say("Done. `build_headers` now also sends `X-Webhookd-Timestamp` (unix seconds, from the deliverer's clock); "
          "the signature itself is unchanged, so the SDKs keep verifying. A receiver that wants replay protection "
          "rejects a timestamp older than a few minutes. 6 tests pass.")
    s.user("Wait, I reflect again. If the timestamp is not inside the signature, anybody who has captured one request "
           "can send it again with a new timestamp, and the receiver will accept it, no? Then the header serves to "
           "nothing for the security. I change my mind: we sign the timestamp with the body, like your second "
           "proposition. For the SDKs we will do a release, Julien can take it. The old X-Webhookd-Signature we keep "
           "it one more version in parallel, so the customers have the time to migrate, after we remove it.")
    s.say("Agreed — an unsigned timestamp can simply be swapped. Switching to the signed scheme: `sign_payload` will "
          "sign `\"<t>.\" + body` and return `t=<t>,v1=<hex>` in a new `X-Webhookd-Signature-V2` header; the old "
          "body-only value stays in `X-Webhookd-Signature` for one more version. The separate timestamp header goes "
          "away, since the timestamp is inside v2.")
    s.edit("webhookd/signing.py",
           'SIGNATURE_HEADER = "X-Webhookd-Signature"\nTIMESTAMP_HEADER = "X-Webhookd-Timestamp"\n\n\n'
           "def sign_payload(secret: str, body: bytes) -> str:\n"
           '    mac = hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()\n'
           '    return f"sha256={mac}"\n\n\n'
           "def verify(secret: str, body: bytes, header: str) -> bool:\n"
           '    """What our SDKs do on the receiving side; used by the tests and the CLI\'s ``verify`` command."""\n'
           "    expected = sign_payload(secret, body)\n"
           "    return hmac.compare_digest(expected, header.strip())\n",
           'SIGNATURE_HEADER = "X-Webhookd-Signature"\nSIGNATURE_V2_HEADER = "X-Webhookd-Signature-V2"\n'
           "TOLERANCE_SECONDS = 300\n\n\n"
           "def sign_body(secret: str, body: bytes) -> str:\n"
           '    """The old body-only signature, still sent for one more version while customers migrate to v2."""\n'
           '    mac = hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()\n'
           '    return f"sha256={mac}"\n\n\n'
           "def sign_payload(secret: str, body: bytes, timestamp: int) -> str:\n"
           '    """v2: the timestamp is signed with the body, so a captured request cannot be sent again later."""\n'
           '    signed = f"{timestamp}.".encode("ascii") + body\n'
           '    mac = hmac.new(secret.encode("utf-8"), signed, hashlib.sha256).hexdigest()\n'
           '    return f"t={timestamp},v1={mac}"\n\n\n'
           "def verify(secret: str, body: bytes, header: str, now: float, tolerance: float = TOLERANCE_SECONDS) -> bool:\n"
           '    """What our SDKs do on the receiving side (v2); used by the tests and the CLI\'s ``verify`` command."""\n'
           "    try:\n"
           '        fields = dict(part.split("=", 1) for part in header.strip().split(","))\n'
           '        timestamp = int(fields["t"])\n'
           "    except (KeyError, ValueError):\n"
           "        return False\n"
           "    if abs(now - timestamp) > tolerance:\n"
           "        return False\n"
           "    return hmac.compare_digest(sign_payload(secret, body, timestamp), header.strip())\n")
    s.edit("webhookd/signing.py",
           "        TIMESTAMP_HEADER: str(timestamp),\n        SIGNATURE_HEADER: sign_payload(secret, body),\n",
           "        SIGNATURE_HEADER: sign_body(secret, body),\n"
           "        SIGNATURE_V2_HEADER: sign_payload(secret, body, timestamp),\n")
    s.edit("tests/test_webhookd.py",
           '    headers = build_headers(sub.secret, "evt_1", "order.created", body, "webhookd/test", 1_000_000)\n'
           '    assert headers["X-Webhookd-Timestamp"] == "1000000"\n'
           '    assert verify(sub.secret, body, headers["X-Webhookd-Signature"])\n'
           '    assert not verify(sub.secret, body + b" ", headers["X-Webhookd-Signature"])\n',
           '    headers = build_headers(sub.secret, "evt_1", "order.created", body, "webhookd/test", 1_000_000)\n'
           '    assert headers["X-Webhookd-Signature"].startswith("sha256=")\n'
           '    assert verify(sub.secret, body, headers["X-Webhookd-Signature-V2"], now=1_000_010)\n'
           '    assert not verify(sub.secret, body + b" ", headers["X-Webhookd-Signature-V2"], now=1_000_010)\n\n\n'
           "def test_replayed_request_is_refused(world):\n"
           "    _, _, sub, _ = world\n"
           "    body = b'{\"a\":1}'\n"
           '    header = build_headers(sub.secret, "evt_1", "order.created", body, "webhookd/test", 1_000_000)[\n'
           '        "X-Webhookd-Signature-V2"]\n'
           "    assert not verify(sub.secret, body, header, now=1_000_000 + 3600)\n"
           '    forged = header.replace("t=1000000", "t=1003600")\n'
           "    assert not verify(sub.secret, body, forged, now=1_003_600)\n")
    s.bash("python -m pytest -q", pytest_ok(7))
    s.say("Done:\n- `sign_payload(secret, body, timestamp)` → `t=<t>,v1=<hmac of \"<t>.<body>\">`, sent as "
          "`X-Webhookd-Signature-V2`.\n- `X-Webhookd-Signature` (body only, now `sign_body`) is still sent next to "
          "it, for one more version.\n- `verify` checks v2 with a 5-minute tolerance; a new test shows that an old "
          "request is refused, and so is one whose `t=` was rewritten.\n\n7 tests pass. Julien will need the "
          "string-to-sign (`\"<t>.\" + raw body`) and the 300 s tolerance for the SDKs.")
    s.user("Very good, thank you. I transmit to Julien.")
    return [s]


@scenario("retry-schedule", WH, "agent proposes inline (full jitter vs fixed schedule, leans to jitter, mentions "
          "Retry-After); a careful reviewer answers with numbered objections and a conclusion: fixed schedule, "
          "jitter from the event id, Retry-After left out for now",
          [exp("decision", "webhookd/delivery.py:backoff_delay", "fixed schedule", ["full jitter"]),
           exp("boundary", "webhookd/delivery.py:Deliverer.deliver", "retry-after")])
def _retry(files):
    s = Session("retry-schedule", "2026-03-05T14:40:00.000Z", files)
    s.user("The retry timing in delivery.py is a hard-coded exponential from 30s, and we've had two complaints this "
           "month that after an outage our retries arrive in waves. Propose something before you change anything.")
    s.read("webhookd/delivery.py")
    s.read("webhookd/config.py")
    s.say("What happens today: `backoff_delay(n)` is `30 * 2**(n-1)` seconds, capped at 6 h. Every delivery that "
          "failed during an outage failed at about the same moment, so all of them come back at +30 s, +60 s, "
          "+120 s… together — the waves the customers see.\n\n"
          "I could either keep the exponential curve and add full jitter (wait a random time between 0 and the "
          "exponential value, the AWS-style approach), or replace the curve with a fixed schedule — 1 min, 5 min, "
          "30 min, 2 h, 6 h — with a small ±10% jitter on top. I'd lean to full jitter: it spreads the load best and "
          "it's a two-line change.\n\n"
          "Separately, we could honour `Retry-After` when an endpoint sends one with a 429 or 503.")
    s.user("Some objections.\n\n"
           "1. Full jitter means an attempt can come back after 0 seconds. For an endpoint that is down, that is a "
           "wasted attempt, and it counts towards max_attempts.\n"
           "2. Customers ask support \"when will you retry?\". Support needs to answer with a table, not with a "
           "distribution. A fixed schedule can be documented.\n"
           "3. The current curve reaches the 6 h cap only at attempt 11. With max_attempts = 6 we give up after "
           "roughly 15 minutes of trying in total. That is far too short for a customer doing maintenance.\n"
           "4. Retry-After: agreed in principle, but it interacts with the breaker (who wins, the header or the "
           "cooldown?) and I don't want that decided in this change. Leave it out for now.\n"
           "5. ±10% is fine, but derive it from the event id, not from random(), so the tests stay deterministic and "
           "a given delivery's schedule can be reconstructed from the logs.\n\n"
           "Conclusion: fixed schedule 1m / 5m / 30m / 2h / 6h, ±10% jitter derived from the event id, no "
           "Retry-After handling yet.")
    s.edit("webhookd/delivery.py", "import heapq\n", "import hashlib\nimport heapq\n")
    s.edit("webhookd/delivery.py",
           "def backoff_delay(attempt: int) -> float:\n"
           '    """Seconds to wait after the given failed attempt (1-based) before the next one."""\n'
           "    return min(30.0 * 2 ** (attempt - 1), 6 * 3600.0)\n",
           "RETRY_SCHEDULE = (60.0, 300.0, 1800.0, 7200.0, 21600.0)  # 1m, 5m, 30m, 2h, 6h; then 6h\n\n\n"
           "def backoff_delay(attempt: int, event_id: str = \"\") -> float:\n"
           '    """Seconds to wait after the given failed attempt (1-based) before the next one: a fixed schedule\n'
           "    support can quote, with +/-10% jitter derived from the event id (spreads retries after an outage,\n"
           '    and a delivery\'s schedule can be recomputed from the logs)."""\n'
           "    base = RETRY_SCHEDULE[min(attempt, len(RETRY_SCHEDULE)) - 1]\n"
           '    spread = int(hashlib.sha256(f"{event_id}:{attempt}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF\n'
           "    return base * (0.9 + 0.2 * spread)\n")
    s.edit("webhookd/delivery.py",
           "                self.enqueue(sub, event, number + 1, self.clock() + backoff_delay(number))\n",
           "                # Retry-After is not honoured (yet): how it should combine with the breaker's cooldown is\n"
           "                # still open, so the schedule alone decides\n"
           "                self.enqueue(sub, event, number + 1, self.clock() + backoff_delay(number, event.id))\n")
    s.edit("tests/test_webhookd.py", "def test_breaker_opens_and_half_opens():\n",
           "def test_backoff_follows_schedule():\n"
           "    from webhookd.delivery import backoff_delay\n"
           "    for n, base in enumerate([60, 300, 1800, 7200, 21600, 21600], start=1):\n"
           '        assert 0.9 * base <= backoff_delay(n, "evt_1") <= 1.1 * base\n'
           '    assert backoff_delay(2, "evt_1") == backoff_delay(2, "evt_1")\n'
           '    assert backoff_delay(2, "evt_1") != backoff_delay(2, "evt_2")\n\n\n'
           "def test_breaker_opens_and_half_opens():\n")
    s.bash("python -m pytest -q", pytest_ok(7))
    s.say("Done, per your conclusion:\n- `RETRY_SCHEDULE` = 1m, 5m, 30m, 2h, 6h (attempts past the fifth stay at "
          "6h), with ±10% jitter computed from `sha256(event_id:attempt)` — same event, same schedule.\n"
          "- `deliver` passes the event id; a comment there says Retry-After isn't honoured yet and why.\n"
          "- New test pins the schedule and the determinism. 7 passed.\n\n"
          "With max_attempts = 6 the last try is now about 8h40 after the first, instead of ~15 min.")
    s.user("Good. Merge it.")
    return [s]


@scenario("breaker-stuck-open", WH, "hurried on-call engineer at night (typos, 'pls', mild swearing) pastes log "
          "lines; the agent finds the cause (wall clock stepped back, breaker measured with time.time), reproduces "
          "it in a failing test and fixes it with a monotonic clock",
          [exp("gotcha", "webhookd/breaker.py:CircuitBreaker.allow", "monotonic")])
def _stuck(files):
    s = Session("breaker-stuck-open", "2026-03-09T03:14:00.000Z", files)
    s.user("breaker for acme stuck OPEN for 40 min now, cooldown is 60s ffs. their endpoint is fine, curl gives 200. "
           "pls look asap\n\n"
           "```\n03:12:44 WARN  webhookd.delivery breaker open for sub_7f3a91c2, deferring evt_9c1e07d2b54f\n"
           "03:12:44 DEBUG webhookd.breaker sub_7f3a91c2 state=open failures=5 opened_at=1773028364.2 "
           "now=1773024781.9\n```")
    s.read("webhookd/breaker.py")
    s.say("Look at the two numbers in the debug line: `opened_at` is about 3,580 s *after* `now`. `allow()` computes "
          "`clock() - opened_at`, which is negative, so it stays below the 60 s cooldown until the clock catches up "
          "with the moment the breaker opened — roughly an hour.\n\nThe breaker uses `time.time`, the wall clock. "
          "That only happens if the host's clock was stepped backwards after the breaker opened. Did something "
          "change the clock on that worker around 02:30?")
    s.user("uh yeah. chrony stepped the clock -1h on worker-3 at 02:31, infra has a ticket already. so thats it?? "
           "fix it so this cant happen again pls, i dont want to get paged for this crap twice")
    s.edit("tests/test_webhookd.py", "def test_replay_requeues_and_removes(world):\n",
           "def test_breaker_survives_clock_step_back():\n"
           "    clock = FakeClock()\n"
           "    b = CircuitBreaker(threshold=1, cooldown=60, clock=clock)\n"
           "    b.record_failure()\n"
           "    clock.t -= 3600  # the clock is stepped back an hour\n"
           "    b.allow()\n"
           "    clock.t += 61\n"
           "    assert b.allow()\n\n\n"
           "def test_replay_requeues_and_removes(world):\n")
    s.bash("python -m pytest -q -k clock_step",
           "F                                                                        [100%]\n"
           "=================================== FAILURES ===================================\n"
           "_____________________ test_breaker_survives_clock_step_back _____________________\n\n"
           "    def test_breaker_survives_clock_step_back():\n"
           "        clock = FakeClock()\n"
           "        b = CircuitBreaker(threshold=1, cooldown=60, clock=clock)\n"
           "        b.record_failure()\n"
           "        clock.t -= 3600  # the clock is stepped back an hour\n"
           "        b.allow()\n"
           "        clock.t += 61\n"
           ">       assert b.allow()\n"
           "E       assert False\n"
           "E        +  where False = allow()\n"
           "E        +    where allow = <webhookd.breaker.CircuitBreaker object at 0x7f2b1c0d8e10>.allow\n\n"
           "tests/test_webhookd.py:104: AssertionError\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_webhookd.py::test_breaker_survives_clock_step_back - assert False\n"
           "1 failed, 6 deselected in 0.09s", fail=True,
           text="Reproduced first, with a fake clock stepped back an hour:")
    s.say("Reproduced. Fixing it in two places: the breaker measures the cooldown with `time.monotonic` by default "
          "(it never goes backwards, whatever chrony does), and `allow()` treats a negative elapsed time — possible "
          "only with an injected clock — as \"restart the cooldown now\" instead of waiting for the clock to catch "
          "up.")
    s.edit("webhookd/breaker.py",
           "    def __init__(self, threshold: int = 5, cooldown: float = 60.0, clock: Callable[[], float] = time.time):\n"
           "        self.threshold = threshold\n",
           "    # monotonic, not time.time: a wall clock stepped back (NTP/chrony) kept breakers open for an hour\n"
           "    def __init__(self, threshold: int = 5, cooldown: float = 60.0,\n"
           "                 clock: Callable[[], float] = time.monotonic):\n"
           "        self.threshold = threshold\n")
    s.edit("webhookd/breaker.py",
           "        if self.state == OPEN and self.opened_at is not None and self.clock() - self.opened_at >= self.cooldown:\n"
           "            self.state = HALF_OPEN\n"
           "            return True\n",
           "        if self.state == OPEN and self.opened_at is not None:\n"
           "            now = self.clock()\n"
           "            if now < self.opened_at:\n"
           "                # the clock went backwards: restart the cooldown rather than wait for it to catch up\n"
           "                self.opened_at = now\n"
           "            if now - self.opened_at >= self.cooldown:\n"
           "                self.state = HALF_OPEN\n"
           "                return True\n")
    s.edit("webhookd/breaker.py",
           "class BreakerRegistry:\n"
           "    def __init__(self, threshold: int = 5, cooldown: float = 60.0, clock: Callable[[], float] = time.time):\n",
           "class BreakerRegistry:\n"
           "    def __init__(self, threshold: int = 5, cooldown: float = 60.0,\n"
           "                 clock: Callable[[], float] = time.monotonic):\n")
    s.grep("BreakerRegistry\\(", ["tests/test_webhookd.py"])
    s.bash("python -m pytest -q", pytest_ok(7))
    s.say("Fixed, 7 tests pass. Cause: the breaker timed its cooldown with the wall clock, and the -1h step on "
          "worker-3 put `opened_at` an hour in the future. Now it uses `time.monotonic`, and a clock that goes "
          "backwards restarts the cooldown instead of freezing the breaker.\n\n"
          "For right now, before a deploy: restarting the webhookd process on worker-3 clears the in-memory "
          "breakers and acme's deliveries resume.")
    s.user("restarted, acme flowing again. ty, merging in the morning")
    return [s]


@scenario("dlq-never-drop", WH, "manager-type states the outcome only ('customers must never lose an event "
          "without us knowing'); the agent acts, then reports what it chose and why; the manager confirms the rule",
          [exp("invariant", "webhookd/deadletter.py:DeadLetterQueue.push", "never drop", ["drops the oldest"])])
def _dlq(files):
    s = Session("dlq-never-drop", "2026-03-10T11:02:00.000Z", files)
    s.user("Hi. Context: in the Q3 review we're telling our enterprise customers that no webhook is ever lost "
           "silently. Paul mentioned in standup that the dead-letter queue has a size cap. The outcome I need: if "
           "we give up on an event, it stays somewhere support can see it and replay it, no matter how many there "
           "are. Customers must never lose an event without us knowing. Do whatever is needed and tell me what "
           "you changed.")
    s.read("webhookd/deadletter.py")
    s.grep("DeadLetterQueue\\(", ["webhookd/delivery.py", "tests/test_webhookd.py"])
    s.edit("webhookd/deadletter.py",
           "    def __init__(self, path: str | Path | None = None, maxlen: int = 10_000):\n"
           "        self.path = Path(path) if path else None\n"
           "        self._items: deque[DeadLetter] = deque(maxlen=maxlen)\n",
           "    def __init__(self, path: str | Path | None = None, warn_at: int = 10_000):\n"
           "        self.path = Path(path) if path else None\n"
           "        self.warn_at = warn_at\n"
           "        # unbounded on purpose: a dead letter is never dropped to make room, whatever the size\n"
           "        self._items: deque[DeadLetter] = deque()\n")
    s.edit("webhookd/deadletter.py",
           "    def push(self, letter: DeadLetter) -> None:\n"
           "        self._items.append(letter)\n"
           "        if self.path:\n"
           "            self.path.parent.mkdir(parents=True, exist_ok=True)\n"
           '            with self.path.open("a", encoding="utf-8") as fh:\n'
           '                fh.write(letter.to_json() + "\\n")\n',
           "    def push(self, letter: DeadLetter) -> None:\n"
           "        if self.path:\n"
           "            # on disk first: a crash after this line cannot lose a letter we already gave up on\n"
           "            self.path.parent.mkdir(parents=True, exist_ok=True)\n"
           '            with self.path.open("a", encoding="utf-8") as fh:\n'
           '                fh.write(letter.to_json() + "\\n")\n'
           "                fh.flush()\n"
           "                os.fsync(fh.fileno())\n"
           "        self._items.append(letter)\n"
           "        if len(self._items) > self.warn_at:\n"
           '            log.warning("dead-letter queue holds %d letters (warn_at=%d)", len(self._items), self.warn_at)\n')
    s.edit("webhookd/deadletter.py", "import logging\nimport time\n", "import logging\nimport os\nimport time\n")
    s.edit("tests/test_webhookd.py", "def test_breaker_opens_and_half_opens():\n",
           "def test_dead_letters_are_never_dropped(tmp_path):\n"
           "    from webhookd.deadletter import DeadLetter\n"
           '    dlq = DeadLetterQueue(tmp_path / "dl.jsonl", warn_at=3)\n'
           "    for i in range(10):\n"
           '        dlq.push(DeadLetter(f"evt_{i}", "order.created", {}, "sub_1", "cus_1", 6, "HTTP 500", 0.0))\n'
           "    assert len(dlq) == 10\n"
           '    assert len(DeadLetterQueue(tmp_path / "dl.jsonl")) == 10\n\n\n'
           "def test_breaker_opens_and_half_opens():\n")
    s.bash("python -m pytest -q", pytest_ok(7))
    s.say("Done. What I changed and why:\n\n"
          "1. **No cap any more.** The queue was a `deque(maxlen=10_000)`: once full, every new dead letter "
          "silently pushed out the oldest one — exactly what Paul meant. It is now unbounded; nothing is evicted. I "
          "did not keep a cap that refuses the newest or drops the oldest: both lose an event, just a different one.\n"
          "2. **Disk before memory.** `push` appends to the JSONL file and fsyncs *before* adding to memory, so a "
          "crash in between can't lose a letter we've already given up on.\n"
          "3. **Visible instead of dropped.** Past `warn_at` (10,000 by default) every push logs a warning with the "
          "count, so a growing queue shows up on the dashboards instead of quietly shrinking.\n\n"
          "New test: 10 letters with `warn_at=3` are all kept, in memory and on disk. 7 tests pass.\n\n"
          "Not done: there is no retention or archiving of old letters. If that's wanted some day it's a separate "
          "decision.")
    s.user("Good, that's what I needed. Never drop, whatever the size — if disk becomes a problem we buy disk.")
    return [s]


@scenario("resend-keeps-event-id", WH, "manager-type reports duplicate shipments after a replay; the agent fixes "
          "replay and reports; the manager makes it a rule. A week later the on-call engineer asks for a manual "
          "redeliver, the agent mints a new id, and is corrected with the same rule in other words, on other code",
          [exp("invariant", "webhookd/*.py", "original event id")])
def _resend(files):
    s = Session("resend-keeps-event-id-1", "2026-03-12T10:20:00.000Z", files)
    s.user("Kestrel Freight got the same shipment.created twice yesterday, after support replayed their dead "
           "letters, and their system created two shipments. Receivers must be able to recognise a replayed event as "
           "the same event. Please sort it out and let me know what you did.")
    s.read("webhookd/replay.py")
    s.read("webhookd/signing.py")
    s.edit("webhookd/replay.py",
           "        event = Event(id=new_event_id(), type=letter.event_type, payload=letter.payload)\n",
           "        event = Event(id=letter.event_id, type=letter.event_type, payload=letter.payload)\n")
    s.edit("webhookd/replay.py", "from webhookd.delivery import Deliverer, Event, new_event_id\n",
           "from webhookd.delivery import Deliverer, Event\n")
    s.edit("tests/test_webhookd.py",
           "    assert len(report.queued) == 1 and len(dlq) == 0 and d.pending() == 1\n",
           "    assert report.queued == [\"evt_1\"] and len(dlq) == 0 and d.pending() == 1\n"
           "    clock.t += 1\n"
           "    d.run_due()\n"
           "    assert d.attempts[-1].event_id == \"evt_1\"\n")
    s.bash("python -m pytest -q", pytest_ok(6, "0.38"))
    s.say("Fixed. What happened and what I changed:\n\n"
          "- **Cause:** `replay` built each replayed event with `new_event_id()`, so it went out with a brand-new "
          "`X-Webhookd-Event-Id`. Kestrel dedupes on that header, saw a new event, and created a second shipment.\n"
          "- **Change:** replay now re-sends with the original event id (the one stored in the dead letter); the "
          "body's `id` field is the same too, since it's built from the event.\n"
          "- **Chose not to** add a `X-Webhookd-Replay: true` header: receivers don't need it to dedupe and nobody "
          "asked. Easy to add later.\n"
          "- The test now checks that the replayed attempt carries `evt_1`. 6 tests pass.")
    s.user("Yes. And make that the rule from now on: whatever we resend, for whatever reason, it always goes out "
           "with the original event id. Otherwise our customers get duplicates and we get the blame.")
    s.say("Understood — anything that re-sends an event keeps its original id.")

    t = Session("resend-keeps-event-id-2", "2026-03-19T23:48:00.000Z", files)
    t.user("need a way to redeliver ONE event to a sub right now from a python shell, customer on the phone. add "
           "Deliverer.redeliver(sub, event) that skips the queue and the breaker pls")
    t.read("webhookd/delivery.py", offset=80, limit=50)
    t.edit("webhookd/delivery.py",
           "    def pending(self) -> int:\n",
           "    def redeliver(self, sub: Subscription, event: Event) -> Attempt:\n"
           '        """One manual delivery, now: no queue, no breaker, no retries (support tooling)."""\n'
           "        fresh = Event(id=new_event_id(), type=event.type, payload=event.payload)\n"
           "        return self.attempt(sub, fresh, number=1)\n\n"
           "    def pending(self) -> int:\n",
           text="Adding it next to `pending`. I'll give the manual attempt its own event id so it shows up "
                "separately from the original in the logs:")
    t.user("no no. same id. the replay thing last week — anything we send again keeps the id it had the first "
           "time, receivers dedupe on X-Webhookd-Event-Id. just send the event as is")
    t.edit("webhookd/delivery.py",
           '        """One manual delivery, now: no queue, no breaker, no retries (support tooling)."""\n'
           "        fresh = Event(id=new_event_id(), type=event.type, payload=event.payload)\n"
           "        return self.attempt(sub, fresh, number=1)\n",
           '        """One manual delivery, now: no queue, no breaker, no retries (support tooling). The event goes\n'
           '        out with its original id, as every resend does: receivers dedupe on X-Webhookd-Event-Id."""\n'
           "        return self.attempt(sub, event, number=1)\n")
    t.edit("tests/test_webhookd.py", "def test_replay_requeues_and_removes(world):\n",
           "def test_redeliver_keeps_event_id(world):\n"
           "    clock, _, sub, dlq = world\n"
           "    transport = FakeTransport([200])\n"
           "    d = make(transport, dlq, clock)\n"
           '    attempt = d.redeliver(sub, Event("evt_42", "order.created", {"n": 1}))\n'
           '    assert attempt.event_id == "evt_42"\n'
           '    assert transport.calls[0][2]["X-Webhookd-Event-Id"] == "evt_42"\n\n\n'
           "def test_replay_requeues_and_removes(world):\n")
    t.bash("python -m pytest -q", pytest_ok(7, "0.40"))
    t.say("Right, fixed. `redeliver` sends the event as "
          "is, with its original id; new test checks the header. 7 pass.\n\nFrom a shell:\n```python\n"
          "d.redeliver(store.get(\"sub_…\"), Event(\"evt_…\", \"order.created\", payload))\n```")
    t.user("ok works, customer got it")
    return [s, t]


@scenario("breaker-per-endpoint", WH, "agent asks one yes/no question at a time: key breakers by URL (yes), strip "
          "the trailing slash (no — a customer's router needs it, on purpose), stop counting 4xx (yes, only 5xx, "
          "429 and timeouts); decisions spread over several turns, accepted with 👍",
          [exp("decision", "webhookd/breaker.py:BreakerRegistry.get", "endpoint url", ["per subscription"]),
           exp("workaround", "webhookd/subscriptions.py:normalize_url", "trailing slash"),
           exp("decision", "webhookd/delivery.py:trips_breaker", "only 5xx", ["any status >= 400"])])
def _keys(files):
    s = Session("breaker-per-endpoint", "2026-03-16T15:05:00.000Z", files)
    s.user("Breakers are per subscription right now. Big customers have 3-4 subscriptions to the same URL (one per "
           "event family), and when their endpoint goes down we hammer it 4x as long before everything is open. Fix "
           "the keying.")
    s.read("webhookd/breaker.py")
    s.read("webhookd/subscriptions.py", offset=27, limit=14)
    s.say("Should the breaker be keyed by the endpoint URL (as stored, i.e. after `normalize_url`) instead of per "
          "subscription, so that every subscription pointing at the same URL shares one breaker?")
    s.user("yes")
    s.say("`normalize_url` keeps a trailing slash, so `https://x.com/hooks` and `https://x.com/hooks/` would still "
          "get two breakers. Should I strip the trailing slash in `normalize_url`?")
    s.user("no. leave that alone. acme's endpoint 404s without the slash and answers 200 with it, their router is "
           "picky — we found out the hard way last year. it's there on purpose. two breakers for that edge case is "
           "fine")
    s.say("Got it, I'll leave it and put a comment there so nobody \"fixes\" it. Next: right now any status >= 400 "
          "counts as a failure for the breaker. Should 4xx answers stop counting towards opening it?")
    s.user("yes. a 4xx is the customer telling us the request is wrong (bad auth, whatever), their endpoint is up. "
           "only 5xx, 429 and timeouts/connection errors should trip it. still retried and dead-lettered as today "
           "though")
    s.edit("webhookd/breaker.py",
           "    def get(self, sub) -> CircuitBreaker:\n        key = sub.id\n",
           "    def get(self, sub) -> CircuitBreaker:\n"
           "        # one breaker per endpoint URL, shared by every subscription that posts to it\n"
           "        key = sub.url\n")
    s.edit("webhookd/subscriptions.py",
           '    path = parts.path or "/"\n',
           '    # the trailing slash is kept as typed, on purpose: some endpoints (acme\'s) 404 without it\n'
           '    path = parts.path or "/"\n')
    s.edit("webhookd/delivery.py",
           "def is_failure(status: int | None, error: str | None) -> bool:\n"
           "    return error is not None or status is None or status >= 400\n",
           "def is_failure(status: int | None, error: str | None) -> bool:\n"
           "    return error is not None or status is None or status >= 400\n\n\n"
           "def trips_breaker(status: int | None, error: str | None) -> bool:\n"
           '    """Only answers that say the endpoint is unwell count for its breaker: 5xx, 429, timeouts and\n'
           '    connection errors. A 4xx is about our request; the endpoint is up (still retried, though)."""\n'
           "    return error is not None or status is None or status >= 500 or status == 429\n")
    s.edit("webhookd/delivery.py",
           "        if is_failure(attempt.status, attempt.error):\n"
           "            breaker.record_failure()\n",
           "        if trips_breaker(attempt.status, attempt.error):\n"
           "            breaker.record_failure()\n"
           "        else:\n"
           "            breaker.record_success()\n"
           "        if is_failure(attempt.status, attempt.error):\n")
    s.edit("webhookd/delivery.py",
           "                self.enqueue(sub, event, number + 1, self.clock() + backoff_delay(number))\n"
           "        else:\n"
           "            breaker.record_success()\n",
           "                self.enqueue(sub, event, number + 1, self.clock() + backoff_delay(number))\n")
    s.edit("tests/test_webhookd.py", "def test_replay_requeues_and_removes(world):\n",
           "def test_subscriptions_to_one_url_share_a_breaker(world):\n"
           "    clock, store, sub, _ = world\n"
           '    other = store.add("cus_1", "https://example.com/hooks", ["invoice.paid"])\n'
           "    breakers = BreakerRegistry(clock=clock)\n"
           "    assert breakers.get(sub) is breakers.get(other)\n\n\n"
           "def test_4xx_does_not_trip_the_breaker(world):\n"
           "    clock, _, sub, dlq = world\n"
           "    breakers = BreakerRegistry(threshold=1, clock=clock)\n"
           "    d = Deliverer(FakeTransport([401]), breakers, dlq, Settings(max_attempts=3), clock=clock)\n"
           '    d.deliver(sub, Event("evt_1", "order.created", {}))\n'
           "    assert breakers.get(sub).allow() and d.pending() == 1\n\n\n"
           "def test_replay_requeues_and_removes(world):\n")
    s.bash("python -m pytest -q", pytest_ok(8))
    s.say("Done:\n- `BreakerRegistry.get` keys by `sub.url`; subscriptions to one URL share a breaker.\n"
          "- `normalize_url` unchanged, with a comment on why the trailing slash stays.\n"
          "- New `trips_breaker`: 5xx, 429, timeouts/connection errors. A 4xx counts as a success for the breaker "
          "(the endpoint answered) but is still a failed delivery: retried on schedule, dead-lettered at the end.\n"
          "- Two new tests. 8 passed.")
    s.user("👍")
    return [s]


@scenario("explain-dead-letters", WH, "a French-speaking newcomer asks how giving up works, a hypothetical "
          "('if we would have several workers…'), and a colleague's rule reported second-hand (keep dead letters "
          "only 7 days) that nobody adopts; nothing changes", [])
def _explain(files):
    s = Session("explain-dead-letters", "2026-03-18T08:55:00.000Z", files)
    s.user("Hello. I am new on webhookd, I come from the billing team. I would like to understand how it works when a "
           "delivery fails many times. When do we decide that the event is dead, and what happens then? Please do "
           "not change anything, I only read for the moment.")
    s.read("webhookd/delivery.py", offset=83, limit=40)
    s.read("webhookd/deadletter.py")
    s.say("Here's the path of a delivery that keeps failing:\n\n"
          "1. `Deliverer.deliver` makes an attempt. A failure is a transport error (timeout, connection refused) or "
          "any HTTP status ≥ 400 (`is_failure`).\n"
          "2. If attempts remain (`Settings.max_attempts`, 6 by default), the same event is queued again for "
          "`backoff_delay(number)` seconds later: 30 s, 1 min, 2 min, 4 min, 8 min.\n"
          "3. After the last attempt fails, `_give_up` builds a `DeadLetter` (event, subscription, customer, attempt "
          "count, last error) and pushes it to the `DeadLetterQueue`, which appends it to "
          "`var/dead_letters.jsonl` and keeps it in memory.\n"
          "4. Support can list a customer's letters and `replay` them, which queues them again and removes them "
          "from the queue.\n\n"
          "The breaker sits in front of all that: if an endpoint failed 5 times in a row, deliveries to it are "
          "deferred (not counted as attempts) until the cooldown has passed.\n\n"
          "On restart, the queue reloads the JSONL file, so dead letters survive; pending retries do not — they "
          "only live in `Deliverer._queue`.")
    s.user("Thank you, it is clear. Two questions more. First: if we would have several workers, each one with its "
           "own DeadLetterQueue on the same file, it would be a problem, no? Second: my colleague Thomas says that "
           "the dead letters must always be kept only 7 days, because of the RGPD. Is it something that we do?")
    s.say("1. Yes, in that setup it would be a problem: `remove` rewrites the whole file from *its own* memory, so "
          "one worker would erase letters another worker had appended. Several workers would need one file each, "
          "or a lock, or a real store. Today webhookd runs as a single process, so it doesn't happen.\n"
          "2. No, nothing prunes dead letters today; they stay until they are replayed. `oldest_age` only feeds a "
          "metric. A 7-day retention would be a small job, but it goes against keeping letters until someone "
          "replays them, so it's worth checking with whoever owns the compliance side where the 7 days come from "
          "before anyone adds it.")
    s.user("Okay. I will ask to Thomas where this comes from. For today nothing to change, merci.")
    return [s]


@scenario("rename-run-due", WH, "terse rename across two files; no decision", [])
def _rename(files):
    s = Session("rename-run-due", "2026-03-20T16:31:00.000Z", files)
    s.user("rename Deliverer.run_due -> drain_due. callers too")
    s.grep("run_due", ["webhookd/delivery.py", "tests/test_webhookd.py"])
    s.edit("webhookd/delivery.py", "    def run_due(self) -> int:\n", "    def drain_due(self) -> int:\n")
    s.edit("tests/test_webhookd.py", "        d.run_due()\n", "        d.drain_due()\n")
    s.bash("python -m pytest -q", pytest_ok(6, "0.37"))
    s.say("Renamed `run_due` → `drain_due` in `delivery.py` and its one caller in the tests; 6 pass.")
    s.user("thx")
    return [s]


# -- sheetcalc (TypeScript) -----------------------------------------------------------------------------

SC = "sheetcalc"


@scenario("cycle-as-error-value", SC, "terse person; agent proposes inline ('I could either throw … or store "
          "#CYCLE! …'); answer 'the second'",
          [exp("decision", "src/sheet.ts:Sheet.setFormula", "#cycle!", ["refuse the formula"])])
def _cycle(files):
    s = Session("cycle-as-error-value", "2026-04-02T13:10:00.000Z", files)
    s.user("circular refs are broken: A1 =B1+1, B1 =A1+1 and the numbers creep up every time I edit either one. "
           "should be detected")
    s.read("src/sheet.ts")
    s.read("src/graph.ts", offset=28, limit=22)
    s.say("`DependencyGraph.findCycle` exists, but `Sheet` never calls it: each edit evaluates the loop once more "
          "from the previous values, hence the creeping numbers.\n\n"
          "I could either throw a `CycleError` from `setFormula` and refuse the formula (the cell keeps what it had, "
          "the UI shows the message), or accept the formula and store `#CYCLE!` in every cell of the cycle, the way "
          "Sheets shows an error in the cells while the rest of the sheet keeps working. Which one?")
    s.user("the second")
    s.edit("src/sheet.ts",
           "    this.cells.set(key, cell);\n"
           "    cell.value = this.compute(cell);\n"
           "    this.recalculate(key);\n",
           "    this.cells.set(key, cell);\n"
           "    const cycle = this.graph.findCycle(key);\n"
           "    if (cycle) {\n"
           "      // accepted, not refused: every cell on the loop shows #CYCLE! and the rest of the sheet keeps working\n"
           "      for (const k of cycle) {\n"
           "        const c = this.cells.get(k);\n"
           "        if (c) c.value = new CellError(\"#CYCLE!\", cycle.join(\" -> \"));\n"
           "      }\n"
           "    } else {\n"
           "      cell.value = this.compute(cell);\n"
           "    }\n"
           "    this.recalculate(key);\n")
    s.edit("src/sheet.ts",
           "      if (cell?.formula) cell.value = this.compute(cell);\n",
           "      if (cell?.formula) {\n"
           "        cell.value = this.graph.findCycle(key) ? new CellError(\"#CYCLE!\") : this.compute(cell);\n"
           "      }\n")
    s.edit("test/sheet.test.ts", "  it(\"propagates errors from functions\", () => {\n",
           "  it(\"marks every cell of a cycle with #CYCLE! and recovers when it is broken\", () => {\n"
           "    const s = new Sheet();\n"
           "    s.set(\"A1\", \"=B1+1\");\n"
           "    s.set(\"B1\", \"=A1+1\");\n"
           "    s.set(\"C1\", \"=A1*2\");\n"
           "    expect(String(s.get(\"A1\"))).toBe(\"#CYCLE!\");\n"
           "    expect(String(s.get(\"B1\"))).toBe(\"#CYCLE!\");\n"
           "    expect(String(s.get(\"C1\"))).toBe(\"#CYCLE!\");\n"
           "    s.set(\"B1\", \"5\");\n"
           "    expect(s.get(\"A1\")).toBe(6);\n"
           "    expect(s.get(\"C1\")).toBe(12);\n"
           "  });\n\n"
           "  it(\"propagates errors from functions\", () => {\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(7))
    s.say("Done: a formula that closes a loop is accepted; every cell on the loop holds `#CYCLE!` (the error's "
          "detail has the path, e.g. `A1 -> B1`), cells reading them show `#CYCLE!` too, and typing a plain value "
          "into any cell of the loop brings everything back. tsc clean, 7 tests pass.")
    s.user("nice")
    return [s]


@scenario("diamond-recalc-order", SC, "lowercase person who thinks aloud and changes their mind; the agent's new "
          "test fails (stale value), it finds the cause (dependents walked breadth-first in typing order, not in "
          "topological order) and fixes it with the graph's existing topoOrder",
          [exp("gotcha", "src/sheet.ts:Sheet.recalculate", "topological order")])
def _diamond(files):
    s = Session("diamond-recalc-order", "2026-04-06T17:22:00.000Z", files)
    s.user("got a report that a total cell 'sometimes' shows an old value until you touch it again. can you write "
           "a test for a diamond? A1=1, then C1 =A1+B1 typed before B1, then B1 =A1*10, then change A1 to 2 -> C1 "
           "should be 22")
    s.edit("test/sheet.test.ts", "  it(\"propagates errors from functions\", () => {\n",
           "  it(\"recalculates a diamond whatever the order the formulas were typed in\", () => {\n"
           "    const s = new Sheet();\n"
           "    s.set(\"A1\", \"1\");\n"
           "    s.set(\"C1\", \"=A1+B1\");\n"
           "    s.set(\"B1\", \"=A1*10\");\n"
           "    s.set(\"A1\", \"2\");\n"
           "    expect(s.get(\"C1\")).toBe(22);\n"
           "  });\n\n"
           "  it(\"propagates errors from functions\", () => {\n")
    s.bash("npx vitest run",
           "\n RUN  v2.1.9 {{ROOT}}\n\n ❯ test/sheet.test.ts (7 tests | 1 failed) 14ms\n"
           "   × sheet > recalculates a diamond whatever the order the formulas were typed in 5ms\n"
           "     → expected 12 to be 22 // Object.is equality\n\n"
           "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n"
           " FAIL  test/sheet.test.ts > sheet > recalculates a diamond whatever the order the formulas were typed in\n"
           "AssertionError: expected 12 to be 22 // Object.is equality\n\n- Expected\n+ Received\n\n- 22\n+ 12\n\n"
           " ❯ test/sheet.test.ts:44:25\n     42|     s.set(\"B1\", \"=A1*10\");\n     43|     s.set(\"A1\", \"2\");\n"
           "     44|     expect(s.get(\"C1\")).toBe(22);\n       |                         ^\n     45|   });\n\n"
           "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯\n\n"
           " Test Files  1 failed (1)\n      Tests  1 failed | 6 passed (7)\n", fail=True)
    s.read("src/sheet.ts", offset=60, limit=18)
    s.say("Reproduced: C1 is 12, i.e. 2 + the *old* B1 (10).\n\n"
          "`recalculate` walks the dependents breadth-first, in the order they were registered. A1's dependents are "
          "[C1, B1] because C1 was typed first, so C1 is recomputed while B1 still holds 10; then B1 becomes 20, "
          "but C1 is already in `seen` and is never recomputed. It only shows up when a formula is typed before a "
          "cell it reads — hence \"sometimes\". The cells need to be recomputed in topological order (each after "
          "everything it reads); `DependencyGraph.topoOrder` already does that and nothing uses it.")
    s.user("hm. so typing order matters, nice. could we just recalc the whole sheet on every change? simpler, no "
           "ordering to get wrong... no actually forget it, the finance people have 50k-cell sheets, that'd lag on "
           "every keystroke. use the topo thing")
    s.edit("src/sheet.ts",
           "  recalculate(changed: string): void {\n"
           "    const queue = this.graph.dependentsOf(changed);\n"
           "    const seen = new Set(queue);\n"
           "    while (queue.length) {\n"
           "      const key = queue.shift()!;\n"
           "      const cell = this.cells.get(key);\n"
           "      if (cell?.formula) cell.value = this.compute(cell);\n"
           "      for (const d of this.graph.dependentsOf(key)) {\n"
           "        if (!seen.has(d)) {\n"
           "          seen.add(d);\n"
           "          queue.push(d);\n"
           "        }\n"
           "      }\n"
           "    }\n"
           "  }\n",
           "  recalculate(changed: string): void {\n"
           "    // topological order, not breadth-first: a cell is recomputed only after everything it reads\n"
           "    for (const key of this.graph.topoOrder([changed])) {\n"
           "      const cell = this.cells.get(key);\n"
           "      if (cell?.formula) cell.value = this.compute(cell);\n"
           "    }\n"
           "  }\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(7, 11))
    s.say("Fixed. What I did:\n- `recalculate` now iterates `graph.topoOrder([changed])` — every affected cell, "
          "each after its precedents — instead of the breadth-first queue. The diamond test passes; 7/7, tsc "
          "clean.\n- The cost stays proportional to the cells that depend on the edit, not to the sheet, so the "
          "50k-cell sheets are fine.\n- `topoOrder` is recursive; a chain of tens of thousands of cells could hit "
          "the stack limit. Not a problem with today's sheets, just flagging it.")
    s.user("ok cool, makes sense")
    return [s]


@scenario("float-noise-display", SC, "manager-type states outcomes ('customers must never see 0.30000000000000004', "
          "'exports must stay exactly as they are'); the agent acts and reports what it chose and what it did not "
          "(round the stored value, a decimal library), with reasons; 'Good.'",
          [exp("decision", "src/format.ts:formatGeneral", "15 significant digits",
               ["round the stored value", "decimal library"])])
def _float(files):
    s = Session("float-noise-display", "2026-04-08T09:40:00.000Z", files)
    s.user("We had a support ticket with a screenshot of a cell showing 0.30000000000000004. It's embarrassing, and "
           "it was an accounting customer. The outcome I need: customers must never see that kind of number in a "
           "cell. I don't mind how. One constraint: the numbers they export must stay exactly what they are today, "
           "finance reconciles against them.")
    s.read("src/format.ts")
    s.grep("formatGeneral|formatValue", ["src/format.ts", "src/index.ts", "test/sheet.test.ts"])
    s.edit("src/format.ts",
           "  return String(n);\n}\n",
           "  // display only: at most 15 significant digits, as Excel shows; the stored value keeps full precision\n"
           "  return String(Number(n.toPrecision(15)));\n}\n")
    s.edit("test/sheet.test.ts",
           "    expect(formatNumber(42)).toBe(\"42\");\n",
           "    expect(formatNumber(42)).toBe(\"42\");\n"
           "    expect(formatNumber(0.1 + 0.2)).toBe(\"0.3\");\n"
           "    expect(formatNumber(1 / 3)).toBe(\"0.333333333333333\");\n"
           "  });\n\n"
           "  it(\"keeps full precision in the stored value\", () => {\n"
           "    const s = new Sheet();\n"
           "    s.set(\"A1\", \"=0.1+0.2\");\n"
           "    expect(s.get(\"A1\")).toBe(0.1 + 0.2);\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(7))
    s.say("Done — `=0.1+0.2` now displays `0.3`. What I chose and why:\n\n"
          "- **Fixed in the display only.** `formatGeneral` (the default format) now shows at most 15 significant "
          "digits, which is what Excel does, and drops the trailing zeros: `0.1+0.2` shows `0.3`, `1/3` shows "
          "`0.333333333333333`. Explicit patterns like `0.00` were already fine.\n"
          "- **Did not round the stored value.** Rounding inside `evaluate` would change what `Sheet.get` returns, "
          "so exports would change — your constraint — and sums of already-rounded cells drift. A test now pins "
          "that the stored value is untouched.\n"
          "- **Did not switch to a decimal library** (decimal.js or similar): every operator and function would "
          "change, the bundle grows by ~30 kB, and 1/3 still isn't exact. Too much for a display problem.\n\n"
          "tsc clean, 7 tests pass.")
    s.user("Good. That's the outcome I wanted.")
    return [s]


@scenario("reversed-range", SC, "French speaker, formal English; agent asks one yes/no question at a time; the "
          "decision (normalise like Excel, not raise an error) is in the first message, the answers refine it",
          [exp("decision", "src/refs.ts:parseRange", "normalise", ["raise an error"])])
def _range(files):
    s = Session("reversed-range", "2026-04-09T10:05:00.000Z", files)
    s.user("Hello, I have a small bug report from a user: she has written =SUM(B5:A1) and she obtains the error "
           "\"range end before start\". In Excel this works, it is the same as A1:B5. I would like that we normalise "
           "the range like Excel does it, and not raise an error. Can you do it?")
    s.read("src/refs.ts", offset=47, limit=12)
    s.say("Should `B1:A5` — where only the columns are reversed — also become `A1:B5`, i.e. rows and columns each "
          "put in order on their own?")
    s.user("Yes, exactly, in every direction, like Excel.")
    s.say("Should the `$` of each coordinate travel with it (so `$B5:A$1` becomes `A$1:$B5`), rather than stay on "
          "the corner where it was typed?")
    s.user("Yes. The dollar belongs to the column or to the row, not to the corner.")
    s.say("Last one: the formula text keeps what she typed (`B5:A1`) and only the parsed range is normalised — "
          "is that right?")
    s.user("Yes, we do not touch what the user has written.")
    s.edit("src/refs.ts",
           "  const start = parseRef(a);\n"
           "  const end = parseRef(b);\n"
           "  if (end.col < start.col || end.row < start.row) {\n"
           "    throw new Error(`range end before start: ${text}`);\n"
           "  }\n"
           "  return { start, end };\n",
           "  const p = parseRef(a);\n"
           "  const q = parseRef(b);\n"
           "  // B5:A1 is A1:B5, as in Excel: columns and rows are put in order each on its own, $ flags with them\n"
           "  const [c1, c2] = p.col <= q.col ? [p, q] : [q, p];\n"
           "  const [r1, r2] = p.row <= q.row ? [p, q] : [q, p];\n"
           "  return {\n"
           "    start: { col: c1.col, absCol: c1.absCol, row: r1.row, absRow: r1.absRow },\n"
           "    end: { col: c2.col, absCol: c2.absCol, row: r2.row, absRow: r2.absRow },\n"
           "  };\n")
    s.edit("test/sheet.test.ts",
           "    expect(cellsInRange(parseRange(\"A1:B2\"))).toEqual([\"A1\", \"B1\", \"A2\", \"B2\"]);\n  });\n",
           "    expect(cellsInRange(parseRange(\"A1:B2\"))).toEqual([\"A1\", \"B1\", \"A2\", \"B2\"]);\n  });\n\n"
           "  it(\"normalises reversed ranges like Excel\", () => {\n"
           "    expect(parseRange(\"B5:A1\")).toEqual(parseRange(\"A1:B5\"));\n"
           "    expect(parseRange(\"B1:A5\")).toEqual(parseRange(\"A1:B5\"));\n"
           "    expect(parseRange(\"$B5:A$1\")).toEqual(parseRange(\"A$1:$B5\"));\n"
           "  });\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(7))
    s.say("Done. `parseRange` now orders columns and rows independently, each keeping its own `$`, so `B5:A1`, "
          "`B1:A5` and `A5:B1` all mean `A1:B5`; the cell's raw text is untouched. A new test covers the three "
          "cases. tsc clean, 7 tests pass.")
    s.user("Perfect, thank you.")
    return [s]


@scenario("percent-postfix", SC, "agent proposes inline (fold % into the number literal, or a postfix operator; "
          "leans to the first) and asks about a decimal comma; a careful reviewer answers with numbered objections "
          "and a conclusion: postfix operator, pinned precedence, no decimal comma in this change",
          [exp("decision", "src/parser.ts:Parser.parsePostfix", "postfix operator", ["number literal"]),
           exp("boundary", "src/tokenizer.ts:tokenize", "decimal comma")])
def _percent(files):
    s = Session("percent-postfix", "2026-04-14T11:30:00.000Z", files)
    s.user("Users type =A1*15% and get 'unexpected character \"%\" at 5'. Add support for the percent sign. Tell me "
           "the approach first.")
    s.read("src/tokenizer.ts")
    s.read("src/parser.ts", offset=48, limit=25)
    s.say("Two ways to do it. I could either fold `%` into the number literal in the tokenizer — `15%` becomes the "
          "number 0.15, a three-line change and nothing else moves — or tokenize `%` on its own and parse it as a "
          "postfix operator that divides its operand by 100, which also makes `A1%` and `(A1+B1)%` work. The first "
          "is smaller, so I'd go with it unless you need `%` after references.\n\n"
          "While I'm in the tokenizer: should I also accept a decimal comma (`1,5`) for the French and German users "
          "who asked for it last month?")
    s.user("Objections:\n\n"
           "1. Folding it into the number literal makes `15%` and `A1%` behave differently. Excel accepts `A1%`; "
           "people will type it and get a tokenizer error. Inconsistent.\n"
           "2. It throws away information we will want: a cell typed as `=15%` should later default to a percent "
           "format. A literal 0.15 can't tell us that; an AST node can.\n"
           "3. Precedence: I don't need exact Excel parity on `-5%^2`, but `%` binds tighter than `^` and I want a "
           "test that pins whatever we do.\n"
           "4. Decimal comma: no. It collides with `,` as the argument separator, so it needs a locale setting and "
           "`;` between arguments. Not in this change, and not in the tokenizer without a locale design first.\n\n"
           "Conclusion: postfix operator, precedence pinned by a test, no decimal comma.")
    s.edit("src/tokenizer.ts",
           'const OPERATORS = ["<=", ">=", "<>", "+", "-", "*", "/", "^", "&", "=", "<", ">"];\n',
           'const OPERATORS = ["<=", ">=", "<>", "+", "-", "*", "/", "^", "&", "=", "<", ">", "%"];\n')
    s.edit("src/tokenizer.ts",
           "export function tokenize(src: string): Token[] {\n",
           "// No decimal comma: \",\" is the argument separator; accepting \"1,5\" needs a locale design first.\n"
           "export function tokenize(src: string): Token[] {\n")
    s.edit("src/parser.ts",
           "      return { type: \"unary\", op: t.text, arg: this.parseUnary() };\n"
           "    }\n"
           "    return this.parsePrimary();\n"
           "  }\n",
           "      return { type: \"unary\", op: t.text, arg: this.parseUnary() };\n"
           "    }\n"
           "    return this.parsePostfix();\n"
           "  }\n\n"
           "  /** `15%`, `A1%`, `(A1+B1)%`: a postfix operator (divide by 100), tighter than `^` and unary minus. */\n"
           "  parsePostfix(): Node {\n"
           "    let node = this.parsePrimary();\n"
           "    while (this.peek()?.kind === \"op\" && this.peek()!.text === \"%\") {\n"
           "      this.i++;\n"
           "      node = { type: \"unary\", op: \"%\", arg: node };\n"
           "    }\n"
           "    return node;\n"
           "  }\n")
    s.read("src/evaluator.ts", offset=75, limit=6)
    s.edit("src/evaluator.ts",
           "      return node.op === \"-\" ? -toNumber(v) : toNumber(v);\n",
           "      if (node.op === \"%\") return toNumber(v) / 100;\n"
           "      return node.op === \"-\" ? -toNumber(v) : toNumber(v);\n")
    s.edit("test/sheet.test.ts",
           "  it(\"respects precedence and right-associative ^\", () => {\n",
           "  it(\"parses % as a postfix operator, tighter than ^ and unary minus\", () => {\n"
           "    const s = new Sheet();\n"
           "    s.set(\"A1\", \"200\");\n"
           "    s.set(\"B1\", \"=A1*15%\");\n"
           "    s.set(\"B2\", \"=A1%\");\n"
           "    s.set(\"B3\", \"=(A1+100)%\");\n"
           "    s.set(\"B4\", \"=-5%^2\");\n"
           "    expect(s.get(\"B1\")).toBe(30);\n"
           "    expect(s.get(\"B2\")).toBe(2);\n"
           "    expect(s.get(\"B3\")).toBe(3);\n"
           "    expect(s.get(\"B4\")).toBeCloseTo(0.0025);\n"
           "    expect(parseFormula(\"2^50%\")).toMatchObject({ op: \"^\", right: { type: \"unary\", op: \"%\" } });\n"
           "  });\n\n"
           "  it(\"respects precedence and right-associative ^\", () => {\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(7, 12))
    s.say("Done, per your conclusion:\n- `%` is an operator token; `Parser.parsePostfix` wraps the primary in a "
          "`unary %` node (divide by 100), so `15%`, `A1%` and `(A1+100)%` all work, and the node is there for a "
          "future percent default format.\n- Precedence pinned by the new test: `%` binds tighter than `^` "
          "(`2^50%` is `2^(0.5)`), and unary minus applies before `^`, so `-5%^2` = 0.0025, the same as Excel.\n"
          "- No decimal comma; a one-line comment above `tokenize` says why.\n\ntsc clean, 7 tests pass.")
    s.user("Fine.")
    return [s]


@scenario("errors-are-values", SC, "verbose message: release notes, then the rule mid-paragraph (an error is a "
          "value, nothing throws out of the evaluator), then an unrelated question about ES2020; a week later the "
          "agent writes throwing SQRT/MOD and is corrected with the same rule in other words, in other code",
          [exp("invariant", "src/*.ts", "nothing throws")])
def _errors(files):
    s = Session("errors-are-values-1", "2026-04-20T08:45:00.000Z", files)
    s.user("Morning! A few things, sorry for the wall of text. First, the release notes for 0.6.3 still need the "
           "format fixes listed, I'll do that myself this afternoon, ignore. Second, and this is the real one: a "
           "user put =1/0 in a cell of the shared budget sheet and the whole sheet stopped recalculating — the "
           "worker logs show 'Uncaught Error: division by zero' coming out of evaluate(). That can't happen. An "
           "error in a cell is a value like any other: 1/0 is #DIV/0!, \"abc\"*2 is #VALUE!, it flows into "
           "whatever reads that cell, and nothing throws out of the evaluator, ever — one thrown exception takes "
           "the recalc loop down for everyone on the sheet. Please fix division and whatever else you find that "
           "throws. Third, unrelated: Marta asks whether we could ship ES2020 output for an old Electron app. "
           "Don't touch tsconfig, I'm only asking if you know off-hand whether anything we use needs ES2022. "
           "Thanks!")
    s.read("src/evaluator.ts")
    s.grep("throw ", ["src/evaluator.ts", "src/functions.ts", "src/parser.ts", "src/refs.ts", "src/tokenizer.ts"])
    s.say("The parser, tokenizer and refs throw too, but those run in `setFormula`, which already turns a parse "
          "failure into a `#NAME?` value. The ones that escape during recalculation are in `evaluate`: the "
          "division, `toNumber` on text, and anything a function throws (`arity` in `functions.ts`). Fixing those.")
    s.edit("src/evaluator.ts",
           "export function toText(v: Value): string {\n",
           "/** toNumber, with #VALUE! instead of an exception for text that isn't a number. */\n"
           "export function asNumber(v: Value): number | CellError {\n"
           "  try {\n"
           "    return toNumber(v);\n"
           "  } catch {\n"
           "    return new CellError(\"#VALUE!\", String(v));\n"
           "  }\n"
           "}\n\n"
           "export function toText(v: Value): string {\n")
    s.edit("src/evaluator.ts",
           "      if (!fn) return new CellError(\"#NAME?\", node.name);\n"
           "      return fn(node.args.map((a) => evaluate(a, ctx)));\n",
           "      if (!fn) return new CellError(\"#NAME?\", node.name);\n"
           "      try {\n"
           "        return fn(node.args.map((a) => evaluate(a, ctx)));\n"
           "      } catch (e) {\n"
           "        // errors are cell values: a function that throws yields #VALUE!, never an exception out of here\n"
           "        return new CellError(\"#VALUE!\", (e as Error).message);\n"
           "      }\n")
    s.edit("src/evaluator.ts",
           "      return node.op === \"-\" ? -toNumber(v) : toNumber(v);\n",
           "      const n = asNumber(v);\n"
           "      if (isError(n)) return n;\n"
           "      return node.op === \"-\" ? -n : n;\n")
    s.edit("src/evaluator.ts",
           "      const x = toNumber(a);\n      const y = toNumber(b);\n",
           "      const x = asNumber(a);\n      if (isError(x)) return x;\n"
           "      const y = asNumber(b);\n      if (isError(y)) return y;\n")
    s.edit("src/evaluator.ts",
           "          if (y === 0) throw new Error(\"division by zero\");\n",
           "          if (y === 0) return new CellError(\"#DIV/0!\");\n")
    s.edit("test/sheet.test.ts",
           "  it(\"propagates errors from functions\", () => {\n",
           "  it(\"turns failures into error values instead of throwing\", () => {\n"
           "    const s = new Sheet();\n"
           "    s.set(\"A1\", \"=1/0\");\n"
           "    s.set(\"A2\", \"=\\\"abc\\\"*2\");\n"
           "    s.set(\"A3\", \"=ABS(1, 2)\");\n"
           "    s.set(\"A4\", \"=A1+1\");\n"
           "    expect([\"A1\", \"A2\", \"A3\", \"A4\"].map((k) => String(s.get(k)))).toEqual([\n"
           "      \"#DIV/0!\", \"#VALUE!\", \"#VALUE!\", \"#DIV/0!\",\n"
           "    ]);\n"
           "  });\n\n"
           "  it(\"propagates errors from functions\", () => {\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(7))
    s.say("Fixed: `1/0` gives `#DIV/0!`, arithmetic on text gives `#VALUE!` (new `asNumber`), and a function that "
          "throws — wrong argument count, or a bug — gives `#VALUE!` instead of escaping `evaluate`. Errors flow "
          "into the cells that read them (the test has `=A1+1` over `#DIV/0!`). tsc clean, 7 tests pass.\n\n"
          "On ES2020: nothing we call at runtime is newer than ES2019 (`flatMap`); we use `??`/`?.` (ES2020) and "
          "class fields, which are ES2022 syntax but tsc lowers them when the target is ES2020. So an ES2020 "
          "build should work; I haven't changed tsconfig.")
    s.user("Great, thanks. I'll tell Marta.")

    t = Session("errors-are-values-2", "2026-04-27T14:12:00.000Z", files)
    t.user("add SQRT and MOD to functions.ts pls, Excel semantics (MOD takes the sign of the divisor)")
    t.read("src/functions.ts", offset=20, limit=60)
    t.edit("src/functions.ts",
           "  CONCAT: (args) => {\n",
           "  SQRT: (args) => {\n"
           "    arity(\"SQRT\", args, 1);\n"
           "    const v = args[0];\n"
           "    if (Array.isArray(v)) return new CellError(\"#VALUE!\");\n"
           "    if (isError(v)) return v;\n"
           "    const x = toNumber(v);\n"
           "    if (x < 0) throw new RangeError(\"SQRT of a negative number\");\n"
           "    return Math.sqrt(x);\n"
           "  },\n"
           "  MOD: (args) => {\n"
           "    arity(\"MOD\", args, 2);\n"
           "    const [a, b] = args;\n"
           "    if (Array.isArray(a) || Array.isArray(b)) return new CellError(\"#VALUE!\");\n"
           "    if (isError(a)) return a;\n"
           "    if (isError(b)) return b;\n"
           "    const d = toNumber(b);\n"
           "    if (d === 0) throw new RangeError(\"MOD by zero\");\n"
           "    const n = toNumber(a);\n"
           "    return n - d * Math.floor(n / d);\n"
           "  },\n"
           "  CONCAT: (args) => {\n")
    t.user("no — SQRT(-1) is #NUM! and MOD(x, 0) is #DIV/0!, returned as values. same deal as the 1/0 thing last "
           "week: errors are what the cell holds, nothing throws out of the evaluator. don't lean on the catch in "
           "evaluate either, that one is a safety net and it would say #VALUE!, which is the wrong error")
    t.edit("src/functions.ts",
           "    if (x < 0) throw new RangeError(\"SQRT of a negative number\");\n",
           "    if (x < 0) return new CellError(\"#NUM!\", \"SQRT of a negative number\");\n")
    t.edit("src/functions.ts",
           "    if (d === 0) throw new RangeError(\"MOD by zero\");\n",
           "    if (d === 0) return new CellError(\"#DIV/0!\", \"MOD by zero\");\n")
    t.edit("test/sheet.test.ts",
           "  it(\"propagates errors from functions\", () => {\n",
           "  it(\"SQRT and MOD return error values\", () => {\n"
           "    const s = new Sheet();\n"
           "    s.set(\"A1\", \"=SQRT(16)\");\n"
           "    s.set(\"A2\", \"=SQRT(-1)\");\n"
           "    s.set(\"A3\", \"=MOD(-7, 3)\");\n"
           "    s.set(\"A4\", \"=MOD(7, 0)\");\n"
           "    expect([\"A1\", \"A2\", \"A3\", \"A4\"].map((k) => String(s.get(k)))).toEqual([\"4\", \"#NUM!\", \"2\", \"#DIV/0!\"]);\n"
           "  });\n\n"
           "  it(\"propagates errors from functions\", () => {\n")
    t.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(8))
    t.say("Right — both now return the error as a value: `SQRT(-1)` → `#NUM!`, `MOD(7, 0)` → `#DIV/0!`; "
          "`MOD(-7, 3)` is 2 (sign of the divisor). New test covers both. tsc clean, 8 tests pass.")
    t.user("👍")
    return [s, t]


@scenario("review-graph", SC, "a review of graph.ts with 'should' suggestions (iterative DFS, empty sets, "
          "dedupe); the person opens tickets instead, nothing is changed", [])
def _review(files):
    s = Session("review-graph", "2026-04-22T15:50:00.000Z", files)
    s.user("can you review graph.ts? I'm about to build incremental recalc on top of it and want to know what "
           "worries you before I do. don't change anything")
    s.read("src/graph.ts")
    s.grep("graph\\.", ["src/sheet.ts"])
    s.say("Read it with the incremental work in mind. In order of how much they'd worry me:\n\n"
          "1. **Recursion depth.** `findCycle` and `topoOrder` both recurse once per cell on a path. A column where "
          "each cell reads the one above (`=A1+1` down 20,000 rows) is a 20,000-deep recursion — past V8's default "
          "stack. Both should be iterative with an explicit stack before sheets like that are common.\n"
          "2. **`findCycle` is called from the start cell only.** Fine for detecting a new loop at edit time, but "
          "an incremental scheme that wants \"all cells currently on a cycle\" would need Tarjan's SCC instead.\n"
          "3. **Empty sets are never deleted.** `clear` removes the cell from each precedent's dependents but "
          "leaves empty `Set`s in `dependents`; on a sheet where people paste and delete a lot, the map only "
          "grows. Should delete the key when the set becomes empty.\n"
          "4. **`precedentsOf`/`dependentsOf` copy.** Each call spreads the set into a new array. Harmless now, "
          "but in a hot incremental loop you'd want an iterator.\n"
          "5. **Ranges are expanded into single cells** before they reach the graph (`SUM(A1:A50000)` is 50,000 "
          "edges). A range-aware edge type would make both memory and `setDependencies` much cheaper.\n\n"
          "None of these is a bug today.")
    s.user("ok, good list, thanks. 1 and 5 I'll make tickets for, the rest can wait. nothing now")
    return [s]


@scenario("recalc-speed-then-lint", SC, "the agent proposes a plan for faster recalculation that is not adopted "
          "('let me think about it'); then a process instruction (run the linter, fix what it says); no decision",
          [])
def _plan(files):
    s = Session("recalc-speed-then-lint", "2026-04-24T16:05:00.000Z", files)
    s.user("recalc on the 50k-cell budget sheet takes ~2s after every edit. what are our options? don't change "
           "anything yet")
    s.read("src/sheet.ts")
    s.read("src/graph.ts", offset=50, limit=27)
    s.say("Where the time likely goes, and what I'd do about each:\n\n"
          "1. **Range expansion on every edit.** `setFormula` expands each range into cell keys (`SUM(B2:B40000)` "
          "is 40,000 strings) and `setDependencies` rebuilds all those edges. Caching the expansion per range "
          "text, or storing ranges in the graph as ranges, would cut most of it.\n"
          "2. **Recalc on the main thread.** Moving `Sheet` into a Web Worker wouldn't make it faster, but the UI "
          "would stop freezing; the cost is an async API for every read.\n"
          "3. **Eager recalculation.** Marking dependents dirty and evaluating only the cells on screen (lazily, "
          "on read) would help most on wide sheets, but it changes `get()` semantics and touches everything.\n\n"
          "If it were me I'd profile first, then start with 1: it's local to `sheet.ts`/`graph.ts` and "
          "probably the bulk of the 2 s.")
    s.user("hmm ok. let me think about it, I need to talk to Ana about the worker idea anyway. for now just run the "
           "linter and fix whatever it complains about, I want a clean CI before the release")
    s.bash("npm run lint",
           "\n> sheetcalc@0.6.2 lint\n> eslint src test\n\n\n{{ROOT}}/src/functions.ts\n"
           "  12:7  error  'out' is never reassigned. Use 'const' instead  prefer-const\n\n"
           "✖ 1 problem (1 error, 0 warnings)\n"
           "  1 error and 0 warnings potentially fixable with the `--fix` option.\n", fail=True)
    s.edit("src/functions.ts", "  let out: number[] = [];\n", "  const out: number[] = [];\n")
    s.bash("npm run lint && npx vitest run", "\n> sheetcalc@0.6.2 lint\n> eslint src test\n\n" + vitest_ok(6))
    s.say("Lint had one error (`prefer-const` in `functions.ts`); fixed, lint clean, 6 tests pass.")
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
    (HERE / "expected.json").write_text(json.dumps({"set": "tune13", "scenarios": out}, indent=2,
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
