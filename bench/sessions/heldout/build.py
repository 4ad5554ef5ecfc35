"""Writes the held-out capture evaluation set: ``sessions/*.jsonl`` and ``expected.json``.

Each scenario is one Claude Code session (two for a restatement) against one of the two
repositories in ``repos/`` — ``shiftplan`` (Python: on-call rotations, recurrence, iCalendar
export) and ``jobrunner`` (TypeScript: a job-queue worker and its CLI). Every scenario starts
from a fresh copy of its repository; the sessions of one scenario run in order on the same copy.
The transcript lines come from the ``Session`` builder of ``tests/fixtures/transcripts/build.py``.

    python3 bench/sessions/heldout/build.py            # write the sessions and expected.json
    python3 bench/sessions/heldout/build.py --check    # and replay them on copies of the repos

The check replays each scenario with ``tests/capture_fixtures.py``'s ``hook_events`` (every
edit must apply) and asserts that each expected anchor names a symbol (or, for a glob, a file)
of the repository's final state.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOP = HERE.parents[2]
sys.path.insert(0, str(TOP / "tests"))

# The fixtures' builder, loaded by path: its module name (build) is this file's own.
_spec = importlib.util.spec_from_file_location("transcript_builder", TOP / "tests" / "fixtures" / "transcripts" / "build.py")
_builder = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_builder)
Session = _builder.Session

SET = "heldout"
SCENARIOS: list[dict] = []


def code(text: str) -> str:
    """A snippet as it stands in the repository: in this file its lines are indented by 8 more spaces."""
    lines = text.lstrip("\n").split("\n")
    assert all(not ln.strip() or ln.startswith(" " * 8) for ln in lines), text
    return "\n".join(ln[8:] for ln in lines)


def read_repo(repo: str) -> dict[str, str]:
    base = HERE / "repos" / repo
    return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(base.rglob("*")) if p.is_file()}


def scenario(name: str, repo: str, note: str, expected: list[tuple[str, str, str, list[str]]]):
    """expected: (kind, anchor, key phrase, key phrases of the rejected options)."""
    def register(fn):
        SCENARIOS.append({"name": name, "repo": repo, "note": note, "expected": expected, "fn": fn})
        return fn
    return register


# == shiftplan (Python) ==========================================================================

@scenario("dst-wall-clock", "shiftplan",
          "numbered options from the agent, the person answers 'the second'; a DST failure then fix on the "
          "same function (aware datetime + timedelta is wall-clock arithmetic)",
          [("decision", "src/shiftplan/recurrence.py:expand_weekly", "wall-clock",
            ["document the drift", "dateutil"]),
           ("gotcha", "src/shiftplan/recurrence.py:expand_weekly", "timedelta", [])])
def _dst(files):
    s = Session("dst-wall-clock", "2026-03-30T07:12:00.000Z", files)
    s.user("shifts are off by an hour since the clocks changed yesterday. the berlin rota says 09:00 and people "
           "are getting paged at 10. Pattern has a tz field but i dont think expand_weekly even looks at it")
    s.read("src/shiftplan/recurrence.py")
    s.read("src/shiftplan/timezones.py")
    s.say(
        "You're right — `expand_weekly` ignores `p.tz` completely:\n\n"
        "```python\nbegins = datetime.combine(day, p.at, tzinfo=timezone.utc)\n...\nbegins += timedelta(days=7)\n```\n\n"
        "So a 09:00 pattern means 09:00 **UTC** every week. In winter that happens to be 10:00 in Berlin "
        "(UTC+1), now it's 11:00 (UTC+2)… which means the Berlin rota must have been entered as 08:00 to "
        "look right in winter, and since Sunday it's an hour late. Either way the root cause is the same.\n\n"
        "There are three ways to go:\n\n"
        "1. **Keep UTC arithmetic and document the drift** — tell rota owners to enter times in UTC. No code "
        "change, but half the year every European rota is off by an hour, which is the bug you're seeing.\n"
        "2. **Expand in wall-clock time in the pattern's zone** — combine each date with `p.at` in "
        "`ZoneInfo(p.tz)`, so 09:00 stays 09:00 local all year and the UTC instant moves at DST instead. "
        "`timezones.zone()` already exists for the lookup. Needs care for the hour that doesn't exist in "
        "spring / happens twice in autumn, but only for shifts starting between 02:00 and 03:00.\n"
        "3. **Use `dateutil.rrule`** — it handles all of this, but it'd be the first runtime dependency; "
        "`pyproject.toml` has `dependencies = []` and I assume that's on purpose.\n\n"
        "I'd do 2.",
        thinking="Pattern.tz is ignored. The fix is to build each occurrence in the local zone. Options: "
                 "document, zoneinfo, dateutil. zoneinfo is stdlib, timezones.zone is there already.")
    s.user("the second")
    s.edit("src/shiftplan/recurrence.py",
           "from datetime import date, datetime, time, timedelta, timezone\n",
           "from datetime import date, datetime, time, timedelta, timezone\n\nfrom .timezones import zone\n")
    s.edit("src/shiftplan/recurrence.py", code('''
        def expand_weekly(p: Pattern, horizon: date) -> list[Slot]:
            """The slots of `p` that begin on or before `horizon`."""
            last = min(horizon, p.until) if p.until else horizon
            day = first_on_or_after(p.start, parse_weekday(p.weekday))
            begins = datetime.combine(day, p.at, tzinfo=timezone.utc)
            out = []
            while begins.date() <= last:
                out.append(Slot(begins, begins + timedelta(hours=p.hours)))
                begins += timedelta(days=7)
            return out
        '''), code('''
        def expand_weekly(p: Pattern, horizon: date) -> list[Slot]:
            """The slots of `p` that begin on or before `horizon`.

            A slot starts at `p.at` wall-clock time in `p.tz` on its own date, so a 09:00 shift stays at
            09:00 local across daylight-saving changes; its UTC instant moves instead.
            """
            last = min(horizon, p.until) if p.until else horizon
            tz = zone(p.tz)
            day = first_on_or_after(p.start, parse_weekday(p.weekday))
            out = []
            while day <= last:
                begins = datetime.combine(day, p.at, tzinfo=tz)
                out.append(Slot(begins, begins + timedelta(hours=p.hours)))
                day += timedelta(days=7)
            return out
        '''))
    s.say("Now a test that crosses the change. I'll use a night shift too, since those are the ones that "
          "actually straddle 02:00.")
    s.edit("tests/test_recurrence.py", "from datetime import date, time\n",
           "from datetime import date, time, timedelta, timezone\n")
    s.edit("tests/test_recurrence.py", code("""
            assert all(s.hours == 8 for s in slots)
        """), code("""
            assert all(s.hours == 8 for s in slots)


        def test_local_time_survives_dst():
            p = Pattern("sun", time(9), 8, start=date(2026, 3, 22), tz="Europe/Berlin")
            before, after = expand_weekly(p, horizon=date(2026, 3, 29))
            assert before.begins.astimezone(timezone.utc).hour == 8
            assert after.begins.astimezone(timezone.utc).hour == 7
            assert after.begins.hour == 9


        def test_night_shift_over_the_change_lasts_twelve_real_hours():
            p = Pattern("sat", time(20), 12, start=date(2026, 3, 28), tz="Europe/Berlin")
            (night,) = expand_weekly(p, horizon=date(2026, 3, 28))
            assert night.ends.astimezone(timezone.utc) - night.begins.astimezone(timezone.utc) == timedelta(hours=12)
            assert night.hours == 12
        """))
    s.bash("python -m pytest -q tests/test_recurrence.py",
           "..F                                                                      [100%]\n"
           "=================================== FAILURES ===================================\n"
           "___________ test_night_shift_over_the_change_lasts_twelve_real_hours ___________\n\n"
           "    def test_night_shift_over_the_change_lasts_twelve_real_hours():\n"
           "        p = Pattern(\"sat\", time(20), 12, start=date(2026, 3, 28), tz=\"Europe/Berlin\")\n"
           "        (night,) = expand_weekly(p, horizon=date(2026, 3, 28))\n"
           ">       assert night.ends.astimezone(timezone.utc) - night.begins.astimezone(timezone.utc) == timedelta(hours=12)\n"
           "E       AssertionError: assert (datetime.datetime(2026, 3, 29, 6, 0, tzinfo=datetime.timezone.utc) - "
           "datetime.datetime(2026, 3, 28, 19, 0, tzinfo=datetime.timezone.utc)) == datetime.timedelta(seconds=43200)\n"
           "E        +  where datetime.timedelta(seconds=39600) = ...\n\n"
           "tests/test_recurrence.py:30: AssertionError\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_recurrence.py::test_night_shift_over_the_change_lasts_twelve_real_hours - AssertionError\n"
           "1 failed, 2 passed in 0.06s", fail=True)
    s.say(
        "Good thing I added that one. The day shifts are fine, but the night shift comes out **11** real hours "
        "long: 19:00 UTC → 06:00 UTC.\n\n"
        "That's the classic trap: adding a `timedelta` to an aware datetime in Python is **wall-clock "
        "arithmetic** — `20:00 CET + 12h` gives `08:00` on Sunday's clock, but the clock jumped from 02:00 to "
        "03:00 in between, so only 11 hours have actually passed. The same goes for subtracting two datetimes "
        "that share one tzinfo: `Slot.hours` would happily report 12 for that 11-hour shift (which is why I "
        "didn't assert on `hours` first).\n\n"
        "Fix: add the duration in UTC and convert back, and measure `hours` in UTC too.",
        thinking="20:00 CET + timedelta(hours=12) -> 08:00 CEST wall clock = 06:00 UTC. Real elapsed 11h. "
                 "Same-zone subtraction ignores the offsets, so hours says 12. Compute the end in UTC.")
    s.edit("src/shiftplan/recurrence.py",
           "        begins = datetime.combine(day, p.at, tzinfo=tz)\n"
           "        out.append(Slot(begins, begins + timedelta(hours=p.hours)))\n",
           "        begins = datetime.combine(day, p.at, tzinfo=tz)\n"
           "        # Aware + timedelta in one zone is wall-clock arithmetic: a shift over the DST change would\n"
           "        # come out an hour long or short. Add the duration in UTC.\n"
           "        ends = (begins.astimezone(timezone.utc) + timedelta(hours=p.hours)).astimezone(tz)\n"
           "        out.append(Slot(begins, ends))\n")
    s.edit("src/shiftplan/recurrence.py", code('''
            @property
            def hours(self) -> float:
                return (self.ends - self.begins).total_seconds() / 3600
        '''), code('''
            @property
            def hours(self) -> float:
                return (self.ends.astimezone(timezone.utc) - self.begins.astimezone(timezone.utc)).total_seconds() / 3600
        '''))
    s.bash("python -m pytest -q", "......                                                                   [100%]\n"
                                   "5 passed in 0.07s")
    s.say("All green. Summary:\n\n- `expand_weekly` now builds every slot in `p.tz` wall-clock time (option 2)\n"
          "- the end of a slot is computed in UTC so night shifts over the change keep their real length\n"
          "- `Slot.hours` measures real elapsed time\n\nExisting rotas entered as 08:00 to compensate will now "
          "show 08:00 local — worth telling the Berlin rota owner to change it back to 09:00.")
    s.user("yep will do. ty")
    return [s]


@scenario("fairness-overruled", "shiftplan",
          "the person proposes least-recently-on-call, the agent argues for keeping round-robin, the person "
          "overrules with a reason",
          [("decision", "src/shiftplan/rota.py:Rotation.next_person", "least recently", ["round-robin"])])
def _fair(files):
    s = Session("fairness-overruled", "2026-04-14T13:40:00.000Z", files)
    s.user("Can we change next_person so it picks whoever has been off call the longest, instead of strict turns? "
           "After a couple of swaps the order is garbage — Bo ended up with three weekends in a row last month.")
    s.read("src/shiftplan/rota.py")
    s.say(
        "I can, but I want to push back a little before I do.\n\n"
        "The current round-robin (`_turn % len(people)`) has one big property: **it's predictable**. Anyone can "
        "look at the list and know they're up in three weeks. With \"least recently on call\":\n\n"
        "- one swap changes who's next for *everyone*, not just the two people swapping\n"
        "- someone who joins the rotation has never been on call, so they're picked immediately — possibly "
        "for the next several slots if `fill` runs over a long horizon before their first shift ends\n"
        "- it depends on `shifts` being complete; if someone deletes past shifts, the order jumps\n\n"
        "The three-weekends problem is really that `swap` doesn't touch `_turn`. An alternative: keep "
        "round-robin, but make `swap` also exchange the two people's positions in the list, so the turn order "
        "follows the swap. Smaller change, order stays readable.\n\n"
        "Want me to do that instead?")
    s.user("i hear you but no. least recently on call. predictability is already gone the moment people swap, "
           "and they swap every single week. new people going first is fine, that's literally how onboarding works "
           "here (shadow week then first shift)")
    s.say("Fair enough — you know how the team uses it. Going with least-recently-on-call; people who have never "
          "been on call go first, in list order, so the result is still deterministic.")
    s.edit("src/shiftplan/rota.py", "from dataclasses import dataclass, field\n",
           "from dataclasses import dataclass, field\nfrom datetime import datetime\n")
    s.edit("src/shiftplan/rota.py", code('''
            shifts: list[Shift] = field(default_factory=list)
            _turn: int = 0

            def next_person(self) -> str:
                if not self.people:
                    raise ValueError(f"rotation {self.name!r} has nobody in it")
                person = self.people[self._turn % len(self.people)]
                self._turn += 1
                return person
        '''), code('''
            shifts: list[Shift] = field(default_factory=list)

            def next_person(self) -> str:
                """Whoever has been off call the longest (least recently on call). People who were never
                on call come first, in list order, so the pick is deterministic."""
                if not self.people:
                    raise ValueError(f"rotation {self.name!r} has nobody in it")
                last: dict[str, datetime] = {}
                for s in self.shifts:
                    if s.person not in last or s.slot.ends > last[s.person]:
                        last[s.person] = s.slot.ends
                never = [p for p in self.people if p not in last]
                if never:
                    return never[0]
                return min(self.people, key=lambda p: last[p])
        '''))
    s.edit("tests/test_rota.py", code('''
            assert shifts[0].slot.begins.day == 1
        '''), code('''
            assert shifts[0].slot.begins.day == 1


        def test_after_a_swap_the_one_off_longest_goes_next():
            r = Rotation("infra", ["ana", "bo", "cy"])
            a, b, c = r.fill([slot(1), slot(2), slot(3)])
            r.swap(a, c)
            assert r.assign(slot(4)).person == "cy"
            assert r.assign(slot(5)).person == "bo"


        def test_newcomer_goes_first():
            r = Rotation("infra", ["ana", "bo"])
            r.fill([slot(1), slot(2)])
            r.people.append("dee")
            assert r.next_person() == "dee"
        '''))
    s.bash("python -m pytest -q tests/test_rota.py", "...                                                                      [100%]\n"
                                                      "3 passed in 0.03s")
    s.grep("_turn", [])
    s.say("Done. `next_person` picks the least recently on call; `_turn` is gone (nothing else used it). The "
          "original round-robin test still passes since with no history it degrades to list order.")
    return [s]


@scenario("holiday-policy-over-turns", "shiftplan",
          "a decision reached over several turns: first a question, then the options, then a constraint from "
          "the person, then the choice; an extra idea dropped on the way",
          [("decision", "src/shiftplan/conflicts.py:flag_holidays", "flag", ["skip", "opt-in"])])
def _holiday(files):
    s = Session("holiday-policy-over-turns", "2026-11-02T10:05:00.000Z", files)
    s.user("what should happen when a generated shift lands on a public holiday? we have holidays.py but nothing "
           "actually uses it")
    s.grep("holidays", ["src/shiftplan/holidays.py"])
    s.read("src/shiftplan/holidays.py")
    s.read("src/shiftplan/conflicts.py")
    s.say(
        "Right, `load_holidays` / `is_holiday` exist but nothing calls them. What *should* happen is a policy "
        "question more than a code one. The usual choices:\n\n"
        "**(a) skip the slot** — no shift on the holiday at all. Simple, but only works if nobody needs to hold "
        "the pager that day.\n\n"
        "**(b) an opt-in list** — keep the shift but give it only to people who volunteered for holiday shifts "
        "(often paid extra).\n\n"
        "**(c) keep it and flag it** — assign as normal, but mark the shift so the rota lead sees it and can "
        "arrange a swap or comp.\n\n"
        "Which one fits depends on one thing I can't tell from the code: does the pager need covering on "
        "holidays?")
    s.user("yeah it's on-call, someone has to hold the pager on christmas too. so skipping is out. opt-in list we "
           "don't have and i don't want to build one")
    s.say("Then it's (c), or a variant of it: flag the shift, and optionally let the flag feed into something "
          "else later. I'd put it in `conflicts.py` next to `clashes`, since it's the same kind of "
          "\"things a lead should look at\" check, and leave `Rotation` itself unaware of holidays.")
    s.user("flag it. and maybe count holiday hours double in hours_by_person? hmm, no. forget that, keep "
           "hours_by_person honest. just the flag")
    s.say("OK — just the flag. I'll write the holiday's name into `Shift.note` so it shows up wherever the shift "
          "is shown, and return the flagged shifts.")
    s.edit("src/shiftplan/conflicts.py", "from itertools import combinations\n",
           "from datetime import date\nfrom itertools import combinations\n")
    s.edit("src/shiftplan/conflicts.py", "from .rota import Shift\n",
           "from .holidays import is_holiday\nfrom .rota import Shift\n")
    s.edit("src/shiftplan/conflicts.py", code('''
        def hours_by_person(shifts: list[Shift]) -> dict[str, float]:
        '''), code('''
        def flag_holidays(shifts: list[Shift], holidays: dict[date, str]) -> list[Shift]:
            """Mark the shifts that begin on a public holiday (the shift stays assigned: someone holds the
            pager on holidays too) and return them."""
            flagged = []
            for s in shifts:
                if is_holiday(s.slot.begins, holidays):
                    s.note = f"holiday: {holidays[s.slot.begins.date()] or 'public holiday'}"
                    flagged.append(s)
            return flagged


        def hours_by_person(shifts: list[Shift]) -> dict[str, float]:
        '''))
    s.write("tests/test_conflicts.py", code('''
        from datetime import date, datetime, timedelta, timezone

        from shiftplan.conflicts import flag_holidays
        from shiftplan.recurrence import Slot
        from shiftplan.rota import Rotation


        def test_holiday_shift_is_kept_and_flagged():
            begins = datetime(2026, 12, 25, 8, tzinfo=timezone.utc)
            r = Rotation("infra", ["ana", "bo"])
            r.fill([Slot(begins, begins + timedelta(hours=12)), Slot(begins + timedelta(days=1), begins + timedelta(days=1, hours=12))])
            flagged = flag_holidays(r.shifts, {date(2026, 12, 25): "Christmas Day"})
            assert [s.person for s in flagged] == ["ana"]
            assert flagged[0].note == "holiday: Christmas Day"
            assert len(r.shifts) == 2
        '''))
    s.bash("python -m pytest -q tests/test_conflicts.py", ".                                                                        [100%]\n"
                                                           "1 passed in 0.02s")
    s.say("Added `conflicts.flag_holidays(shifts, holidays)`: holiday shifts stay assigned and get "
          "`note = \"holiday: <name>\"`. `hours_by_person` is untouched.")
    return [s]


@scenario("no-double-booking", "shiftplan",
          "an invariant the person sets ('can never … whatever the input'), enforced in code; a helper moved to "
          "avoid an import cycle (not a note)",
          [("invariant", "src/shiftplan/rota.py:Rotation._check_free", "overlap", [])])
def _overlap(files):
    s = Session("no-double-booking", "2026-06-08T08:30:00.000Z", files)
    s.user("Rule for the rota, and I want it enforced in code, not in a wiki page: one person can never hold two "
           "shifts that overlap. Doesn't matter how it happens — fill, a manual assign, a swap. Ops got "
           "double-booked last month because someone swapped into a shift right next to their own and the "
           "times overlapped by an hour.")
    s.read("src/shiftplan/rota.py")
    s.read("src/shiftplan/conflicts.py")
    s.say(
        "Got it. Plan:\n\n"
        "- a single check, `Rotation._check_free(person, slot)`, that raises if `person` already holds a shift "
        "overlapping `slot`\n"
        "- `assign` calls it (so `fill` is covered too, it goes through `assign`)\n"
        "- `swap` calls it for both people, ignoring the two shifts being swapped\n\n"
        "One wrinkle: the overlap test lives in `conflicts.py`, and `conflicts.py` imports `rota.py`. Importing "
        "it back would be a cycle, so I'll move `overlaps` down into `recurrence.py` next to `Slot` and have "
        "`conflicts` import it from there.",
        thinking="conflicts imports rota.Shift. rota importing conflicts.overlaps = circular. Move overlaps into "
                 "recurrence.py.")
    s.edit("src/shiftplan/recurrence.py", code('''
        def parse_weekday(text: str) -> int:
        '''), code('''
        def overlaps(a: Slot, b: Slot) -> bool:
            return a.begins < b.ends and b.begins < a.ends


        def parse_weekday(text: str) -> int:
        '''))
    s.edit("src/shiftplan/conflicts.py", code('''
        from .recurrence import Slot
        from .rota import Shift


        def overlaps(a: Slot, b: Slot) -> bool:
            return a.begins < b.ends and b.begins < a.ends
        '''), code('''
        from .recurrence import overlaps
        from .rota import Shift
        '''))
    s.edit("src/shiftplan/rota.py", "from .recurrence import Slot\n",
           "from .recurrence import Slot, overlaps\n\n\nclass DoubleBooked(ValueError):\n"
           "    \"\"\"An assignment or swap would give someone two overlapping shifts.\"\"\"\n")
    s.edit("src/shiftplan/rota.py", code('''
            def assign(self, slot: Slot, person: str | None = None) -> Shift:
                shift = Shift(slot, person or self.next_person())
                self.shifts.append(shift)
                return shift
        '''), code('''
            def assign(self, slot: Slot, person: str | None = None) -> Shift:
                person = person or self.next_person()
                self._check_free(person, slot)
                shift = Shift(slot, person)
                self.shifts.append(shift)
                return shift
        '''))
    s.edit("src/shiftplan/rota.py", code('''
            def swap(self, a: Shift, b: Shift) -> None:
                a.person, b.person = b.person, a.person
        '''), code('''
            def swap(self, a: Shift, b: Shift) -> None:
                self._check_free(b.person, a.slot, ignore=(a, b))
                self._check_free(a.person, b.slot, ignore=(a, b))
                a.person, b.person = b.person, a.person

            def _check_free(self, person: str, slot: Slot, ignore: tuple[Shift, ...] = ()) -> None:
                """Nobody ever holds two overlapping shifts: every way into `shifts` goes through here."""
                for s in self.shifts:
                    if s.person == person and not any(s is i for i in ignore) and overlaps(s.slot, slot):
                        raise DoubleBooked(f"{person} already holds {s.slot.begins:%Y-%m-%d %H:%M} to "
                                           f"{s.slot.ends:%Y-%m-%d %H:%M} in rotation {self.name!r}")
        '''))
    s.edit("tests/test_rota.py", "from shiftplan.rota import Rotation\n",
           "import pytest\n\nfrom shiftplan.rota import DoubleBooked, Rotation\n")
    s.edit("tests/test_rota.py", code('''
            assert shifts[0].slot.begins.day == 1
        '''), code('''
            assert shifts[0].slot.begins.day == 1


        def test_swap_into_an_overlapping_shift_is_refused():
            r = Rotation("ops", ["ana", "bo"])
            mine = r.assign(slot(1, hours=14), "ana")
            theirs = r.assign(slot(1, hours=12) if False else Slot(mine.slot.ends - timedelta(hours=1), mine.slot.ends + timedelta(hours=8)), "bo")
            other = r.assign(slot(3), "ana")
            with pytest.raises(DoubleBooked):
                r.swap(theirs, other)
            assert theirs.person == "bo"


        def test_manual_assign_cannot_double_book():
            r = Rotation("ops", ["ana"])
            r.assign(slot(1), "ana")
            with pytest.raises(DoubleBooked):
                r.assign(slot(1, hours=2), "ana")
        '''))
    s.bash("python -m pytest -q", ".....                                                                    [100%]\n"
                                   "5 passed in 0.05s")
    s.user("lol what is `slot(1, hours=12) if False else ...` in that test")
    s.say("Leftover from a first draft, sorry — it's just noise. Cleaning it up:")
    s.edit("tests/test_rota.py",
           "    theirs = r.assign(slot(1, hours=12) if False else Slot(mine.slot.ends - timedelta(hours=1), "
           "mine.slot.ends + timedelta(hours=8)), \"bo\")\n",
           "    theirs = r.assign(Slot(mine.slot.ends - timedelta(hours=1), mine.slot.ends + timedelta(hours=8)), "
           "\"bo\")\n")
    s.bash("python -m pytest -q tests/test_rota.py", "...                                                                      [100%]\n"
                                                      "3 passed in 0.03s")
    s.say("Better. `assign` and `swap` both go through `_check_free` now, so there's no path that can create an "
          "overlap for one person; `DoubleBooked` says who, when and in which rotation.")
    return [s]


@scenario("ical-utc-restated", "shiftplan",
          "an either/or from the agent answered tersely in one session; the same choice restated by the person a "
          "week later while adding fields (one candidate for both); a scope boundary in the second session",
          [("decision", "src/shiftplan/ical.py:format_dt", "UTC", ["TZID"]),
           ("boundary", "src/shiftplan/ical.py:event", "VALARM", [])])
def _ical(files):
    a = Session("ical-utc-1", "2026-11-09T15:20:00.000Z", files)
    a.user("bug from the SRE team: outlook shows every shift from the .ics at the wrong hour. i think we write "
           "floating times? DTSTART:20261110T090000 with no zone on it")
    a.read("src/shiftplan/ical.py")
    a.say(
        "Yes, those are *floating* times (RFC 5545 §3.3.5, \"form #1\"): no `Z`, no `TZID`, so every client "
        "interprets them in whatever zone the viewer is in. Outlook in London shows 09:00 London, which is wrong "
        "for a Berlin rota.\n\n"
        "Two ways to fix it:\n\n"
        "| | how | cost |\n|---|---|---|\n"
        "| **TZID + VTIMEZONE** | `DTSTART;TZID=Europe/Berlin:20261110T090000` plus a `VTIMEZONE` component "
        "describing Berlin's DST rules | we'd have to generate `STANDARD`/`DAYLIGHT` blocks from zoneinfo, which "
        "doesn't expose transitions nicely; easy to get subtly wrong |\n"
        "| **UTC with a Z** | convert to UTC, write `20261110T080000Z` | a few lines; every client supports it "
        "and shows the time in the viewer's own zone anyway |\n\n"
        "TZID only buys something if people care to see the rota's zone on the event, and calendar apps mostly "
        "don't show that. I'd go UTC.")
    a.user("utc with Z. not going down the vtimezone hole")
    a.edit("src/shiftplan/ical.py", "from datetime import datetime\n", "from datetime import datetime, timezone\n")
    a.edit("src/shiftplan/ical.py", code('''
        def format_dt(dt: datetime) -> str:
            return dt.strftime("%Y%m%dT%H%M%S")
        '''), code('''
        def format_dt(dt: datetime) -> str:
            """UTC with a Z (no TZID/VTIMEZONE): every client reads it and shows it in the viewer's zone."""
            if dt.tzinfo is None:
                raise ValueError(f"naive datetime {dt.isoformat()} in a calendar export: shifts must carry a zone")
            return dt.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        '''))
    a.write("tests/test_ical.py", code('''
        from datetime import datetime, timedelta
        from zoneinfo import ZoneInfo

        from shiftplan.ical import calendar
        from shiftplan.recurrence import Slot
        from shiftplan.rota import Rotation


        def test_times_are_written_in_utc():
            begins = datetime(2026, 11, 10, 9, tzinfo=ZoneInfo("Europe/Berlin"))
            r = Rotation("infra", ["ana"])
            r.assign(Slot(begins, begins + timedelta(hours=8)))
            text = calendar(r)
            assert "DTSTART:20261110T080000Z\\r\\n" in text
            assert "DTEND:20261110T160000Z\\r\\n" in text
        '''))
    a.bash("python -m pytest -q tests/test_ical.py", ".                                                                        [100%]\n"
                                                      "1 passed in 0.04s")
    a.say("Fixed: `format_dt` converts to UTC and writes the `Z`; a naive datetime now raises instead of "
          "silently becoming floating time.")

    b = Session("ical-utc-2", "2026-11-17T09:02:00.000Z", files)
    b.user("add a UID and DTSTAMP to each VEVENT — google calendar duplicates every event on each refresh of the "
           "subscription without a stable UID. UID from rota name + start time is fine.\n\n"
           "reminder: times stay UTC with the Z like we decided last week, google imported our test file with "
           "TZID wrong anyway so that's settled. don't let DTSTAMP sneak in as local time.\n"
           "also no VALARM / reminders. out of scope, the pager does the reminding")
    b.read("src/shiftplan/ical.py")
    b.say("Will do. For the UID I'll use `<rota>-<start in UTC>@shiftplan` with the rota name slugged, so it's "
          "stable across exports as long as the shift doesn't move. DTSTAMP goes through `format_dt` like the "
          "other times, so it's UTC with the Z too.")
    b.edit("src/shiftplan/ical.py", code('''
        def event(shift: Shift, rota: str) -> list[str]:
            return [
                "BEGIN:VEVENT",
        '''), code('''
        def uid(shift: Shift, rota: str) -> str:
            slug = "".join(c if c.isalnum() else "-" for c in rota.lower())
            return f"{slug}-{format_dt(shift.slot.begins)}@shiftplan"


        def event(shift: Shift, rota: str, stamp: datetime) -> list[str]:
            """One VEVENT. No VALARM: reminders are out of scope, the pager does that."""
            return [
                "BEGIN:VEVENT",
                f"UID:{uid(shift, rota)}",
                f"DTSTAMP:{format_dt(stamp)}",
        '''))
    b.edit("src/shiftplan/ical.py", code('''
        def calendar(rota: Rotation) -> str:
            lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}"]
            for shift in rota.shifts:
                lines += event(shift, rota.name)
        '''), code('''
        def calendar(rota: Rotation, now: datetime | None = None) -> str:
            stamp = now or datetime.now(timezone.utc)
            lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}"]
            for shift in rota.shifts:
                lines += event(shift, rota.name, stamp)
        '''))
    b.edit("tests/test_ical.py", code('''
            assert "DTEND:20261110T160000Z\\r\\n" in text
        '''), code('''
            assert "DTEND:20261110T160000Z\\r\\n" in text


        def test_uid_is_stable_and_stamp_is_utc():
            begins = datetime(2026, 11, 10, 9, tzinfo=ZoneInfo("Europe/Berlin"))
            r = Rotation("Infra Core", ["ana"])
            r.assign(Slot(begins, begins + timedelta(hours=8)))
            now = datetime(2026, 11, 17, 10, 30, tzinfo=ZoneInfo("Europe/Berlin"))
            first, second = calendar(r, now), calendar(r, now + timedelta(days=1))
            assert "UID:infra-core-20261110T080000Z@shiftplan\\r\\n" in first
            assert "DTSTAMP:20261117T093000Z\\r\\n" in first
            assert first.split("DTSTAMP")[0] == second.split("DTSTAMP")[0]
        '''))
    b.bash("python -m pytest -q tests/test_ical.py", "..                                                                       [100%]\n"
                                                      "2 passed in 0.04s")
    b.say("Done:\n- `UID:<slug>-<start>@shiftplan`, stable between refreshes\n- `DTSTAMP` in UTC via `format_dt`\n"
          "- `calendar()` takes an optional `now` so the tests don't depend on the clock\n- no VALARM")
    return [a, b]


@scenario("holiday-local-date", "shiftplan",
          "failure then fix: the date of an aware datetime is the date in its own offset (UTC here), not the "
          "rota's local date",
          [("gotcha", "src/shiftplan/holidays.py:is_holiday", "local date", [])])
def _localdate(files):
    s = Session("holiday-local-date", "2026-12-01T16:45:00.000Z", files)
    s.user("is_holiday misses christmas for the berlin rota. the shift that starts at midnight on the 25th "
           "(berlin) comes back False. christmas is definitely in the csv, i checked")
    s.read("src/shiftplan/holidays.py")
    s.say("Let me reproduce it with a test first.")
    s.write("tests/test_holidays.py", code('''
        from datetime import date, datetime
        from zoneinfo import ZoneInfo

        from shiftplan.holidays import is_holiday

        XMAS = {date(2026, 12, 25): "Christmas Day"}


        def test_midnight_shift_on_christmas_in_berlin():
            when = datetime(2026, 12, 25, 0, 0, tzinfo=ZoneInfo("Europe/Berlin"))
            assert is_holiday(when.astimezone(ZoneInfo("UTC")), XMAS, "Europe/Berlin")
        '''))
    s.bash("python -m pytest -q tests/test_holidays.py",
           "F                                                                        [100%]\n"
           "=================================== FAILURES ===================================\n"
           "__________________ test_midnight_shift_on_christmas_in_berlin ___________________\n\n"
           "    def test_midnight_shift_on_christmas_in_berlin():\n"
           "        when = datetime(2026, 12, 25, 0, 0, tzinfo=ZoneInfo(\"Europe/Berlin\"))\n"
           ">       assert is_holiday(when.astimezone(ZoneInfo(\"UTC\")), XMAS, \"Europe/Berlin\")\n"
           "E       TypeError: is_holiday() takes 2 positional arguments but 3 were given\n\n"
           "tests/test_holidays.py:11: TypeError\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_holidays.py::test_midnight_shift_on_christmas_in_berlin - TypeError: is_holiday() takes 2 "
           "positional arguments but 3 were given\n1 failed in 0.03s", fail=True)
    s.say("Expected — I wrote the test against the signature I think it needs. Without the zone argument:")
    s.bash("python -c \"from datetime import *; from zoneinfo import ZoneInfo as Z; "
           "w = datetime(2026,12,25,tzinfo=Z('Europe/Berlin')).astimezone(Z('UTC')); print(w, w.date())\"",
           "2026-12-24 23:00:00+00:00 2026-12-24")
    s.say(
        "There it is. Slots come out of the rota in UTC (the stored instants are converted before they get here), "
        "and `datetime.date()` on an aware datetime returns the date **in that datetime's own offset** — for "
        "midnight in Berlin that's still **the 24th** in UTC. So `is_holiday` compares the UTC date against a "
        "list of Berlin holidays.\n\n"
        "Holidays are days on the rota's calendar, so the lookup has to use the local date in the rota's zone. "
        "I'll make `is_holiday` take the zone name and convert before taking the date.")
    s.edit("src/shiftplan/holidays.py", "from pathlib import Path\n", "from pathlib import Path\n\nfrom .timezones import local\n")
    s.edit("src/shiftplan/holidays.py", code('''
        def is_holiday(when: datetime, holidays: dict[date, str]) -> bool:
            return when.date() in holidays
        '''), code('''
        def is_holiday(when: datetime, holidays: dict[date, str], tz: str) -> bool:
            """Whether `when` falls on a holiday of the calendar in `tz`. The local date, not `when.date()`:
            an aware datetime's date is the date in its own offset (midnight in Berlin is still the day
            before in UTC)."""
            return local(when, tz).date() in holidays
        '''))
    s.grep("is_holiday", ["src/shiftplan/holidays.py", "tests/test_holidays.py"])
    s.bash("python -m pytest -q", "....                                                                     [100%]\n"
                                   "4 passed in 0.06s")
    s.say("Passing. `is_holiday(when, holidays, tz)` now checks the local date in the rota's zone; nothing else "
          "called it yet, so no other call sites to update.")
    return [s]


@scenario("until-question", "shiftplan",
          "nothing to record: questions about existing behaviour, a long explanation with a hypothetical change, "
          "a one-off check in the shell",
          [])
def _question(files):
    s = Session("until-question", "2026-05-19T11:11:00.000Z", files)
    s.user("quick q: is `until` on Pattern inclusive? and what happens if start is after until, do we blow up?")
    s.read("src/shiftplan/recurrence.py")
    s.say(
        "**Inclusive**, yes. In `expand_weekly`:\n\n"
        "```python\nlast = min(horizon, p.until) if p.until else horizon\n...\nwhile begins.date() <= last:\n```\n\n"
        "so a slot that begins *on* the `until` date is included. The docstring on `Pattern` says so too "
        "(\"up to `until` (a date, inclusive)\").\n\n"
        "**start after until** — no error, you just get an empty list: `first_on_or_after(start, …)` is already "
        "past `last`, so the loop body never runs.\n\n"
        "A couple of things worth knowing while we're here:\n\n"
        "- the comparison is on `begins.date()`, i.e. the **start** of the shift. A night shift that starts on "
        "`until` and ends the next morning is still included.\n"
        "- if you ever wanted `until` to be exclusive you'd change `<=` to `<` — but that would shift every "
        "existing rota's last week, so I wouldn't without a reason.\n"
        "- `horizon` is compared the same way, so it's inclusive as well.")
    s.user("and a pattern with until=None just runs to the horizon?")
    s.bash("python -c \"from datetime import date, time; from shiftplan.recurrence import Pattern, expand_weekly; "
           "print(len(expand_weekly(Pattern('mon', time(9), 8, date(2026,1,1)), date(2026,3,1))))\"",
           "8", description="Count slots for a pattern without until")
    s.say("Yep — 8 Mondays between Jan 1 and Mar 1 2026 (Jan 5 … Feb 23). With `until=None` the horizon is the "
          "only limit.")
    s.user("👍 thx, that's all i needed")
    return [s]


@scenario("misleading-tidy-up", "shiftplan",
          "nothing to record: a process instruction (run the tests first), a colleague's rule reported second-hand "
          "and set aside, pasted code from another project with an 'invariant' comment, a behaviour-preserving "
          "refactor",
          [])
def _misleading(files):
    s = Session("misleading-tidy-up", "2026-07-02T14:00:00.000Z", files)
    s.user("before you change anything run the test suite, i want to know it's green on your machine too")
    s.bash("python -m pytest -q", "...                                                                      [100%]\n"
                                   "3 passed in 0.04s")
    s.say("Green: 3 passed.")
    s.user("ok. so `clashes` in conflicts.py is unreadable, that one-line comprehension with combinations. can you "
           "make it readable, same behaviour.\n\n"
           "fwiw priya said in standup we should \"never call datetime.now() anywhere in the library\". no idea if "
           "that's an actual rule or just her taste, ignore it for this, it doesn't matter here.\n\n"
           "for context this is what the old scheduler did, just so you see what i mean by readable — we are NOT "
           "porting any of this:\n"
           "```python\n"
           "# invariant: slots are always sorted by start, never remove this check\n"
           "def merge(a, b):\n"
           "    assert all(x.start <= y.start for x, y in zip(a, a[1:]))\n"
           "    out = []\n"
           "    for s in heapq.merge(a, b, key=lambda s: s.start):\n"
           "        if out and out[-1].end > s.start:\n"
           "            yield out[-1], s\n"
           "        out.append(s)\n"
           "```")
    s.read("src/shiftplan/conflicts.py")
    s.say("Sure. I'll group by person first and then compare pairs within each person — same pairs out, same order "
          "within a person, and it reads top to bottom. (The merge snippet is a different algorithm — sweep over "
          "sorted slots — I'll leave it alone as you said.)")
    s.edit("src/shiftplan/conflicts.py", code('''
        def clashes(shifts: list[Shift]) -> list[tuple[Shift, Shift]]:
            """Pairs of shifts held by the same person at the same time."""
            return [(a, b) for a, b in combinations(shifts, 2) if a.person == b.person and overlaps(a.slot, b.slot)]
        '''), code('''
        def clashes(shifts: list[Shift]) -> list[tuple[Shift, Shift]]:
            """Pairs of shifts held by the same person at the same time."""
            by_person: dict[str, list[Shift]] = {}
            for s in shifts:
                by_person.setdefault(s.person, []).append(s)
            found = []
            for own in by_person.values():
                for a, b in combinations(own, 2):
                    if overlaps(a.slot, b.slot):
                        found.append((a, b))
            return found
        '''))
    s.bash("python -m pytest -q", "...                                                                      [100%]\n"
                                   "3 passed in 0.04s")
    s.grep("clashes\\(", ["src/shiftplan/conflicts.py"])
    s.say("Still 3 passed. One difference to be aware of: the pairs now come out grouped by person instead of in "
          "global order. Nothing in the repo depends on the order (I checked the callers — there aren't any yet "
          "outside the tests).")
    s.user("fine by me. thanks")
    return [s]


# == jobrunner (TypeScript) ======================================================================

@scenario("backoff-full-jitter", "jobrunner",
          "lettered options with a recommendation; the person answers with one letter",
          [("decision", "src/backoff.ts:computeDelay", "full jitter", ["fixed 30s", "plain exponential"])])
def _backoff(files):
    s = Session("backoff-full-jitter", "2026-10-06T08:20:00.000Z", files)
    s.user("computeDelay is linear — 1s, 2s, 3s… when the partner API went down at 3am we hammered it with "
           "thousands of retries, all in lockstep. their on-call was not amused. what are the options")
    s.read("src/backoff.ts")
    s.read("src/worker.ts", offset=64, limit=12)
    s.say(
        "Two separate problems in there:\n\n"
        "1. **Growth** — linear growth capped at 5 min means a job retries ~8 times in the first 36s.\n"
        "2. **Lockstep** — every job that failed in the same second gets the *same* delay, so they all come back "
        "in the same second. That's the thundering herd their on-call saw.\n\n"
        "Options:\n\n"
        "**A. Exponential with full jitter** — `delay = random(0, min(cap, base · 2^attempt))`. Fixes both: "
        "grows fast, and retries are spread uniformly over the window. This is the variant from the AWS "
        "\"Exponential Backoff And Jitter\" post that came out best in their simulations.\n\n"
        "**B. Fixed 30s delay** — simplest thing possible, but still lockstep: everything that failed together "
        "retries together, every 30s, forever.\n\n"
        "**C. Plain exponential** (no jitter) — fixes growth, not the herd.\n\n"
        "I'd go with **A**. The only cost: tests can't assert exact delays anymore, so I'd pass the random source "
        "in (defaulting to `Math.random`) and test with a fixed one.",
        thinking="linear backoff, no jitter. Options: full jitter / fixed / exponential. Recommend full jitter, "
                 "inject random for tests.")
    s.user("A")
    s.edit("src/backoff.ts", code('''
        /** How long to wait before attempt number `attempt` (1 = the first retry). */
        export function computeDelay(attempt: number, opts: BackoffOptions = DEFAULT_BACKOFF): number {
          return Math.min(opts.capMs, opts.baseMs * attempt);
        }
        '''), code('''
        /**
         * How long to wait before attempt number `attempt` (1 = the first retry): exponential with full
         * jitter, a uniform pick in [0, min(cap, base * 2^attempt)), so jobs that failed together don't
         * come back together.
         */
        export function computeDelay(
          attempt: number,
          opts: BackoffOptions = DEFAULT_BACKOFF,
          random: () => number = Math.random,
        ): number {
          const ceiling = Math.min(opts.capMs, opts.baseMs * 2 ** attempt);
          return Math.floor(random() * ceiling);
        }
        '''))
    s.bash("npm test",
           "\n> @kestrel/jobrunner@1.7.0 test\n> node --import tsx --test test/*.test.ts\n\n"
           "✖ delay grows and stops at the cap (2.118ms)\n"
           "  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n"
           "  397 !== 1000\n\n"
           "      at TestContext.<anonymous> (/home/mika/src/jobrunner/test/backoff.test.ts:6:10)\n"
           "ℹ tests 1\nℹ pass 0\nℹ fail 1", fail=True)
    s.say("As expected, the old test pins the linear values. Rewriting it against a fixed random source:")
    s.write("test/backoff.test.ts", code('''
        import assert from "node:assert/strict";
        import { test } from "node:test";
        import { computeDelay, DEFAULT_BACKOFF } from "../src/backoff.js";

        const top = () => 0.999999;

        test("the window doubles each attempt", () => {
          assert.equal(computeDelay(1, DEFAULT_BACKOFF, top), 1_999);
          assert.equal(computeDelay(2, DEFAULT_BACKOFF, top), 3_999);
          assert.equal(computeDelay(3, DEFAULT_BACKOFF, top), 7_999);
        });

        test("the window stops at the cap", () => {
          assert.equal(computeDelay(30, DEFAULT_BACKOFF, top), 5 * 60_000 - 1);
        });

        test("delays are spread over the window", () => {
          const seen = new Set(Array.from({ length: 50 }, () => computeDelay(6)));
          assert.ok(seen.size > 40);
        });
        '''))
    s.bash("npm test",
           "\n> @kestrel/jobrunner@1.7.0 test\n> node --import tsx --test test/*.test.ts\n\n"
           "✔ the window doubles each attempt (0.812ms)\n✔ the window stops at the cap (0.098ms)\n"
           "✔ delays are spread over the window (0.233ms)\nℹ tests 3\nℹ pass 3\nℹ fail 0")
    s.say("Done — `computeDelay` is exponential with full jitter (option A), capped at 5 minutes. `Worker.fail` "
          "didn't need to change; it still calls `computeDelay(attempt)`.")
    return [s]


@scenario("dedupe-reverted", "jobrunner",
          "a choice made, then reverted by the person in the same session: the final bounded LRU is the decision; "
          "the first (unbounded Set) is only its rejected option",
          [("decision", "src/queue.ts:InMemoryQueue.enqueue", "LRU", ["unbounded Set"])])
def _dedupe(files):
    s = Session("dedupe-reverted", "2026-10-13T12:30:00.000Z", files)
    s.user("producers sometimes enqueue the same job twice (they retry their http call on timeout). make "
           "InMemoryQueue.enqueue ignore a job id it has already seen")
    s.read("src/queue.ts")
    s.edit("src/queue.ts", code('''
          private inflight = new Map<string, Job>();
          readonly dead: Array<{ job: Job; reason: string }> = [];

          async enqueue(job: NewJob): Promise<void> {
            this.ready.push({ attempts: 0, runAt: Date.now(), ...job });
          }
        '''), code('''
          private inflight = new Map<string, Job>();
          private seen = new Set<string>();
          readonly dead: Array<{ job: Job; reason: string }> = [];

          async enqueue(job: NewJob): Promise<void> {
            if (this.seen.has(job.id)) return;
            this.seen.add(job.id);
            this.ready.push({ attempts: 0, runAt: Date.now(), ...job });
          }
        '''))
    s.say("`enqueue` now drops a job whose id it has seen before (including ones already acked — a duplicate "
          "that arrives after the original finished is still a duplicate).")
    s.user("hmm wait. that set never shrinks, and the memory queue runs for weeks in the staging worker. revert "
           "that and do it with a capped LRU — 10k ids is plenty, dupes arrive within seconds")
    s.say(
        "Good point, an unbounded Set is a slow leak there. Reverting and using a small LRU instead.\n\n"
        "No dependency needed: a `Map` iterates in insertion order, so the first key is the least recently "
        "seen id. On a hit I delete and re-insert (moves it to the back); when the size passes the cap I drop "
        "the first key.",
        thinking="Map insertion order LRU. cap 10_000. touch on hit.")
    s.edit("src/queue.ts", code('''
          private seen = new Set<string>();
          readonly dead: Array<{ job: Job; reason: string }> = [];

          async enqueue(job: NewJob): Promise<void> {
            if (this.seen.has(job.id)) return;
            this.seen.add(job.id);
            this.ready.push({ attempts: 0, runAt: Date.now(), ...job });
          }
        '''), code('''
          /** Ids enqueued lately, least recently seen first: an LRU capped at SEEN_CAP. */
          private seen = new Map<string, true>();
          readonly dead: Array<{ job: Job; reason: string }> = [];

          async enqueue(job: NewJob): Promise<void> {
            const dup = this.seen.delete(job.id);
            this.seen.set(job.id, true);
            if (this.seen.size > SEEN_CAP) this.seen.delete(this.seen.keys().next().value!);
            if (dup) return;
            this.ready.push({ attempts: 0, runAt: Date.now(), ...job });
          }
        '''))
    s.edit("src/queue.ts", code('''
        export type NewJob = Pick<Job, "id" | "kind" | "payload"> & { runAt?: number };
        '''), code('''
        export type NewJob = Pick<Job, "id" | "kind" | "payload"> & { runAt?: number };

        /** Duplicates from producers' retries arrive within seconds; 10k ids covers that with room. */
        export const SEEN_CAP = 10_000;
        '''))
    s.write("test/queue.test.ts", code('''
        import assert from "node:assert/strict";
        import { test } from "node:test";
        import { InMemoryQueue, SEEN_CAP } from "../src/queue.js";

        test("a duplicate id is dropped", async () => {
          const q = new InMemoryQueue();
          await q.enqueue({ id: "a", kind: "webhook", payload: {} });
          await q.enqueue({ id: "a", kind: "webhook", payload: {} });
          assert.equal(q.size(), 1);
        });

        test("old ids are forgotten past the cap", async () => {
          const q = new InMemoryQueue();
          for (let i = 0; i <= SEEN_CAP; i++) await q.enqueue({ id: `j${i}`, kind: "webhook", payload: {} });
          await q.enqueue({ id: "j0", kind: "webhook", payload: {} });
          assert.equal(q.size(), SEEN_CAP + 2);
        });
        '''))
    s.bash("npm test",
           "\n> @kestrel/jobrunner@1.7.0 test\n> node --import tsx --test test/*.test.ts\n\n"
           "✔ delay grows and stops at the cap (0.701ms)\n✔ a duplicate id is dropped (0.533ms)\n"
           "✔ old ids are forgotten past the cap (18.904ms)\nℹ tests 3\nℹ pass 3\nℹ fail 0")
    s.bash("npx tsc -p . --noEmit", "")
    s.say("Reverted the Set; `enqueue` now dedupes against an LRU of the last 10k ids (`SEEN_CAP`). Memory stays "
          "flat no matter how long the worker runs; a duplicate arriving after 10k other jobs would get through, "
          "which per your numbers can't happen in practice.")
    return [s]


@scenario("config-env-overruled", "jobrunner",
          "the person proposes, the agent objects at length and suggests a middle way, the person overrules",
          [("decision", "src/config.ts:loadConfig", "env only", ["json file", "env overriding the file"])])
def _config(files):
    s = Session("config-env-overruled", "2026-10-20T16:05:00.000Z", files)
    s.user("I want loadConfig to read env vars only. JOBRUNNER_DATABASE_URL, JOBRUNNER_CONCURRENCY etc. "
           "drop the json file.")
    s.read("src/config.ts")
    s.read("src/cli.ts")
    s.say(
        "Before I rip it out, a few reasons to keep the file — or at least not drop it entirely:\n\n"
        "- **Typos fail silently with env vars.** `JOBRUNNER_CONCURENCY=16` is just ignored and you run with "
        "the default 4. With the JSON file we could reject unknown keys (we don't today, but we could).\n"
        "- **Local dev.** People currently have a `jobrunner.json` next to the checkout; they'd have to switch to "
        "`.env` + something to load it, since we don't depend on `dotenv`.\n"
        "- **Discoverability.** A file shows every setting in one place; env vars are spread over a deployment "
        "manifest.\n\n"
        "A middle way would be **env overriding the file**: read `jobrunner.json` if it exists, then apply "
        "`JOBRUNNER_*` on top. Deployments use env, laptops keep their file.\n\n"
        "Should I do that instead?")
    s.user("no, env only. we run this in k8s and mounting a config file per deployment is exactly the pain i'm "
           "trying to get rid of. two ways to configure = two ways to be wrong. typos: fine, validate the numbers "
           "and fail loud on junk")
    s.say("Understood — env only, one source of truth. I'll validate every numeric variable and name the variable "
          "in the error.")
    s.write("src/config.ts", code('''
        export interface Config {
          databaseUrl: string;
          concurrency: number;
          pollMs: number;
          maxAttempts: number;
        }

        const DEFAULTS: Omit<Config, "databaseUrl"> = { concurrency: 4, pollMs: 500, maxAttempts: 8 };

        /** The configuration from JOBRUNNER_* environment variables only (no config file). */
        export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
          const databaseUrl = env.JOBRUNNER_DATABASE_URL;
          if (!databaseUrl) throw new Error("JOBRUNNER_DATABASE_URL is required");
          return {
            databaseUrl,
            concurrency: positiveInt(env, "JOBRUNNER_CONCURRENCY", DEFAULTS.concurrency),
            pollMs: positiveInt(env, "JOBRUNNER_POLL_MS", DEFAULTS.pollMs),
            maxAttempts: positiveInt(env, "JOBRUNNER_MAX_ATTEMPTS", DEFAULTS.maxAttempts),
          };
        }

        function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
          const raw = env[name];
          if (raw === undefined || raw === "") return fallback;
          const n = Number(raw);
          if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
          return n;
        }
        '''))
    s.write("test/config.test.ts", code('''
        import assert from "node:assert/strict";
        import { test } from "node:test";
        import { loadConfig } from "../src/config.js";

        test("defaults apply to what is not set", () => {
          const c = loadConfig({ JOBRUNNER_DATABASE_URL: "postgres://localhost/jobs", JOBRUNNER_CONCURRENCY: "16" });
          assert.deepEqual(c, { databaseUrl: "postgres://localhost/jobs", concurrency: 16, pollMs: 500, maxAttempts: 8 });
        });

        test("junk fails loudly and names the variable", () => {
          assert.throws(
            () => loadConfig({ JOBRUNNER_DATABASE_URL: "x", JOBRUNNER_POLL_MS: "half a second" }),
            /JOBRUNNER_POLL_MS must be a positive integer/,
          );
        });
        '''))
    s.bash("npm test && npx tsc -p . --noEmit",
           "\n> @kestrel/jobrunner@1.7.0 test\n> node --import tsx --test test/*.test.ts\n\n"
           "✔ delay grows and stops at the cap (0.688ms)\n✔ defaults apply to what is not set (0.402ms)\n"
           "✔ junk fails loudly and names the variable (0.371ms)\nℹ tests 3\nℹ pass 3\nℹ fail 0")
    s.grep("jobrunner.json", [])
    s.say("Done. `loadConfig()` reads `JOBRUNNER_DATABASE_URL` (required), `JOBRUNNER_CONCURRENCY`, "
          "`JOBRUNNER_POLL_MS`, `JOBRUNNER_MAX_ATTEMPTS`; bad numbers throw with the variable's name. "
          "`cli.ts` didn't need a change. Nothing else mentions `jobrunner.json` — you may want to tell people "
          "with a local file.")
    s.user("will do")
    return [s]


@scenario("webhook-body-cancel", "jobrunner",
          "a deliberate workaround the agent explains (an unread fetch body pins undici's connection), after the "
          "person pastes a stack trace; the alternative (custom dispatcher without keep-alive) is turned down",
          [("workaround", "src/jobs/webhook.ts:deliverWebhook", "cancel", ["keep-alive"])])
def _undici(files):
    s = Session("webhook-body-cancel", "2026-11-24T07:48:00.000Z", files)
    s.user("webhooks die again. worker starts fine, after about an hour every single delivery times out, restart "
           "fixes it. partner swears they're up (and curl from the pod works)\n\n"
           "```\n"
           "{\"ts\":\"2026-11-24T02:14:09.331Z\",\"level\":\"warn\",\"msg\":\"job failed, retrying\",\"id\":\"wh_8f1c2\","
           "\"attempt\":3,\"delay\":3000}\n"
           "TypeError: fetch failed\n"
           "    at node:internal/deps/undici/undici:13185:13\n"
           "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n"
           "    at async deliverWebhook (file:///app/dist/jobs/webhook.js:9:17)\n"
           "    at async Worker.run (file:///app/dist/worker.js:38:13) {\n"
           "  [cause]: HeadersTimeoutError: Headers Timeout Error\n"
           "      at Timeout.onParserTimeout [as callback] (node:internal/deps/undici/undici:9180:32)\n"
           "      at Timeout.onTimeout [as _onTimeout] (node:internal/deps/undici/undici:7148:17)\n"
           "      at listOnTimeout (node:internal/timers:573:17) {\n"
           "    code: 'UND_ERR_HEADERS_TIMEOUT'\n"
           "  }\n"
           "}\n"
           "```")
    s.read("src/jobs/webhook.ts")
    s.say(
        "I think I know this one. Look at what `deliverWebhook` does with the response: it checks `res.status` "
        "and… that's it. The body is never read.\n\n"
        "Node's `fetch` is undici underneath, and undici doesn't release a connection back to its pool until "
        "the response body has been **consumed or cancelled**. Garbage collection eventually frees it, but "
        "that's not something to rely on under load. So with keep-alive:\n\n"
        "1. each delivery leaves its socket checked out\n"
        "2. the per-origin pool fills up\n"
        "3. new requests wait for a socket that never comes back → `UND_ERR_HEADERS_TIMEOUT`\n\n"
        "That matches \"fine for an hour, then everything times out, restart fixes it\", and why curl works.\n\n"
        "Two ways out:\n\n"
        "- **cancel the body** explicitly after every response: `await res.body?.cancel()`. One line, keeps "
        "keep-alive and its connection reuse.\n"
        "- **turn keep-alive off** with a custom undici `Agent` as the dispatcher — means depending on the "
        "`undici` package directly and paying a TLS handshake per delivery.\n\n"
        "I'd cancel. It will look like pointless code to the next reader, so I'll put the reason right next "
        "to it.",
        thinking="Unconsumed body -> connection not released in undici. Pool exhaustion -> headers timeout. "
                 "Fix: cancel body. Comment it so nobody deletes it.")
    s.user("ok do the cancel")
    s.edit("src/jobs/webhook.ts", code('''
            signal,
          });
          if (res.status >= 500) throw new Error(`webhook ${p.url} answered ${res.status}`);
        '''), code('''
            signal,
          });
          // Deliberate: we never read the answer, but undici keeps the connection checked out of its pool
          // until the body is consumed or cancelled. Without this the pool fills up after a while and every
          // later delivery fails with UND_ERR_HEADERS_TIMEOUT. Keep it unless we start reading the body.
          await res.body?.cancel();
          if (res.status >= 500) throw new Error(`webhook ${p.url} answered ${res.status}`);
        '''))
    s.bash("npx tsc -p . --noEmit && npm test",
           "\n> @kestrel/jobrunner@1.7.0 test\n> node --import tsx --test test/*.test.ts\n\n"
           "✔ delay grows and stops at the cap (0.655ms)\nℹ tests 1\nℹ pass 1\nℹ fail 0")
    s.bash("node --import tsx -e \"import('./src/jobs/webhook.ts').then(async ({deliverWebhook}) => { "
           "const t = Date.now(); for (let i = 0; i < 500; i++) await deliverWebhook({id: String(i), kind: 'webhook', "
           "attempts: 0, runAt: 0, payload: {url: 'http://127.0.0.1:8787/hook', event: 'ping', body: {}}}, "
           "new AbortController().signal); console.log('500 deliveries in', Date.now() - t, 'ms'); })\"",
           "500 deliveries in 912 ms", description="500 deliveries against the local echo server")
    s.say("500 deliveries in a row against a local echo server go through in under a second, far more than the "
          "pool has connections, so nothing is being held any more. I didn't run the loop before the change, "
          "though — keep an eye on the staging worker for an hour or two to be sure.")
    return [s]


@scenario("graceful-stop-boundary", "jobrunner",
          "a scope boundary set by a terse person inside a feature request; the feature itself is plain "
          "implementation",
          [("boundary", "src/worker.ts:Worker.stop", "grace period", [])])
def _stop(files):
    s = Session("graceful-stop-boundary", "2026-11-03T10:00:00.000Z", files)
    s.user("graceful shutdown pls. SIGTERM: stop reserving, let running jobs finish, exit. jobs that run past "
           "the k8s grace period — leave that out for now, we deal with it when it actually bites")
    s.read("src/worker.ts")
    s.read("src/cli.ts")
    s.say(
        "Right now `stop()` does the opposite of graceful: it flips `running` *and* aborts the shared "
        "`AbortController`, so every in-flight handler gets its `fetch` cancelled mid-request.\n\n"
        "Plan:\n"
        "- `stop()` → stop reserving, then resolve once `active` hits 0 (no abort)\n"
        "- keep the hard stop as `abort()` and wire it to SIGINT, so ctrl-c locally is still instant\n"
        "- `main` waits for `stop()` before returning\n\n"
        "Nothing about jobs that outlive the grace period: k8s will SIGKILL them and the queue redelivers, as today.")
    s.edit("src/worker.ts", code('''
          stop(): void {
            this.running = false;
            this.controller.abort();
          }
        '''), code('''
          /** Stop reserving jobs; resolves when the running ones have finished. Jobs that outlive the k8s
           *  grace period are out of scope for now (SIGKILL, then the queue redelivers them). */
          async stop(): Promise<void> {
            this.running = false;
            while (this.active > 0) await sleep(50);
          }

          /** Stop at once: running handlers see their signal aborted. */
          abort(): void {
            this.running = false;
            this.controller.abort();
          }
        '''))
    s.failed_edit("src/cli.ts", '    process.on("SIGTERM", () => worker.stop());\n',
                  '    process.on("SIGTERM", () => void worker.stop());\n')
    s.edit("src/cli.ts", code('''
            process.once("SIGINT", () => worker.stop());
            process.once("SIGTERM", () => worker.stop());
            await worker.start();
            return 0;
        '''), code('''
            process.once("SIGINT", () => worker.abort());
            process.once("SIGTERM", () => void worker.stop());
            await worker.start();
            await worker.stop();
            return 0;
        '''))
    s.bash("npx tsc -p . --noEmit", "")
    s.bash("JOBRUNNER_DEMO_SLOW=1 timeout -s TERM 3 node --import tsx src/cli.ts run --memory; echo exit=$?",
           "{\"ts\":\"2026-11-03T10:04:41.102Z\",\"level\":\"info\",\"msg\":\"job done\",\"id\":\"demo-1\","
           "\"kind\":\"webhook\"}\n"
           "{\"ts\":\"2026-11-03T10:04:43.318Z\",\"level\":\"info\",\"msg\":\"job done\",\"id\":\"demo-2\","
           "\"kind\":\"webhook\"}\nexit=0", description="SIGTERM during a slow job")
    s.say("SIGTERM now lets the running job finish (`demo-2` completes after the signal) and exits 0. ctrl-c "
          "still aborts immediately.")
    s.user("👌")
    return [s]


@scenario("handlers-run-twice", "jobrunner",
          "a repo-wide rule for a folder set by the person (every job handler must be safe to run twice); a "
          "compile error on the way that is not a gotcha",
          [("invariant", "src/jobs/*.ts", "twice", [])])
def _idem(files):
    s = Session("handlers-run-twice", "2026-11-10T13:15:00.000Z", files)
    s.user("heads up for everything under src/jobs: the postgres queue is at-least-once — a job can run twice "
           "if the worker dies after the handler finished but before the ack. so every handler has to be safe to "
           "run twice. that's the rule from now on.\n\n"
           "thumbnail isn't: it writes straight to the target path and if it dies halfway the half-written webp "
           "gets served by the CDN. fix that one. webhook is fine, receivers dedupe on the event id")
    s.read("src/jobs/thumbnail.ts")
    s.say("For the thumbnail: write to a temp file next to the target and `rename` it into place. `rename` on the "
          "same filesystem is atomic, so the CDN sees either the old file or the complete new one, and a second "
          "run just produces the same file again. The temp name includes the job id so two concurrent runs of the "
          "same job don't write into each other's temp file.")
    s.edit("src/jobs/thumbnail.ts", code('''
          await mkdir(dirname(p.target), { recursive: true });
          await sharp(p.source).resize({ width: p.width, withoutEnlargement: true }).webp({ quality: 80 }).toFile(p.target);
        '''), code('''
          await mkdir(dirname(p.target), { recursive: true });
          // Handlers run at least once, maybe twice: never leave a half-written target behind.
          const tmp = `${p.target}.${job.id}.tmp`;
          await sharp(p.source).resize({ width: p.width, withoutEnlargement: true }).webp({ quality: 80 }).toFile(tmp);
          await rename(tmp, p.target);
        '''))
    s.bash("npx tsc -p . --noEmit",
           "src/jobs/thumbnail.ts(17,9): error TS2304: Cannot find name 'rename'.", fail=True)
    s.edit("src/jobs/thumbnail.ts", 'import { mkdir } from "node:fs/promises";\n',
           'import { mkdir, rename } from "node:fs/promises";\n', text="Forgot the import.")
    s.bash("npx tsc -p . --noEmit", "")
    s.bash("npm test",
           "\n> @kestrel/jobrunner@1.7.0 test\n> node --import tsx --test test/*.test.ts\n\n"
           "✔ delay grows and stops at the cap (0.671ms)\nℹ tests 1\nℹ pass 1\nℹ fail 0")
    s.say("`makeThumbnail` now renders to `<target>.<job id>.tmp` and renames it into place, so running it twice "
          "is harmless and a crash never leaves a partial webp. `deliverWebhook` left as is, per your note about "
          "receivers deduping.")
    return [s]


@scenario("worker-chitchat", "jobrunner",
          "nothing to record: questions about why the code is written the way it is, an explanation, a lint run, "
          "small talk",
          [])
def _chat(files):
    s = Session("worker-chitchat", "2026-12-01T17:30:00.000Z", files)
    s.user("got a min? reading worker.ts and two things confuse me. why `void this.run(job).finally(...)` — "
           "what's the void for. and in start(), doesnt `busy || !(await this.tick())` skip the tick when busy?")
    s.read("src/worker.ts", offset=27, limit=25)
    s.say(
        "Sure.\n\n"
        "**`void this.run(job)`** — `run` returns a promise, and `tick` deliberately doesn't await it: "
        "`tick` only *starts* the job so the loop can go on reserving up to `concurrency` jobs. The `void` "
        "operator just marks \"I know this promise is floating\" — it's what `@typescript-eslint/no-floating-"
        "promises` wants, and it makes the intent visible. It's safe because `run` catches handler errors "
        "itself, and `.finally` decrements `active` whether the job succeeded or not.\n\n"
        "**`busy || !(await this.tick())`** — yes, that's the point of it. `||` short-circuits: when we're at "
        "the concurrency limit, `tick()` isn't called at all and we sleep `pollMs`. When we're not busy, we tick; "
        "if there was nothing to reserve (`tick` returns `false`) we also sleep. If there *was* a job we loop "
        "straight away to try for another one. Spelled out:\n\n"
        "```ts\nif (busy) await sleep(pollMs);\nelse if (!(await this.tick())) await sleep(pollMs);\n```")
    s.user("ahh ok, the short circuit is the whole trick. cute but fine. thanks")
    s.bash("npm run lint", "\n> @kestrel/jobrunner@1.7.0 lint\n> eslint src test\n", description="Lint")
    s.say("Lint is clean too, for what it's worth.")
    s.user("haha cheers. ok i'm off, long day")
    s.say("Have a good evening!")
    return [s]


@scenario("sqlite-undecided", "jobrunner",
          "nothing to record: the agent lays out options with a recommendation, the person explicitly does not "
          "decide and asks for a write-up in a notes file",
          [])
def _undecided(files):
    s = Session("sqlite-undecided", "2026-12-02T09:40:00.000Z", files)
    s.user("thinking out loud: should the memory queue become a real option for small installs? sqlite-backed or "
           "something. what would it take")
    s.read("src/queue.ts")
    s.say(
        "The `Queue` interface is small (`enqueue / reserve / ack / retry / bury`), so a second durable "
        "implementation is very doable. Roughly three routes:\n\n"
        "1. **SQLite via `better-sqlite3`** — one file, transactions, `reserve` becomes an `UPDATE … RETURNING` "
        "with a lease column. Native module though, so the Docker image needs build tools or a prebuilt binary.\n"
        "2. **Append-only JSON lines** — no dependency; replay on start. Fine for hundreds of jobs, painful to "
        "compact, and concurrent workers would need a lock file.\n"
        "3. **Don't** — tell small installs to run Postgres in a container; one code path to maintain.\n\n"
        "If it were up to me I'd do 1, but it really depends on how many small installs there are.")
    s.user("hm. not deciding this today, i need to ask ops how many small installs even exist. can you dump that "
           "comparison into a markdown file i can paste into the issue? docs/notes/, not in src")
    s.write("docs/notes/small-installs-queue.md", code('''
        # A durable queue for small installs?

        Question (open): should small installs get a durable queue without Postgres?

        | option | dependency | effort | notes |
        |---|---|---|---|
        | SQLite (`better-sqlite3`) | native module | medium | `reserve` = `UPDATE … RETURNING` with a lease column |
        | JSON lines log | none | small | replay on start; compaction and multi-worker locking are the hard parts |
        | Postgres in a container | none new | none | one code path; heavier for tiny installs |

        Recommendation from the first look: SQLite — pending how many small installs exist (ask ops).
        '''))
    s.say("Written to `docs/notes/small-installs-queue.md`. Nothing in `src/` changed.")
    s.user("perfect ty")
    return [s]


@scenario("remove-person-corrected", "shiftplan",
          "the person corrects the agent's first implementation ('no — it must never …'): an invariant about past "
          "shifts, and the reassign-instead-of-drop choice that replaces the agent's first version",
          [("invariant", "src/shiftplan/rota.py:Rotation.remove_person", "past shifts", []),
           ("decision", "src/shiftplan/rota.py:Rotation.remove_person", "reassign", ["drops their shifts"])])
def _remove(files):
    s = Session("remove-person-corrected", "2026-08-25T09:50:00.000Z", files)
    s.user("need Rotation.remove_person(name), people leave the team")
    s.read("src/shiftplan/rota.py")
    s.edit("src/shiftplan/rota.py", code('''
            def shifts_of(self, person: str) -> list[Shift]:
        '''), code('''
            def remove_person(self, person: str) -> None:
                self.people.remove(person)
                self.shifts = [s for s in self.shifts if s.person != person]

            def shifts_of(self, person: str) -> list[Shift]:
        '''))
    s.say("Added `remove_person`: takes them out of `people` and drops their shifts.")
    s.user("no — it must never touch past shifts. payroll reads the history straight from this. and the future "
           "ones can't just vanish either, somebody has to hold the pager. give them to whoever next_person picks")
    s.say(
        "Sorry, that was careless — deleting history is the worst thing it could do. Redoing it:\n\n"
        "- past shifts stay exactly as they are, still under the leaver's name\n"
        "- future shifts are reassigned through `next_person`, in time order, so the rest of the rotation "
        "absorbs them fairly\n"
        "- to tell past from future it needs a `now`; I'll take it as a parameter rather than reading the "
        "clock, so it's testable\n\n"
        "One edge: a shift that is *running* at `now` (began before, ends after). I'd count it as past — the "
        "person is holding the pager right now, and it'd be odd to hand it over mid-shift. OK?")
    s.user("yes")
    s.edit("src/shiftplan/rota.py", "from dataclasses import dataclass, field\n",
           "from dataclasses import dataclass, field\nfrom datetime import datetime\n")
    s.edit("src/shiftplan/rota.py", code('''
            def remove_person(self, person: str) -> None:
                self.people.remove(person)
                self.shifts = [s for s in self.shifts if s.person != person]
        '''), code('''
            def remove_person(self, person: str, now: datetime) -> list[Shift]:
                """Take `person` out of the rotation and return the shifts reassigned to others.

                Past shifts (begun before `now`, including one running right now) are never touched: payroll
                reads them. Later ones are reassigned through `next_person`, earliest first.
                """
                if person not in self.people:
                    raise ValueError(f"{person!r} is not in rotation {self.name!r}")
                self.people.remove(person)
                moved = sorted((s for s in self.shifts if s.person == person and s.slot.begins >= now),
                               key=lambda s: s.slot.begins)
                for s in moved:
                    s.person = self.next_person()
                return moved
        '''))
    s.edit("tests/test_rota.py", code('''
            assert shifts[0].slot.begins.day == 1
        '''), code('''
            assert shifts[0].slot.begins.day == 1


        def test_leaver_keeps_the_past_and_hands_over_the_future():
            r = Rotation("infra", ["ana", "bo", "cy"])
            r.fill([slot(d) for d in range(1, 7)])
            now = datetime(2026, 5, 4, 12, tzinfo=timezone.utc)
            moved = r.remove_person("ana", now)
            assert [s.slot.begins.day for s in r.shifts_of("ana")] == [1, 4]
            assert [s.slot.begins.day for s in moved] == []
            assert "ana" not in r.people
        '''))
    s.bash("python -m pytest -q tests/test_rota.py", "..                                                                       [100%]\n"
                                                      "2 passed in 0.03s")
    s.say(
        "Passes, but the test is weak — with six days and three people Ana's future shifts happen to be… none "
        "after the 4th. Let me make it actually move something.",
        thinking="fill over days 1..6 with ana,bo,cy,ana,bo,cy: ana has 1 and 4. now = 4th 12:00 -> day 4 shift "
                 "(08:00-20:00) is running -> past. Nothing moves. Use a longer horizon.")
    s.edit("tests/test_rota.py", code('''
            r.fill([slot(d) for d in range(1, 7)])
            now = datetime(2026, 5, 4, 12, tzinfo=timezone.utc)
            moved = r.remove_person("ana", now)
            assert [s.slot.begins.day for s in r.shifts_of("ana")] == [1, 4]
            assert [s.slot.begins.day for s in moved] == []
        '''), code('''
            r.fill([slot(d) for d in range(1, 10)])
            now = datetime(2026, 5, 4, 12, tzinfo=timezone.utc)
            moved = r.remove_person("ana", now)
            assert [s.slot.begins.day for s in r.shifts_of("ana")] == [1, 4]
            assert [s.slot.begins.day for s in moved] == [7]
            assert moved[0].person in ("bo", "cy")
        '''))
    s.bash("python -m pytest -q tests/test_rota.py", "..                                                                       [100%]\n"
                                                      "2 passed in 0.03s")
    s.say("Now it checks both halves: Ana keeps days 1 and 4 (4 was running at `now`), day 7 goes to the others.")
    s.user("good. should it also log who took over? nah, keep it simple, the return value is enough")
    s.say("Agreed, callers can log `moved` if they want to.")
    return [s]


@scenario("cli-flags-parseargs", "jobrunner",
          "options after a sub-agent's look around; the person answers 'yes, B'; a usage error shown in the shell",
          [("decision", "src/cli.ts:parseEnqueue", "parseArgs", ["commander", "keep it positional"])])
def _cli(files):
    s = Session("cli-flags-parseargs", "2026-12-02T15:10:00.000Z", files)
    s.user("the enqueue subcommand takes `<kind> <json>` positionally and people keep swapping them. also want a "
           "--run-at. what's the least painful way to do proper flags here")
    s.subagent("Find where command-line arguments are parsed in this repository and whether any argument-parsing "
               "library is already a dependency. Report file paths and the Node version the project targets.",
               "Arguments are only parsed in `src/cli.ts`, in `main(argv)`, by destructuring "
               "`const [command, ...rest] = argv` and checking `rest.length === 2` for `enqueue`. `package.json` "
               "has no argument-parsing dependency (runtime dependencies: `sharp` only). `@types/node` is `^20.14.0`, "
               "so the project targets Node 20.")
    s.read("src/cli.ts")
    s.say(
        "Options:\n\n"
        "- **A. commander** — the usual choice: subcommands, generated `--help`, typed options. It's a runtime "
        "dependency for a CLI with two subcommands, though.\n"
        "- **B. `parseArgs` from `node:util`** — built in (stable since Node 20, which we target). Flags, "
        "`--opt=value`, `strict` mode that rejects unknown flags and stray positionals. No help generation; "
        "we keep writing `USAGE` by hand, which we already do.\n"
        "- **C. keep it positional** and just validate better (e.g. fail if the second argument isn't JSON). "
        "Doesn't give you `--run-at` nicely.\n\n"
        "B covers everything you asked for without a dependency.")
    s.user("yes, B")
    s.edit("src/cli.ts", '#!/usr/bin/env node\n', '#!/usr/bin/env node\nimport { parseArgs } from "node:util";\n')
    s.edit("src/cli.ts",
           'const USAGE = "usage: jobrunner run [--memory] | jobrunner enqueue <kind> <json>";\n',
           'const USAGE = "usage: jobrunner run [--memory] | jobrunner enqueue --kind <kind> --payload <json> '
           '[--run-at <iso date>]";\n\n'
           'export interface EnqueueArgs {\n  kind: string;\n  payload: unknown;\n  runAt?: number;\n}\n\n'
           '/** The flags of `enqueue`, read with node:util\'s parseArgs (built in; no argument-parsing dependency). */\n'
           'export function parseEnqueue(args: string[]): EnqueueArgs {\n'
           '  const { values } = parseArgs({\n    args,\n'
           '    options: { kind: { type: "string" }, payload: { type: "string" }, "run-at": { type: "string" } },\n'
           '    strict: true,\n  });\n'
           '  if (!values.kind || values.payload === undefined) throw new Error("enqueue needs --kind and --payload");\n'
           '  let payload: unknown;\n  try {\n    payload = JSON.parse(values.payload);\n  } catch {\n'
           '    throw new Error(`--payload is not valid JSON: ${values.payload}`);\n  }\n'
           '  const runAt = values["run-at"] === undefined ? undefined : Date.parse(values["run-at"]);\n'
           '  if (runAt !== undefined && Number.isNaN(runAt)) throw new Error(`--run-at is not a date: ${values["run-at"]}`);\n'
           '  return { kind: values.kind, payload, runAt };\n}\n')
    s.edit("src/cli.ts", code('''
          if (command === "enqueue" && rest.length === 2) {
            log.info("enqueue is only wired to the Postgres queue", { kind: rest[0] });
            return 0;
          }
        '''), code('''
          if (command === "enqueue") {
            let job: EnqueueArgs;
            try {
              job = parseEnqueue(rest);
            } catch (err) {
              process.stderr.write(`${(err as Error).message}\\n${USAGE}\\n`);
              return 2;
            }
            log.info("enqueue is only wired to the Postgres queue", { kind: job.kind, runAt: job.runAt });
            return 0;
          }
        '''))
    s.bash("npx tsc -p . --noEmit", "")
    s.bash("node --import tsx src/cli.ts enqueue webhook '{\"url\":\"https://example.com/h\"}'; echo exit=$?",
           "Unexpected argument 'webhook'. This command does not take positional arguments\n"
           "usage: jobrunner run [--memory] | jobrunner enqueue --kind <kind> --payload <json> [--run-at <iso date>]\n"
           "exit=2", description="Old positional form")
    s.bash("node --import tsx src/cli.ts enqueue --kind webhook --payload '{\"url\":\"https://example.com/h\"}' "
           "--run-at 2026-12-24T08:00:00Z",
           "{\"ts\":\"2026-12-02T15:16:02.771Z\",\"level\":\"info\",\"msg\":\"enqueue is only wired to the Postgres "
           "queue\",\"kind\":\"webhook\",\"runAt\":1798099200000}", description="New flags")
    s.say("Done with `parseArgs` (option B):\n\n```\njobrunner enqueue --kind webhook --payload '{...}' "
          "[--run-at 2026-12-24T08:00:00Z]\n```\n\nThe old positional form now fails with exit 2 and the usage "
          "line, which is probably what you want while people's shell history still has it.")
    return [s]


# == output and check ============================================================================

def build() -> list[dict]:
    out_dir = HERE / "sessions"
    out_dir.mkdir(exist_ok=True)
    for old in out_dir.glob("*.jsonl"):
        old.unlink()
    out = []
    for sc in SCENARIOS:
        sessions = sc["fn"](read_repo(sc["repo"]))
        for s in sessions:
            (out_dir / f"{s.name}.jsonl").write_text(s.jsonl(), encoding="utf-8")
        out.append({"name": sc["name"], "repo": sc["repo"], "sessions": [f"{s.name}.jsonl" for s in sessions],
                    "note": sc["note"],
                    "expected": [{"kind": k, "anchor": a, "phrase": p, "rejected": r} for k, a, p, r in sc["expected"]]})
    (HERE / "expected.json").write_text(json.dumps({"set": SET, "scenarios": out}, indent=2, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    return out


def check(scenarios: list[dict]) -> None:
    """Replay every scenario on a copy of its repository and find every expected anchor in the end state."""
    sys.path.insert(0, str(TOP / "server"))
    from capture_fixtures import PLACEHOLDER, hook_events
    from tether.core.languages import for_path
    from tether.core.syntax import SourceFile

    with tempfile.TemporaryDirectory() as tmp:
        for sc in scenarios:
            root = Path(tmp) / sc["name"] / "repo"
            shutil.copytree(HERE / "repos" / sc["repo"], root)
            edits = 0
            for name in sc["sessions"]:
                text = (HERE / "sessions" / name).read_text(encoding="utf-8")
                path = Path(tmp) / sc["name"] / name
                path.write_text(text.replace(PLACEHOLDER, json.dumps(str(root))[1:-1]), encoding="utf-8")
                for _event, change in hook_events(path, root):
                    if change is not None:
                        change()
                        edits += 1
            for exp in sc["expected"]:
                rel, _, name = exp["anchor"].partition(":")
                if any(c in rel for c in "*?["):
                    assert list(root.glob(rel)), f"{sc['name']}: no file matches {rel}"
                    continue
                assert (root / rel).is_file(), f"{sc['name']}: {rel} does not exist"
                if name:
                    src = SourceFile((root / rel).read_text(encoding="utf-8"), for_path(rel))
                    names = {d.qualname for d in src.defs}
                    assert name in names, f"{sc['name']}: {name} is not a symbol of {rel} ({sorted(names)})"
            print(f"{sc['name']:28} {len(sc['sessions'])} session(s), {edits:2} edits applied, "
                  f"{len(sc['expected'])} expected")


if __name__ == "__main__":
    done = build()
    if "--check" in sys.argv:
        check(done)
