"""Writes the tune9 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``mailq`` (Python, an outbound email queue) and
``canvaspaint`` (TypeScript, a small paint app core). Sessions are written with the ``Session``
builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py`` after changing a
scenario (outputs are committed). ``python3 build.py --check`` also replays every scenario on a copy
of its repository (every edit must apply) and checks, with tether's own parser, that every expected
anchor names a definition of the final state, and that every key phrase and rejected phrase occurs in
the sessions' text.
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


def pytest_out(passed: int, secs: str = "0.11", failed: list[str] | None = None, body: str = "") -> str:
    """pytest's output for tests/test_mailq.py."""
    head = ("============================= test session starts ==============================\n"
            "platform linux -- Python 3.12.3, pytest-8.3.3, pluggy-1.5.0\n"
            "rootdir: /home/dev/src/mailq\nconfigfile: pyproject.toml\n"
            f"collected {passed + len(failed or [])} items\n\n")
    dots = "." * passed + "F" * len(failed or [])
    line = f"tests/test_mailq.py {dots}"
    line += " " * max(1, 74 - len(line)) + "[100%]\n"
    if not failed:
        tail = f" {passed} passed in {secs}s "
        return head + line + "\n" + tail.center(80, "=")
    summary = "".join(f"FAILED tests/test_mailq.py::{f}\n" for f in failed)
    tail = f" {len(failed)} failed, {passed} passed in {secs}s "
    return (head + line + "\n" + " FAILURES ".center(80, "=") + "\n" + body + "\n"
            + " short test summary info ".center(80, "=") + "\n" + summary + tail.center(80, "="))


def vitest_out(passed: int, ms: int = 14, clock: str = "10:02:11") -> str:
    return (f" RUN  v2.1.4 /home/dev/canvaspaint\n\n ✓ test/paint.test.ts ({passed} tests) {ms}ms\n\n"
            f" Test Files  1 passed (1)\n      Tests  {passed} passed ({passed})\n   Start at  {clock}\n"
            f"   Duration  {380 + ms}ms (transform 64ms, setup 0ms, collect 71ms, tests {ms}ms, environment 0ms, "
            f"prepare 102ms)")


# -- mailq (Python) ------------------------------------------------------------------------------------------

MQ = "mailq"


@scenario("bounce-suppression-question", MQ,
          "maintainer states a project-wide logging rule up front; the agent does the work and ends a long "
          "report with a question (soft bounces count too, or only hard bounces?); the answer is given politely "
          "and indirectly ('I'd rather we didn't … could we maybe count only hard bounces')",
          [exp("invariant", "mailq/*.py", "full address"),
           exp("decision", "mailq/bounces.py:BounceTracker.record", "only hard bounces",
               ["soft bounces count too"])])
def _bounces(files):
    s = Session("bounce-suppression-question", "2027-01-11T09:02:00.000Z", files)
    s.user("Hello! Could you take a look at bounce handling when you have a moment? At the moment `BounceTracker` "
           "only counts, and nothing ever acts on the counts, so we keep mailing addresses that have been dead for "
           "months — our relay provider sent a gentle warning about it last week. What I'd like is for an address "
           "that bounces repeatedly to end up suppressed, so the queue stops accepting mail for it.\n\n"
           "One ground rule before you start, because it has bitten us before: we never log a recipient's full "
           "address. Please mask the local part (a***@example.com or similar) in anything that goes to the logs. "
           "It's a GDPR thing and it applies everywhere in mailq, not just in the bounce code.")
    s.read("mailq/bounces.py")
    s.read("mailq/queue.py")
    s.read("mailq/unsubscribe.py", text="Let me also look at how the unsubscribe list is kept, since suppression "
                                        "is a similar kind of list.")
    s.say("`BounceTracker.record` currently logs `bounce.address` in full — that's the first thing to fix under "
          "your rule. Plan: a small `mask()` helper in `bounces.py`, a threshold (default 3) after which the "
          "tracker adds the address to a `suppressed` set, and `OutboundQueue.enqueue` refusing suppressed "
          "addresses the same way it refuses unsubscribed ones. I'll also give the queue a `handle_dsn()` entry "
          "point so the bounce mailbox poller has one call to make.")
    s.edit("mailq/bounces.py",
           "class BounceTracker:\n"
           "    \"\"\"Counts bounces per address.\"\"\"\n\n"
           "    def __init__(self):\n"
           "        self.counts: dict[str, int] = {}\n\n"
           "    def record(self, bounce: Bounce) -> None:\n"
           "        self.counts[bounce.address] = self.counts.get(bounce.address, 0) + 1\n"
           "        log.info(\"bounce %s for %s\", bounce.status, bounce.address)\n\n"
           "    def count(self, address: str) -> int:\n",
           "def mask(address: str) -> str:\n"
           "    \"\"\"``alice@example.com`` -> ``a***@example.com``: all the logs may show of an address.\"\"\"\n"
           "    local, _, domain = address.rpartition(\"@\")\n"
           "    if not local:\n"
           "        return \"***\"\n"
           "    return f\"{local[0]}***@{domain}\"\n\n\n"
           "class BounceTracker:\n"
           "    \"\"\"Counts bounces per address; an address that reaches ``threshold`` is suppressed.\"\"\"\n\n"
           "    def __init__(self, threshold: int = 3):\n"
           "        self.threshold = threshold\n"
           "        self.counts: dict[str, int] = {}\n"
           "        self.suppressed: set[str] = set()\n\n"
           "    def record(self, bounce: Bounce) -> bool:\n"
           "        \"\"\"Count ``bounce``; True if it got its address suppressed.\"\"\"\n"
           "        self.counts[bounce.address] = self.counts.get(bounce.address, 0) + 1\n"
           "        log.info(\"bounce %s for %s\", bounce.status, mask(bounce.address))\n"
           "        if bounce.address in self.suppressed or self.counts[bounce.address] < self.threshold:\n"
           "            return False\n"
           "        self.suppressed.add(bounce.address)\n"
           "        log.warning(\"suppressing %s after %d bounces\", mask(bounce.address), self.counts[bounce.address])\n"
           "        return True\n\n"
           "    def is_suppressed(self, address: str) -> bool:\n"
           "        return address.lower() in self.suppressed\n\n"
           "    def count(self, address: str) -> int:\n")
    s.edit("mailq/queue.py", "from mailq.bounces import BounceTracker\n",
           "from mailq.bounces import BounceTracker, parse_dsn\n")
    s.edit("mailq/queue.py",
           "        if message.to in self.unsubscribed:\n            return False\n"
           "        self.pending.append(message)\n        return True\n",
           "        if message.to in self.unsubscribed or self.bounces.is_suppressed(message.to):\n"
           "            return False\n"
           "        self.pending.append(message)\n        return True\n\n"
           "    def handle_dsn(self, text: str) -> bool:\n"
           "        \"\"\"Feed a bounce report (DSN) to the tracker; True if its address is now suppressed.\"\"\"\n"
           "        bounce = parse_dsn(text)\n"
           "        if bounce is None:\n"
           "            return False\n"
           "        return self.bounces.record(bounce)\n")
    s.edit("tests/test_mailq.py", "from mailq.bounces import BounceTracker, parse_dsn\n",
           "from mailq.bounces import BounceTracker, mask, parse_dsn\n")
    s.edit("tests/test_mailq.py",
           "    q.run_once()\n    assert len(q.dead) == 1 and not q.pending\n",
           "    q.run_once()\n    assert len(q.dead) == 1 and not q.pending\n\n\n"
           "HARD = \"Final-Recipient: rfc822; dead@x.com\\nAction: failed\\nStatus: 5.1.1\\n\"\n\n\n"
           "def test_repeated_bounces_suppress_address(caplog):\n"
           "    q = OutboundQueue(FakeSender())\n"
           "    assert [q.handle_dsn(HARD) for _ in range(3)] == [False, False, True]\n"
           "    assert not q.enqueue(Message(\"dead@x.com\", \"s\", \"b\"))\n"
           "    assert \"dead@x.com\" not in caplog.text\n\n\n"
           "def test_mask():\n"
           "    assert mask(\"alice@example.com\") == \"a***@example.com\"\n")
    s.bash("python -m pytest", pytest_out(11, "0.12"))
    s.grep(r"log\.(info|warning|error|debug)\(", ["mailq/bounces.py"],
           text="Checking whether anything else in mailq logs an address.")
    s.say("Done — 11 tests pass. Here's what changed and why.\n\n"
          "**Masking (your ground rule).** `bounces.mask()` turns `alice@example.com` into `a***@example.com`; "
          "both log lines in `BounceTracker` now go through it. I grepped for other logging calls: `bounces.py` is "
          "the only module in mailq that logs at all today, so there was nothing else to fix, but `mask()` is "
          "importable for whoever adds logging to the sender or the queue later. The new test asserts the full "
          "address never shows up in the captured log.\n\n"
          "**Suppression.** `BounceTracker` takes a `threshold` (default 3). When an address reaches it, it goes "
          "into `tracker.suppressed`, `record()` returns True exactly once (so the caller can e.g. emit a metric), "
          "and a warning is logged with the masked address. Suppression lives in memory like the counts do; "
          "persisting it would mean the same JSON-file approach as `UnsubscribeList`, which I didn't want to do "
          "without asking since it changes deployment (one more file to mount).\n\n"
          "**Queue.** `OutboundQueue.enqueue` now refuses suppressed addresses the same way it refuses "
          "unsubscribed ones (returns False), and there's a new `OutboundQueue.handle_dsn(text)` that parses a "
          "DSN with `parse_dsn` and feeds it to the tracker — that's the one call the bounce-mailbox poller needs "
          "to make. Messages already in `pending` for an address that gets suppressed are not pulled out; they'll "
          "go once more and most likely bounce again.\n\n"
          "**Tests.** `test_repeated_bounces_suppress_address` (three hard bounces → suppressed, enqueue refused, "
          "no full address in the log) and `test_mask`.\n\n"
          "One question before I call this done: right now every bounce counts toward the threshold, hard "
          "(5.x.x) and soft (4.x.x) alike, so a mailbox that was full three times in a row gets suppressed just "
          "like one that doesn't exist. Should soft bounces count too, or only hard bounces?")
    s.user("Thank you, this reads really well, and thanks for checking the other modules for logging.\n\n"
           "On your question at the end — I'd rather we didn't suppress someone just because their mailbox was "
           "full over a long weekend; that happened to a couple of our own volunteers last year and they were "
           "quite cross. Could we maybe count only hard bounces toward the threshold and leave the soft ones to "
           "the retry logic? Logging the soft ones is fine (masked, as you did). The in-memory suppression is "
           "fine for now too.")
    s.edit("mailq/bounces.py",
           "    def record(self, bounce: Bounce) -> bool:\n"
           "        \"\"\"Count ``bounce``; True if it got its address suppressed.\"\"\"\n"
           "        self.counts[bounce.address] = self.counts.get(bounce.address, 0) + 1\n"
           "        log.info(\"bounce %s for %s\", bounce.status, mask(bounce.address))\n",
           "    def record(self, bounce: Bounce) -> bool:\n"
           "        \"\"\"Count a hard bounce; True if it got its address suppressed. Soft (4.x.x) bounces are\n"
           "        only logged: a full mailbox is the retry schedule's business, not a reason to suppress.\"\"\"\n"
           "        log.info(\"bounce %s for %s\", bounce.status, mask(bounce.address))\n"
           "        if not bounce.hard:\n"
           "            return False\n"
           "        self.counts[bounce.address] = self.counts.get(bounce.address, 0) + 1\n")
    s.edit("tests/test_mailq.py",
           "def test_bounce_tracker_counts():\n"
           "    tr = BounceTracker()\n"
           "    tr.record(parse_dsn(\"Final-Recipient: rfc822; c@x.com\\nStatus: 4.2.2\\n\"))\n"
           "    assert tr.count(\"C@x.com\") == 1\n",
           "def test_bounce_tracker_counts_hard_bounces_only():\n"
           "    tr = BounceTracker()\n"
           "    tr.record(parse_dsn(\"Final-Recipient: rfc822; c@x.com\\nStatus: 4.2.2\\n\"))\n"
           "    assert tr.count(\"c@x.com\") == 0\n"
           "    tr.record(parse_dsn(\"Final-Recipient: rfc822; c@x.com\\nStatus: 5.1.1\\n\"))\n"
           "    assert tr.count(\"C@x.com\") == 1\n")
    s.bash("python -m pytest", pytest_out(11, "0.11"))
    s.say("Done: only hard (5.x.x) bounces count toward the threshold now; soft ones are logged (masked) and "
          "otherwise left to the retry schedule. The old `test_bounce_tracker_counts` counted a 4.2.2, so I "
          "turned it into `test_bounce_tracker_counts_hard_bounces_only`. 11 passed.")
    s.user("Lovely, thank you!")
    return [s]


@scenario("retry-backoff-plan-yes", MQ,
          "game-dev reports lockstep retries in caps; the agent's plan picks full jitter and names the rejected "
          "alternatives (a fixed schedule, equal jitter); the person answers only 'yes'",
          [exp("decision", "mailq/retry.py:next_delay", "full jitter", ["fixed schedule", "equal jitter"])])
def _backoff(files):
    s = Session("retry-backoff-plan-yes", "2027-01-12T16:40:00.000Z", files)
    s.user("retries are hammering the relay after evry outage. relay was down 10 min last night and when it came "
           "back EVERY failed msg retried at the SAME second, then again 120s later, all of them. we got rate "
           "limited for an hour. fix the backoff")
    s.read("mailq/retry.py")
    s.read("mailq/queue.py", offset=49, limit=14)
    s.say("Here's what's happening and what I'd do.\n\n"
          "`next_delay` is linear and deterministic — 60s × (attempts + 1) — and `_failed` sets "
          "`not_before = now + next_delay(...)`. Every message that failed during the outage failed within the "
          "same run, so they all get the same `not_before` and come back together, every time.\n\n"
          "Plan:\n"
          "1. `next_delay` becomes exponential: 60s × 2^attempts, capped at one hour (`MAX_DELAY`).\n"
          "2. **Full jitter** on top: the delay is uniform between 0 and that capped value. That's what actually "
          "breaks up the herd. I considered a fixed schedule (1m, 5m, 30m, 2h, like Postfix's queue), but a fixed "
          "schedule keeps them in lockstep just the same — everything that failed in the same second comes back "
          "in the same second. Equal jitter (half the delay fixed, half random) is the middle ground and keeps a "
          "guaranteed minimum wait; I'd go with full jitter since spreading the load is the whole point here, and "
          "a 4xx relay doesn't need a minimum.\n"
          "3. `next_delay` takes an optional `rng` so tests can seed it; `describe()` (the admin page text) says "
          "\"within N s\" instead of an exact time.\n"
          "4. Replace the \"grows\" test (it compares two random numbers now) with one that checks the range and "
          "the cap over a seeded sample.\n\n"
          "Go ahead?")
    s.user("yes")
    s.edit("mailq/retry.py", "import re\n\nMAX_ATTEMPTS = 5\nBASE_DELAY = 60.0\n",
           "import random\nimport re\n\nMAX_ATTEMPTS = 5\nBASE_DELAY = 60.0\nMAX_DELAY = 3600.0\n")
    s.edit("mailq/retry.py",
           "def next_delay(attempts: int) -> float:\n"
           "    \"\"\"Seconds to wait before attempt number ``attempts + 1``.\"\"\"\n"
           "    if attempts >= MAX_ATTEMPTS:\n"
           "        raise GiveUp(f\"gave up after {attempts} attempts\")\n"
           "    return BASE_DELAY * (attempts + 1)\n",
           "def _cap(attempts: int) -> float:\n"
           "    return min(MAX_DELAY, BASE_DELAY * 2 ** attempts)\n\n\n"
           "def next_delay(attempts: int, rng: random.Random | None = None) -> float:\n"
           "    \"\"\"Seconds to wait before attempt number ``attempts + 1``: exponential backoff capped at\n"
           "    MAX_DELAY, with full jitter (uniform in [0, cap]) so that messages which failed together (a relay\n"
           "    outage) do not all come back in the same second.\"\"\"\n"
           "    if attempts >= MAX_ATTEMPTS:\n"
           "        raise GiveUp(f\"gave up after {attempts} attempts\")\n"
           "    return (rng or random).uniform(0, _cap(attempts))\n")
    s.edit("mailq/retry.py",
           "    return f\"next try in {next_delay(attempts):.0f}s, {left} attempt{'s' if left != 1 else ''} left\"\n",
           "    return f\"next try within {_cap(attempts):.0f}s, {left} attempt{'s' if left != 1 else ''} left\"\n")
    s.edit("tests/test_mailq.py", "import pytest\n", "import random\n\nimport pytest\n")
    s.edit("tests/test_mailq.py",
           "def test_next_delay_grows_and_gives_up():\n"
           "    assert next_delay(0) < next_delay(3)\n"
           "    with pytest.raises(GiveUp):\n"
           "        next_delay(5)\n",
           "def test_next_delay_is_jittered_under_the_cap():\n"
           "    rng = random.Random(7)\n"
           "    for attempts in range(5):\n"
           "        cap = min(3600.0, 60.0 * 2 ** attempts)\n"
           "        delays = [next_delay(attempts, rng) for _ in range(200)]\n"
           "        assert all(0 <= d <= cap for d in delays)\n"
           "        assert max(delays) > cap * 0.8 and min(delays) < cap * 0.2\n\n\n"
           "def test_next_delay_gives_up():\n"
           "    with pytest.raises(GiveUp):\n"
           "        next_delay(5)\n")
    s.bash("python -m pytest -q", "..........                                                               [100%]\n"
                                  "10 passed in 0.10s")
    s.say("Done. `next_delay` is now exponential (60s, 120s, 240s, … capped at 1h) with full jitter, seedable "
          "through `rng`; `describe()` says \"within N s\". The old monotonic test is replaced by a seeded range "
          "check plus a separate give-up test. 10 passed.\n\n"
          "`test_temporary_failure_is_retried_later` still advances the clock by an hour, which is above the cap "
          "for the first retry, so it stays deterministic.")
    return [s]


@scenario("unsubscribe-at-send-time", MQ,
          "maintainer sets a rule for the queue (the unsubscribe list is checked right before sending, on every "
          "path); the agent's test fails and it finds why (an empty UnsubscribeList is falsy, so `or` replaced it); "
          "in a later session the agent writes flush() without the check and is corrected with the same rule "
          "in other words",
          [exp("invariant", "mailq/queue.py:OutboundQueue", "unsubscribe list"),
           exp("gotcha", "mailq/queue.py:OutboundQueue.__init__", "falsy")])
def _unsub(files):
    s = Session("unsubscribe-at-send-time-1", "2027-01-14T10:05:00.000Z", files)
    s.user("Hi — a subscriber wrote in, rather upset, that she got our newsletter a day after clicking "
           "unsubscribe. I suspect the message was already sitting in the queue (we had a slow week with the "
           "relay) and we only look at the list in `enqueue`. Could we maybe check the list again right before "
           "handing a message to the sender? I'd like this to be a firm rule for the queue: nothing goes out to "
           "an address that is on the unsubscribe list at the moment of sending, however long it sat in the "
           "queue.")
    s.read("mailq/queue.py")
    s.say("Your reading is right: `enqueue` checks `self.unsubscribed`, `run_once` never does. I'll check again at "
          "the top of the loop in `run_once`, before the throttle (so an unsubscribed address doesn't use up a "
          "throttle slot), and move such messages to a new `dropped` list rather than `dead`, so the admin page "
          "can tell \"refused by the relay\" from \"we chose not to send\".")
    s.edit("mailq/queue.py", "        self.sent: list[Message] = []\n",
           "        self.sent: list[Message] = []\n        self.dropped: list[Message] = []\n")
    s.edit("mailq/queue.py",
           "        for message in self.due():\n            if not self.throttle.allow(message.to):\n",
           "        for message in self.due():\n"
           "            # checked again here, not only in enqueue: people unsubscribe while mail sits in the queue\n"
           "            if message.to in self.unsubscribed:\n"
           "                self.pending.remove(message)\n"
           "                self.dropped.append(message)\n"
           "                continue\n"
           "            if not self.throttle.allow(message.to):\n")
    s.edit("tests/test_mailq.py",
           "def test_temporary_failure_is_retried_later():\n",
           "def test_unsubscribe_while_queued_is_not_sent():\n"
           "    unsub = UnsubscribeList()\n"
           "    sender = FakeSender()\n"
           "    q = OutboundQueue(sender, unsubscribed=unsub)\n"
           "    q.enqueue(Message(\"late@x.com\", \"s\", \"b\"))\n"
           "    unsub.add(\"Late@X.com\")\n"
           "    assert q.run_once() == 0\n"
           "    assert not sender.delivered and len(q.dropped) == 1\n\n\n"
           "def test_temporary_failure_is_retried_later():\n")
    s.bash("python -m pytest -q",
           ".......F..                                                               [100%]\n"
           "=================================== FAILURES ===================================\n"
           "__________________ test_unsubscribe_while_queued_is_not_sent ___________________\n\n"
           "    def test_unsubscribe_while_queued_is_not_sent():\n"
           "        unsub = UnsubscribeList()\n"
           "        sender = FakeSender()\n"
           "        q = OutboundQueue(sender, unsubscribed=unsub)\n"
           "        q.enqueue(Message(\"late@x.com\", \"s\", \"b\"))\n"
           "        unsub.add(\"Late@X.com\")\n"
           ">       assert q.run_once() == 0\n"
           "E       assert 1 == 0\n"
           "E        +  where 1 = run_once()\n"
           "E        +    where run_once = <mailq.queue.OutboundQueue object at 0x7fa4fb4da150>.run_once\n\n"
           "tests/test_mailq.py:82: AssertionError\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_mailq.py::test_unsubscribe_while_queued_is_not_sent - asser...\n"
           "1 failed, 9 passed in 0.12s", fail=True)
    s.say("That's surprising — the check is right there. The message was delivered, so `self.unsubscribed` "
          "inside the queue can't be the `unsub` the test added to. And it isn't: `__init__` does "
          "`self.unsubscribed = unsubscribed or UnsubscribeList()`, and `UnsubscribeList` defines `__len__`, so "
          "an *empty* list is falsy and `or` quietly replaces it with a fresh private one. Anything added to the "
          "caller's list afterwards never reaches the queue. The existing `test_unsubscribed_not_queued` only "
          "passes because it adds the address before building the queue.\n\n"
          "In production that means: a worker that starts with an empty unsubscribe file never sees "
          "unsubscribes that arrive while it runs. Fixing it with an explicit `is None`.")
    s.edit("mailq/queue.py",
           "        self.unsubscribed = unsubscribed or UnsubscribeList()\n",
           "        # `is None`, not `or`: an empty UnsubscribeList is falsy (it has __len__), and `or` would swap the\n"
           "        # caller's list for a private one that never sees their unsubscribes\n"
           "        self.unsubscribed = unsubscribed if unsubscribed is not None else UnsubscribeList()\n")
    s.bash("python -m pytest -q", "..........                                                               [100%]\n"
                                  "10 passed in 0.09s")
    s.say("Done, 10 passed:\n\n"
          "- `run_once` checks the unsubscribe list right before each send and moves those messages to "
          "`queue.dropped`.\n"
          "- The test exposed a second bug that made the first one worse: an empty `UnsubscribeList` passed to "
          "the queue was replaced by a private one (`or` on a falsy object), so a worker started with an empty "
          "list ignored every unsubscribe that came in while it ran. `__init__` now uses `is None`, with a "
          "comment.")
    s.user("Perfect, thank you.")

    t = Session("unsubscribe-at-send-time-2", "2027-01-27T14:30:00.000Z", files)
    t.user("Hello again. Could you add a `flush()` to `OutboundQueue` for the shutdown path? When we deploy, the "
           "worker gets SIGTERM and whatever is pending is lost. `flush()` should try everything pending once, "
           "ignoring `not_before` and the throttle — we'd rather take a small rate-limit risk than lose mail. "
           "Whatever fails can just stay in `pending`.")
    t.read("mailq/queue.py")
    t.edit("mailq/queue.py",
           "    def _failed(self, message: Message, code: int) -> None:\n",
           "    def flush(self) -> int:\n"
           "        \"\"\"Shutdown path: try every pending message once, ignoring not_before and the throttle.\"\"\"\n"
           "        sent = 0\n"
           "        for message in list(self.pending):\n"
           "            result = self.sender.deliver(message)\n"
           "            if result.ok:\n"
           "                self.pending.remove(message)\n"
           "                self.sent.append(message)\n"
           "                sent += 1\n"
           "        return sent\n\n"
           "    def _failed(self, message: Message, code: int) -> None:\n")
    t.edit("tests/test_mailq.py",
           "def test_permanent_failure_is_dead():\n",
           "def test_flush_ignores_schedule_and_throttle():\n"
           "    clock = Clock()\n"
           "    q = OutboundQueue(FakeSender([451]), throttle=Throttle(limit=1, window=60, clock=clock), clock=clock)\n"
           "    q.enqueue(Message(\"a@x.com\", \"s\", \"b\"))\n"
           "    q.enqueue(Message(\"a@x.com\", \"s2\", \"b\"))\n"
           "    q.run_once()\n"
           "    assert q.flush() == 2 and not q.pending\n\n\n"
           "def test_permanent_failure_is_dead():\n")
    t.bash("python -m pytest -q", "...........                                                              [100%]\n"
                                  "11 passed in 0.10s")
    t.say("Added `OutboundQueue.flush()`: one attempt per pending message, no `not_before`, no throttle; failures "
          "stay in `pending`. Test covers a message that is both deferred by a 451 and blocked by the throttle. "
          "11 passed.")
    t.user("Thanks — one thing, though: `flush()` goes straight to the sender without looking at the unsubscribe "
           "list. I'd rather it didn't. It's the same rule as with `run_once`: whatever path a message leaves "
           "the queue by, the list is checked right before it goes. Skipping the throttle on shutdown is fine; "
           "skipping the list is not.")
    t.edit("mailq/queue.py",
           "        for message in list(self.pending):\n            result = self.sender.deliver(message)\n",
           "        for message in list(self.pending):\n"
           "            if message.to in self.unsubscribed:  # the throttle may be skipped here, the list never\n"
           "                self.pending.remove(message)\n"
           "                self.dropped.append(message)\n"
           "                continue\n"
           "            result = self.sender.deliver(message)\n")
    t.edit("tests/test_mailq.py",
           "def test_permanent_failure_is_dead():\n",
           "def test_flush_still_checks_unsubscribe_list():\n"
           "    unsub = UnsubscribeList()\n"
           "    sender = FakeSender()\n"
           "    q = OutboundQueue(sender, unsubscribed=unsub)\n"
           "    q.enqueue(Message(\"bye@x.com\", \"s\", \"b\"))\n"
           "    unsub.add(\"bye@x.com\")\n"
           "    assert q.flush() == 0\n"
           "    assert not sender.delivered and len(q.dropped) == 1\n\n\n"
           "def test_permanent_failure_is_dead():\n")
    t.bash("python -m pytest -q", "............                                                             [100%]\n"
                                  "12 passed in 0.10s")
    t.say("You're right, sorry — fixed. `flush()` now checks the unsubscribe list right before each send, same as "
          "`run_once`, and drops those messages into `queue.dropped`; only the schedule and the throttle are "
          "skipped. Added `test_flush_still_checks_unsubscribe_list`. 12 passed.")
    return [s, t]


SMTP_TRACE = """Traceback (most recent call last):
  File "/srv/mailq/bin/drain.py", line 41, in <module>
    sent = queue.run_once()
           ^^^^^^^^^^^^^^^^
  File "/srv/mailq/mailq/queue.py", line 42, in run_once
    result = self.sender.deliver(message)
             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/srv/mailq/mailq/smtp_sender.py", line 38, in deliver
    conn = self.connect()
           ^^^^^^^^^^^^^^
  File "/srv/mailq/mailq/smtp_sender.py", line 31, in connect
    conn.login(self.username, self.password or "")
  File "/usr/lib/python3.11/smtplib.py", line 716, in login
    raise SMTPNotSupportedError(
smtplib.SMTPNotSupportedError: SMTP AUTH extension not supported by server."""


@scenario("smtp-auth-before-tls", MQ,
          "a pasted traceback with almost no words; the agent reproduces it in a test, finds the cause (login "
          "before STARTTLS; the new relay advertises AUTH only after starttls) and fixes it",
          [exp("gotcha", "mailq/smtp_sender.py:SmtpSender.connect", "after starttls")])
def _smtp(files):
    s = Session("smtp-auth-before-tls", "2027-01-18T07:51:00.000Z", files)
    s.user(SMTP_TRACE + "\n\nsince switch to new relay smtp.eu1.postwire.net:587")
    s.read("mailq/smtp_sender.py")
    s.say("The order in `connect()` is `ehlo()` → `login()` → `starttls()`. Many relays only advertise AUTH in the "
          "EHLO response *after* STARTTLS (they refuse to take credentials over a plain connection), and smtplib's "
          "`login()` checks the EHLO features before trying — so on the new relay the first EHLO has no `AUTH` "
          "line and `login()` raises exactly this. The old relay advertised AUTH on the plain connection, which "
          "means we were sending the password in clear text before upgrading to TLS.\n\n"
          "The fix is `ehlo()` → `starttls()` → `ehlo()` again (the capabilities change after TLS and smtplib "
          "needs the fresh list) → `login()`. Let me reproduce it in a test first with a fake server that behaves "
          "like the new relay.")
    s.edit("tests/test_mailq.py", "import pytest\n", "import smtplib\n\nimport pytest\n")
    s.edit("tests/test_mailq.py", "from mailq.smtp_sender import SendResult\n",
           "from mailq.smtp_sender import SendResult, SmtpSender\n")
    s.edit("tests/test_mailq.py",
           "class Clock:\n",
           "class TlsFirstSMTP:\n"
           "    \"\"\"Like a relay that advertises AUTH only after STARTTLS.\"\"\"\n\n"
           "    def __init__(self, host, port, timeout=None):\n"
           "        self.tls = False\n"
           "        self.features = set()\n"
           "        self.calls = []\n\n"
           "    def ehlo(self):\n"
           "        self.features = {\"auth\"} if self.tls else set()\n"
           "        self.calls.append(\"ehlo\")\n\n"
           "    def starttls(self):\n"
           "        self.tls = True\n"
           "        self.features = set()\n"
           "        self.calls.append(\"starttls\")\n\n"
           "    def login(self, user, password):\n"
           "        if \"auth\" not in self.features:\n"
           "            raise smtplib.SMTPNotSupportedError(\"SMTP AUTH extension not supported by server.\")\n"
           "        self.calls.append(\"login\")\n\n\n"
           "class Clock:\n")
    s.edit("tests/test_mailq.py",
           "def test_placeholders():\n",
           "def test_login_happens_after_starttls():\n"
           "    sender = SmtpSender(\"relay\", username=\"u\", password=\"p\", factory=TlsFirstSMTP)\n"
           "    assert sender.connect().calls == [\"ehlo\", \"starttls\", \"ehlo\", \"login\"]\n\n\n"
           "def test_placeholders():\n")
    s.bash("python -m pytest -q",
           ".F........                                                               [100%]\n"
           "=================================== FAILURES ===================================\n"
           "______________________ test_login_happens_after_starttls _______________________\n\n"
           "    def test_login_happens_after_starttls():\n"
           "        sender = SmtpSender(\"relay\", username=\"u\", password=\"p\", factory=TlsFirstSMTP)\n"
           ">       assert sender.connect().calls == [\"ehlo\", \"starttls\", \"ehlo\", \"login\"]\n\n"
           "tests/test_mailq.py:60: \n"
           "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
           "mailq/smtp_sender.py:31: in connect\n"
           "    conn.login(self.username, self.password or \"\")\n"
           "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n\n"
           "    def login(self, user, password):\n"
           "        if \"auth\" not in self.features:\n"
           ">           raise smtplib.SMTPNotSupportedError(\"SMTP AUTH extension not supported by server.\")\n"
           "E           smtplib.SMTPNotSupportedError: SMTP AUTH extension not supported by server.\n\n"
           "tests/test_mailq.py:41: SMTPNotSupportedError\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_mailq.py::test_login_happens_after_starttls - smtplib.SMTPNotSupportedError: SMTP AUTH e...\n"
           "1 failed, 9 passed in 0.13s", fail=True)
    s.say("Reproduced — same error from the fake relay. Now the fix:")
    s.edit("mailq/smtp_sender.py",
           "            conn.ehlo()\n"
           "            if self.username:\n"
           "                conn.login(self.username, self.password or \"\")\n"
           "            conn.starttls()\n",
           "            conn.ehlo()\n"
           "            # STARTTLS first, then EHLO again, then AUTH: relays advertise AUTH only after starttls,\n"
           "            # and logging in before it would send the password in clear text.\n"
           "            conn.starttls()\n"
           "            conn.ehlo()\n"
           "            if self.username:\n"
           "                conn.login(self.username, self.password or \"\")\n")
    s.bash("python -m pytest -q", "..........                                                               [100%]\n"
                                  "10 passed in 0.09s")
    s.say("Fixed: `connect()` now does EHLO → STARTTLS → EHLO → login. The new relay only offers AUTH after "
          "starttls, so logging in first failed with \"SMTP AUTH extension not supported\"; with the old relay it "
          "\"worked\" but sent the credentials unencrypted. `test_login_happens_after_starttls` covers the order. "
          "10 passed. You may want to rotate the old relay password, since it has been going over plain text.")
    s.user("works. thx")
    return [s]


@scenario("template-missing-variable", MQ,
          "a product person writes a user story with acceptance criteria; the agent offers (a) fail loudly / "
          "(b) empty string; the answer comes as another user story, plus a scope line (localized templates are "
          "not part of this story)",
          [exp("decision", "mailq/templates.py:render", "fail loudly", ["empty string"]),
           exp("boundary", "mailq/templates.py:TemplateStore", "localized templates")])
def _templates(files):
    s = Session("template-missing-variable", "2027-01-19T13:15:00.000Z", files)
    s.user("**Story MQ-212**\n\n"
           "As a marketer sending a campaign, I want a template that references a variable I didn't provide to be "
           "caught before anything is sent, so that no customer ever receives an email saying \"Hi {first_name}\".\n\n"
           "Acceptance criteria:\n"
           "- rendering a template with a missing value does not produce an email\n"
           "- the error names the missing variable(s), all of them, not just the first\n\n"
           "Context: this happened in the March newsletter, ~2,300 people got the raw placeholder.")
    s.read("mailq/templates.py")
    s.say("Found it: `render` uses a `_Lenient` dict whose `__missing__` puts the `{placeholder}` back into the "
          "text — that is exactly how \"Hi {first_name}\" got out. It was done on purpose so a typo wouldn't crash "
          "a send, but it fails silently.\n\n"
          "Two ways to meet \"does not produce an email\":\n\n"
          "(a) **fail loudly**: `render` raises a `MissingVariable` error listing every placeholder without a value "
          "(using `Template.placeholders()`), and the caller skips or fails that recipient.\n"
          "(b) substitute an empty string for missing values and log a warning — the email still goes out, as "
          "\"Hi ,\".\n\n"
          "(b) technically avoids the raw placeholder, but I don't think it meets the spirit of the story. "
          "Which one do you want?")
    s.user("As a customer, \"Hi ,\" is just as broken as \"Hi {first_name}\" — so no empty string, (a).\n\n"
           "Also, localized templates (de/fr) came up in planning yesterday. That is NOT part of this story, it's a "
           "separate ticket next sprint, so please don't touch how the store loads files for now.")
    s.edit("mailq/templates.py",
           "class _Lenient(dict):\n"
           "    def __missing__(self, key: str) -> str:\n"
           "        return \"{\" + key + \"}\"\n\n\n"
           "def render(template: Template, values: dict[str, object]) -> tuple[str, str]:\n"
           "    \"\"\"The subject and body with the placeholders filled in from ``values``.\"\"\"\n"
           "    data = _Lenient({k: str(v) for k, v in values.items()})\n",
           "class MissingVariable(KeyError):\n"
           "    \"\"\"A template uses placeholders that were not given a value.\"\"\"\n\n"
           "    def __init__(self, template: str, names: list[str]):\n"
           "        super().__init__(f\"template {template!r} is missing {', '.join(names)}\")\n"
           "        self.template = template\n"
           "        self.names = names\n\n\n"
           "def render(template: Template, values: dict[str, object]) -> tuple[str, str]:\n"
           "    \"\"\"The subject and body with the placeholders filled in from ``values``.\n\n"
           "    Raises MissingVariable, naming every missing placeholder, rather than producing an email with a\n"
           "    raw ``{first_name}`` or a blank in it.\"\"\"\n"
           "    missing = sorted(template.placeholders() - values.keys())\n"
           "    if missing:\n"
           "        raise MissingVariable(template.name, missing)\n"
           "    data = {k: str(v) for k, v in values.items()}\n")
    s.edit("tests/test_mailq.py", "from mailq.templates import Template, render\n",
           "from mailq.templates import MissingVariable, Template, render\n")
    s.edit("tests/test_mailq.py",
           "def test_placeholders():\n",
           "def test_render_names_every_missing_variable():\n"
           "    t = Template(\"renewal\", \"Hi {first_name}\", \"Your {plan} plan renews on {date}.\")\n"
           "    with pytest.raises(MissingVariable) as err:\n"
           "        render(t, {\"plan\": \"pro\"})\n"
           "    assert err.value.names == [\"date\", \"first_name\"]\n\n\n"
           "def test_placeholders():\n")
    s.bash("python -m pytest -q", "..........                                                               [100%]\n"
                                  "10 passed in 0.08s")
    s.say("Done, option (a):\n\n"
          "- `render` raises `MissingVariable` before formatting anything; `err.names` lists all missing "
          "placeholders, sorted, and the message reads e.g. `template 'renewal' is missing date, first_name`.\n"
          "- `_Lenient` is gone.\n"
          "- `TemplateStore` is untouched (no locale handling), as you asked.\n\n"
          "Both acceptance criteria are covered by `test_render_names_every_missing_variable`. 10 passed. Note "
          "that whatever calls `render` per recipient now has to catch `MissingVariable` — today that's the "
          "campaign script outside this repo.")
    s.user("Great, I'll move MQ-212 to review.")
    return [s]


@scenario("throttle-per-domain", MQ,
          "blunt game-dev with caps; the agent offers A/B/C (per domain, a global rate, per MX host); the person "
          "picks A and turns down the other two with reasons",
          [exp("decision", "mailq/throttle.py:Throttle", "per domain", ["mx host", "global rate"])])
def _throttle(files):
    s = Session("throttle-per-domain", "2027-01-20T21:07:00.000Z", files)
    s.user("gmail is temp failing us: 421 4.7.28 \"unusual rate of unsolicited mail\". our throttle is per ADDRESS "
           "wich is USELESS for this, nobody sends 20 mails to one person in a minute. fix the throttle")
    s.read("mailq/throttle.py")
    s.grep("throttle.allow", ["mailq/queue.py"])
    s.say("Right — `Throttle._key` is the whole lowercased address, so the limit only ever bites for a single "
          "mailbox. Gmail's 4.7.28 is about volume from our IP to *them*. Options:\n\n"
          "**A.** Key by recipient domain (`gmail.com`, `outlook.com`, …) with the same limit/window. One-line "
          "change in `_key`.\n"
          "**B.** Keep per-address and add a second, global rate for all mail on top.\n"
          "**C.** Key by the MX host the domain resolves to — groups `googlemail.com` and every Google Workspace "
          "domain with gmail, which is what Google actually counts. Most accurate, but puts a DNS lookup (cached) "
          "into the throttle.\n\n"
          "A is the smallest change; C is the most accurate. Which one?")
    s.user("A. NO dns in the throttle, allow() is called for every single message. and B is pointless, the relay "
           "already has a global cap. per domain, lowercase it")
    s.edit("mailq/throttle.py",
           "\"\"\"Recipient throttling: at most ``limit`` messages per ``window`` seconds.\"\"\"\n",
           "\"\"\"Recipient throttling: at most ``limit`` messages per ``window`` seconds to each recipient domain.\"\"\"\n")
    s.edit("mailq/throttle.py",
           "    def _key(self, address: str) -> str:\n        return address.strip().lower()\n",
           "    def _key(self, address: str) -> str:\n"
           "        \"\"\"The recipient's domain: providers rate-limit what we send to them, not per mailbox.\"\"\"\n"
           "        return address.strip().rsplit(\"@\", 1)[-1].lower()\n")
    s.edit("tests/test_mailq.py",
           "def test_next_delay_grows_and_gives_up():\n",
           "def test_throttle_is_per_domain():\n"
           "    th = Throttle(limit=2, window=60, clock=Clock())\n"
           "    assert th.allow(\"a@gmail.com\") and th.allow(\"b@GMAIL.com\")\n"
           "    assert not th.allow(\"c@gmail.com\")\n"
           "    assert th.allow(\"a@outlook.com\")\n\n\n"
           "def test_next_delay_grows_and_gives_up():\n")
    s.bash("python -m pytest -q", "..........                                                               [100%]\n"
                                  "10 passed in 0.09s")
    s.say("Done: the throttle is keyed by lowercased recipient domain now (`_key`), so 20/min is 20/min to "
          "gmail.com in total. `wait_time`, `reset` and `stats` go through `_key` too, so they're per domain as "
          "well (`stats()` keys are domains now). 10 passed.\n\n"
          "You'll probably want a lower limit for gmail than for small domains eventually; the limit is still one "
          "number for all of them.")
    s.user("fine for now")
    return [s]


@scenario("explain-queue", MQ,
          "product person asks questions for a spec; a hypothetical with 'would' (several workers), a second-hand "
          "'must' from a consultant that nobody adopts; no code changes",
          [])
def _explain(files):
    s = Session("explain-queue", "2027-01-21T11:00:00.000Z", files)
    s.user("I'm writing the spec for the \"resend failed emails\" button in the admin. Some questions, no code "
           "changes please:\n"
           "1. When a message fails with a 550, where does it end up?\n"
           "2. If we ran two workers calling run_once at the same time, would a message be sent twice?\n"
           "3. Our deliverability consultant says we must always send from a dedicated IP per customer. Does "
           "mailq need to know about that?")
    s.read("mailq/queue.py")
    s.read("mailq/retry.py", offset=1, limit=30)
    s.say("1. **550** — `run_once` removes the message from `pending` and calls `_failed`; `is_retryable(550)` is "
          "False (only 4xx are retried), so it is appended to `queue.dead` with `attempts` incremented. A 4xx goes "
          "back into `pending` with a later `not_before`, until `next_delay` raises `GiveUp` after 5 attempts — "
          "then it also lands in `dead`. So \"failed\" in the admin would be `dead`, and a resend button would "
          "move a message from `dead` back to `pending` (probably resetting `attempts`).\n\n"
          "2. **Two workers** — yes, it could. The queue is a plain in-memory list per process; if two workers "
          "shared one store, both would see the same due message and both would deliver it. Making that safe "
          "would need a lease/claim step (mark the message as taken before sending). Today each worker has its "
          "own `OutboundQueue`, so the question doesn't arise, but it would as soon as the queue moves to a "
          "shared database.\n\n"
          "3. **Dedicated IPs** — mailq doesn't know about IPs at all; it hands everything to one SMTP relay "
          "(`SmtpSender`). Per-customer IPs are normally configured at the relay (a pool or subaccount per "
          "customer), and mailq would at most pass a header or pick a relay per customer.")
    s.user("ok, that's what I needed for the spec. thanks!")
    return [s]


@scenario("rename-deliver-send", MQ, "a terse rename across three files; no decision", [])
def _rename(files):
    s = Session("rename-deliver-send", "2027-01-22T18:20:00.000Z", files)
    s.user("rename SmtpSender.deliver -> send. everywhere incl tests")
    s.grep(r"\.deliver\(|def deliver", ["mailq/smtp_sender.py", "mailq/queue.py", "tests/test_mailq.py"])
    s.edit("mailq/smtp_sender.py", "    def deliver(self, message: Message) -> SendResult:\n",
           "    def send(self, message: Message) -> SendResult:\n")
    s.edit("mailq/queue.py", "            result = self.sender.deliver(message)\n",
           "            result = self.sender.send(message)\n")
    s.edit("tests/test_mailq.py", "    def deliver(self, message):\n", "    def send(self, message):\n")
    s.bash("python -m pytest -q", ".........                                                                [100%]\n"
                                  "9 passed in 0.08s")
    s.say("Renamed `SmtpSender.deliver` → `send`, its one caller in `OutboundQueue.run_once`, and the test "
          "double `FakeSender`. 9 passed.")
    s.user("👍")
    return [s]


# -- canvaspaint (TypeScript) --------------------------------------------------------------------------------

CP = "canvaspaint"

FILL_TRACE = """Uncaught RangeError: Maximum call stack size exceeded
    at Layer.get (layers.ts:14:5)
    at visit (tools.ts:60:18)
    at visit (tools.ts:64:5)
    at visit (tools.ts:64:5)
    at visit (tools.ts:64:5)
    at visit (tools.ts:64:5)
    at visit (tools.ts:64:5)
    at visit (tools.ts:64:5)
    at visit (tools.ts:64:5)
    at visit (tools.ts:64:5)
    at visit (tools.ts:64:5)"""


@scenario("flood-fill-stack-overflow", CP,
          "a pasted stack trace and one line; the agent explains the cause (recursion depth = region size), offers "
          "an explicit stack or a scanline fill; the person answers with one word",
          [exp("gotcha", "src/tools.ts:floodFill", "call stack"),
           exp("decision", "src/tools.ts:floodFill", "scanline", ["explicit stack"])])
def _fill(files):
    s = Session("flood-fill-stack-overflow", "2027-02-01T08:12:00.000Z", files)
    s.user(FILL_TRACE + "\n\n1920x1080, fill on empty background")
    s.read("src/tools.ts", offset=52)
    s.say("`floodFill` recurses once per pixel: `visit` calls itself for each neighbour, and the recursion only "
          "unwinds when the whole region is done. On an empty 1920×1080 layer the region is ~2 million pixels, "
          "so the call depth goes far past V8's stack (roughly 10k frames) — hence the maximum call stack error. "
          "Small test canvases never get deep enough to show it.\n\n"
          "Two fixes:\n"
          "1. Same algorithm, but with an explicit stack array of points instead of recursion. Smallest change; "
          "it still pushes four neighbours per pixel, so ~8M pushes for a full-HD fill.\n"
          "2. Scanline fill: fill whole horizontal runs at once and only push the first pixel of each open run in "
          "the rows above and below. More code, but far fewer pushes and noticeably faster on big regions.\n\n"
          "Which one?")
    s.user("scanline")
    s.edit("src/tools.ts",
           "  const target = layer.get(start.x, start.y);\n"
           "  if (distance(target, color) === 0) return 0;\n"
           "  const seen = new Uint8Array(layer.width * layer.height);\n"
           "  let filled = 0;\n"
           "  const visit = (x: number, y: number): void => {\n"
           "    if (x < 0 || y < 0 || x >= layer.width || y >= layer.height) return;\n"
           "    const i = y * layer.width + x;\n"
           "    if (seen[i]) return;\n"
           "    seen[i] = 1;\n"
           "    if (distance(layer.get(x, y), target) > tolerance) return;\n"
           "    layer.set(x, y, color);\n"
           "    filled++;\n"
           "    visit(x + 1, y);\n"
           "    visit(x - 1, y);\n"
           "    visit(x, y + 1);\n"
           "    visit(x, y - 1);\n"
           "  };\n"
           "  visit(start.x, start.y);\n"
           "  return filled;\n",
           "  const { width, height } = layer;\n"
           "  if (start.x < 0 || start.y < 0 || start.x >= width || start.y >= height) return 0;\n"
           "  const target = layer.get(start.x, start.y);\n"
           "  if (distance(target, color) === 0) return 0;\n"
           "  const seen = new Uint8Array(width * height);\n"
           "  const open = (x: number, y: number) => !seen[y * width + x] && distance(layer.get(x, y), target) <= tolerance;\n"
           "  // Scanline fill with a work list, no recursion: one call per pixel overflowed the call stack on\n"
           "  // big regions (an empty full-HD layer is ~2M pixels deep).\n"
           "  const work: Point[] = [{ x: start.x, y: start.y }];\n"
           "  let filled = 0;\n"
           "  while (work.length > 0) {\n"
           "    const { x, y } = work.pop()!;\n"
           "    if (!open(x, y)) continue;\n"
           "    let left = x;\n"
           "    while (left > 0 && open(left - 1, y)) left--;\n"
           "    let right = x;\n"
           "    while (right < width - 1 && open(right + 1, y)) right++;\n"
           "    let above = false;\n"
           "    let below = false;\n"
           "    for (let i = left; i <= right; i++) {\n"
           "      seen[y * width + i] = 1;\n"
           "      layer.set(i, y, color);\n"
           "      filled++;\n"
           "      if (y > 0) {\n"
           "        const o = open(i, y - 1);\n"
           "        if (o && !above) work.push({ x: i, y: y - 1 });\n"
           "        above = o;\n"
           "      }\n"
           "      if (y < height - 1) {\n"
           "        const o = open(i, y + 1);\n"
           "        if (o && !below) work.push({ x: i, y: y + 1 });\n"
           "        below = o;\n"
           "      }\n"
           "    }\n"
           "  }\n"
           "  return filled;\n")
    s.edit("test/paint.test.ts",
           "    expect(floodFill(stack.current(), { x: 0, y: 0 }, parseHex(\"#00f\"))).toBe(16);\n  });\n",
           "    expect(floodFill(stack.current(), { x: 0, y: 0 }, parseHex(\"#00f\"))).toBe(16);\n  });\n"
           "  it(\"stops at a boundary\", () => {\n"
           "    const stack = new LayerStack(5, 5);\n"
           "    const layer = stack.current();\n"
           "    for (let y = 0; y < 5; y++) layer.set(2, y, parseHex(\"#000\"));\n"
           "    expect(floodFill(layer, { x: 0, y: 0 }, parseHex(\"#00f\"))).toBe(10);\n"
           "    expect(layer.get(4, 4).a).toBe(0);\n"
           "  });\n"
           "  it(\"fills a full-HD layer without overflowing the stack\", () => {\n"
           "    const stack = new LayerStack(1920, 1080);\n"
           "    expect(floodFill(stack.current(), { x: 5, y: 5 }, parseHex(\"#00f\"))).toBe(1920 * 1080);\n"
           "  });\n")
    s.bash("npx vitest run", vitest_out(7, 146, "08:19:40"))
    s.say("Replaced the recursion with a scanline fill: runs are filled left to right, and only the first pixel "
          "of each open run above/below goes on the work list. New tests: a fill that stops at a wall, and a full "
          "1920×1080 fill (about 0.15 s in node). 7 passed.")
    s.user("ok")
    return [s]


@scenario("undo-one-step-per-stroke", CP,
          "verbose maintainer who thinks aloud; three options as bullets; the maintainer picks the time window, "
          "the agent builds it, then the maintainer reverts it after trying it and asks for one entry per stroke",
          [exp("decision", "src/tools.ts:Stroke", "one entry per stroke", ["time window", "per dab"])])
def _undo(files):
    s = Session("undo-one-step-per-stroke", "2027-02-02T15:30:00.000Z", files)
    s.user("Hi! A few things today, none of them urgent. First, thank you for the layer fixes last week, the two "
           "new contributors were very happy with how quickly that got merged. Second, there's issue #88, where "
           "someone says undo after painting feels \"weird\", and I think I know why: since we added pointer-event "
           "coalescing in the app, it calls `BrushTool.stroke()` once per pointermove batch, so a single drag "
           "can become twenty or thirty history entries and Ctrl+Z takes the stroke off a sliver at a time. "
           "Could you have a look at how we group things into undo steps? I don't have a strong opinion yet. "
           "Third, and completely unrelated, the README badge points at the old CI — I'll fix that myself.")
    s.read("src/tools.ts")
    s.read("src/history.ts")
    s.say("That matches the code: `BrushTool.stroke` (and `EraserTool.stroke`) snapshots the layer, paints, and "
          "pushes one command — so each call is one undo step, and with coalesced pointer events each call is "
          "one batch. Ways to group them:\n\n"
          "- **per dab / per batch** — what effectively happens now: fine-grained, but twenty undos per drag.\n"
          "- **one entry per stroke** — the app calls `begin` on pointerdown and `end` on pointerup; the tools "
          "paint in between without touching history, and one command is pushed on pointerup. This is what "
          "Krita and Photoshop do.\n"
          "- **time window** — `History.push` merges a command into the previous one if it arrives within "
          "~500 ms. Tool-agnostic and needs no app changes, but it groups by timing rather than by what the user "
          "did.\n\n"
          "The time window is the least work for the app; one entry per stroke is the most predictable.")
    s.user("Hmm, let me think aloud for a moment. The time window is tempting because it would also cover the fill "
           "tool when someone clicks a few regions quickly, and it means the app code doesn't change at all, "
           "which matters because the contributor who wrote the pointer code is away for a month. Let's try the "
           "time window.")
    s.edit("src/history.ts", "export class History {\n",
           "const MERGE_WINDOW_MS = 500;\n\nexport class History {\n")
    s.edit("src/history.ts", "  private listeners: Array<() => void> = [];\n",
           "  private listeners: Array<() => void> = [];\n  private lastPush = -Infinity;\n")
    s.edit("src/history.ts",
           "  push(cmd: Command): void {\n    this.done.push(cmd);\n    this.undone = [];\n",
           "  push(cmd: Command, now: number = Date.now()): void {\n"
           "    const last = this.done[this.done.length - 1];\n"
           "    if (last && now - this.lastPush < MERGE_WINDOW_MS) {\n"
           "      // merged into the previous step: undo both, redo both\n"
           "      this.done[this.done.length - 1] = {\n"
           "        label: last.label,\n"
           "        undo: () => {\n          cmd.undo();\n          last.undo();\n        },\n"
           "        redo: () => {\n          last.redo();\n          cmd.redo();\n        },\n"
           "      };\n"
           "    } else {\n"
           "      this.done.push(cmd);\n"
           "    }\n"
           "    this.lastPush = now;\n"
           "    this.undone = [];\n")
    s.edit("test/paint.test.ts",
           "describe(\"fill\", () => {\n",
           "describe(\"history merging\", () => {\n"
           "  it(\"merges pushes within 500ms into one step\", () => {\n"
           "    const h = new History();\n"
           "    const log: string[] = [];\n"
           "    const cmd = (n: string) => ({ label: n, undo: () => log.push(\"undo \" + n), redo: () => {} });\n"
           "    h.push(cmd(\"a\"), 1000);\n"
           "    h.push(cmd(\"b\"), 1200);\n"
           "    h.push(cmd(\"c\"), 2000);\n"
           "    h.undo();\n"
           "    h.undo();\n"
           "    expect(log).toEqual([\"undo c\", \"undo b\", \"undo a\"]);\n"
           "    expect(h.canUndo).toBe(false);\n"
           "  });\n"
           "});\n\n"
           "describe(\"fill\", () => {\n")
    s.bash("npx vitest run", vitest_out(6, 12, "15:41:02"))
    s.say("Time-window merging is in: `History.push` takes an optional `now` (for tests) and folds a command into "
          "the previous step if it comes within 500 ms of the last push. No app changes needed. 6 passed. If you "
          "want to try it, `npm run dev` and paint a few strokes.")
    s.user("I've been playing with it for a bit, and I'm sorry to go back on this — I'd rather we didn't keep the "
           "time window after all. If I paint two quick, separate strokes (which is how I do hatching), one Ctrl+Z "
           "takes off both of them, and that's exactly the kind of surprise #88 is complaining about. Could we do "
           "one entry per stroke instead, and keep `History` itself dumb? I'll wire up pointerdown/pointerup in "
           "the app myself.")
    s.edit("src/history.ts", "const MERGE_WINDOW_MS = 500;\n\nexport class History {\n", "export class History {\n")
    s.edit("src/history.ts", "  private listeners: Array<() => void> = [];\n  private lastPush = -Infinity;\n",
           "  private listeners: Array<() => void> = [];\n")
    s.edit("src/history.ts",
           "  push(cmd: Command, now: number = Date.now()): void {\n"
           "    const last = this.done[this.done.length - 1];\n"
           "    if (last && now - this.lastPush < MERGE_WINDOW_MS) {\n"
           "      // merged into the previous step: undo both, redo both\n"
           "      this.done[this.done.length - 1] = {\n"
           "        label: last.label,\n"
           "        undo: () => {\n          cmd.undo();\n          last.undo();\n        },\n"
           "        redo: () => {\n          last.redo();\n          cmd.redo();\n        },\n"
           "      };\n"
           "    } else {\n"
           "      this.done.push(cmd);\n"
           "    }\n"
           "    this.lastPush = now;\n"
           "    this.undone = [];\n",
           "  push(cmd: Command): void {\n    this.done.push(cmd);\n    this.undone = [];\n")
    s.edit("src/tools.ts",
           "  stroke(layer: Layer, points: Point[], history: History): void {\n"
           "    const before = layer.snapshot();\n"
           "    for (const p of points) this.dab(layer, p);\n"
           "    const after = layer.snapshot();\n"
           "    history.push({ label: \"brush\", undo: () => layer.restore(before), redo: () => layer.restore(after) });\n"
           "  }\n"
           "}\n",
           "  /** Paint along `points` without touching history: called for every pointermove batch of a stroke. */\n"
           "  paint(layer: Layer, points: Point[]): void {\n"
           "    for (const p of points) this.dab(layer, p);\n"
           "  }\n\n"
           "  /** A whole stroke in one call, as one undo step. */\n"
           "  stroke(layer: Layer, points: Point[], history: History): void {\n"
           "    const s = new Stroke(layer, \"brush\");\n"
           "    this.paint(layer, points);\n"
           "    s.end(history);\n"
           "  }\n"
           "}\n\n"
           "/**\n"
           " * One drag of a brush or eraser: a snapshot on pointerdown, one history entry on pointerup, however many\n"
           " * pointermove batches were painted in between. That is the undo step the user sees.\n"
           " */\n"
           "export class Stroke {\n"
           "  private readonly before: Uint8ClampedArray;\n\n"
           "  constructor(readonly layer: Layer, readonly label: string) {\n"
           "    this.before = layer.snapshot();\n"
           "  }\n\n"
           "  end(history: History): void {\n"
           "    const { layer, before } = this;\n"
           "    const after = layer.snapshot();\n"
           "    history.push({ label: this.label, undo: () => layer.restore(before), redo: () => layer.restore(after) });\n"
           "  }\n"
           "}\n")
    s.edit("src/tools.ts",
           "  stroke(layer: Layer, points: Point[], history: History): void {\n"
           "    const before = layer.snapshot();\n"
           "    for (const p of points) {\n"
           "      dab(layer, p, this.size, (x, y) => layer.set(x, y, { r: 0, g: 0, b: 0, a: 0 }));\n"
           "    }\n"
           "    const after = layer.snapshot();\n"
           "    history.push({ label: \"eraser\", undo: () => layer.restore(before), redo: () => layer.restore(after) });\n"
           "  }\n",
           "  paint(layer: Layer, points: Point[]): void {\n"
           "    for (const p of points) {\n"
           "      dab(layer, p, this.size, (x, y) => layer.set(x, y, { r: 0, g: 0, b: 0, a: 0 }));\n"
           "    }\n"
           "  }\n\n"
           "  stroke(layer: Layer, points: Point[], history: History): void {\n"
           "    const s = new Stroke(layer, \"eraser\");\n"
           "    this.paint(layer, points);\n"
           "    s.end(history);\n"
           "  }\n")
    s.edit("test/paint.test.ts",
           "describe(\"history merging\", () => {\n"
           "  it(\"merges pushes within 500ms into one step\", () => {\n"
           "    const h = new History();\n"
           "    const log: string[] = [];\n"
           "    const cmd = (n: string) => ({ label: n, undo: () => log.push(\"undo \" + n), redo: () => {} });\n"
           "    h.push(cmd(\"a\"), 1000);\n"
           "    h.push(cmd(\"b\"), 1200);\n"
           "    h.push(cmd(\"c\"), 2000);\n"
           "    h.undo();\n"
           "    h.undo();\n"
           "    expect(log).toEqual([\"undo c\", \"undo b\", \"undo a\"]);\n"
           "    expect(h.canUndo).toBe(false);\n"
           "  });\n"
           "});\n",
           "describe(\"strokes\", () => {\n"
           "  it(\"makes one undo step of a stroke painted in several batches\", () => {\n"
           "    const stack = new LayerStack(16, 16);\n"
           "    const layer = stack.current();\n"
           "    const h = new History();\n"
           "    const brush = new BrushTool(parseHex(\"#000\"), 2);\n"
           "    const s = new Stroke(layer, \"brush\");\n"
           "    brush.paint(layer, [{ x: 2, y: 2 }]);\n"
           "    brush.paint(layer, [{ x: 10, y: 10 }]);\n"
           "    s.end(h);\n"
           "    h.undo();\n"
           "    expect(layer.get(2, 2).a).toBe(0);\n"
           "    expect(layer.get(10, 10).a).toBe(0);\n"
           "    expect(h.canUndo).toBe(false);\n"
           "  });\n"
           "});\n")
    s.edit("test/paint.test.ts", "import { BrushTool, floodFill } from \"../src/tools\";\n",
           "import { BrushTool, Stroke, floodFill } from \"../src/tools\";\n")
    s.bash("npx vitest run", vitest_out(6, 13, "16:22:47"))
    s.say("No need to apologise — trying it was the quickest way to find out. Done:\n\n"
          "- `History` is back to exactly what it was (no window, no `now` parameter).\n"
          "- New `Stroke` in `tools.ts`: `new Stroke(layer, \"brush\")` on pointerdown snapshots the layer; "
          "`stroke.end(history)` on pointerup pushes one command. In between the app calls `brush.paint(layer, "
          "points)` / `eraser.paint(...)`, which paint without touching history.\n"
          "- `BrushTool.stroke` / `EraserTool.stroke` still exist for whole strokes in one call and use `Stroke` "
          "internally, so nothing else breaks until you rewire the pointer handlers.\n\n"
          "The merge test is replaced by one that paints two batches inside one `Stroke` and undoes it in one "
          "step. 6 passed.")
    s.user("That's lovely, thank you. I'll do the pointer side this evening.")
    return [s]


@scenario("history-memory-cap", CP,
          "product person: a user story with QA notes, a requirement (last 50 steps) and an explicit out-of-scope "
          "line (history across reloads); the agent implements; accepted",
          [exp("boundary", "src/history.ts:History.push", "50 steps"),
           exp("boundary", "src/history.ts:History", "across reloads")])
def _cap(files):
    s = Session("history-memory-cap", "2027-02-03T10:00:00.000Z", files)
    s.user("**CP-41 — Undo memory**\n\n"
           "As an art student on a school Chromebook (4 GB RAM), I want the app to stay responsive after an hour of "
           "painting, so that I don't lose my work to a crashed tab.\n\n"
           "Notes from QA: memory grows by ~33 MB per undo step on a 2048×2048 canvas (each step keeps full layer "
           "snapshots), and the tab dies after ~80 strokes.\n\n"
           "Requirement: keep the last 50 steps of undo history; older ones are dropped.\n\n"
           "Out of scope: keeping undo history across reloads. That belongs to the \"project files\" epic, not "
           "this story.")
    s.read("src/history.ts")
    s.say("`History.done` grows without bound and every brush/eraser step holds two full-layer snapshots, which "
          "matches QA's numbers. I'll give `History` a `limit` (default 50) and have `push` drop the oldest "
          "entries once it's exceeded. Redo isn't affected: `undone` can never be longer than `done` was. I'm not "
          "touching persistence.")
    s.edit("src/history.ts",
           "  private listeners: Array<() => void> = [];\n\n  push(cmd: Command): void {\n    this.done.push(cmd);\n",
           "  private listeners: Array<() => void> = [];\n\n"
           "  /** `limit`: how many undo steps are kept; each can hold full layer snapshots. */\n"
           "  constructor(readonly limit = 50) {}\n\n"
           "  push(cmd: Command): void {\n"
           "    this.done.push(cmd);\n"
           "    if (this.done.length > this.limit) {\n"
           "      this.done.splice(0, this.done.length - this.limit); // the oldest steps go first\n"
           "    }\n")
    s.edit("test/paint.test.ts",
           "describe(\"fill\", () => {\n",
           "describe(\"history limit\", () => {\n"
           "  it(\"keeps only the last 50 steps\", () => {\n"
           "    const h = new History();\n"
           "    const undone: string[] = [];\n"
           "    for (let i = 0; i < 60; i++) h.push({ label: String(i), undo: () => undone.push(String(i)), redo: () => {} });\n"
           "    while (h.undo()) {}\n"
           "    expect(undone.length).toBe(50);\n"
           "    expect(undone[49]).toBe(\"10\");\n"
           "  });\n"
           "});\n\n"
           "describe(\"fill\", () => {\n")
    s.bash("npx vitest run", vitest_out(6, 12, "10:06:31"))
    s.say("Done:\n\n"
          "- `new History()` keeps at most 50 steps (`new History(n)` for another limit); `push` drops the oldest "
          "once there are more.\n"
          "- Test: 60 pushes, only 50 can be undone, and the oldest one left is step 10.\n"
          "- Nothing persists across reloads, as before — left for the project-files epic.\n\n"
          "With ~33 MB a step, 50 steps is still up to ~1.6 GB on a 2048² canvas. If QA still sees the tab die, "
          "the next lever is storing only the changed rectangle of a layer instead of full snapshots.")
    s.user("Acceptance criteria met 👍 I'll ask QA to re-run the Chromebook test with 50.")
    return [s]


@scenario("export-scratch-canvas", CP,
          "game-dev bug report in caps; the agent finds putImageData ignores globalAlpha/compositing and routes "
          "each layer through a scratch canvas; asked about the simpler composite() alternative, the person turns "
          "it down and asks for a comment so nobody 'optimizes' it away",
          [exp("workaround", "src/export.ts:toPngDataUrl", "scratch canvas", ["composite()"])])
def _export(files):
    s = Session("export-scratch-canvas", "2027-02-04T22:45:00.000Z", files)
    s.user("export is broken. layer opacity is ignored and the bottom layers VANISH, only the top layer ends up "
           "in the png. the canvas on screen looks fine")
    s.read("src/export.ts")
    s.say("Found it. `toPngDataUrl` draws each layer with `ctx.putImageData(image, 0, 0)` after setting "
          "`globalAlpha`. But `putImageData` is not a drawing operation: it ignores `globalAlpha`, "
          "`globalCompositeOperation` and the transform, and simply overwrites the pixels. So every visible layer "
          "replaces the one below, the last one wins, and opacity does nothing. (It also ignores `scale`, so "
          "`scale: 2` exports have been the top-left quarter.)\n\n"
          "`drawImage` does respect all of those, but it needs an image source, not `ImageData`. So: put each "
          "layer's pixels into one scratch canvas with `putImageData`, then `drawImage` the scratch canvas onto "
          "the output with the layer's opacity.")
    s.edit("src/export.ts",
           "  for (const layer of stack.layers) {\n"
           "    if (!layer.visible) continue;\n"
           "    const image = new ImageData(new Uint8ClampedArray(layer.pixels), stack.width, stack.height);\n"
           "    ctx.globalAlpha = layer.opacity;\n"
           "    ctx.putImageData(image, 0, 0);\n"
           "  }\n",
           "  // Each layer goes through a scratch canvas: putImageData ignores globalAlpha and compositing and\n"
           "  // overwrites the pixels, so only drawImage blends a layer over the ones below.\n"
           "  const scratch = makeCanvas(stack.width, stack.height);\n"
           "  const sctx = scratch.getContext(\"2d\");\n"
           "  if (!sctx) throw new Error(\"2d context unavailable\");\n"
           "  for (const layer of stack.layers) {\n"
           "    if (!layer.visible) continue;\n"
           "    sctx.putImageData(new ImageData(new Uint8ClampedArray(layer.pixels), stack.width, stack.height), 0, 0);\n"
           "    ctx.globalAlpha = layer.opacity;\n"
           "    ctx.drawImage(scratch, 0, 0, out.width, out.height);\n"
           "  }\n"
           "  ctx.globalAlpha = 1;\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_out(5, 11, "22:51:18"))
    s.say("Fixed; tsc is clean and the unit tests pass (vitest runs in node without a canvas, so export itself "
          "isn't covered — I checked the logic by hand). Each visible layer is now `putImageData`'d into one "
          "reused scratch canvas and `drawImage`'d onto the output with `globalAlpha = layer.opacity`; "
          "`imageSmoothingEnabled = false` keeps `scale` exports pixel-sharp.\n\n"
          "An alternative with less canvas juggling would be `stack.composite()` and a single `putImageData` of "
          "the result — would you prefer that?")
    s.user("NO. composite() is the slow js loop, it takes like 4 seconds on a 4k canvas, the browser does this in "
           "a few ms. keep the scratch canvas. and put a real comment on it, someone WILL \"optimize\" it back "
           "to putImageData")
    s.edit("src/export.ts",
           "  // Each layer goes through a scratch canvas: putImageData ignores globalAlpha and compositing and\n"
           "  // overwrites the pixels, so only drawImage blends a layer over the ones below.\n",
           "  // Deliberate: each layer goes through a scratch canvas. putImageData ignores globalAlpha and\n"
           "  // compositing and overwrites the pixels, so drawing layers with it straight onto `out` keeps only\n"
           "  // the top layer; only drawImage blends a layer over the ones below. Don't replace this with\n"
           "  // stack.composite() + one putImageData either: composite() is the per-pixel JS loop (seconds on a\n"
           "  // 4K canvas), this is done by the browser.\n")
    s.say("Comment in place, explaining both why not `putImageData` straight onto the output and why not "
          "`composite()`.")
    return [s]


@scenario("colors-stay-rgba", CP,
          "game-dev states a rule while correcting the agent (no hex strings in the core, RGBA in, strings only at "
          "the UI edge); a week later the agent writes Layer.fill taking a hex string and is corrected with the "
          "same rule; the person says the export background string is the edge and stays",
          [exp("invariant", "src/*.ts", "hex strings")])
def _colors(files):
    s = Session("colors-stay-rgba-1", "2027-02-05T19:10:00.000Z", files)
    s.user("add an eyedropper: pickColor(layer, point) -> the color under the point. one layer is fine")
    s.read("src/tools.ts", offset=1, limit=12)
    s.edit("src/tools.ts", "import { RGBA, blend, distance } from \"./color\";\n",
           "import { RGBA, blend, distance, toHex } from \"./color\";\n")
    s.edit("src/tools.ts",
           "/** Fill the region of pixels like the one at `start` (within `tolerance`) with `color`. */\n",
           "/** The color under `at` on `layer`, as a hex string for the color picker. */\n"
           "export function pickColor(layer: Layer, at: Point): string {\n"
           "  return toHex(layer.get(at.x, at.y));\n"
           "}\n\n"
           "/** Fill the region of pixels like the one at `start` (within `tolerance`) with `color`. */\n")
    s.say("Added `pickColor(layer, at)` in `tools.ts`; it returns the pixel as a hex string (`#rrggbb`, or "
          "`#rrggbbaa` if not opaque) so the color picker input can take it directly.")
    s.user("no. return the RGBA. NOTHING in the core passes colors around as hex strings, hex is for the UI. the "
           "ui parses once at the edge and its RGBA from there on, otherwise we parse/print the same color 60 times "
           "a second and lose alpha precision on the way")
    s.edit("src/tools.ts", "import { RGBA, blend, distance, toHex } from \"./color\";\n",
           "import { RGBA, blend, distance } from \"./color\";\n")
    s.edit("src/tools.ts",
           "/** The color under `at` on `layer`, as a hex string for the color picker. */\n"
           "export function pickColor(layer: Layer, at: Point): string {\n"
           "  return toHex(layer.get(at.x, at.y));\n"
           "}\n",
           "/** The color under `at` on `layer` (the UI turns it into a hex string if it needs one). */\n"
           "export function pickColor(layer: Layer, at: Point): RGBA {\n"
           "  return layer.get(at.x, at.y);\n"
           "}\n")
    s.bash("npx tsc --noEmit -p .", "")
    s.say("Changed: `pickColor` returns the `RGBA`; `toHex` stays a UI-side helper. tsc is clean.")

    t = Session("colors-stay-rgba-2", "2027-02-12T20:02:00.000Z", files)
    t.user("need Layer.fill(color) that fills the whole layer. for the 'new layer with background' dialog")
    t.read("src/layers.ts", offset=1, limit=40)
    t.edit("src/layers.ts", "import { RGBA, blend } from \"./color\";\n",
           "import { RGBA, blend, parseHex } from \"./color\";\n")
    t.edit("src/layers.ts",
           "  restore(data: Uint8ClampedArray): void {\n    this.pixels.set(data);\n  }\n}\n",
           "  restore(data: Uint8ClampedArray): void {\n    this.pixels.set(data);\n  }\n\n"
           "  /** Fill the whole layer with a color from the dialog (\"#rrggbb\" or \"#rrggbbaa\"). */\n"
           "  fill(hex: string): void {\n"
           "    const c = parseHex(hex);\n"
           "    for (let i = 0; i < this.pixels.length; i += 4) {\n"
           "      this.pixels[i] = c.r;\n"
           "      this.pixels[i + 1] = c.g;\n"
           "      this.pixels[i + 2] = c.b;\n"
           "      this.pixels[i + 3] = c.a;\n"
           "    }\n"
           "  }\n}\n")
    t.say("Added `Layer.fill(hex)`: it parses the dialog's value with `parseHex` and writes it into every pixel.")
    t.user("again?? RGBA in. no hex strings in the core, same thing i said about the eyedropper. the dialog "
           "parses, fill takes RGBA")
    t.edit("src/layers.ts", "import { RGBA, blend, parseHex } from \"./color\";\n",
           "import { RGBA, blend } from \"./color\";\n")
    t.edit("src/layers.ts",
           "  /** Fill the whole layer with a color from the dialog (\"#rrggbb\" or \"#rrggbbaa\"). */\n"
           "  fill(hex: string): void {\n"
           "    const c = parseHex(hex);\n",
           "  /** Fill the whole layer with `c`. */\n"
           "  fill(c: RGBA): void {\n")
    t.grep(": string", ["src/color.ts", "src/export.ts", "src/shortcuts.ts"],
           text="Let me check whether anything else in src/ takes a color as a string.")
    t.bash("npx tsc --noEmit -p .", "")
    t.say("Sorry — fixed: `Layer.fill(c: RGBA)`, no parsing inside. tsc is clean.\n\n"
          "While checking for other string colors: `ExportOptions.background` in `export.ts` is a CSS string too. "
          "Do you want that changed to `RGBA` as well?")
    t.user("no leave it, it goes straight into fillStyle. export is the edge")
    return [s, t]


@scenario("review-layers", CP,
          "maintainer asks for a review with no changes; the agent's suggestions are passed on to a contributor "
          "and none is taken up in the session",
          [])
def _review(files):
    s = Session("review-layers", "2027-02-06T09:40:00.000Z", files)
    s.user("Good morning! Could you review `layers.ts` for me? A new contributor would like to build blend modes "
           "on top of it, and I'd like to know what you'd change first. No changes yet please — I'd rather they "
           "got to do the work themselves.")
    s.read("src/layers.ts")
    s.read("src/color.ts", offset=31, limit=12)
    s.say("Here's what I'd look at, most important first:\n\n"
          "1. **`composite()` allocates per pixel.** `layer.get()` builds an object for every pixel of every layer "
          "and `blend` another; at 2048² with five layers that's ~40M short-lived objects per composite. Working "
          "on the `Uint8ClampedArray`s directly would be 10–20× faster. Blend modes will make this loop hotter, so "
          "it should probably come first.\n"
          "2. **`remove()` and `active`.** Removing a layer below the active one leaves `active` pointing at a "
          "different layer (the one that moved down into its slot). It should decrement when `index < active`.\n"
          "3. **`move()` doesn't touch `active` at all**, so moving the active layer leaves the selection on "
          "whatever lands at the old index.\n"
          "4. **`opacity` is unchecked**: values outside 0–1 give alpha outside 0–255 before `clamp`. A setter "
          "that clamps would be safer.\n"
          "5. For blend modes specifically: a `blendMode` field on `Layer` and a lookup table of `(top, bottom) "
          "=> RGBA` functions in `color.ts`, with `blend` as the `normal` entry, would keep `composite()` "
          "unchanged except for the call.\n\n"
          "Nothing here is urgent except 2, which is a real bug users can hit.")
    s.user("Thank you, that's very helpful. I'll pass it on to them as it is — they can decide what to pick up "
           "and in which order.")
    return [s]


@scenario("layered-export-plan", CP,
          "product person asks what a feature would take; the agent's plan ('if it were me …') is taken to "
          "planning, nothing adopted; a process instruction (run the linter)",
          [])
def _plan(files):
    s = Session("layered-export-plan", "2027-02-09T14:05:00.000Z", files)
    s.user("As a user, I want to export my drawing as a layered file so that I can keep editing it in Photopea or "
           "Krita. What would that take? Just an estimate for now.")
    s.read("src/export.ts")
    s.read("src/layers.ts", offset=38)
    s.say("Two realistic formats:\n\n"
          "| format | what it is | effort |\n"
          "|---|---|---|\n"
          "| OpenRaster (.ora) | a zip: one PNG per layer + `stack.xml` with order, opacity, visibility | small: "
          "we already make PNGs; needs a zip writer |\n"
          "| PSD | Adobe's binary format, RLE-compressed channels per layer | larger: hand-written encoder, ~400 "
          "lines, many edge cases |\n\n"
          "Krita opens .ora natively; Photopea opens both. For the zip, either a dependency (`fflate`, ~8 kB) or a "
          "hand-written store-only zip (no compression — PNGs are compressed already — about 80 lines with the "
          "CRC table).\n\n"
          "If it were me I'd do .ora first with a store-only zip, roughly a day including tests, and PSD only if "
          "users ask for it specifically. The layer stack already has everything .ora needs (name, order, "
          "opacity, visibility).")
    s.user("Ok, thanks. I'll take this to planning on Thursday, let's not start anything yet. Could you run the "
           "linter before you go? CI complained about something yesterday.")
    s.bash("npm run lint", "\n> canvaspaint@0.3.0 lint\n> eslint src test\n\n")
    s.say("Lint is clean on `main` now — yesterday's CI failure must have been fixed by the commit that came after "
          "it. Nothing changed in this session.")
    s.user("great, thanks")
    return [s]


@scenario("redo-shortcut-shift", CP,
          "product person's story (Ctrl+Shift+Z does nothing); the agent's test fails, the cause is found (event.key "
          "is uppercase 'Z' with Shift) and fixed; then the agent asks an inline 'X or Y?' about Cmd on macOS, "
          "answered with user stories",
          [exp("gotcha", "src/shortcuts.ts:matches", "uppercase"),
           exp("decision", "src/shortcuts.ts:matches", "cmd on mac only", ["either ctrl or cmd"])])
def _redo(files):
    s = Session("redo-shortcut-shift", "2027-02-10T11:20:00.000Z", files)
    s.user("Bug, CP-57: As a Photoshop user, I want Ctrl+Shift+Z to redo, so that I don't have to relearn my muscle "
           "memory. Today nothing happens when I press it (Ctrl+Y works). It's in the default bindings, so it "
           "should work.")
    s.read("src/shortcuts.ts")
    s.say("The binding is there (`ctrl+shift+z` → `redo`). Let me pin the bug down with a test that sends what a "
          "browser sends for Ctrl+Shift+Z.")
    s.edit("test/paint.test.ts",
           "    expect(matches(key(\"z\"), \"ctrl+z\")).toBe(false);\n  });\n",
           "    expect(matches(key(\"z\"), \"ctrl+z\")).toBe(false);\n  });\n"
           "  it(\"matches ctrl+shift+z as a browser reports it\", () => {\n"
           "    expect(matches(key(\"Z\", { ctrl: true, shift: true }), \"ctrl+shift+z\")).toBe(true);\n"
           "  });\n")
    s.bash("npx vitest run",
           " RUN  v2.1.4 /home/dev/canvaspaint\n\n"
           " ❯ test/paint.test.ts (6 tests | 1 failed) 15ms\n"
           "   × shortcuts > matches ctrl+shift+z as a browser reports it 4ms\n"
           "     → expected false to be true // Object.is equality\n\n"
           "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n"
           " FAIL  test/paint.test.ts > shortcuts > matches ctrl+shift+z as a browser reports it\n"
           "AssertionError: expected false to be true // Object.is equality\n\n"
           "- Expected\n+ Received\n\n- true\n+ false\n\n"
           " ❯ test/paint.test.ts:52:82\n"
           "     50|   });\n"
           "     51|   it(\"matches ctrl+shift+z as a browser reports it\", () => {\n"
           "     52|     expect(matches(key(\"Z\", { ctrl: true, shift: true }), \"ctrl+shift+z\")).toBe(true);\n"
           "       |                                                                                  ^\n"
           "     53|   });\n\n"
           " Test Files  1 failed (1)\n      Tests  1 failed | 5 passed (6)", fail=True)
    s.say("Reproduced. The cause: while Shift is held, browsers report `event.key` as the shifted character — "
          "`\"Z\"`, uppercase — not `\"z\"`. `parseCombo` lowercases the binding, but `matches` compares "
          "`event.key` as is, so any binding with `shift` and a letter can never match. (Caps Lock does the same "
          "to bindings *without* shift.) Ctrl+Y works because no Shift is involved. Fix: compare the key "
          "case-insensitively.")
    s.edit("src/shortcuts.ts",
           "  return event.key === c.key && event.ctrlKey === c.ctrl && event.shiftKey === c.shift && event.altKey === c.alt;\n",
           "  // event.key is \"Z\", not \"z\", while Shift (or Caps Lock) is on, so compare it lowercased\n"
           "  return (\n"
           "    event.key.toLowerCase() === c.key &&\n"
           "    event.ctrlKey === c.ctrl &&\n"
           "    event.shiftKey === c.shift &&\n"
           "    event.altKey === c.alt\n"
           "  );\n")
    s.bash("npx vitest run", vitest_out(6, 12, "11:31:09"))
    s.say("Fixed — Ctrl+Shift+Z now matches (the uppercase key was the whole problem); 6 passed.\n\n"
          "Related, while I'm in here: `matches` ignores `metaKey` entirely, so on a Mac Cmd+Z does nothing — "
          "only Ctrl+Z, which Mac users don't expect. Should `ctrl` in a binding mean Cmd on Mac only (detected "
          "from the platform), or should we accept either Ctrl or Cmd on every platform?")
    s.user("As a Mac user I want Cmd+Z to undo like in every other Mac app. As a Windows user I don't want the "
           "Windows key + Z to do anything in our app, it's the OS's. So: Cmd on Mac only, please.")
    s.edit("src/shortcuts.ts",
           "export function matches(event: KeyLike, combo: string): boolean {\n"
           "  const c = parseCombo(combo);\n",
           "export const IS_MAC = typeof navigator !== \"undefined\" && /Mac|iPhone|iPad/.test(navigator.platform);\n\n"
           "/** `ctrl` in a combo is Cmd on macOS (and only there); elsewhere the Meta/Windows key never matches. */\n"
           "export function matches(event: KeyLike, combo: string, mac: boolean = IS_MAC): boolean {\n"
           "  const c = parseCombo(combo);\n"
           "  const primary = mac ? event.metaKey : event.ctrlKey;\n"
           "  const other = mac ? event.ctrlKey : event.metaKey;\n")
    s.edit("src/shortcuts.ts",
           "    event.key.toLowerCase() === c.key &&\n    event.ctrlKey === c.ctrl &&\n",
           "    event.key.toLowerCase() === c.key &&\n    primary === c.ctrl &&\n    !other &&\n")
    s.edit("test/paint.test.ts",
           "    expect(matches(key(\"Z\", { ctrl: true, shift: true }), \"ctrl+shift+z\")).toBe(true);\n  });\n",
           "    expect(matches(key(\"Z\", { ctrl: true, shift: true }), \"ctrl+shift+z\", false)).toBe(true);\n  });\n"
           "  it(\"uses cmd instead of ctrl on mac only\", () => {\n"
           "    const cmdZ = { ...key(\"z\"), metaKey: true };\n"
           "    expect(matches(cmdZ, \"ctrl+z\", true)).toBe(true);\n"
           "    expect(matches(key(\"z\", { ctrl: true }), \"ctrl+z\", true)).toBe(false);\n"
           "    expect(matches(cmdZ, \"ctrl+z\", false)).toBe(false);\n"
           "  });\n")
    s.bash("npx vitest run", vitest_out(7, 13, "11:44:52"))
    s.say("Done: `matches` takes a `mac` flag (defaulting to `IS_MAC`, detected from `navigator.platform`). On Mac, "
          "`ctrl` in a binding means Cmd and a physical Ctrl doesn't match; elsewhere it means Ctrl and the "
          "Windows key never matches. The tests pass the flag explicitly so they don't depend on the machine. "
          "7 passed.")
    s.user("Thanks! Closing CP-57.")
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
    (HERE / "expected.json").write_text(json.dumps({"set": "tune9", "scenarios": out}, indent=2,
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
