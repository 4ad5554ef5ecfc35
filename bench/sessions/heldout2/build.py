"""Writes the heldout2 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Held out: nobody tuning the extractor reads this folder.

Two repositories of its own under ``repos/``: ``clinic`` (Python, appointment booking for a small
clinic) and ``pixelq`` (TypeScript, an image-processing job queue). Sessions are written with the
``Session`` builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py`` after
changing a scenario (outputs are committed). ``python3 build.py --check`` also replays every
scenario on a fresh copy of its repository (every edit must apply) and checks, with tether's own
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

SET = "heldout2"
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


def pytest_out(passed: int, secs: str = "0.05") -> str:
    """What ``python -m pytest -q`` prints when everything passes."""
    return f"{'.' * passed:<{80 - 7}}[100%]\n{passed} passed in {secs}s"


def vitest_out(files: list[tuple[str, int]], ms: int = 412) -> str:
    body = "\n".join(f" ✓ {f} ({n} tests) {ms // 3}ms" for f, n in files)
    total = sum(n for _, n in files)
    return (f"\n RUN  v1.4.0 /home/dev/pixelq\n\n{body}\n\n Test Files  {len(files)} passed ({len(files)})\n"
            f"      Tests  {total} passed ({total})\n   Start at  10:42:17\n   Duration  {ms}ms\n")


# == clinic (Python) ==========================================================================================


@scenario("overlap-half-open", "clinic",
          "bug report, then the person states a hard rule unprompted (intervals are half-open) while the agent fixes it",
          [exp("invariant", "clinic/booking.py:overlaps", "half-open")])
def _overlap(files):
    s = Session("overlap-half-open", "2026-11-30T08:47:00.000Z", files)
    s.user("front desk cant book 9:15 for dr lamy when 9:00-9:15 is already taken. says slot taken. bug?")
    s.read("clinic/booking.py")
    s.say("Yes, that's a bug in `overlaps`:\n\n```python\nreturn a[0] <= b[1] and b[0] <= a[1]\n```\n\n"
          "With `<=` on both sides, an appointment that **ends** at 9:15 and one that **starts** at 9:15 are "
          "treated as overlapping, so back-to-back bookings are refused. `free_slots` in `slots.py` uses the same "
          "function, which is probably also why the 9:15 slot doesn't even show up as free in the UI.\n\n"
          "I'll switch both comparisons to strict `<`.")
    s.user("yes. and this is a rule, not just this bug: intervals are half-open, [start, end). touching is never "
           "an overlap. anywhere we compare appointments, slots, whatever. dont let anyone 'fix' it back")
    s.edit("clinic/booking.py",
           "def overlaps(a: tuple[datetime, datetime], b: tuple[datetime, datetime]) -> bool:\n"
           "    return a[0] <= b[1] and b[0] <= a[1]\n",
           "def overlaps(a: tuple[datetime, datetime], b: tuple[datetime, datetime]) -> bool:\n"
           "    \"\"\"Intervals are half-open, [start, end): touching intervals do not overlap.\"\"\"\n"
           "    return a[0] < b[1] and b[0] < a[1]\n")
    s.grep("<=|>=", ["clinic/booking.py", "clinic/slots.py", "clinic/reminders.py"],
           text="Let me check the other places that compare intervals.")
    s.read("clinic/calendar.py", 31, 3)
    s.say("`PractitionerCalendar.between` already uses strict comparisons (`a.start < end and start < a.end`), so "
          "it's consistent. The `<=` in `slots.py` is `start + step <= stop` — that's \"does the slot fit before "
          "closing\", which is correct for half-open intervals (a slot ending exactly at closing time is fine). "
          "`reminders.py` compares instants, not intervals.\n\nAdding a regression test:")
    s.edit("tests/test_booking.py",
           "def test_cancel_twice():",
           "def test_back_to_back_is_allowed():\n"
           "    svc = BookingService(PractitionerCalendar())\n"
           "    svc.book(\"dr-lamy\", \"p1\", at(9), at(9, 15))\n"
           "    svc.book(\"dr-lamy\", \"p2\", at(9, 15), at(9, 30))\n\n\n"
           "def test_cancel_twice():")
    s.bash("python -m pytest -q", pytest_out(3), description="Run the test suite")
    s.say("Done.\n\n- `overlaps` now uses strict `<`, with a docstring stating the half-open convention\n"
          "- `calendar.between` and `generate_slots` were already consistent with it\n"
          "- new test `test_back_to_back_is_allowed`\n\nAll 3 tests pass. Dr Lamy's 9:15 should be bookable now.")
    s.user("👍")
    return [s]


@scenario("reminder-evening", "clinic",
          "product person describes a complaint at length; agent lays out options in a table; the answer is one letter",
          [exp("decision", "clinic/reminders.py:reminder_time", "evening before",
               ["24 hours before", "per-practitioner setting"])])
def _reminder(files):
    s = Session("reminder-evening", "2026-11-24T13:02:00.000Z", files)
    s.user("Hi! So we've had a few patients mention that the reminder emails feel kind of random. If your "
           "appointment is Monday at 7:40 you get the reminder Sunday at 7:40 in the morning, which is a weird "
           "time to get an email from your doctor, and a couple of older patients said they read it Sunday "
           "morning and then forgot again by Monday. I'm not sure what the right behaviour is — can you look at "
           "how it works today and tell me what we could do? I'd rather understand the options before we change "
           "anything.")
    s.read("clinic/reminders.py")
    s.say("Today's behaviour is very simple: `reminder_time` returns `appt.start - 24h`, and the cron job calls "
          "`send_due`, which sends every reminder whose time has passed. So the reminder always lands exactly one "
          "day before to the minute — 7:40 on a Sunday for a Monday 7:40 appointment.\n\nHere are the options I "
          "see:\n\n| | When the email goes | Good | Less good |\n|---|---|---|---|\n"
          "| **A** | Keep it at 24 hours before | No change, predictable | Odd hours for early/late slots (what "
          "you're hearing) |\n"
          "| **B** | The evening before, at 18:00 clinic time | Same time every day, fresh in mind the next morning "
          "| Someone booking at 20:00 for the next morning gets it right away |\n"
          "| **C** | A per-practitioner setting (hours before) | Flexible | More config, and it doesn't fix the odd "
          "hours by itself |\n\n"
          "For Monday appointments, B sends on Sunday at 18:00, which seems fine for a small clinic. If you want "
          "to skip weekends that would be an extra rule on top of B.\n\nWhich would you like?")
    s.user("B", seconds=95)
    s.edit("clinic/reminders.py",
           "from datetime import datetime, timedelta\n",
           "from datetime import datetime, time, timedelta\n")
    s.edit("clinic/reminders.py",
           "from .models import Appointment, Patient\n",
           "from .models import Appointment, Patient\nfrom .slots import CLINIC_TZ\n\nREMINDER_AT = time(18, 0)\n")
    s.edit("clinic/reminders.py",
           "    \"\"\"When the reminder for ``appt`` goes out.\"\"\"\n    return appt.start - timedelta(hours=24)\n",
           "    \"\"\"When the reminder for ``appt`` goes out: 18:00 clinic time on the evening before.\"\"\"\n"
           "    local_day = appt.start.astimezone(CLINIC_TZ).date() - timedelta(days=1)\n"
           "    return datetime.combine(local_day, REMINDER_AT, tzinfo=CLINIC_TZ)\n")
    s.bash("python -c \"from datetime import datetime, timezone; from clinic.models import Appointment; "
           "from clinic.reminders import reminder_time; "
           "a = Appointment('x','dr','p', datetime(2026,11,30,6,40,tzinfo=timezone.utc), "
           "datetime(2026,11,30,6,55,tzinfo=timezone.utc)); print(reminder_time(a))\"",
           "2026-11-29 18:00:00+01:00", description="Check reminder time for a Monday 7:40 appointment")
    s.bash("python -m pytest -q", pytest_out(2), description="Run the test suite")
    s.say("Switched to option B.\n\n- `reminder_time` now returns 18:00 Brussels time on the day before the "
          "appointment (computed on the clinic's local date, so early-morning UTC times don't land on the wrong "
          "day)\n- `due_reminders` is unchanged: someone booking after 18:00 for the next day gets the reminder "
          "on the next cron run\n\nA Monday 7:40 appointment now gets its reminder Sunday 18:00. Tests pass.")
    s.user("lovely thank you!!")
    return [s]


@scenario("retention-anonymise", "clinic",
          "numbered options, picked by number with a reason; restated a week later in a session about other code",
          [exp("decision", "clinic/retention.py:purge_expired", "anonymise", ["hard delete", "archive"])])
def _retention(files):
    a = Session("retention-anonymise-1", "2026-11-12T10:20:00.000Z", files)
    a.user("accounting just told me the yearly report (appointments per practitioner per year) has holes in it "
           "for 2019. pretty sure it's the retention purge. can you check what purge_expired actually does")
    a.read("clinic/retention.py")
    a.say("It does remove more than the patient. For every patient whose last visit is older than `RETENTION` "
          "(6 years), `purge_expired`:\n\n1. deletes the `Patient` from `patients`\n2. walks the whole calendar "
          "and calls `calendar.remove()` on each of their appointments\n\nSo once a patient expires, their "
          "appointments vanish from the calendar too, and any report that counts appointments loses them — that "
          "matches 2019 holes, since those patients are now past 6 years.\n\nA few ways to handle it:\n\n"
          "1. **Hard delete** (what happens now) — simplest and the strictest reading of data minimisation, but "
          "it breaks the report.\n2. **Anonymise** — wipe the personal fields of the patient (name, email, phone, "
          "date of birth) and replace the `patient_id` on their appointments with a random token. Appointment "
          "rows stay, so counts per practitioner/year still work, but nothing points to a person.\n"
          "3. **Archive** — move the expired patients and appointments to a separate store with tighter access, "
          "and delete them from the live one. Keeps everything, but it's still personal data, so it doesn't "
          "really solve the retention question.\n\nI'd lean towards 2.")
    a.user("2. anonymise, don't delete. the appointments stay, the person goes. archive is just keeping the data "
           "somewhere else, legal won't like that")
    a.edit("clinic/retention.py",
           "from datetime import datetime, timedelta\n",
           "import uuid\nfrom datetime import datetime, timedelta\n")
    a.edit("clinic/retention.py",
           "def purge_expired(patients: dict[str, Patient], calendar: PractitionerCalendar, now: datetime) -> list[str]:\n"
           "    \"\"\"Removes patients whose last visit is older than the retention period.\"\"\"\n"
           "    gone = [pid for pid, p in patients.items() if expired(p, now)]\n"
           "    for pid in gone:\n"
           "        del patients[pid]\n"
           "        for appt in calendar.all():\n"
           "            if appt.patient_id == pid:\n"
           "                calendar.remove(appt.id)\n"
           "    return gone\n",
           "def purge_expired(patients: dict[str, Patient], calendar: PractitionerCalendar, now: datetime) -> list[str]:\n"
           "    \"\"\"Anonymises patients whose last visit is older than the retention period: the patient record\n"
           "    goes, their appointments stay under a random token (accounting counts them).\"\"\"\n"
           "    gone = [pid for pid, p in patients.items() if expired(p, now)]\n"
           "    for pid in gone:\n"
           "        del patients[pid]\n"
           "        token = \"anon-\" + uuid.uuid4().hex[:12]\n"
           "        for appt in calendar.all():\n"
           "            if appt.patient_id == pid:\n"
           "                appt.patient_id = token\n"
           "                appt.reason = \"\"\n"
           "    return gone\n")
    a.say("I also blank `appt.reason`, since the free-text reason (\"follow-up for knee surgery\") can identify "
          "someone on its own. Quick check:")
    a.bash("python - <<'PY'\nfrom datetime import datetime, timezone\nfrom clinic.calendar import PractitionerCalendar\n"
           "from clinic.booking import BookingService\nfrom clinic.models import Patient\nfrom clinic.retention import purge_expired\n"
           "cal = PractitionerCalendar(); svc = BookingService(cal)\n"
           "old = datetime(2019, 5, 6, 9, tzinfo=timezone.utc)\n"
           "svc.book('dr-lamy', 'p1', old, old.replace(minute=15), 'knee')\n"
           "pts = {'p1': Patient('p1', 'Jan Peeters', 'jan@example.org', last_visit=old)}\n"
           "print(purge_expired(pts, cal, datetime(2026, 11, 12, tzinfo=timezone.utc)), pts, [(x.patient_id, x.reason) for x in cal.all()])\nPY",
           "['p1'] {} [('anon-3f9c2a71be04', '')]", description="Check the anonymisation")
    a.bash("python -m pytest -q", pytest_out(2), description="Run the test suite")
    a.say("Done: expired patients are removed, their appointments are kept under an `anon-…` token with the "
          "reason cleared. The 2019 rows that were already deleted can't be brought back from the app, though — "
          "they'd have to come from a backup if accounting needs that year.")
    a.user("ok, ill ask ops about the backup")

    b = Session("retention-anonymise-2", "2026-11-19T15:41:00.000Z", a.files)
    b.user("need a way to run the retention purge from cron, something like `python -m clinic.retention "
           "--dry-run`. reminder since it came up in standup again: we anonymise, we never hard delete "
           "appointment rows, accounting reads them")
    b.read("clinic/retention.py")
    b.say("I'll add a small `main()` with a `--dry-run` flag that prints who would be anonymised. The store "
          "isn't wired in this module yet, so I'll take the loader as a function argument and keep the CLI "
          "itself thin.")
    b.edit("clinic/retention.py",
           "    return gone\n",
           "    return gone\n\n\n"
           "def main(argv: list[str] | None = None, load=None) -> int:\n"
           "    import argparse\n    from datetime import timezone\n\n"
           "    parser = argparse.ArgumentParser(prog=\"python -m clinic.retention\")\n"
           "    parser.add_argument(\"--dry-run\", action=\"store_true\", help=\"list expired patients, change nothing\")\n"
           "    args = parser.parse_args(argv)\n"
           "    patients, calendar = load()\n"
           "    now = datetime.now(timezone.utc)\n"
           "    if args.dry_run:\n"
           "        for pid, p in patients.items():\n"
           "            if expired(p, now):\n"
           "                print(f\"would anonymise {pid} (last visit {p.last_visit:%Y-%m-%d})\")\n"
           "        return 0\n"
           "    gone = purge_expired(patients, calendar, now)\n"
           "    print(f\"anonymised {len(gone)} patient(s)\")\n"
           "    return 0\n")
    b.bash("python -m pytest -q", pytest_out(2), description="Run the test suite")
    b.say("Added `main()` to `retention.py`:\n\n- `--dry-run` lists the patients that would be anonymised with "
          "their last visit date\n- without it, it calls `purge_expired`, which anonymises (appointment rows are "
          "kept)\n\nYou'll need to pass the real loader from wherever the cron entry point lives; I didn't "
          "guess at the storage layer.")
    b.user("fine")
    return [a, b]


@scenario("cancel-late-revert", "clinic",
          "product person asks for a block, the agent builds it, then she reverts after talking to a doctor: "
          "the final choice is the expected one, the block is rejected",
          [exp("decision", "clinic/booking.py:BookingService.cancel", "late cancellation", ["block online cancellation"])])
def _cancel(files):
    s = Session("cancel-late-revert", "2026-11-26T09:05:00.000Z", files)
    s.user("can we block online cancellation in the last 24h before an appointment? people cancel at 8am for a "
           "9am and the slot is just lost. they should call the desk instead")
    s.read("clinic/booking.py")
    s.say("Sure. I'll make `BookingService.cancel` refuse when the appointment starts within 24 hours; the API "
          "already turns a `BookingError` into a 409, so the front end gets a clear error it can show (\"please "
          "call the clinic\").")
    s.edit("clinic/booking.py",
           "from datetime import datetime, timezone\n",
           "from datetime import datetime, timedelta, timezone\n")
    s.edit("clinic/booking.py",
           "                if appt.status != \"booked\":\n"
           "                    raise BookingError(f\"appointment {appt_id} is {appt.status}\")\n",
           "                if appt.status != \"booked\":\n"
           "                    raise BookingError(f\"appointment {appt_id} is {appt.status}\")\n"
           "                if appt.start - now < timedelta(hours=24):\n"
           "                    raise BookingError(\"cancellations within 24 hours must be made by phone\")\n")
    s.bash("python -m pytest -q", "F.\n=================================== FAILURES ===================================\n"
           "_______________________________ test_cancel_twice ______________________________\n\n"
           "    def test_cancel_twice():\n        svc = BookingService(PractitionerCalendar())\n"
           "        a = svc.book(\"dr-lamy\", \"p1\", at(9), at(9, 15))\n>       svc.cancel(a.id)\n\n"
           "tests/test_booking.py:22: \n_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n"
           "E       clinic.booking.BookingError: cancellations within 24 hours must be made by phone\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_booking.py::test_cancel_twice - clinic.booking.BookingError: cancellations within 24...\n"
           "1 failed, 1 passed in 0.07s", fail=True, description="Run the test suite")
    s.say("The existing test books an appointment in March 2026, which is in the past relative to `now`, so it "
          "now trips the 24h rule. I'll pass an explicit `now` in the test.")
    s.edit("tests/test_booking.py",
           "    svc.cancel(a.id)\n    with pytest.raises(BookingError):\n        svc.cancel(a.id)\n",
           "    svc.cancel(a.id, now=at(7) - timedelta(days=2))\n    with pytest.raises(BookingError):\n"
           "        svc.cancel(a.id, now=at(7) - timedelta(days=2))\n")
    s.edit("tests/test_booking.py",
           "from datetime import datetime, timezone\n",
           "from datetime import datetime, timedelta, timezone\n")
    s.bash("python -m pytest -q", pytest_out(2), description="Run the test suite")
    s.say("Online cancellation is now refused within 24h of the appointment (409 with \"cancellations within 24 "
          "hours must be made by phone\"). Tests pass.")
    s.user("hmm. ok so I mentioned this to Dr Lamy over lunch and she thinks it'll backfire — if the button is "
           "greyed out people don't call, they just don't show up, and a no-show is worse than a late cancel "
           "because at least with a cancel we can offer the slot to the waiting list. So let's undo the block. "
           "Let them cancel whenever, but flag it as a late cancellation so the front desk sees it in the "
           "morning list. Sorry for the back and forth!", seconds=1500)
    s.say("No problem — that makes sense. Plan:\n\n1. remove the 24h refusal from `cancel`\n2. add a "
          "`late_cancel` flag on `Appointment`, set when the cancellation comes in less than 24h before the start\n"
          "3. the morning list can filter on it (I haven't found that list in this repo, so I'll just expose the "
          "flag)")
    s.edit("clinic/models.py",
           "    reminder_sent: bool = False\n",
           "    reminder_sent: bool = False\n    late_cancel: bool = False\n")
    s.edit("clinic/booking.py",
           "                if appt.start - now < timedelta(hours=24):\n"
           "                    raise BookingError(\"cancellations within 24 hours must be made by phone\")\n"
           "                appt.status = \"cancelled\"\n",
           "                appt.status = \"cancelled\"\n"
           "                # late cancellations are allowed (a blocked button means a no-show), only flagged\n"
           "                appt.late_cancel = appt.start - now < LATE_CANCEL\n")
    s.edit("clinic/booking.py",
           "class BookingError(Exception):\n",
           "LATE_CANCEL = timedelta(hours=24)\n\n\nclass BookingError(Exception):\n")
    s.edit("tests/test_booking.py",
           "def test_cancel_twice():",
           "def test_late_cancel_is_flagged_not_refused():\n"
           "    svc = BookingService(PractitionerCalendar())\n"
           "    a = svc.book(\"dr-lamy\", \"p1\", at(9), at(9, 15))\n"
           "    assert svc.cancel(a.id, now=at(8)).late_cancel\n\n\n"
           "def test_cancel_twice():")
    s.bash("python -m pytest -q", pytest_out(3), description="Run the test suite")
    s.say("Reverted the block and added the flag:\n\n- `cancel` always succeeds for a booked appointment\n- "
          "`Appointment.late_cancel` is `True` when it was cancelled less than 24h before the start "
          "(`LATE_CANCEL`)\n- new test `test_late_cancel_is_flagged_not_refused`\n\n3 passed.")
    return [s]


@scenario("naive-datetime-crash", "clinic",
          "pasted stack trace from the booking form, cause found, fixed where the API parses timestamps",
          [exp("gotcha", "clinic/api.py:parse_instant", "clinic local time")])
def _naive(files):
    s = Session("naive-datetime-crash", "2026-12-01T16:12:00.000Z", files)
    s.user("new booking form on the website 500s on submit. log:\n\n```\nTraceback (most recent call last):\n"
           "  File \"/srv/clinic/server.py\", line 41, in handle\n    resp = router.dispatch(req)\n"
           "  File \"/srv/clinic/clinic/router.py\", line 58, in dispatch\n    return handler(req)\n"
           "  File \"/srv/clinic/clinic/api.py\", line 30, in create_appointment\n"
           "    appt = service.book(data[\"practitioner_id\"], data[\"patient_id\"], datetime.fromisoformat(data[\"start\"]),\n"
           "  File \"/srv/clinic/clinic/booking.py\", line 26, in book\n"
           "    if overlaps((start, end), (other.start, other.end)):\n"
           "  File \"/srv/clinic/clinic/booking.py\", line 15, in overlaps\n"
           "    return a[0] <= b[1] and b[0] <= a[1]\n"
           "TypeError: can't compare offset-naive and offset-aware datetimes\n```\n\n"
           "request body was {\"practitioner_id\": \"dr-lamy\", \"patient_id\": \"p-2291\", \"start\": "
           "\"2026-12-03T10:30\", \"end\": \"2026-12-03T10:45\"}")
    s.read("clinic/api.py")
    s.say("The form sends `\"2026-12-03T10:30\"` with no offset, so `datetime.fromisoformat` returns a *naive* "
          "datetime. Every appointment already in the calendar is timezone-aware (UTC), and Python refuses to "
          "compare the two — hence the `TypeError` in `overlaps` as soon as the practitioner has any existing "
          "booking. (With an empty calendar it would \"work\" and store a naive appointment, which would break "
          "later instead.)\n\nTwo ways out: reject timestamps without an offset with a 400, or interpret them. "
          "Is the form sending the clinic's local wall time?")
    s.user("yes, its our form, always brussels wall time w/o offset. old app sends Z. support both")
    s.say("Then the fix is: a timestamp without an offset is clinic local time (Europe/Brussels); convert "
          "everything to UTC before it reaches the booking service. I'll put that in one `parse_instant` helper "
          "in `api.py`.")
    s.edit("clinic/api.py",
           "from .slots import free_slots\n",
           "from .slots import CLINIC_TZ, free_slots\n")
    s.edit("clinic/api.py",
           "@router.route(\"POST\", \"/appointments\")\n",
           "def parse_instant(text: str) -> datetime:\n"
           "    \"\"\"An ISO timestamp from a client, in UTC. The website's form sends clinic wall time without an\n"
           "    offset; comparing that naive value with stored (aware) appointments raises TypeError.\"\"\"\n"
           "    value = datetime.fromisoformat(text)\n"
           "    if value.tzinfo is None:\n"
           "        value = value.replace(tzinfo=CLINIC_TZ)\n"
           "    return value.astimezone(timezone.utc)\n\n\n"
           "@router.route(\"POST\", \"/appointments\")\n")
    s.edit("clinic/api.py",
           "        appt = service.book(data[\"practitioner_id\"], data[\"patient_id\"], datetime.fromisoformat(data[\"start\"]),\n"
           "                            datetime.fromisoformat(data[\"end\"]), data.get(\"reason\", \"\"))\n",
           "        appt = service.book(data[\"practitioner_id\"], data[\"patient_id\"], parse_instant(data[\"start\"]),\n"
           "                            parse_instant(data[\"end\"]), data.get(\"reason\", \"\"))\n")
    s.edit("clinic/api.py",
           "from datetime import date, datetime\n",
           "from datetime import date, datetime, timezone\n")
    s.bash("python - <<'PY'\nfrom clinic.api import parse_instant\nprint(parse_instant('2026-12-03T10:30'))\n"
           "print(parse_instant('2026-12-03T09:30:00Z'))\nPY",
           "2026-12-03 09:30:00+00:00\n2026-12-03 09:30:00+00:00", description="Check both timestamp forms")
    s.bash("python -m pytest -q", pytest_out(2), description="Run the test suite")
    s.say("Fixed.\n\n**Cause:** the form's timestamps have no offset → naive datetimes → `TypeError` when compared "
          "with the stored, aware appointments.\n\n**Fix:** `parse_instant` in `api.py` treats an offset-less "
          "timestamp as Brussels wall time and converts everything to UTC; `create_appointment` uses it for "
          "`start` and `end`. `...Z` from the old app still works (both give 09:30 UTC above).")
    return [s]


@scenario("ics-outlook-workaround", "clinic",
          "agent explains a deliberate workaround for Outlook (a header the spec does not need) and why it must stay",
          [exp("workaround", "clinic/mailer.py:build_reminder", "method=PUBLISH")])
def _ics(files):
    s = Session("ics-outlook-workaround", "2026-11-17T11:30:00.000Z", files)
    s.user("marie at reception says patients on outlook see the calendar file as a weird text attachment "
           "(rendezvous.ics, 1kb) instead of the 'add to calendar' thing. gmail and apple mail are fine. any idea?")
    s.read("clinic/mailer.py")
    s.say("I think I know what this is. The `.ics` we attach is valid iCalendar, and Gmail/Apple Mail recognise "
          "it from the `text/calendar` type alone. Outlook is pickier: it only renders the calendar card when the "
          "MIME part says what kind of calendar message it is — a `method` parameter on the content type, "
          "`text/calendar; method=PUBLISH`, with a matching `METHOD:PUBLISH` line inside the `VCALENDAR`. "
          "Without it, Outlook falls back to showing a plain attachment.\n\n`PUBLISH` (rather than `REQUEST`) is "
          "the right one for us: `REQUEST` is a meeting invitation and Outlook would show Accept/Decline buttons "
          "and try to send replies to `rendezvous@…`.")
    s.edit("clinic/mailer.py",
           "        \"BEGIN:VCALENDAR\", \"VERSION:2.0\", \"PRODID:-//clinic//booking//EN\",\n",
           "        \"BEGIN:VCALENDAR\", \"VERSION:2.0\", \"PRODID:-//clinic//booking//EN\", \"METHOD:PUBLISH\",\n")
    s.edit("clinic/mailer.py",
           "    msg.add_attachment(_ics(appt), subtype=\"calendar\", filename=\"rendezvous.ics\")\n",
           "    # Outlook shows the .ics as a plain attachment unless the part carries method=PUBLISH (Gmail and\n"
           "    # Apple Mail don't need it). Not REQUEST: that would make it a meeting invite with RSVP buttons.\n"
           "    msg.add_attachment(_ics(appt), subtype=\"calendar\", filename=\"rendezvous.ics\",\n"
           "                       params={\"method\": \"PUBLISH\"})\n")
    s.bash("python - <<'PY'\nfrom datetime import datetime, timezone\nfrom clinic.mailer import build_reminder\n"
           "from clinic.models import Appointment, Patient\n"
           "a = Appointment('a1', 'dr-lamy', 'p1', datetime(2026,11,20,9,tzinfo=timezone.utc), datetime(2026,11,20,9,15,tzinfo=timezone.utc))\n"
           "m = build_reminder(a, Patient('p1', 'Anne', 'anne@example.org'))\n"
           "print([p.get('Content-Type') for p in m.iter_attachments()])\nPY",
           "['text/calendar; charset=\"utf-8\"; method=\"PUBLISH\"']", description="Inspect the attachment header")
    s.say("The attachment now goes out as `text/calendar; method=\"PUBLISH\"` and the body has "
          "`METHOD:PUBLISH`.\n\n### Why this is a workaround\n\n- Nothing in iCalendar requires `METHOD` for a "
          "file that's just attached to an email — it's Outlook's heuristic for deciding whether to render it.\n"
          "- So both lines look redundant to anyone reading the code, and a future cleanup could easily drop "
          "them. I left a comment at the `add_attachment` call saying why it's there.\n- If Outlook ever stops "
          "needing it, removing it is harmless for the other clients.\n\nCould you ask Marie to check with the "
          "next reminder that goes to an Outlook address?")
    s.user("will do, ty")
    return [s]


@scenario("explain-calendar", "clinic",
          "someone who only asks questions; long explanations full of 'must' and 'should', a hypothetical; nothing decided",
          [])
def _explain(files):
    s = Session("explain-calendar", "2026-11-20T14:03:00.000Z", files)
    s.user("new here, trying to understand the booking flow. how does a booking end up in a practitioner's "
           "calendar? and do cancelled appointments still block the slot?")
    s.subagent("Find where appointments are created, stored and cancelled in this repository. List the functions "
               "involved and the files they live in.",
               "Appointments flow through three modules:\n\n- `clinic/api.py`: `create_appointment` (POST "
               "/appointments) and `cancel_appointment` (DELETE /appointments/{aid}) call the booking service\n"
               "- `clinic/booking.py`: `BookingService.book` checks overlaps against `calendar.active()` and adds "
               "the appointment; `BookingService.cancel` sets the status to cancelled\n- `clinic/calendar.py`: "
               "`PractitionerCalendar` stores appointments per practitioner, sorted by start\n\n`calendar.remove` "
               "is only called from `clinic/retention.py`.")
    s.read("clinic/calendar.py")
    s.read("clinic/booking.py")
    s.say("Here's the flow:\n\n1. `POST /appointments` (`api.create_appointment`) parses the body and calls "
          "`BookingService.book`.\n2. `book` checks that the appointment ends after it starts — it **must**, "
          "otherwise it raises `BookingError`.\n3. It then compares the new interval with every *active* "
          "appointment of that practitioner using `overlaps`; any overlap raises `BookingError`, which the API "
          "returns as a 409.\n4. Otherwise it creates an `Appointment` and `PractitionerCalendar.add` appends it "
          "to the practitioner's list, kept sorted by start time.\n\n**Cancelled appointments don't block "
          "anything.** `cancel` only sets `status = \"cancelled\"`; it doesn't remove the appointment. But "
          "`PractitionerCalendar.active()` filters on `status == \"booked\"`, and both `book` and `free_slots` "
          "(via the API) only look at active ones. So the slot is free again as soon as it's cancelled.")
    s.user("why doesn't cancel just call calendar.remove then? seems simpler")
    s.grep("\\.remove\\(", ["clinic/calendar.py", "clinic/retention.py"])
    s.say("Keeping the row keeps the history: a cancelled appointment is still something that happened (the "
          "reminder logic skips it, and reports can count cancellations). The only caller of `remove()` is "
          "`retention.purge_expired`, which deletes appointments of patients past the retention period.\n\n"
          "In general you should think of `remove` as \"this appointment never existed\" and `cancel` as \"it "
          "existed and was called off\".")
    s.user("makes sense. and if we ever opened a second clinic, would the calendar need a clinic id or would "
           "practitioners just be different?")
    s.say("It depends on whether practitioners work at both sites. If each practitioner belongs to exactly one "
          "clinic, nothing in `PractitionerCalendar` would need to change — it's keyed by practitioner. If "
          "someone works Mondays at one site and Thursdays at the other, you'd want the site on the opening "
          "hours (`Practitioner.hours`) and probably on the appointment, so the reminder can say where to go. "
          "The timezone would also have to come from the site instead of the `CLINIC_TZ` constant in "
          "`slots.py` — but that only matters if the second clinic were in another country.")
    s.user("ok cool. thanks, that's all for now")
    s.say("You're welcome — shout if anything else in the codebase is unclear.")
    return [s]


@scenario("smtp-env-typo", "clinic",
          "debugging session: the cause is a typo in the server's env file; the agent floats a code change nobody takes",
          [])
def _smtp(files):
    s = Session("smtp-env-typo", "2026-11-27T07:58:00.000Z", files)
    s.meta("Caveat: The messages below were generated by the user while running local commands. DO NOT respond "
           "to these messages or otherwise consider them in your response unless the user explicitly asks you to.")
    s.command("/model", "Set model to \u001b[1mDefault (Sonnet 4.5)\u001b[22m")
    s.user("reminders aren't going out on staging since the move to the new box. nothing in the logs. wtf")
    s.read("clinic/mailer.py")
    s.say("`Mailer` reads `CLINIC_SMTP_HOST` and `CLINIC_SMTP_PORT` and falls back to `localhost:25` when "
          "they're missing. If the new box has no local MTA, `smtplib` would raise `ConnectionRefusedError` — "
          "unless something *is* listening on 25 and silently swallowing mail. Let me look at the environment.")
    s.bash("env | grep -i clinic", "CLINIC_MAIL_FROM=rendezvous@staging.cabinet-sainte-anne.be\n"
           "CLINIC_SMPT_HOST=smtp.staging.cabinet-sainte-anne.be\nCLINIC_SMTP_PORT=587",
           description="Show clinic environment variables")
    s.bash("ss -ltnp | grep ':25 '", "LISTEN 0      100        127.0.0.1:25        0.0.0.0:*    users:((\"master\",pid=812,fd=13))",
           description="Check what listens on port 25")
    s.say("Found it:\n\n- The env has `CLINIC_SMPT_HOST` (**SMPT**), not `CLINIC_SMTP_HOST`, so `Mailer` falls "
          "back to `localhost`.\n- The new box runs a local Postfix on `127.0.0.1:25` (the `master` process), so "
          "the connection succeeds and Postfix accepts the mail — and then presumably can't relay it, which is "
          "why there's no error on our side. Port 587 is read correctly, but `localhost:587` isn't what you "
          "want either.\n\nFix the variable name in the staging env file and restart the worker. `mailq` on the "
          "box will show the stuck reminders; you can flush or delete them.\n\nIf you'd like, I could also make "
          "`Mailer` log a warning when it falls back to localhost, so this kind of thing is visible next time.")
    s.user("nah just the env. fixed it, mailq had 212 stuck, flushed. thx")
    return [s]


# == pixelq (TypeScript) ======================================================================================


@scenario("retry-full-jitter", "pixelq",
          "terse request, agent lays out three approaches in prose and recommends one, answer 'go with that'",
          [exp("decision", "src/retry.ts:nextDelay", "full jitter", ["fixed delay", "dead-letter"])])
def _retry(files):
    s = Session("retry-full-jitter", "2026-11-18T10:40:00.000Z", files)
    s.user("retries hammer storage when it throttles us (SlowDown). every job retries after exactly 1s, all at "
           "once. fix nextDelay")
    s.read("src/retry.ts")
    s.read("src/queue.ts", 38, 22)
    s.say("Right — `nextDelay` returns `baseDelayMs` (1000 ms) for every attempt, so when the store throttles, "
          "every in-flight job retries in lockstep one second later and gets throttled again. There are three "
          "reasonable ways to go.\n\nThe smallest change is to keep a **fixed delay** but make it longer; that "
          "spreads nothing out, it only slows the stampede down, so I don't think it solves the problem.\n\n"
          "The usual answer is **exponential backoff with full jitter**: the delay for attempt *n* is a random "
          "value between 0 and `min(cap, base · 2ⁿ)`. The randomness spreads the retries out and the exponent "
          "backs off when the store stays unhappy. This is what AWS recommends for their own SDKs, and it fits in "
          "`nextDelay` without touching the queue.\n\nThe heavier option is a **dead-letter queue**: after the "
          "first failure the job is parked, and a separate scheduler re-drives parked jobs at a controlled rate. "
          "That gives the most control, but it's a new moving part (and storage for parked jobs) for a problem "
          "that backoff handles well.\n\nI'd go with exponential backoff with full jitter, capped at 30 s, and "
          "raise `maxAttempts` from 3 to 5 so a short throttling episode doesn't fail jobs.")
    s.user("go with that")
    s.edit("src/retry.ts",
           "export interface RetryPolicy {\n  maxAttempts: number;\n  baseDelayMs: number;\n}\n\n"
           "export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 1000 };\n\n"
           "export function nextDelay(attempt: number, policy: RetryPolicy = DEFAULT_RETRY): number | null {\n"
           "  if (attempt >= policy.maxAttempts) return null;\n  return policy.baseDelayMs;\n}\n",
           "export interface RetryPolicy {\n  maxAttempts: number;\n  baseDelayMs: number;\n  maxDelayMs: number;\n}\n\n"
           "export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000 };\n\n"
           "// Exponential backoff with full jitter: a random delay in [0, min(cap, base * 2^attempt)), so jobs\n"
           "// throttled together don't retry together.\n"
           "export function nextDelay(\n  attempt: number,\n  policy: RetryPolicy = DEFAULT_RETRY,\n"
           "  random: () => number = Math.random,\n): number | null {\n"
           "  if (attempt >= policy.maxAttempts) return null;\n"
           "  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);\n"
           "  return Math.floor(random() * ceiling);\n}\n")
    s.bash("npx vitest run", "\n RUN  v1.4.0 /home/dev/pixelq\n\n ❯ test/retry.test.ts (2 tests | 1 failed) 9ms\n"
           "   ❯ test/retry.test.ts > nextDelay > waits before a retry\n"
           "     → expected 0 to be greater than 0\n\n"
           "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n FAIL  test/retry.test.ts > nextDelay > waits before a retry\n"
           "AssertionError: expected 0 to be greater than 0\n ❯ test/retry.test.ts:9:26\n\n"
           " Test Files  1 failed (1)\n      Tests  1 failed | 1 passed (2)\n", fail=True,
           description="Run the tests")
    s.say("That test is now flaky by design: with full jitter a delay of 0 is a legitimate draw (here "
          "`Math.random()` returned something below 1/2000). I'll make the tests deterministic by passing the "
          "random source, and check the ceiling instead.")
    s.edit("test/retry.test.ts",
           "  it(\"waits before a retry\", () => {\n    expect(nextDelay(1)).toBeGreaterThan(0);\n  });\n",
           "  it(\"draws the delay below an exponential ceiling\", () => {\n"
           "    expect(nextDelay(1, DEFAULT_RETRY, () => 0.999)).toBe(1998);\n"
           "    expect(nextDelay(3, DEFAULT_RETRY, () => 0.5)).toBe(4000);\n  });\n"
           "  it(\"caps the ceiling\", () => {\n"
           "    expect(nextDelay(4, { ...DEFAULT_RETRY, maxAttempts: 10, baseDelayMs: 5000 }, () => 0.999)).toBe(29970);\n"
           "  });\n")
    s.bash("npx vitest run", vitest_out([("test/retry.test.ts", 3)]), description="Run the tests")
    s.say("Done:\n\n- `nextDelay`: exponential backoff with full jitter, ceiling `min(30 s, 1 s · 2^attempt)`\n"
          "- `DEFAULT_RETRY.maxAttempts` 3 → 5, new `maxDelayMs`\n- optional `random` parameter so tests are "
          "deterministic\n\nThe queue needs no change: it already emits `retrying` with the chosen `delayMs`.")
    return [s]


@scenario("upload-magic-bytes", "pixelq",
          "person corrects the agent's first edit ('no — it must …'), then sets a scope limit in the same session",
          [exp("invariant", "src/validate.ts:detectFormat", "magic bytes", ["extension", "content-type"]),
           exp("boundary", "src/validate.ts:validateUpload", "animated gifs")])
def _magic(files):
    s = Session("upload-magic-bytes", "2026-11-21T15:25:00.000Z", files)
    s.user("someone uploaded a photo.jpg that was actually a HEIC straight off an iphone, validation let it "
           "through and sharp blew up in the worker 3 times (retries). make upload validation stricter")
    s.read("src/validate.ts")
    s.say("`detectFormat` only looks at the file name's extension, so `photo.jpg` is accepted as JPEG whatever "
          "its content. I'll cross-check the extension against the `Content-Type` the client sent, and reject "
          "the upload when they disagree.")
    s.edit("src/validate.ts",
           "export function detectFormat(upload: Upload): Format {\n",
           "const MIME: Record<Format, string> = { jpeg: \"image/jpeg\", png: \"image/png\", webp: \"image/webp\", gif: \"image/gif\" };\n\n"
           "export function detectFormat(upload: Upload): Format {\n")
    s.user("no — it must look at the magic bytes. never trust the extension or the content-type, both come "
           "straight from the client, an iphone will happily send image/jpeg for a heic. sniff the first bytes "
           "of the file, nothing else decides the format", seconds=40)
    s.say("Understood — the format is decided by the file's signature only. I'll drop the MIME table and "
          "rewrite `detectFormat` to sniff the first bytes:\n\n- JPEG: `FF D8 FF`\n- PNG: `89 50 4E 47 0D 0A 1A 0A`"
          "\n- WebP: `RIFF` …`WEBP` (bytes 0–3 and 8–11)\n- GIF: `GIF87a` / `GIF89a`\n\nAnything else (HEIC "
          "included) is `unsupported`.")
    s.edit("src/validate.ts",
           "const MIME: Record<Format, string> = { jpeg: \"image/jpeg\", png: \"image/png\", webp: \"image/webp\", gif: \"image/gif\" };\n\n"
           "export function detectFormat(upload: Upload): Format {\n"
           "  const ext = upload.filename.split(\".\").pop()?.toLowerCase();\n"
           "  switch (ext) {\n    case \"jpg\":\n    case \"jpeg\":\n      return \"jpeg\";\n    case \"png\":\n"
           "      return \"png\";\n    case \"webp\":\n      return \"webp\";\n    case \"gif\":\n      return \"gif\";\n"
           "    default:\n      throw new UploadError(`unsupported file type: ${upload.filename}`, \"unsupported\");\n  }\n}\n",
           "const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));\n\n"
           "// The format comes from the file's signature only: the name and the Content-Type are the client's word.\n"
           "export function detectFormat(upload: Upload): Format {\n"
           "  const b = upload.bytes;\n"
           "  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return \"jpeg\";\n"
           "  if (ascii(b, 1, 4) === \"PNG\" && b[0] === 0x89 && b[4] === 0x0d && b[5] === 0x0a) return \"png\";\n"
           "  if (ascii(b, 0, 4) === \"RIFF\" && ascii(b, 8, 12) === \"WEBP\") return \"webp\";\n"
           "  if (ascii(b, 0, 6) === \"GIF87a\" || ascii(b, 0, 6) === \"GIF89a\") return \"gif\";\n"
           "  throw new UploadError(`unsupported image format: ${upload.filename}`, \"unsupported\");\n}\n")
    s.write("test/validate.test.ts",
            "import { describe, expect, it } from \"vitest\";\n"
            "import { detectFormat, UploadError } from \"../src/validate.js\";\n\n"
            "const up = (filename: string, bytes: number[] | string, contentType = \"image/jpeg\") => ({\n"
            "  filename, contentType,\n"
            "  bytes: typeof bytes === \"string\" ? new TextEncoder().encode(bytes) : new Uint8Array(bytes),\n});\n\n"
            "describe(\"detectFormat\", () => {\n"
            "  it(\"ignores the name and the content type\", () => {\n"
            "    expect(detectFormat(up(\"x.gif\", [0xff, 0xd8, 0xff, 0xe0], \"image/gif\"))).toBe(\"jpeg\");\n  });\n"
            "  it(\"rejects HEIC named .jpg\", () => {\n"
            "    expect(() => detectFormat(up(\"photo.jpg\", \"\\0\\0\\0\\x18ftypheic\"))).toThrow(UploadError);\n  });\n"
            "});\n")
    s.bash("npx vitest run", vitest_out([("test/retry.test.ts", 2), ("test/validate.test.ts", 2)]),
           description="Run the tests")
    s.user("good. and gifs: animated gifs, leave them out for now, reject at upload. sharp only takes the "
           "first frame anyway and people think it's broken. we'll do them properly when product asks")
    s.say("OK — static GIFs stay accepted, animated ones are rejected in `validateUpload`. A GIF is animated "
          "when it has more than one image; counting image descriptors properly means walking the blocks, so "
          "I'll check for the `NETSCAPE2.0` looping extension, which every animated GIF in practice carries.")
    s.edit("src/validate.ts",
           "  return detectFormat(upload);\n}\n",
           "  const format = detectFormat(upload);\n"
           "  if (format === \"gif\" && isAnimatedGif(upload.bytes)) {\n"
           "    throw new UploadError(\"animated GIFs are not supported yet\", \"unsupported\");\n  }\n"
           "  return format;\n}\n\n"
           "function isAnimatedGif(b: Uint8Array): boolean {\n"
           "  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).includes(\"NETSCAPE2.0\", 0, \"latin1\");\n}\n")
    s.bash("npx vitest run && npx tsc --noEmit", vitest_out([("test/retry.test.ts", 2), ("test/validate.test.ts", 2)]),
           description="Run the tests and type-check")
    s.say("Summary:\n\n- `detectFormat` decides from the file signature only (JPEG, PNG, WebP, GIF); the "
          "extension and `Content-Type` are ignored\n- `validateUpload` rejects animated GIFs (`unsupported`, "
          "\"animated GIFs are not supported yet\")\n- new `test/validate.test.ts`\n\nTests and `tsc` pass.")
    return [s]


@scenario("content-addressed-keys", "pixelq",
          "options A/B answered 'a' with a reason; restated days later while a second decision (preset fingerprint "
          "in derived keys) is taken on the agent's proposal",
          [exp("decision", "src/storage.ts:originalKey", "content-addressed", ["lookup index", "job ids"]),
           exp("decision", "src/storage.ts:derivedKey", "fingerprint")])
def _keys(files):
    a = Session("content-addressed-keys-1", "2026-11-10T09:12:00.000Z", files)
    a.user("So the shop team re-uploads the same product photo again and again — every time they edit the "
           "listing text the admin UI re-sends the images. We looked at the bucket yesterday and some photos are "
           "in there 30+ times, originals and every preset, each under a different job id. Storage bill is "
           "creeping up and it's silly work for the workers too. Can we dedupe this somehow? Don't want anything "
           "fancy.")
    a.read("src/storage.ts")
    a.read("src/queue.ts", 54, 18)
    a.say("Keys are built from the job id today (`originals/<jobId>/<filename>`, `derived/<jobId>/<preset>.<ext>`), "
          "so identical bytes always land under new keys. Two ways to dedupe:\n\n"
          "**A. Content-addressed keys** — key everything by the SHA-256 of the original bytes: "
          "`originals/<sha>` and `derived/<sha>/<preset>.<ext>`. The same photo always maps to the same keys, so "
          "a re-upload overwrites instead of adding copies. No extra state.\n\n"
          "**B. Keep job-id keys plus a lookup index** — store `sha → jobId` somewhere (Redis, a table) and "
          "return the earlier job's URLs when the hash is known. Old keys stay as they are, but the index has to "
          "be kept in sync with the bucket (deletes, failed jobs).\n\nA is simpler; the only thing to know is "
          "that two users uploading the same image share the object, which is fine for product photos.")
    a.user("a, content-addressed. no index to keep in sync")
    a.edit("src/storage.ts",
           "export function originalKey(jobId: string, filename: string): string {\n"
           "  return `originals/${jobId}/${filename}`;\n}\n",
           "// Keys are content-addressed (SHA-256 of the original bytes): a re-upload of the same image maps to\n"
           "// the same objects instead of new copies.\n"
           "export function contentHash(bytes: Uint8Array): string {\n"
           "  return createHash(\"sha256\").update(bytes).digest(\"hex\");\n}\n\n"
           "export function originalKey(hash: string): string {\n  return `originals/${hash}`;\n}\n\n"
           "export function derivedKey(hash: string, preset: { name: string; format: string }): string {\n"
           "  return `derived/${hash}/${preset.name}.${preset.format}`;\n}\n")
    a.edit("src/queue.ts",
           "import { originalKey, type Storage } from \"./storage.js\";\n",
           "import { contentHash, derivedKey, originalKey, type Storage } from \"./storage.js\";\n")
    a.edit("src/queue.ts",
           "    const key = originalKey(job.id, job.upload.filename);\n",
           "    const hash = contentHash(job.upload.bytes);\n    const key = originalKey(hash);\n")
    a.edit("src/queue.ts",
           "      const outKey = `derived/${job.id}/${name}.${preset.format}`;\n",
           "      const outKey = derivedKey(hash, preset);\n")
    a.bash("npx tsc --noEmit && npx vitest run", vitest_out([("test/retry.test.ts", 2)]),
           description="Type-check and run the tests")
    a.say("Done — keys are now content-addressed:\n\n- `contentHash()` (SHA-256 hex), `originalKey(hash)` → "
          "`originals/<sha>`, new `derivedKey(hash, preset)` → `derived/<sha>/<preset>.<ext>`\n- `JobQueue` "
          "hashes the upload once and uses both\n\nExisting objects under job-id keys are untouched; you can "
          "delete them with a bucket lifecycle rule once nothing links to them. Note the workers still resize a "
          "re-uploaded image; only the storage is deduplicated.")
    a.user("good enough for now")

    b = Session("content-addressed-keys-2", "2026-11-16T14:55:00.000Z", a.files)
    b.user("changed thumb quality 70 -> 60 last week to save bytes and the thumbnails in the app are still the "
           "old ones. cdn?")
    b.read("src/presets.ts")
    b.read("src/storage.ts", 52)
    b.say("Partly the CDN, but the root cause is the key. A derived key is `derived/<sha>/thumb.webp`: it "
          "depends on the image and the preset *name*, not on the preset's settings. So after the quality "
          "change:\n\n- images uploaded before never get re-processed, and their URL still points at the q70 "
          "file\n- a re-upload overwrites the object under the **same URL**, which the CDN has cached (these "
          "URLs are served with a long max-age)\n\nI'd add a short fingerprint of the preset's settings to the "
          "derived key, e.g. `derived/<sha>/thumb-3fa2c1d0.webp`, computed from width/height/fit/format/quality. "
          "Changing a preset then produces new keys, so new URLs and no stale CDN entries; old URLs keep working "
          "until they're cleaned up. Old images still need a re-run to get the new settings — that part is a "
          "backfill job, not a key change.")
    b.user("ok do the fingerprint. but keys stay content-addressed, sha of the original first — someone in "
           "yesterday's PR wanted job ids back in the paths for debugging, no.")
    b.edit("src/storage.ts",
           "export function derivedKey(hash: string, preset: { name: string; format: string }): string {\n"
           "  return `derived/${hash}/${preset.name}.${preset.format}`;\n}\n",
           "// The fingerprint of the preset's settings is part of the key: changing a preset gives new URLs, so\n"
           "// the CDN never serves an image made with the old settings.\n"
           "export function derivedKey(hash: string, preset: { name: string; format: string }): string {\n"
           "  const fingerprint = createHash(\"sha256\").update(JSON.stringify(preset)).digest(\"hex\").slice(0, 8);\n"
           "  return `derived/${hash}/${preset.name}-${fingerprint}.${preset.format}`;\n}\n")
    b.bash("npx tsc --noEmit && npx vitest run", vitest_out([("test/retry.test.ts", 2)]),
           description="Type-check and run the tests")
    b.bash("npx tsx -e 'import {derivedKey} from \"./src/storage.ts\"; import {PRESETS} from \"./src/presets.ts\"; "
           "console.log(derivedKey(\"ab12\", PRESETS.thumb))'", "derived/ab12/thumb-9c41e7b2.webp",
           description="Show a derived key")
    b.say("Derived keys now carry an 8-hex fingerprint of the preset (`derived/<sha>/thumb-9c41e7b2.webp`); "
          "the original's SHA-256 stays first in the path and no job id is involved. For the images uploaded "
          "before the quality change, a backfill that re-runs the thumb preset on `originals/*` would produce "
          "the new keys — I can write that script if you want.")
    b.user("not now")
    return [a, b]


@scenario("pool-memory-budget", "pixelq",
          "decision over four turns: options, a question about them, an unrelated CI digression, then the pick "
          "with a number and an extra knob",
          [exp("decision", "src/pool.ts:defaultConcurrency", "memory budget", ["per core minus one", "fixed at 2"])])
def _pool(files):
    s = Session("pool-memory-budget", "2026-11-25T13:20:00.000Z", files)
    s.user("workers OOM on the 4 core / 4GB boxes when a batch of big PNGs comes in (scans, 8000x6000). pool is "
           "4 wide. ideas?")
    s.read("src/pool.ts")
    s.read("src/resize.ts")
    s.say("An 8000×6000 RGBA image is ~190 MB decoded, and sharp keeps a couple of buffers per pipeline, so a "
          "single big PNG can take 500 MB–1 GB at peak. Four at once on a 4 GB box, plus Node itself, is past "
          "the limit. Options:\n\n1. **One job per core minus one** — `os.cpus().length - 1`, so 3 here. Easy, "
          "but it's still tied to CPUs, and memory is what runs out.\n2. **Memory budget** — give each job a "
          "budget and run `floor(total memory / budget)` jobs, at least 1. Scales with the box: 2 here with "
          "1.5 GB per job, ~10 on a 16 GB machine.\n3. **Fixed at 2, sharp single-threaded** — concurrency 2 "
          "and `sharp.concurrency(1)`, trading throughput for a predictable footprint.")
    s.user("what does sharp.concurrency do exactly. per process or per image?")
    s.say("Per process. `sharp.concurrency(n)` sets the size of libvips' thread pool, which all sharp "
          "pipelines in the process share; the default is the number of cores. It mostly affects CPU use and "
          "speed of a single resize — it barely changes memory, because the big cost is the decoded image, "
          "not the threads. So option 3 helps memory only through the \"2\" part.")
    s.user("ok. unrelated, but CI prints \"The CJS build of Vite's Node API is deprecated\" on every test run, "
           "does that matter?")
    s.read("package.json")
    s.say("It's harmless. Vitest 1.x loads Vite's CommonJS entry when the config isn't ESM; the message is a "
          "deprecation warning for Vite 6. It goes away when there's a `vitest.config.mts` (or on a newer "
          "vitest). Nothing is wrong with the tests themselves.")
    s.user("leave it then. back to the pool: let's do the memory budget one. 1.5GB per job, never below 1. "
           "and let ops override the budget with PIXELQ_JOB_MEMORY_MB, they'll want to tune it per box type",
           seconds=180)
    s.edit("src/pool.ts",
           "export type Task<T> = () => Promise<T>;\n",
           "import { totalmem } from \"node:os\";\n\nexport type Task<T> = () => Promise<T>;\n\n"
           "const DEFAULT_JOB_MEMORY_MB = 1536;\n\n"
           "/** How many jobs a worker runs at once: a memory budget per job (big images run out of memory long\n"
           " * before they run out of CPU), at least one. */\n"
           "export function defaultConcurrency(totalBytes = totalmem(), env = process.env): number {\n"
           "  const budgetMb = Number(env.PIXELQ_JOB_MEMORY_MB) || DEFAULT_JOB_MEMORY_MB;\n"
           "  return Math.max(1, Math.floor(totalBytes / (budgetMb * 1024 * 1024)));\n}\n")
    s.edit("src/queue.ts",
           "import { WorkerPool } from \"./pool.js\";\n",
           "import { defaultConcurrency, WorkerPool } from \"./pool.js\";\n")
    s.edit("src/queue.ts",
           "  constructor(private storage: Storage, concurrency = 4) {\n",
           "  constructor(private storage: Storage, concurrency = defaultConcurrency()) {\n")
    s.write("test/pool.test.ts",
            "import { describe, expect, it } from \"vitest\";\nimport { defaultConcurrency } from \"../src/pool.js\";\n\n"
            "const GB = 1024 ** 3;\n\ndescribe(\"defaultConcurrency\", () => {\n"
            "  it(\"divides memory by the budget\", () => {\n"
            "    expect(defaultConcurrency(4 * GB, {})).toBe(2);\n    expect(defaultConcurrency(16 * GB, {})).toBe(10);\n  });\n"
            "  it(\"never goes below one\", () => {\n    expect(defaultConcurrency(1 * GB, {})).toBe(1);\n  });\n"
            "  it(\"takes the budget from the environment\", () => {\n"
            "    expect(defaultConcurrency(4 * GB, { PIXELQ_JOB_MEMORY_MB: \"512\" })).toBe(8);\n  });\n});\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_out([("test/pool.test.ts", 3), ("test/retry.test.ts", 2)]),
           description="Type-check and run the tests")
    s.say("Done:\n\n- `defaultConcurrency()` in `pool.ts`: `floor(total memory / budget)`, minimum 1; budget "
          "1536 MB, overridable with `PIXELQ_JOB_MEMORY_MB`\n- `JobQueue` uses it when no concurrency is given\n"
          "- `test/pool.test.ts` (4 GB → 2, 16 GB → 10, 1 GB → 1, env override)\n\nOn the 4 GB boxes the pool "
          "goes from 4 to 2.")
    return [s]


@scenario("etag-quotes", "pixelq",
          "error pasted from production, the agent explains the cause (quoted ETag) and fixes it with a test",
          [exp("gotcha", "src/storage.ts:S3Storage.put", "quotes")])
def _etag(files):
    s = Session("etag-quotes", "2026-12-02T08:31:00.000Z", files)
    s.user("switched the bucket from minio to the real s3 yesterday and now every job fails:\n\n"
           "```\n[pixelq] job 1c0e9f4a-77d2-4f7e-9a51-0b8d2f3c6e11 failed: Error: upload of "
           "originals/1c0e9f4a-77d2-4f7e-9a51-0b8d2f3c6e11/IMG_2291.jpg corrupted: etag "
           "\"5d41402abc4b2a76b9719d911017c592\"\n    at S3Storage.put (file:///srv/pixelq/dist/storage.js:19:19)\n"
           "    at async JobQueue.resizeAll (file:///srv/pixelq/dist/queue.js:61:9)\n"
           "    at async JobQueue.process (file:///srv/pixelq/dist/queue.js:40:33)\n```\n\n"
           "the file in the bucket looks fine when I download it")
    s.read("src/storage.ts")
    s.say("The object is fine; the check is wrong. Look at the ETag in the message: "
          "`\"5d41402abc4b2a76b9719d911017c592\"` — the MD5 is right, but it comes **wrapped in double quotes**. "
          "An ETag is an HTTP entity tag, and the spec says it's a quoted string, so S3 returns it with the "
          "quotes. Your MinIO setup (or the client wrapper in front of it) evidently returned it bare, which is "
          "why the `!==` comparison with the hex digest only started failing now.\n\n"
          "The fix is to strip the surrounding quotes before comparing. (Multipart uploads have a different "
          "ETag — `<md5 of md5s>-<parts>` — but `put` always does a single `putObject`, so that doesn't apply "
          "here.)")
    s.edit("src/storage.ts",
           "    if (res.ETag !== md5.toString(\"hex\")) {\n",
           "    // S3 returns the ETag as an HTTP entity tag, in double quotes; some S3-compatible stores don't.\n"
           "    const etag = res.ETag?.replace(/^\"|\"$/g, \"\");\n"
           "    if (etag !== md5.toString(\"hex\")) {\n")
    s.write("test/storage.test.ts",
            "import { describe, expect, it } from \"vitest\";\nimport { S3Storage, type S3Client } from \"../src/storage.js\";\n\n"
            "const client = (etag: (md5hex: string) => string): S3Client => ({\n"
            "  async putObject(req) {\n"
            "    return { ETag: etag(Buffer.from(req.ContentMD5, \"base64\").toString(\"hex\")) };\n  },\n"
            "  async getObject() {\n    throw new Error(\"unused\");\n  },\n});\n\n"
            "describe(\"S3Storage.put\", () => {\n"
            "  it(\"accepts a quoted ETag\", async () => {\n"
            "    const s = new S3Storage(client((h) => `\"${h}\"`), \"b\", \"https://cdn\");\n"
            "    await expect(s.put(\"k\", new Uint8Array([1, 2, 3]), \"image/png\")).resolves.toBeUndefined();\n  });\n"
            "  it(\"accepts a bare ETag\", async () => {\n"
            "    const s = new S3Storage(client((h) => h), \"b\", \"https://cdn\");\n"
            "    await expect(s.put(\"k\", new Uint8Array([1, 2, 3]), \"image/png\")).resolves.toBeUndefined();\n  });\n"
            "  it(\"still catches a mismatch\", async () => {\n"
            "    const s = new S3Storage(client(() => '\"0000\"'), \"b\", \"https://cdn\");\n"
            "    await expect(s.put(\"k\", new Uint8Array([1, 2, 3]), \"image/png\")).rejects.toThrow(/corrupted/);\n  });\n"
            "});\n")
    s.bash("npx vitest run", vitest_out([("test/retry.test.ts", 2), ("test/storage.test.ts", 3)]),
           description="Run the tests")
    s.say("Fixed in `S3Storage.put`: the ETag's surrounding quotes are stripped before it's compared with the "
          "MD5, so both S3 (quoted) and stores that return it bare pass, and a real mismatch still throws. "
          "`test/storage.test.ts` covers the three cases. The jobs that failed yesterday can simply be "
          "resubmitted.")
    s.user("deployed, works. ty")
    return [s]


@scenario("progress-review", "pixelq",
          "a code review with 'should'/'must' suggestions the person takes none of; nothing decided",
          [])
def _review(files):
    s = Session("progress-review", "2026-11-28T16:44:00.000Z", files)
    s.user("about to wire progress events to the websocket. can you review events.ts and how queue.ts emits "
           "progress before I build on it? no changes, just tell me what you see")
    s.read("src/events.ts")
    s.read("src/queue.ts")
    s.say("Overall it's small and easy to follow. Things I noticed, roughly by importance:\n\n"
          "**1. Listeners are never removed when a job ends.** `on(jobId, …)` returns an unsubscribe function, "
          "but nothing calls it on `completed`/`failed`. If the websocket layer subscribes per job and forgets "
          "to unsubscribe, the emitter keeps every listener — Node will start printing "
          "`MaxListenersExceededWarning` after 10 on the same job id, and memory grows with every job. Whoever "
          "subscribes must unsubscribe on the terminal events.\n\n"
          "**2. Progress doesn't cover the whole job.** `done/total` counts presets only; storing the original "
          "(which can be the slowest step for a 25 MB upload) isn't reported, so the bar sits at 0 and then "
          "jumps. You should probably emit `0/total` when processing starts, or count the original as a step.\n\n"
          "**3. Progress restarts on retry.** After a `retrying` event, `resizeAll` runs from the first preset "
          "again, so a client sees 2/3 → retrying → 1/3. The UI should treat `retrying` as a reset.\n\n"
          "**4. The `\"*\"` channel shares the namespace with job ids.** A job whose id is `\"*\"` would receive "
          "everything — impossible with `randomUUID()`, so it's only a theoretical point.\n\n"
          "**5. `emit` is synchronous.** A slow listener blocks the worker loop. For a websocket `send` that's "
          "fine; for anything heavier, listeners should hand off work rather than do it inline.\n\n"
          "If it were me, I'd fix 1 and 2 in `queue.ts` before wiring the websocket, but none of this blocks "
          "you.")
    s.user("good list. 1 I'll handle on the ws side anyway (unsub on completed/failed). 3 the UI can live with. "
           "rest: not now, thanks")
    s.say("Sounds good. For 1, make sure the unsubscribe also runs when the websocket closes before the job "
          "finishes, otherwise the listener outlives the client.")
    return [s]


@scenario("rename-presets", "pixelq",
          "a process instruction (run the tests first), a terse rename over two files, a colleague's rule reported "
          "and explicitly not adopted, a hypothetical about AVIF; nothing to keep",
          [])
def _rename(files):
    s = Session("rename-presets", "2026-11-13T11:06:00.000Z", files)
    s.user("run the tests first so we know we start green. then rename getPreset -> presetByName everywhere")
    s.bash("npx vitest run", vitest_out([("test/retry.test.ts", 2)]), description="Run the tests")
    s.grep("getPreset", ["src/presets.ts", "src/queue.ts"], text="Green (2 passed). Finding the uses:")
    s.edit("src/presets.ts", "export function getPreset(name: string): Preset {\n",
           "export function presetByName(name: string): Preset {\n")
    s.edit("src/queue.ts", "import { getPreset } from \"./presets.js\";\n",
           "import { presetByName } from \"./presets.js\";\n")
    s.edit("src/queue.ts", "      const preset = getPreset(name);\n", "      const preset = presetByName(name);\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_out([("test/retry.test.ts", 2)]),
           description="Type-check and run the tests")
    s.say("Renamed `getPreset` → `presetByName` in `presets.ts` and its one caller in `queue.ts`. `tsc` is "
          "clean and the tests pass.")
    s.user("thx. btw jonas keeps saying we should never upscale small images (withoutEnlargement: true on "
           "every resize), apparently it was a hard rule at his last job. not convinced for thumbs, a 100px logo "
           "should still fill the 160 box. dont touch it, just curious what it would change")
    s.read("src/resize.ts")
    s.say("With `withoutEnlargement: true`, sharp never makes an image bigger than its source. For your "
          "presets:\n\n- `thumb` / `card` (`fit: \"cover\"`): a 100×100 logo would stay 100×100 instead of "
          "filling 160×160, so the client gets a smaller image than the box and has to scale or pad it.\n"
          "- `full` (`fit: \"inside\"`, 1920 wide): a 1200 px photo would stay 1200 px instead of being blown up "
          "— that's where the option really earns its keep, since upscaling only adds bytes and blur.\n\n"
          "So the rule would mostly matter for `full`. I haven't changed anything.")
    s.user("ok. and hypothetically if we add avif later, does the Preset type need to change or just the "
           "resize switch?")
    s.say("Both, but only a little: `Preset.format` is the union `\"jpeg\" | \"webp\"`, so `\"avif\"` has to be "
          "added there, and `resizeImage` has a two-way ternary that would become a `switch` with "
          "`img.avif({ quality })`. The storage side already builds the content type from the format "
          "(`image/${preset.format}`), so nothing else would change.")
    s.user("cool, thats it")
    return [s]


# -- build and check ----------------------------------------------------------------------------------------


def build() -> None:
    out = []
    (HERE / "sessions").mkdir(exist_ok=True)
    for old in (HERE / "sessions").glob("*.jsonl"):
        old.unlink()
    for sc in SCENARIOS:
        sessions = sc["fn"](repo_files(sc["repo"]))
        for s in sessions:
            (HERE / "sessions" / f"{s.name}.jsonl").write_text(s.jsonl(), encoding="utf-8")
        out.append({"name": sc["name"], "repo": sc["repo"], "sessions": [f"{s.name}.jsonl" for s in sessions],
                    "note": sc["note"], "expected": sc["expected"]})
    (HERE / "expected.json").write_text(json.dumps({"set": SET, "scenarios": out}, indent=2, ensure_ascii=False) + "\n",
                                        encoding="utf-8")


def check() -> None:
    """Replays each scenario on a fresh copy of its repository (every edit must apply) and checks, with
    tether's parser, that each expected anchor names a definition of the final state."""
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
            for e in sc["expected"]:
                rel, _, name = e["anchor"].partition(":")
                text = (root / rel).read_text(encoding="utf-8")
                if name:
                    defs = {d.qualname for d in SourceFile(text, for_path(rel)).defs}
                    assert name in defs, (sc["name"], e["anchor"], sorted(defs))
        print(f"ok  {sc['name']}: {len(sc['sessions'])} session(s), {edits} edits, {len(sc['expected'])} expected")


if __name__ == "__main__":
    build()
    if "--check" in sys.argv:
        check()
