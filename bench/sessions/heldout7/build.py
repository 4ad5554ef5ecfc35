"""Writes the heldout7 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``lobbyd`` (Python, a game matchmaking server) and
``mdlite`` (TypeScript, a small markdown-to-HTML renderer). Sessions are written with the
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


def pytest_ok(n: int, secs: str = "0.41") -> str:
    return ("============================= test session starts ==============================\n"
            "platform linux -- Python 3.12.7, pytest-8.3.3, pluggy-1.5.0\n"
            "rootdir: {{ROOT}}\nconfigfile: pyproject.toml\n"
            f"collected {n} items\n\ntests/test_lobbyd.py {'.' * n}{' ' * max(1, 50 - n)}[100%]\n\n"
            f"============================== {n} passed in {secs}s ===============================")


# -- lobbyd (Python) -------------------------------------------------------------------------------------

LB = "lobbyd"


@scenario("provisional-k", LB, "founder on a phone, fragments; agent gives a table of three options with a "
          "recommendation; 'B.' with a reason, plus a scope cut (no decay) in the same line",
          [exp("decision", "lobbyd/ratings.py:k_factor", "provisional k", ["glicko-2", "raise it to 48"]),
           exp("boundary", "lobbyd/ratings.py", "no decay")])
def _provisional_k(files):
    s = Session("provisional-k", "2026-03-02T07:41:00.000Z", files)
    s.user("ratings feel sticky. new ppl take like 40 games to leave 1500. fix?")
    s.read("lobbyd/ratings.py")
    s.grep("update_ratings", ["lobbyd/ratings.py", "lobbyd/__init__.py", "tests/test_lobbyd.py"])
    s.say("It's plain Elo with one `K = 32` for everybody, so a new player moves at most 32 points a game — "
          "from 1500 to a true 1900 takes dozens of wins. Three ways to speed that up:\n\n"
          "| | option | upside | downside |\n"
          "|---|---|---|---|\n"
          "| **A** | keep fixed K, raise it to 48 | one-line change | veterans swing just as hard; ladder gets noisy |\n"
          "| **B** | provisional K: 64 for a player's first 20 games, then 32 | new players converge in ~10 games, "
          "veterans unchanged | the two sides of a game move by different amounts |\n"
          "| **C** | switch to Glicko-2 (rating deviation + volatility) | principled uncertainty, handles "
          "inactivity too | new state per player, a rating period job, harder to explain |\n\n"
          "I'd go with **B**. Want that?")
    s.user("B. glicko-2 is overkill for 3 of us rn. and no decay for inactive ppl either, not now")
    s.edit("lobbyd/ratings.py", "START = 1500.0\nK = 32.0\n",
           "START = 1500.0\nK = 32.0\nPROVISIONAL_K = 64.0\nPROVISIONAL_GAMES = 20\n")
    s.edit("lobbyd/ratings.py",
           "def update_ratings(winner: Rating, loser: Rating) -> None:\n"
           "    \"\"\"Update both ratings in place after ``winner`` beat ``loser``.\"\"\"\n"
           "    ew = expected_score(winner.value, loser.value)\n"
           "    delta = K * (1.0 - ew)\n"
           "    winner.value += delta\n"
           "    loser.value -= delta\n",
           "def k_factor(r: Rating) -> float:\n"
           "    \"\"\"Provisional K for a player's first PROVISIONAL_GAMES games, so new players find their level\n"
           "    quickly; the normal K after that.\"\"\"\n"
           "    return PROVISIONAL_K if r.games < PROVISIONAL_GAMES else K\n\n\n"
           "def update_ratings(winner: Rating, loser: Rating) -> None:\n"
           "    \"\"\"Update both ratings in place after ``winner`` beat ``loser``.\n\n"
           "    Each side moves by its own K, so a provisional player facing a veteran moves further than\n"
           "    the veteran does (the sum of ratings is not conserved while anyone is provisional).\"\"\"\n"
           "    ew = expected_score(winner.value, loser.value)\n"
           "    winner.value += k_factor(winner) * (1.0 - ew)\n"
           "    loser.value -= k_factor(loser) * (1.0 - ew)\n")
    s.edit("tests/test_lobbyd.py",
           "def test_party_rating_and_leave():",
           "def test_provisional_player_moves_faster():\n"
           "    new, vet = Rating(\"n\"), Rating(\"v\", games=200)\n"
           "    update_ratings(new, vet)\n"
           "    assert new.value - 1500 == 32.0 and 1500 - vet.value == 16.0\n\n\n"
           "def test_party_rating_and_leave():")
    s.bash("python -m pytest -q", pytest_ok(10))
    s.say("Done — B:\n\n- `k_factor()`: K=64 for the first 20 games, 32 after\n"
          "- `update_ratings` uses each player's own K (doc notes the sum isn't conserved while someone is "
          "provisional)\n- new test; 10 passed\n\nNo decay for inactive players — left out as you said.")
    s.user("👍 ship")
    s.bash("git add -A && git commit -qm 'ratings: provisional K for the first 20 games' && git log --oneline -1",
           "4be01c2 ratings: provisional K for the first 20 games")
    return [s]


@scenario("party-rating-max", LB, "careful academic, hedged long messages; agent lists three options; person "
          "first leans to one, reasons it away, and settles 'tentatively' on another",
          [exp("decision", "lobbyd/parties.py:Party.rating", "highest member", ["spread penalty", "power mean"])])
def _party_rating(files):
    s = Session("party-rating-max", "2026-03-04T14:10:00.000Z", files)
    s.user("I've been looking at the match-quality numbers from last week's playtest (the sample is small, so "
           "please treat this as suggestive rather than conclusive). It seems that parties with a large internal "
           "spread — say a 1900 player queuing with two friends around 1300 — are fairly systematically placed "
           "against teams they beat easily. My working hypothesis is that `Party.rating`, which if I read it "
           "correctly is the arithmetic mean, understates what such a party can actually do, since the strong "
           "player tends to carry.\n\nCould you look at how the party rating is computed and used, and suggest "
           "alternatives? I would prefer that we not change anything until we have discussed it.")
    s.read("lobbyd/parties.py")
    s.grep(r"\.rating\b", ["lobbyd/parties.py", "lobbyd/queues.py", "lobbyd/matchmaker.py"])
    s.read("lobbyd/matchmaker.py", offset=40, limit=16)
    s.say("You read it right: `Party.rating` is the plain mean of the members, and it's the only number the "
          "matchmaker sees for a party — `QueueEntry.rating` is set from it, and `pick()` compares it against "
          "the oldest entry's rating within `MAX_SPREAD`. So a 1900/1300/1300 party queues as 1500.\n\n"
          "Alternatives, roughly from simplest to most elaborate:\n\n"
          "1. **Highest member's rating** — the party counts as strong as its best player. 1900/1300/1300 → "
          "1900. Trivial to explain; over-rates a party whose best player is the odd one out, i.e. errs toward "
          "harder opponents.\n"
          "2. **Mean plus a spread penalty** — `mean + α·(max − mean)`, e.g. α = 0.5 → 1700. Identical to the "
          "mean for homogeneous parties; needs α chosen somehow.\n"
          "3. **Power mean** — `(Σ rᵖ / n)^(1/p)` with p ≈ 4–8, which weights the high ratings more. Smooth, "
          "no cliff, but hard to explain to a player who asks why they got the lobby they got.\n\n"
          "I haven't changed anything.")
    s.user("Thank you, this is helpful, and the 1900/1300/1300 example is exactly the case I had in mind.\n\n"
           "My first instinct was the second option, since it degrades gracefully to the mean for homogeneous "
           "parties and so would leave most of the queue untouched. On reflection, though, I think I'd rather "
           "not introduce a tuning constant we have no principled way to set — the 0.5 would be a number I made "
           "up, and I suspect we would end up arguing about it rather than about match quality. The power mean "
           "is elegant, but I take your point about explainability; support tickets would be painful.\n\n"
           "So, tentatively: let us use the highest member's rating. It errs in what I believe is the right "
           "direction (a harder match for a mixed party seems preferable to a stomp), and it is trivially "
           "explainable. If the next playtest suggests it over-corrects we can revisit. Could you please keep the "
           "mean available under another name, as I would like to log both and compare?")
    s.edit("lobbyd/parties.py",
           "    @property\n    def rating(self) -> float:\n"
           "        \"\"\"The rating the matchmaker uses for the whole party.\"\"\"\n"
           "        return sum(r.value for r in self.members.values()) / len(self.members)\n",
           "    @property\n    def rating(self) -> float:\n"
           "        \"\"\"The rating the matchmaker uses for the whole party: its highest member's.\n\n"
           "        A mixed party plays closer to its best player than to its mean, so the mean put such parties\n"
           "        into lobbies they stomped; the max errs towards harder opponents instead.\"\"\"\n"
           "        return max(r.value for r in self.members.values())\n\n"
           "    @property\n    def mean_rating(self) -> float:\n"
           "        \"\"\"The members' mean, kept for logging next to ``rating``.\"\"\"\n"
           "        return sum(r.value for r in self.members.values()) / len(self.members)\n")
    s.edit("tests/test_lobbyd.py",
           "    assert p.size == 2\n    reg.leave(\"a\")\n",
           "    assert p.size == 2\n    assert p.rating == 1600 and p.mean_rating == 1500\n    reg.leave(\"a\")\n")
    s.bash("python -m pytest -q", pytest_ok(9, "0.38"))
    s.say("`Party.rating` now returns the highest member's rating, with the reasoning in its docstring; the "
          "mean is still there as `Party.mean_rating` for your logs. The party test checks both. 9 passed.\n\n"
          "One thing to be aware of for the comparison: solo players are unaffected (max = mean = their rating), "
          "so only party entries will differ in the logs.")
    s.user("That is exactly what I wanted, thank you. I will set up the logging on my side.")
    return [s]


@scenario("reconnect-window", LB, "maintainer reviews the agent's code in review style: one 'blocking:' that is "
          "a rule about when the window starts, a 'nit:', and 'not in this PR' scope",
          [exp("invariant", "lobbyd/reconnect.py:ReconnectTracker.can_rejoin", "from the disconnect",
               ["last heartbeat"]),
           exp("boundary", "lobbyd/reconnect.py:ReconnectTracker", "in-memory only")])
def _reconnect(files):
    s = Session("reconnect-window", "2026-03-09T10:02:00.000Z", files)
    s.user("Add the reconnect window to ReconnectTracker: `can_rejoin(player_id, now)` and `expire(now)` that "
           "drops slots past the window and returns the dropped player ids. WINDOW is already 90s. Tests please.")
    s.read("lobbyd/reconnect.py")
    s.edit("lobbyd/reconnect.py",
           "    def finished(self, match_id: str) -> None:\n",
           "    def can_rejoin(self, player_id: str, now: float) -> bool:\n"
           "        slot = self.slots.get(player_id)\n"
           "        return slot is not None and now - slot.last_seen <= self.window\n\n"
           "    def expire(self, now: float) -> list[str]:\n"
           "        gone = [p for p, s in self.slots.items() if now - s.last_seen > self.window]\n"
           "        for pid in gone:\n"
           "            del self.slots[pid]\n"
           "        return gone\n\n"
           "    def finished(self, match_id: str) -> None:\n")
    s.edit("tests/test_lobbyd.py",
           "def test_reconnect_finished_clears():",
           "def test_reconnect_window():\n"
           "    t = ReconnectTracker()\n"
           "    t.joined(\"a\", \"m1\", 0.0)\n"
           "    t.heartbeat(\"a\", 10.0)\n"
           "    assert t.can_rejoin(\"a\", 95.0)\n"
           "    assert t.expire(101.0) == [\"a\"]\n\n\n"
           "def test_reconnect_finished_clears():")
    s.bash("python -m pytest -q", pytest_ok(10, "0.40"))
    s.say("Added `can_rejoin` (slot exists and `now - last_seen <= window`) and `expire` (drops and returns "
          "the ids past the window), plus a test. 10 passed.")
    s.user("Review:\n\n"
           "blocking: the window must be measured from the disconnect, not from the last heartbeat. The game "
           "server sends heartbeats every 5s, but when the game server itself hangs, last_seen goes stale and "
           "players lose their slot before anyone has even told us they dropped. `disconnected_at` exists for "
           "exactly this. A player who hasn't disconnected isn't \"rejoining\" anything, so can_rejoin is False "
           "for them.\n\n"
           "nit: `expire` → `expire_slots`, reads better at the call site in server.py. Up to you.\n\n"
           "nit: the test should cover a stale heartbeat with a recent disconnect, that's the case that bit us.\n\n"
           "Not in this PR: persisting slots across lobbyd restarts. In-memory only for now; we'll revisit when "
           "we run more than one instance.\n\n"
           "LGTM once the blocking one is fixed.")
    s.edit("lobbyd/reconnect.py",
           "    def can_rejoin(self, player_id: str, now: float) -> bool:\n"
           "        slot = self.slots.get(player_id)\n"
           "        return slot is not None and now - slot.last_seen <= self.window\n\n"
           "    def expire(self, now: float) -> list[str]:\n"
           "        gone = [p for p, s in self.slots.items() if now - s.last_seen > self.window]\n",
           "    def can_rejoin(self, player_id: str, now: float) -> bool:\n"
           "        \"\"\"True while a disconnected player is within the window, counted from the disconnect —\n"
           "        never from the last heartbeat, which goes stale when the game server hangs.\"\"\"\n"
           "        slot = self.slots.get(player_id)\n"
           "        if slot is None or slot.disconnected_at is None:\n"
           "            return False\n"
           "        return now - slot.disconnected_at <= self.window\n\n"
           "    def expire_slots(self, now: float) -> list[str]:\n"
           "        gone = [p for p, s in self.slots.items()\n"
           "                if s.disconnected_at is not None and now - s.disconnected_at > self.window]\n")
    s.edit("lobbyd/reconnect.py",
           "class ReconnectTracker:\n",
           "class ReconnectTracker:\n"
           "    \"\"\"Slots of players in running matches. Kept in memory only: a lobbyd restart forgets them.\"\"\"\n\n")
    s.edit("tests/test_lobbyd.py",
           "    t.joined(\"a\", \"m1\", 0.0)\n"
           "    t.heartbeat(\"a\", 10.0)\n"
           "    assert t.can_rejoin(\"a\", 95.0)\n"
           "    assert t.expire(101.0) == [\"a\"]\n",
           "    t.joined(\"a\", \"m1\", 0.0)\n"
           "    t.heartbeat(\"a\", 10.0)\n"
           "    assert not t.can_rejoin(\"a\", 20.0)  # still connected\n"
           "    t.disconnected(\"a\", 200.0)  # heartbeat is 190s stale by now\n"
           "    assert t.can_rejoin(\"a\", 250.0)\n"
           "    assert t.expire_slots(250.0) == []\n"
           "    assert t.expire_slots(291.0) == [\"a\"]\n")
    s.bash("python -m pytest -q", pytest_ok(10, "0.39"))
    s.say("Fixed:\n- window counted from `disconnected_at`; not-disconnected → `False`\n"
          "- renamed to `expire_slots`\n- test now has the stale-heartbeat-then-disconnect case\n"
          "- class docstring says slots are in memory only\n\n10 passed.")
    s.user("LGTM")
    return [s]


@scenario("ban-export-naive", LB, "lowercase person pastes a traceback; agent reproduces it in a test, finds "
          "that the new export has no UTC offset, asks one question, fixes the loader",
          [exp("gotcha", "lobbyd/bans.py:load_bans", "naive")])
def _bans(files):
    s = Session("ban-export-naive", "2026-03-11T22:47:00.000Z", files)
    s.user("login is crashing on prod after we loaded the new ban export from the mod tool. pasting:\n\n"
           "```\nTraceback (most recent call last):\n"
           "  File \"/srv/lobbyd/lobbyd/server.py\", line 88, in on_login\n"
           "    if bans.is_banned(player.id, now):\n"
           "  File \"/srv/lobbyd/lobbyd/bans.py\", line 33, in is_banned\n"
           "    return ban is not None and ban.active(now)\n"
           "  File \"/srv/lobbyd/lobbyd/bans.py\", line 17, in active\n"
           "    return self.until is None or now < self.until\n"
           "TypeError: can't compare offset-naive and offset-aware datetimes\n```\n\n"
           "it worked with last weeks export, idk what changd. the file loads fine btw, its only at login")
    s.read("lobbyd/bans.py")
    s.bash("head -c 300 /srv/lobbyd/data/bans.json 2>/dev/null || echo 'no such file here'", "no such file here")
    s.say("The loader passes `until` straight to `datetime.fromisoformat`. If the export's timestamps have "
          "no offset, that gives a *naive* datetime, and nothing fails until `active()` compares it with your "
          "timezone-aware `now` — which is why loading works and login blows up. Let me reproduce it.")
    s.edit("tests/test_lobbyd.py",
           "def test_load_bans_permanent():",
           "def test_load_bans_without_offset():\n"
           "    bl = load_bans('[{\"player\": \"x\", \"reason\": \"grief\", \"until\": \"2026-04-01T00:00:00\"}]')\n"
           "    assert bl.is_banned(\"x\", utc(2026, 3, 31))\n\n\n"
           "def test_load_bans_permanent():")
    s.bash("python -m pytest -q -k without_offset",
           "F                                                                        [100%]\n"
           "=================================== FAILURES ===================================\n"
           "________________________ test_load_bans_without_offset _________________________\n\n"
           "    def test_load_bans_without_offset():\n"
           "        bl = load_bans('[{\"player\": \"x\", \"reason\": \"grief\", \"until\": \"2026-04-01T00:00:00\"}]')\n"
           ">       assert bl.is_banned(\"x\", utc(2026, 3, 31))\n\n"
           "tests/test_lobbyd.py:78: \n_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
           "lobbyd/bans.py:33: in is_banned\n    return ban is not None and ban.active(now)\n"
           "lobbyd/bans.py:17: in active\n    return self.until is None or now < self.until\n"
           "E   TypeError: can't compare offset-naive and offset-aware datetimes\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_lobbyd.py::test_load_bans_without_offset - TypeError: can't compare offset-naive and offset-aware datetimes\n"
           "1 failed, 9 deselected in 0.21s", fail=True)
    s.say("Reproduced: the same TypeError from an `until` without an offset. So the new export dropped the "
          "`Z`/`+00:00` suffix. Are those timestamps UTC? If so I'll treat offset-less values as UTC in "
          "`load_bans`, so every `until` is aware and the comparison can't fail at login again.")
    s.user("yes utc, the mod tool is utc everywhere. go")
    s.edit("lobbyd/bans.py",
           "        until = datetime.fromisoformat(row[\"until\"]) if row.get(\"until\") else None\n",
           "        until = datetime.fromisoformat(row[\"until\"]) if row.get(\"until\") else None\n"
           "        if until is not None and until.tzinfo is None:\n"
           "            # the mod tool writes UTC, since March without an offset; a naive value would only\n"
           "            # fail later, comparing against an aware `now` at login\n"
           "            until = until.replace(tzinfo=timezone.utc)\n")
    s.bash("python -m pytest -q", pytest_ok(10, "0.37"))
    s.say("Fixed in `load_bans`: an `until` without an offset is read as UTC (comment explains why). The new "
          "test passes with the rest, 10 passed. Reload the export after deploying and login should be fine.")
    s.user("ty!! deploying")
    return [s]


@scenario("oce-fallback", LB, "a docstring clean-up; the agent flags odd code as a bug and the person explains "
          "it is deliberate (non-native English), asks for a comment",
          [exp("workaround", "lobbyd/queues.py:region_for", "into sea")])
def _oce(files):
    s = Session("oce-fallback", "2026-03-12T08:20:00.000Z", files)
    s.user("please clean queues.py a bit — docstrings, types. nothing functional. we open the repo for the "
           "contractors next week and it should be readable")
    s.read("lobbyd/queues.py")
    s.edit("lobbyd/queues.py",
           "@dataclass\nclass QueueEntry:\n",
           "@dataclass\nclass QueueEntry:\n    \"\"\"One party waiting in a queue (a solo player is a party of one).\"\"\"\n\n")
    s.edit("lobbyd/queues.py",
           "    def waiting(self) -> int:\n",
           "    def waiting(self) -> int:\n        \"\"\"Players (not parties) waiting.\"\"\"\n")
    s.say("Added docstrings to `QueueEntry` and `RegionQueue.waiting`. Before I go on — `region_for` looks like "
          "a bug to me:\n\n```python\nif requested == \"oce\" and sizes.get(\"oce\", 0) < OCE_MIN_QUEUE:\n"
          "    return \"sea\"\n```\n\nAn OCE player who asked for OCE is silently queued in SEA whenever fewer "
          "than 6 are waiting, so OCE can never grow past 6 once it drops below. Should I remove that so OCE "
          "players stay in OCE?")
    s.user("no no, it is on purpose. at night OCE has maybe 30 players online, they wait 10+ minutes and then "
           "they leave the game. ping from sydney to SEA servers is ~90ms, it is playable. so when under 6 are "
           "waiting we put OCE players into SEA. keep it please, but write a comment why — the contractors will "
           "think exactly same like you")
    s.edit("lobbyd/queues.py",
           "def region_for(requested: str, sizes: dict[str, int]) -> str:\n"
           "    if requested not in REGIONS:\n",
           "def region_for(requested: str, sizes: dict[str, int]) -> str:\n"
           "    \"\"\"The queue a party asking for ``requested`` goes into.\n\n"
           "    Deliberate: while fewer than OCE_MIN_QUEUE players wait in OCE, OCE players are put into SEA.\n"
           "    Off-peak OCE has too few players online and they wait 10+ minutes and quit; Sydney to the SEA\n"
           "    servers is ~90 ms, which is playable. Not a bug — do not \"fix\" it.\n"
           "    \"\"\"\n"
           "    if requested not in REGIONS:\n")
    s.edit("lobbyd/queues.py",
           "class QueueManager:\n",
           "class QueueManager:\n    \"\"\"All region queues; knows which queue each party is in.\"\"\"\n\n")
    s.bash("python -m pytest -q && ruff check lobbyd", pytest_ok(9, "0.36") + "\nAll checks passed!")
    s.say("Kept the OCE→SEA fallback and documented why in `region_for`'s docstring (player counts, 10-minute "
          "waits, ~90 ms ping), with a \"not a bug\" line for the contractors. Also docstrings on `QueueEntry`, "
          "`RegionQueue.waiting` and `QueueManager`. Nothing functional changed; tests and ruff pass.")
    s.user("perfect thanks")
    return [s]


@scenario("clock-as-parameter", LB, "rule stated as a correction when the agent calls time.monotonic() in the "
          "matchmaker; eight days later restated in other words when it calls datetime.now() in bans",
          [exp("invariant", "lobbyd/**/*.py", "read the clock")])
def _clock(files):
    s = Session("clock-widen-spread", "2026-03-16T13:05:00.000Z", files)
    s.user("parties that wait long should get a wider rating spread. +50 per 30s waited, capped at 600. "
           "measured on the oldest entry in the queue, since pick() anchors on it")
    s.read("lobbyd/matchmaker.py")
    s.edit("lobbyd/matchmaker.py",
           "import itertools\nfrom dataclasses import dataclass\n",
           "import itertools\nimport time\nfrom dataclasses import dataclass\n")
    s.edit("lobbyd/matchmaker.py",
           "MAX_SPREAD = 300.0\n",
           "MAX_SPREAD = 300.0\nSPREAD_STEP = 50.0  # added per 30 s the oldest entry has waited\nSPREAD_CAP = 600.0\n")
    s.edit("lobbyd/matchmaker.py",
           "def pick(entries:",
           "def spread_for(waited: float) -> float:\n"
           "    return min(SPREAD_CAP, MAX_SPREAD + SPREAD_STEP * (waited // 30))\n\n\n"
           "def pick(entries:")
    s.edit("lobbyd/matchmaker.py",
           "                chosen = pick(list(q.entries), 2 * TEAM_SIZE, MAX_SPREAD)\n",
           "                waited = time.monotonic() - q.entries[0].joined_at if q.entries else 0.0\n"
           "                chosen = pick(list(q.entries), 2 * TEAM_SIZE, spread_for(waited))\n")
    s.bash("python -m pytest -q", pytest_ok(9, "0.35"))
    s.say("Added `spread_for(waited)` (300 + 50 per full 30 s, capped at 600) and `tick` now computes how "
          "long the queue's oldest entry has waited. Tests pass; I'll add one for the widening next.")
    s.user("don't call time.monotonic in there. tick already gets now — use it. nothing in lobbyd should read "
           "the clock itself, the server loop passes now in. that's the only reason the tests are deterministic "
           "and we can replay a night of queue logs in 2 seconds")
    s.edit("lobbyd/matchmaker.py",
           "import itertools\nimport time\nfrom dataclasses import dataclass\n",
           "import itertools\nfrom dataclasses import dataclass\n")
    s.edit("lobbyd/matchmaker.py",
           "                waited = time.monotonic() - q.entries[0].joined_at if q.entries else 0.0\n",
           "                waited = now - q.entries[0].joined_at if q.entries else 0.0\n")
    s.edit("tests/test_lobbyd.py",
           "def test_reconnect_finished_clears():",
           "def test_spread_widens_with_wait():\n"
           "    qm = QueueManager()\n"
           "    for i in range(9):\n"
           "        qm.enqueue(entry(f\"s{i}\", at=0.0))\n"
           "    qm.enqueue(entry(\"far\", rating=1950.0, at=0.0))\n"
           "    mm = Matchmaker(qm)\n"
           "    assert mm.tick(now=10.0) == []\n"
           "    assert len(mm.tick(now=95.0)) == 1  # spread 450 after 90 s\n\n\n"
           "def test_reconnect_finished_clears():")
    s.bash("python -m pytest -q", pytest_ok(10, "0.36"))
    s.say("Right — `waited` now comes from the `now` that `tick` is given; `import time` is gone. Added a "
          "test that replays two ticks with fixed times (no match at 10 s, a match at 95 s once the spread "
          "reaches 450). 10 passed.")
    s.user("good")

    t = Session("clock-active-bans", "2026-03-24T09:31:00.000Z", s.files)
    t.user("admin page needs a list of bans that are still in force. add BanList.active_bans(), sorted by "
           "player id")
    t.read("lobbyd/bans.py")
    t.edit("lobbyd/bans.py",
           "    def is_banned(self, player_id: str, now: datetime) -> bool:\n",
           "    def active_bans(self) -> list[Ban]:\n"
           "        now = datetime.now(timezone.utc)\n"
           "        return sorted((b for b in self.bans.values() if b.active(now)), key=lambda b: b.player_id)\n\n"
           "    def is_banned(self, player_id: str, now: datetime) -> bool:\n")
    t.say("Added `BanList.active_bans()` — returns the bans active right now, sorted by player id. Shall I "
          "wire it into the admin endpoint too?")
    t.user("same rule as the matchmaker: we don't read the clock inside lobbyd. now comes in as an argument, "
           "like is_banned already does. admin endpoint is in the other repo, not here")
    t.edit("lobbyd/bans.py",
           "    def active_bans(self) -> list[Ban]:\n"
           "        now = datetime.now(timezone.utc)\n",
           "    def active_bans(self, now: datetime) -> list[Ban]:\n")
    t.edit("tests/test_lobbyd.py",
           "def test_load_bans_permanent():",
           "def test_active_bans_sorted():\n"
           "    bl = BanList()\n"
           "    bl.add(Ban(\"z\", \"spam\", None))\n"
           "    bl.add(Ban(\"b\", \"grief\", utc(2026, 1, 9)))\n"
           "    bl.add(Ban(\"a\", \"old\", utc(2025, 1, 1)))\n"
           "    assert [b.player_id for b in bl.active_bans(utc(2026, 1, 5))] == [\"b\", \"z\"]\n\n\n"
           "def test_load_bans_permanent():")
    t.bash("python -m pytest -q", pytest_ok(11, "0.38"))
    t.say("`active_bans(now)` takes the time like `is_banned`; no clock call in `bans.py`. Test added, 11 passed.")
    return [s, t]


@scenario("explain-matchmaker", LB, "a person who writes in questions; a cofounder's rule reported second-hand "
          "and not adopted; the agent's 'would have to' is a hypothetical; no edits",
          [])
def _explain(files):
    s = Session("explain-matchmaker", "2026-03-18T16:40:00.000Z", files)
    s.user("how does tick decide who plays who? is it oldest first? what happens to a party of 4 if the queue "
           "is all solos — does it wait forever? and does MAX_SPREAD apply to the party's number or to each "
           "player?")
    s.read("lobbyd/matchmaker.py")
    s.read("lobbyd/parties.py", offset=14, limit=20)
    s.say("Yes, oldest first. Per region, every tick:\n\n"
          "1. `pick()` anchors on the **oldest** entry and walks the queue in join order, taking every entry "
          "whose rating is within `MAX_SPREAD` (300) of the anchor's and that still fits, until it has exactly "
          "10 players.\n"
          "2. `split_teams()` sorts the picked parties by size (largest first) and fills team A up to 5, the "
          "rest goes to B. If A doesn't come out at exactly 5, the tick gives up for that region.\n\n"
          "A party of 4 among solos doesn't wait forever: 4 + 6 solos = 10, A gets the 4 plus one solo, B the "
          "other five. It waits only if there aren't six solos within 300 of the oldest entry.\n\n"
          "`MAX_SPREAD` applies to the entry's rating, which for a party is `Party.rating` (the members' mean) "
          "— individual players in a party aren't checked.")
    s.user("my cofounder says we should never match anyone more than 200 apart. is that what it does? would "
           "it be hard?")
    s.say("No — today the limit is 300, and it's measured against the oldest entry, not between every pair, "
          "so two entries can end up 600 apart (one 300 above the anchor, one 300 below). A true pairwise "
          "200 limit would have to compare each candidate against the min and max chosen so far; not hard, "
          "maybe 10 lines in `pick()`, but it will make off-peak queues noticeably slower. If you ever want it, "
          "a playtest with both would tell you more than I can.")
    s.user("hm ok. and if two full parties of 5 queue at the same time, do they always get each other?")
    s.say("If they're within 300 of the oldest entry and nothing older is in between that fits, yes: "
          "5 + 5 = 10, `split_teams` puts one in each team. If a solo is older, the solo becomes the anchor, "
          "the first 5-stack plus four more solos fill the match, and the second 5-stack waits.")
    s.user("makes sense. not changing anything now, just wanted to understand it before the call")
    return [s]


@scenario("snake-draft", LB, "agent's inline 'greedy or snake?'; person picks greedy, then after the agent's "
          "comparison changes their mind and reverts to snake in the same session",
          [exp("decision", "lobbyd/matchmaker.py:split_teams", "snake", ["greedy"])])
def _snake(files):
    s = Session("snake-draft", "2026-03-19T11:15:00.000Z", files)
    s.user("split_teams is dumb. it fills team A by party size and ignores rating, so sometimes all the "
           "good players land in A. can you make it balance by rating? keep parties together obviously")
    s.read("lobbyd/matchmaker.py", offset=26, limit=14)
    s.say("Two usual ways, both keep parties whole and respect the 5-a-side limit:\n\n"
          "- **greedy**: sort parties by rating (high first), each goes to the team with the lower rating total "
          "that still has room\n"
          "- **snake draft**: sort by rating, teams pick in the order A, B, B, A, A, B, …; a party that doesn't "
          "fit the team whose turn it is goes to the other\n\n"
          "Greedy or snake?")
    s.user("greedy, simpler")
    s.edit("lobbyd/matchmaker.py",
           "    a: list[QueueEntry] = []\n    b: list[QueueEntry] = []\n"
           "    for e in sorted(entries, key=lambda e: -e.size):\n"
           "        if sum(x.size for x in a) + e.size <= TEAM_SIZE:\n"
           "            a.append(e)\n        else:\n            b.append(e)\n    return a, b\n",
           "    a: list[QueueEntry] = []\n    b: list[QueueEntry] = []\n\n"
           "    def room(team: list[QueueEntry]) -> int:\n"
           "        return TEAM_SIZE - sum(x.size for x in team)\n\n"
           "    def total(team: list[QueueEntry]) -> float:\n"
           "        return sum(x.rating * x.size for x in team)\n\n"
           "    for e in sorted(entries, key=lambda e: (-e.size, -e.rating)):\n"
           "        first, second = (a, b) if total(a) <= total(b) else (b, a)\n"
           "        (first if room(first) >= e.size else second).append(e)\n"
           "    return a, b\n")
    s.bash("python -m pytest -q", pytest_ok(9, "0.37"))
    s.write("scripts/compare_split.py",
            "\"\"\"Mean |team A - team B| average rating over the last 500 matches from the queue log.\"\"\"\n"
            "import json\nimport sys\n\nfrom lobbyd.matchmaker import split_teams\nfrom lobbyd.queues import QueueEntry\n\n"
            "diffs = []\nfor line in open(sys.argv[1]):\n"
            "    es = [QueueEntry(**e) for e in json.loads(line)[\"entries\"]]\n"
            "    a, b = split_teams(es)\n"
            "    avg = lambda t: sum(e.rating * e.size for e in t) / sum(e.size for e in t)\n"
            "    diffs.append(abs(avg(a) - avg(b)))\n"
            "print(f\"{len(diffs)} matches, mean diff {sum(diffs) / len(diffs):.1f}\")\n")
    s.bash("python scripts/compare_split.py logs/matches-0318.jsonl", "500 matches, mean diff 41.3")
    s.say("Greedy is in; tests pass. I replayed the 500 matches from yesterday's log through it: mean "
          "difference between team averages is **41.3**. For comparison, snake on the same data (quick local "
          "variant, not committed) gives **38.9**, and it spreads the solos more evenly because greedy sends "
          "every solo after a big party to the same side until the totals cross. Keeping greedy unless you "
          "say otherwise.")
    s.user("hm. then snake after all — players know the pick order from every pickup game and it's easier to "
           "explain in the patch notes. revert greedy pls")
    s.edit("lobbyd/matchmaker.py",
           "    def total(team: list[QueueEntry]) -> float:\n"
           "        return sum(x.rating * x.size for x in team)\n\n"
           "    for e in sorted(entries, key=lambda e: (-e.size, -e.rating)):\n"
           "        first, second = (a, b) if total(a) <= total(b) else (b, a)\n"
           "        (first if room(first) >= e.size else second).append(e)\n"
           "    return a, b\n",
           "    order = [a, b, b, a]  # snake draft: A, B, B, A, A, B, B, A, ...\n"
           "    for i, e in enumerate(sorted(entries, key=lambda e: (-e.size, -e.rating))):\n"
           "        turn = order[i % 4]\n"
           "        other = b if turn is a else a\n"
           "        (turn if room(turn) >= e.size else other).append(e)\n"
           "    return a, b\n")
    s.edit("lobbyd/matchmaker.py",
           "    \"\"\"Split the picked parties into two teams of TEAM_SIZE players each.\"\"\"\n",
           "    \"\"\"Split the picked parties into two teams of TEAM_SIZE players each, by snake draft over the\n"
           "    parties sorted by rating (big parties first so they always fit).\"\"\"\n")
    s.bash("python -m pytest -q && python scripts/compare_split.py logs/matches-0318.jsonl",
           pytest_ok(9, "0.36") + "\n500 matches, mean diff 38.9")
    s.say("Reverted greedy; `split_teams` is a snake draft now (A, B, B, A, …, a party that doesn't fit goes "
          "to the other team). Tests pass, mean diff 38.9 on yesterday's log. Should I keep "
          "`scripts/compare_split.py`?")
    s.user("keep it")
    return [s]


@scenario("bucket-plan", LB, "agent profiles and proposes a plan (rating buckets) that the person postpones; "
          "then a process instruction (run ruff); no note",
          [])
def _bucket(files):
    s = Session("bucket-plan", "2026-03-20T17:55:00.000Z", files)
    s.user("tick takes 400ms+ in eu at peak (3k in queue). any ideas?")
    s.read("lobbyd/matchmaker.py", offset=40, limit=40)
    s.bash("python -m cProfile -s cumtime scripts/bench_tick.py 3000 2>&1 | head -12",
           "tick x20: 8.41s\n"
           "         5310442 function calls in 8.452 seconds\n\n"
           "   Ordered by: cumulative time\n\n"
           "   ncalls  tottime  percall  cumtime  percall filename:lineno(function)\n"
           "       20    0.004    0.000    8.448    0.422 matchmaker.py:58(tick)\n"
           "     1431    5.102    0.004    7.903    0.006 matchmaker.py:39(pick)\n"
           "  4291200    2.611    0.000    2.611    0.000 {built-in method builtins.abs}\n"
           "     1411    0.301    0.000    0.420    0.000 queues.py:31(remove)\n"
           "     1411    0.082    0.000    0.090    0.000 matchmaker.py:27(split_teams)\n")
    s.say("Almost all of it is `pick()`: each call rescans the whole queue from the start, and `tick` calls it "
          "once per match it makes, so a busy tick is O(matches × queue).\n\n"
          "A plan, if you want it:\n\n"
          "1. **Bucket entries by rating** (100-wide bands) in `RegionQueue`, so `pick()` only looks at the "
          "anchor's band and its neighbours.\n"
          "2. **Make `RegionQueue.remove` O(1)** with an index from party id to entry.\n"
          "3. **Cap matches per tick** (say 50) so a backlog can't make one tick take seconds.\n\n"
          "1 alone should bring the eu tick under 50 ms. It touches `queues.py` and `matchmaker.py` and needs "
          "care around the oldest-first rule.")
    s.user("hm. not now, that's a post-launch thing — i don't want to touch the matchmaker the week before "
           "launch. for today just run ruff and fix whatever it flags, then we're done")
    s.bash("ruff check lobbyd tests && ruff format --check lobbyd tests",
           "All checks passed!\n8 files already formatted")
    s.say("Ruff is clean — `ruff check` and `ruff format --check` both pass, nothing to fix. I haven't touched "
          "the matchmaker; the bucketing plan is parked for after launch.")
    s.user("ok thx")
    return [s]


# -- mdlite (TypeScript) ---------------------------------------------------------------------------------

MD = "mdlite"


def vitest_ok(n: int, ms: int = 7) -> str:
    return (f"\n RUN  v2.1.4 {{{{ROOT}}}}\n\n ✓ test/render.test.ts ({n} tests) {ms}ms\n\n"
            f" Test Files  1 passed (1)\n      Tests  {n} passed ({n})\n   Start at  10:14:09\n"
            f"   Duration  318ms (transform 44ms, setup 0ms, collect 57ms, tests {ms}ms, environment 0ms, "
            f"prepare 63ms)\n")


@scenario("raw-html-escape", MD, "a report of <script> rendering; agent gives lettered options with a "
          "recommendation-free trade-off; 'b.' with a one-line reason",
          [exp("decision", "src/render.ts:renderBlock", "escape everything",
               ["allowlist", "passing raw html through"])])
def _raw_html(files):
    s = Session("raw-html-escape", "2026-04-06T09:12:00.000Z", files)
    s.user("someone reported that a <script> tag in a README renders as an actual script tag on the docs site. "
           "what do we do about raw html?")
    s.read("src/render.ts")
    s.read("src/tokenizer.ts", offset=38, limit=3)
    s.say("Confirmed: a line starting with a tag becomes an `html` block and `renderBlock` returns `block.raw` "
          "untouched, so `<script>` (or `<img onerror=…>`) goes straight into the page. Inline HTML is already "
          "escaped — only blocks are affected.\n\n"
          "a) **Keep passing raw HTML through**, and document that mdlite input must be trusted. The docs site "
          "renders READMEs from anyone, so that doesn't fix the report.\n"
          "b) **Escape everything**: an HTML block renders as text (`&lt;div&gt;…`), like inline HTML already "
          "does. Safe, ~1 line. People using `<details>` or `<kbd>` lose them.\n"
          "c) **Sanitize with an allowlist** of tags and attributes (`details`, `summary`, `kbd`, `sub`, `sup`…), "
          "dropping the rest. Most useful, but a sanitizer is a real project: attributes, URL-valued "
          "attributes, entity tricks, SVG.")
    s.user("b. no allowlist, we'd get it wrong")
    s.edit("src/render.ts",
           "    case \"html\":\n      return block.raw;\n",
           "    case \"html\":\n"
           "      // raw HTML is never passed through: escape everything, it renders as text\n"
           "      return `<p>${escapeHtml(block.raw)}</p>`;\n")
    s.edit("test/render.test.ts",
           "  it(\"parses lists\", () => {",
           "  it(\"escapes raw html blocks\", () => {\n"
           "    expect(render(\"<script>alert(1)</script>\")).toBe(\"<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\");\n"
           "  });\n"
           "  it(\"parses lists\", () => {")
    s.bash("npx vitest run", vitest_ok(7))
    s.say("HTML blocks are escaped and wrapped in `<p>` now; test added, 7 passed.")
    return [s]


@scenario("safe-url", MD, "a rule stated by a non-native speaker after a javascript: link report; in a later "
          "session the agent writes an autolink href without it and is corrected in other words",
          [exp("invariant", "src/inline.ts", "safeurl")])
def _safe_url(files):
    s = Session("safe-url-links", "2026-04-08T15:30:00.000Z", files)
    s.user("security problem: [click](javascript:alert(1)) makes a working link. please fix. and the rule from "
           "now: every href and every src go through ONE function, it allows only http, https, mailto and "
           "relative urls. everything else become \"#\". no other place builds an url attribute by itself")
    s.read("src/inline.ts", limit=26)
    s.read("src/escape.ts")
    s.edit("src/escape.ts",
           "export function unescapeMd(text: string): string {",
           "const SAFE_SCHEME = /^(https?|mailto):/i;\n\n"
           "/** The one place a URL is checked before it goes into an href or src: http, https, mailto and\n"
           " * relative URLs pass, anything else (javascript:, data:, vbscript:, …) becomes \"#\". Browsers\n"
           " * ignore tabs, newlines and control characters inside a scheme, so they are removed before checking. */\n"
           "export function safeUrl(url: string): string {\n"
           "  const probe = url.replace(/[\\u0000-\\u0020\\u007f]+/g, \"\");\n"
           "  const scheme = /^[a-z][a-z0-9+.\\-]*:/i.exec(probe);\n"
           "  if (scheme && !SAFE_SCHEME.test(probe)) return \"#\";\n"
           "  return url;\n"
           "}\n\n"
           "export function unescapeMd(text: string): string {")
    s.edit("src/inline.ts",
           "import { escapeAttr, escapeHtml, unescapeMd } from \"./escape.js\";",
           "import { escapeAttr, escapeHtml, safeUrl, unescapeMd } from \"./escape.js\";")
    s.edit("src/inline.ts",
           "  return `<a href=\"${escapeAttr(href)}\"${t}>${parseInline(label)}</a>`;",
           "  return `<a href=\"${escapeAttr(safeUrl(href))}\"${t}>${parseInline(label)}</a>`;")
    s.edit("src/inline.ts",
           "  return `<img src=\"${escapeAttr(src)}\" alt=",
           "  return `<img src=\"${escapeAttr(safeUrl(src))}\" alt=")
    s.edit("test/render.test.ts",
           "  it(\"renders links\", () => {",
           "  it(\"neutralises unsafe urls\", () => {\n"
           "    expect(parseInline(\"[x](javascript:alert%281%29)\")).toBe('<a href=\"#\">x</a>');\n"
           "    expect(parseInline(\"[x](JaVaScRiPt:alert%281%29)\")).toBe('<a href=\"#\">x</a>');\n"
           "    expect(parseInline(\"![i](data:image/svg+xml,x)\")).toBe('<img src=\"#\" alt=\"i\">');\n"
           "    expect(parseInline(\"[x](/docs/a.md)\")).toBe('<a href=\"/docs/a.md\">x</a>');\n"
           "  });\n"
           "  it(\"renders links\", () => {")
    s.bash("npx vitest run", vitest_ok(7))
    s.say("Added `safeUrl()` in `escape.ts` — http, https, mailto and relative URLs pass, anything else "
          "becomes `#` (case-insensitive, and control characters are stripped before the check, so "
          "`JaVaScRiPt:` and `java\\tscript:` are caught too). "
          "`renderLink` and `renderImage` both use it; those are the only two places that build a URL "
          "attribute. Tests cover javascript:, mixed case, data: images and a relative link. 7 passed.")
    s.user("good thank you")

    t = Session("safe-url-autolinks", "2026-04-15T11:02:00.000Z", s.files)
    t.user("can you add autolinks? <https://example.com> should become a link with the url as text")
    t.read("src/inline.ts", limit=12)
    t.edit("src/inline.ts",
           "const STRONG = /\\*\\*([^*]+)\\*\\*/y;",
           "const AUTOLINK = /<([a-zA-Z][a-zA-Z0-9+.\\-]{1,31}:[^\\s<>]*)>/y;\n"
           "const STRONG = /\\*\\*([^*]+)\\*\\*/y;")
    t.edit("src/inline.ts",
           "    } else if ((m = at(IMAGE, text, i))) {",
           "    } else if ((m = at(AUTOLINK, text, i))) {\n"
           "      flush();\n"
           "      out += `<a href=\"${escapeAttr(m[1])}\">${escapeHtml(m[1])}</a>`;\n"
           "      i += m[0].length;\n"
           "    } else if ((m = at(IMAGE, text, i))) {")
    t.bash("npx vitest run", vitest_ok(7, 6))
    t.say("Autolinks work: `<scheme:…>` becomes `<a href=\"…\">…</a>`, checked before images and links. "
          "Tests still pass; want a test for it?")
    t.user("no — you build the href yourself again. same rule like for links and images: any url that ends "
           "up in an attribute passes safeUrl, no exceptions, also when the regex looks safe. <javascript:x> "
           "matches your regex. and yes add test")
    t.edit("src/inline.ts",
           "      out += `<a href=\"${escapeAttr(m[1])}\">${escapeHtml(m[1])}</a>`;",
           "      out += `<a href=\"${escapeAttr(safeUrl(m[1]))}\">${escapeHtml(m[1])}</a>`;")
    t.edit("test/render.test.ts",
           "  it(\"renders links\", () => {",
           "  it(\"renders autolinks through safeUrl\", () => {\n"
           "    expect(parseInline(\"<https://e.com>\")).toBe('<a href=\"https://e.com\">https://e.com</a>');\n"
           "    expect(parseInline(\"<javascript:x>\")).toBe('<a href=\"#\">javascript:x</a>');\n"
           "  });\n"
           "  it(\"renders links\", () => {")
    t.bash("npx vitest run", vitest_ok(8))
    t.say("You're right, `<javascript:x>` produced a live link. The autolink href goes through `safeUrl` now, "
          "and the new test covers both an https and a javascript: autolink. 8 passed.")
    return [s, t]


@scenario("toc-rendered-html", MD, "a terse bug report about odd heading ids; the agent writes a failing test, "
          "finds the cause (slugs made from rendered HTML) and fixes it",
          [exp("gotcha", "src/toc.ts:buildToc", "rendered html")])
def _toc(files):
    s = Session("toc-rendered-html", "2026-04-09T08:48:00.000Z", files)
    s.user("toc ids are weird. `## The `render()` function` gets #the-coderendercode-function and `## Q&A` gets "
           "#qampa. why")
    s.read("src/toc.ts")
    s.edit("test/render.test.ts",
           "  it(\"dedupes ids\", () => {",
           "  it(\"slugs the text, not the markup\", () => {\n"
           "    const { entries } = buildToc(parseBlocks(\"## The `render()` function\\n\\n## Q&A\"));\n"
           "    expect(entries.map((e) => e.id)).toEqual([\"the-render-function\", \"qa\"]);\n"
           "  });\n"
           "  it(\"dedupes ids\", () => {")
    s.bash("npx vitest run",
           "\n RUN  v2.1.4 {{ROOT}}\n\n ❯ test/render.test.ts (7 tests | 1 failed) 9ms\n"
           "   × toc > slugs the text, not the markup 4ms\n"
           "     → expected [ 'the-coderendercode-function', …(1) ] to deeply equal [ 'the-render-function', 'qa' ]\n\n"
           "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯\n\n"
           " FAIL  test/render.test.ts > toc > slugs the text, not the markup\n"
           "AssertionError: expected [ 'the-coderendercode-function', …(1) ] to deeply equal [ 'the-render-function', 'qa' ]\n\n"
           "- Expected\n+ Received\n\n  Array [\n-   \"the-render-function\",\n-   \"qa\",\n"
           "+   \"the-coderendercode-function\",\n+   \"qampa\",\n  ]\n\n"
           " ❯ test/render.test.ts:38:49\n\n"
           " Test Files  1 failed (1)\n      Tests  1 failed | 6 passed (7)\n", fail=True)
    s.say("Reproduced. The cause is in `buildToc`: it slugs `title`, and `title` is `parseInline(b.text)` — the "
          "**rendered HTML** of the heading, not its text. `slugify` strips `<`, `>`, `/` and `(`, but the tag "
          "names survive as letters: `<code>render()</code>` → `coderendercode`. Same with entities: `Q&A` is "
          "escaped to `Q&amp;A`, and `&amp;` leaves `amp`. I'll keep the HTML for the TOC link text (it should "
          "show the code formatting) but slug the plain text: tags stripped and the five entities decoded.")
    s.edit("src/toc.ts",
           "export function buildToc(",
           "const ENTITY: Record<string, string> = { amp: \"&\", lt: \"<\", gt: \">\", quot: '\"', \"#39\": \"'\" };\n\n"
           "/** The text of rendered inline HTML: tags removed, escapeHtml's entities decoded. */\n"
           "function textOf(html: string): string {\n"
           "  return html.replace(/<[^>]+>/g, \"\").replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ENTITY[e]);\n"
           "}\n\n"
           "export function buildToc(")
    s.edit("src/toc.ts",
           "    let id = slugify(title) || \"section\";",
           "    // slug the heading's text, not its rendered HTML: tag names and entities would leak into the id\n"
           "    let id = slugify(textOf(title)) || \"section\";")
    s.bash("npx vitest run", vitest_ok(7))
    s.say("Fixed: ids come from the heading's text (`textOf` strips tags and decodes entities), so you get "
          "`#the-render-function` and `#qa`; the TOC entries still show the formatted title. 7 passed.\n\n"
          "Heads-up: existing ids for headings with code, links or `&` change, so old deep links to those "
          "headings will break once.")
    s.user("fine, they were broken anyway")
    return [s]


@scenario("plugin-stage", MD, "non-native speaker thinks aloud over the agent's A/B/C options, leans to B, "
          "reasons it away, picks C and accepts a known gap; a later turn settles sync-only the same way",
          [exp("decision", "src/plugins.ts:runPlugins", "before inline parsing",
               ["post-render html hook", "raw markdown source"]),
           exp("boundary", "src/plugins.ts:runPlugins", "code spans"),
           exp("boundary", "src/plugins.ts:Plugin", "sync only")])
def _plugins(files):
    s = Session("plugin-stage", "2026-04-13T13:20:00.000Z", files)
    s.user("I want to write a plugin that replace :smile: with the emoji and @name with a link to the profile. "
           "But now the plugin get only the final html, so @name inside a code block is also replaced, this is "
           "wrong. Where the hook should be?")
    s.read("src/plugins.ts")
    s.read("src/index.ts")
    s.read("src/render.ts", limit=40)
    s.say("Right now `runPlugins` runs once on the finished HTML string in `render()`, so a plugin can't tell "
          "text from code without parsing HTML. Three places the hook could live:\n\n"
          "**A. Keep the post-render HTML hook**, and give plugins a helper that skips `<pre>`/`<code>`. No API "
          "change, but every plugin is effectively regex-parsing HTML, and a plugin can inject any markup.\n\n"
          "**B. Hook on the raw markdown source**, before block parsing. Easiest for plugin authors (text in, "
          "text out), but fenced code is still plain text at that point, so your @name-in-code problem stays.\n\n"
          "**C. Per block, before inline parsing**: plugins get the inline markdown of paragraphs, headings and "
          "list items; code blocks and HTML blocks never reach them. They return markdown, so `@name` → "
          "`[@name](/u/name)` still goes through escaping like any link.\n\n"
          "C fixes your case. One gap: code spans inside a paragraph (`` `@x` ``) are part of the paragraph's "
          "text, so plugins would still see those.")
    s.user("hmm. B is more easy for plugin writers, I like it... but no, then :smile: inside ``` block also "
           "changes, it is the same problem like now. ok C. the code spans inside a paragraph — ok, we live "
           "with that for now, we don't handle it. maybe later we give plugins the tokens")
    s.edit("src/plugins.ts",
           "// The plugin hook: plugins get the rendered HTML of the document and may rewrite it.\n\n"
           "export interface Plugin {\n  name: string;\n  transform(html: string): string;\n}\n",
           "// The plugin hook: plugins rewrite the inline markdown of paragraphs, headings and list items,\n"
           "// before inline parsing. Code blocks and HTML blocks never reach them, and what they return is\n"
           "// parsed and escaped like any other markdown.\n\n"
           "export interface Plugin {\n  name: string;\n  inline(text: string): string;\n}\n")
    s.edit("src/plugins.ts",
           "export function runPlugins(html: string): string {\n  let out = html;\n"
           "  for (const p of registry) out = p.transform(out);\n",
           "// Known gap, left for now: code spans inside a paragraph are part of its text and reach plugins.\n"
           "export function runPlugins(text: string): string {\n  let out = text;\n"
           "  for (const p of registry) out = p.inline(out);\n")
    s.edit("src/render.ts",
           "import { parseInline } from \"./inline.js\";\n",
           "import { parseInline } from \"./inline.js\";\nimport { runPlugins } from \"./plugins.js\";\n")
    s.edit("src/render.ts",
           "      return `<h${block.level}${attr}>${parseInline(block.text)}</h${block.level}>`;",
           "      return `<h${block.level}${attr}>${parseInline(runPlugins(block.text))}</h${block.level}>`;")
    s.edit("src/render.ts",
           "      return `<p>${parseInline(block.text)}</p>`;",
           "      return `<p>${parseInline(runPlugins(block.text))}</p>`;")
    s.edit("src/render.ts",
           "  if (blocks.length === 1 && blocks[0].type === \"paragraph\") return parseInline(blocks[0].text);",
           "  if (blocks.length === 1 && blocks[0].type === \"paragraph\") return parseInline(runPlugins(blocks[0].text));")
    s.edit("src/index.ts",
           "import { runPlugins, use, clearPlugins, Plugin } from \"./plugins.js\";",
           "import { use, clearPlugins, Plugin } from \"./plugins.js\";")
    s.edit("src/index.ts", "  return runPlugins(html);\n", "  return html;\n")
    s.edit("test/render.test.ts",
           "import { render } from \"../src/index.js\";",
           "import { clearPlugins, render, use } from \"../src/index.js\";")
    s.edit("test/render.test.ts",
           "describe(\"toc\", () => {",
           "describe(\"plugins\", () => {\n"
           "  it(\"rewrite inline text, never code blocks\", () => {\n"
           "    use({ name: \"mention\", inline: (t) => t.replace(/@(\\w+)/g, \"[@$1](/u/$1)\") });\n"
           "    expect(render(\"hi @ann\\n\\n```\\n@ann\\n```\")).toBe(\n"
           "      '<p>hi <a href=\"/u/ann\">@ann</a></p>\\n<pre><code>@ann</code></pre>',\n"
           "    );\n"
           "    clearPlugins();\n"
           "  });\n"
           "});\n\n"
           "describe(\"toc\", () => {")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(7))
    s.say("Done, option C:\n\n- `Plugin` now has `inline(text)` instead of `transform(html)`; `runPlugins` runs "
          "on a block's inline markdown, called from `renderBlock` for headings and paragraphs and from "
          "tight list items\n- `render()` no longer post-processes the HTML\n- the code-span gap is noted in "
          "a comment on `runPlugins`\n- test: a mention plugin rewrites `@ann` in a paragraph and leaves it in a "
          "fenced block\n\ntsc clean, 7 passed. This is a breaking change for anyone with a `transform` "
          "plugin — worth a line in the changelog.")
    s.user("one more: should plugin be async? for @name maybe we want to check if the user exist... no, forget "
           "it. sync only. render() is sync and many people call it in build scripts, it stays sync. not now")
    s.edit("src/plugins.ts",
           "export interface Plugin {\n  name: string;\n  inline(text: string): string;\n}\n",
           "export interface Plugin {\n  name: string;\n"
           "  /** Synchronous on purpose: render() is synchronous and stays so; no async plugins for now. */\n"
           "  inline(text: string): string;\n}\n")
    s.say("Noted on the interface: plugins are synchronous, no async hook. A mention plugin that wants to "
          "check users can preload the list before calling `render()`.")
    s.user("yes good")
    return [s]


@scenario("pipe-tables", MD, "a long chatty message; a scope cut (alignment) and a choice (drop extra cells "
          "rather than erroring) sit in the middle among unrelated matters; 👍 to the agent's follow-up",
          [exp("boundary", "src/blocks.ts:parseTable", "alignment"),
           exp("decision", "src/blocks.ts:parseTable", "drop the extra cells", ["erroring"])])
def _tables(files):
    s = Session("pipe-tables", "2026-04-20T08:05:00.000Z", files)
    s.user("Morning! A few things, sorry for the wall of text. First, the docs site build on Netlify has been "
           "flaky again since Friday — not your problem, I'm talking to their support. Second, could you add "
           "GFM-style pipe tables to the block parser? We need them for the changelog. Keep it simple: header "
           "row, delimiter row, body rows. Don't bother with column alignment (the :---: colons) for now — "
           "accept them in the delimiter row and ignore them; nobody has asked for it and it means style "
           "attributes we'd have to think about. If a body row has more cells than the header, drop the extra "
           "cells rather than erroring, people paste messy tables out of spreadsheets and a half-rendered "
           "changelog is worse than a trimmed row. Third, I'm off Thursday and Friday, so if anything comes up "
           "ping Priya. Oh, and leave the version in package.json alone, I bump it when I release.")
    s.read("src/blocks.ts")
    s.read("src/render.ts", limit=38)
    s.edit("src/blocks.ts",
           "  | { type: \"html\"; raw: string };\n",
           "  | { type: \"html\"; raw: string }\n"
           "  | { type: \"table\"; header: string[]; rows: string[][] };\n\n"
           "// alignment colons are accepted and ignored: column alignment is not supported\n"
           "const DELIM_CELL = /^\\s*:?-+:?\\s*$/;\n")
    s.edit("src/blocks.ts",
           "export function parseBlocks(source: string): Block[] {",
           "function splitRow(text: string): string[] {\n"
           "  let t = text.trim();\n"
           "  if (t.startsWith(\"|\")) t = t.slice(1);\n"
           "  if (t.endsWith(\"|\") && !t.endsWith(\"\\\\|\")) t = t.slice(0, -1);\n"
           "  return t.split(/(?<!\\\\)\\|/).map((c) => c.trim());\n"
           "}\n\n"
           "function isDelimiterRow(line: Line | undefined): boolean {\n"
           "  return line !== undefined && line.kind === \"pipe\" && splitRow(line.text).every((c) => DELIM_CELL.test(c));\n"
           "}\n\n"
           "// GFM-style pipe table: header row, delimiter row, body rows. Null if lines[i] doesn't start one.\n"
           "export function parseTable(lines: Line[], i: number): [Block, number] | null {\n"
           "  if (!isDelimiterRow(lines[i + 1])) return null;\n"
           "  const header = splitRow(lines[i].text);\n"
           "  const rows: string[][] = [];\n"
           "  i += 2;\n"
           "  while (i < lines.length && lines[i].kind === \"pipe\") {\n"
           "    // extra cells are dropped, not an error (tables pasted from spreadsheets are ragged)\n"
           "    const cells = splitRow(lines[i].text).slice(0, header.length);\n"
           "    while (cells.length < header.length) cells.push(\"\");\n"
           "    rows.push(cells);\n"
           "    i++;\n"
           "  }\n"
           "  return [{ type: \"table\", header, rows }, i];\n"
           "}\n\n"
           "export function parseBlocks(source: string): Block[] {")
    s.edit("src/blocks.ts",
           "      default: {\n        const para: string[] = [];\n",
           "      case \"pipe\": {\n"
           "        const table = parseTable(lines, i);\n"
           "        if (table) {\n"
           "          out.push(table[0]);\n"
           "          i = table[1];\n"
           "          break;\n"
           "        }\n"
           "      }\n"
           "      // falls through: a pipe line without a delimiter row under it is paragraph text\n"
           "      default: {\n        const para: string[] = [];\n")
    s.edit("src/render.ts",
           "    case \"html\":\n",
           "    case \"table\": {\n"
           "      const head = block.header.map((c) => `<th>${parseInline(c)}</th>`).join(\"\");\n"
           "      const body = block.rows\n"
           "        .map((r) => `<tr>${r.map((c) => `<td>${parseInline(c)}</td>`).join(\"\")}</tr>`)\n"
           "        .join(\"\\n\");\n"
           "      return `<table>\\n<thead>\\n<tr>${head}</tr>\\n</thead>\\n<tbody>\\n${body}\\n</tbody>\\n</table>`;\n"
           "    }\n"
           "    case \"html\":\n")
    s.edit("test/render.test.ts",
           "  it(\"parses lists\", () => {",
           "  it(\"parses pipe tables\", () => {\n"
           "    expect(render(\"| a | b |\\n|:--|--:|\\n| 1 | 2 | 3 |\\n| 4 |\")).toBe(\n"
           "      \"<table>\\n<thead>\\n<tr><th>a</th><th>b</th></tr>\\n</thead>\\n<tbody>\\n\" +\n"
           "        \"<tr><td>1</td><td>2</td></tr>\\n<tr><td>4</td><td></td></tr>\\n</tbody>\\n</table>\",\n"
           "    );\n"
           "  });\n"
           "  it(\"parses lists\", () => {")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(7, 8))
    s.say("Pipe tables are in:\n\n"
          "- `parseTable` in `blocks.ts`: header row + delimiter row + body rows; alignment colons are accepted "
          "in the delimiter row and ignored\n"
          "- a body row with more cells than the header has the extras dropped, no error\n"
          "- rows with *fewer* cells are padded with empty cells — GFM does the same, and I assumed you'd want "
          "that rather than a short row\n"
          "- a pipe line without a delimiter row under it stays paragraph text\n"
          "- `<table>` rendering in `render.ts`, cells parsed inline\n\n"
          "tsc clean, 7 passed. package.json untouched.")
    s.user("👍")
    return [s]


@scenario("leading-tabs", MD, "while adding indented code the agent 'fixes' expandTabs unasked; the person has "
          "it reverted and explains why only leading tabs are expanded",
          [exp("workaround", "src/tokenizer.ts:expandTabs", "leading tabs only")])
def _tabs(files):
    s = Session("leading-tabs", "2026-04-22T14:40:00.000Z", files)
    s.user("add indented code blocks (4 spaces or a tab). we only have fences right now")
    s.read("src/tokenizer.ts")
    s.read("src/blocks.ts", offset=24, limit=20)
    s.edit("src/tokenizer.ts",
           "export type LineKind = \"blank\" | \"heading\" | \"fence\" | \"quote\" | \"bullet\" | \"ordered\" | \"html\" | \"pipe\" | \"text\";",
           "export type LineKind =\n"
           "  | \"blank\" | \"heading\" | \"fence\" | \"quote\" | \"bullet\" | \"ordered\" | \"html\" | \"pipe\" | \"indented\" | \"text\";")
    s.edit("src/tokenizer.ts",
           "export function expandTabs(line: string): string {\n"
           "  let i = 0;\n"
           "  while (i < line.length && line[i] === \"\\t\") i++;\n"
           "  return TAB.repeat(i) + line.slice(i);\n"
           "}\n",
           "export function expandTabs(line: string): string {\n"
           "  let out = \"\";\n"
           "  for (const ch of line) {\n"
           "    out += ch === \"\\t\" ? \" \".repeat(TAB.length - (out.length % TAB.length)) : ch;\n"
           "  }\n"
           "  return out;\n"
           "}\n")
    s.edit("src/tokenizer.ts",
           "  if (body.trim() === \"\") return { kind: \"blank\", text: \"\", indent };\n",
           "  if (body.trim() === \"\") return { kind: \"blank\", text: \"\", indent };\n"
           "  if (indent >= 4) return { kind: \"indented\", text: line.slice(4), indent };\n")
    s.edit("src/blocks.ts",
           "    while (i < lines.length && lines[i].kind === \"text\" && lines[i].indent >= 2) {",
           "    while (i < lines.length && (lines[i].kind === \"text\" || lines[i].kind === \"indented\") && lines[i].indent >= 2) {")
    s.edit("src/blocks.ts",
           "      default: {\n        const para: string[] = [];\n",
           "      case \"indented\": {\n"
           "        const body: string[] = [];\n"
           "        while (i < lines.length && lines[i].kind === \"indented\") body.push(lines[i++].text);\n"
           "        out.push({ type: \"code\", lang: \"\", text: body.join(\"\\n\") });\n"
           "        break;\n"
           "      }\n"
           "      default: {\n        const para: string[] = [];\n")
    s.edit("src/blocks.ts",
           "(lines[i].kind === \"text\" || lines[i].kind === \"pipe\")) para.push",
           "(lines[i].kind === \"text\" || lines[i].kind === \"pipe\" || lines[i].kind === \"indented\")) para.push")
    s.edit("test/render.test.ts",
           "  it(\"parses lists\", () => {",
           "  it(\"parses indented code\", () => {\n"
           "    expect(render(\"para\\n\\n    x = 1\\n\\ty = 2\")).toBe(\"<p>para</p>\\n<pre><code>x = 1\\ny = 2</code></pre>\");\n"
           "  });\n"
           "  it(\"parses lists\", () => {")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(7))
    s.say("Indented code blocks work:\n\n- new `indented` line kind (4+ columns of indentation)\n"
          "- consecutive indented lines become a `code` block; an indented line can't interrupt a paragraph, "
          "and list continuation lines still work\n- test for spaces and a tab\n\n"
          "I also made `expandTabs` expand every tab to the next tab stop, not just the leading ones, so "
          "columns line up consistently. tsc clean, 7 passed.")
    s.user("don't do that — revert expandTabs. it does leading tabs only, on purpose. a tab in the middle of a "
           "line is content: people paste TSV into code blocks and copy it back out into a spreadsheet, it has "
           "to come out as a tab. only the indentation needs columns. and put a comment there, you're the "
           "second one to 'fix' it")
    s.edit("src/tokenizer.ts",
           "export function expandTabs(line: string): string {\n"
           "  let out = \"\";\n"
           "  for (const ch of line) {\n"
           "    out += ch === \"\\t\" ? \" \".repeat(TAB.length - (out.length % TAB.length)) : ch;\n"
           "  }\n"
           "  return out;\n"
           "}\n",
           "// Leading tabs only, on purpose: indentation needs columns, but a tab inside a line is content\n"
           "// (TSV pasted into a code block must come out with its tabs). Don't expand the rest.\n"
           "export function expandTabs(line: string): string {\n"
           "  let i = 0;\n"
           "  while (i < line.length && line[i] === \"\\t\") i++;\n"
           "  return TAB.repeat(i) + line.slice(i);\n"
           "}\n")
    s.edit("test/render.test.ts",
           "  it(\"parses lists\", () => {",
           "  it(\"keeps tabs inside code lines\", () => {\n"
           "    expect(render(\"    a\\tb\")).toBe(\"<pre><code>a\\tb</code></pre>\");\n"
           "  });\n"
           "  it(\"parses lists\", () => {")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(8))
    s.say("Reverted `expandTabs` to leading tabs only and put the reason above it. Added a test that a tab "
          "inside an indented code line survives. 8 passed.")
    return [s]


@scenario("review-inline", MD, "process instructions (run tests and lint first), a perf review with "
          "suggestions, none taken up; no edits",
          [])
def _review(files):
    s = Session("review-inline", "2026-04-23T17:10:00.000Z", files)
    s.user("run npm test and npm run lint first. then review inline.ts, perf mostly — someone rendered a 2MB "
           "changelog and it took 3s. don't change anything yet")
    s.bash("npm test --silent", vitest_ok(6))
    s.bash("npm run lint --silent", "")
    s.read("src/inline.ts")
    s.say("Tests and lint are clean. On `inline.ts`:\n\n"
          "- **Recursion on emphasis.** `STRONG` and `EM` call `parseInline` on their content, which is fine, "
          "but an unclosed `*` makes `EM` fail at every position, and each failure is a regex run from that "
          "position — long lines with stray asterisks go quadratic. A precomputed delimiter stack would fix it.\n"
          "- **Five regex attempts per plain character.** For a plain-text-heavy document, most time is spent "
          "failing `CODE`/`IMAGE`/`LINK`/`STRONG`/`EM` one character at a time. Jumping to the next special "
          "character (`` ` ``, `!`, `[`, `*`, `_`, `\\\\`, two spaces) with one regex would be the cheap win.\n"
          "- **`plain += text[i]`** — string concatenation per character; V8 handles it, not the bottleneck.\n"
          "- **`unescapeMd` runs on every flush** — cheap, but could be skipped when there's no backslash.\n\n"
          "If I had to pick one, the jump-to-next-special-character change is small and probably most of the 3s.")
    s.user("noted. none of that blocks 0.6, I'll make an issue. closing")
    return [s]


@scenario("rename-classify", MD, "a terse rename inside one file; no decision",
          [])
def _rename(files):
    s = Session("rename-classify", "2026-04-24T09:02:00.000Z", files)
    s.user("rename classify -> classifyLine")
    s.grep("classify", ["src/tokenizer.ts"])
    s.edit("src/tokenizer.ts", "export function classify(raw: string): Line {",
           "export function classifyLine(raw: string): Line {")
    s.edit("src/tokenizer.ts", ".map(classify);", ".map(classifyLine);")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(6))
    s.say("Renamed; only `tokenize` used it. tsc and tests pass.")
    s.user("thx")
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
    (HERE / "expected.json").write_text(json.dumps({"set": "heldout7", "scenarios": out}, indent=2,
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
