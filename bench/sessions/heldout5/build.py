"""Writes the heldout5 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``etlpipe`` (Python, a small batch data pipeline) and
``routekit`` (TypeScript, a tiny client-side router). Sessions are written with the ``Session``
builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py`` after changing a scenario
(outputs are committed). ``python3 build.py --check`` also replays every scenario on a copy of its
repository (every edit must apply, and the end state must equal the builder's), checks with tether's
own parser that every expected anchor names a definition of the final state, and that every key
phrase and rejected phrase occurs in the sessions' text.
"""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path

HERE = Path(__file__).parent
TESTS = HERE.parents[2] / "tests"
sys.path.insert(0, str(TESTS / "fixtures" / "transcripts"))
from build import Session  # noqa: E402

SET = "heldout5"
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


def session(name: str, start: str, files: dict[str, str]) -> Session:
    return Session(name, start, files, session_id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"tether-bench/{SET}/{name}")))


def pyq(passed: int, secs: str, failed: list[str] | None = None, body: str = "") -> str:
    """``pytest -q`` output: the progress line, failures, the summary."""
    marks = "." * passed + "F" * len(failed or [])
    out = f"{marks:<73}[100%]\n"
    if failed:
        out += body + "=========================== short test summary info ============================\n"
        out += "".join(f"FAILED {f}\n" for f in failed)
        return out + f"{len(failed)} failed, {passed} passed in {secs}s"
    return out + f"{passed} passed in {secs}s"


def vitest(tests: int, ms: int, at: str) -> str:
    return (f"\n RUN  v2.1.4 /home/sam/code/routekit\n\n ✓ test/router.test.ts ({tests} tests) {ms}ms\n\n"
            f" Test Files  1 passed (1)\n      Tests  {tests} passed ({tests})\n   Start at  {at}\n"
            f"   Duration  {ms + 390}ms (transform 64ms, setup 0ms, collect 71ms, tests {ms}ms, environment 0ms, "
            f"prepare 88ms)\n")


TAIL_PY = '    assert not (tmp_path / "cp.json").exists()\n'


# -- etlpipe (Python) ------------------------------------------------------------------------------------

ETL = "etlpipe"


@scenario("dedupe-latest-wins", ETL,
          "data engineer in bullets; agent proposes three numbered options and recommends one; person picks it in "
          "shorthand with tie rules and rejects the other two",
          [exp("decision", "etlpipe/dedupe.py:Deduplicator.add", "updated_at wins",
               ["keep last seen", "keep= flag"])])
def _dedupe(files):
    s = session("dedupe-latest-wins", "2025-03-04T09:12:00Z", files)
    s.user("dedupe is wrong for the orders feed\n"
           "- same order_id shows up several times per file (status updates: paid → shipped → delivered)\n"
           "- we keep the first one → stale status downstream, ops dashboards show 'paid' for stuff that shipped days ago\n"
           "- fix. what are the options")
    s.read("etlpipe/dedupe.py", text="Let me look at how dedupe works now and where the runner uses it.")
    s.grep("Deduplicator", ["etlpipe/runner.py", "etlpipe/dedupe.py", "tests/test_pipeline.py"])
    s.read("etlpipe/runner.py", offset=48, limit=12)
    s.say("Right now `Deduplicator.add` keeps the **first** record per key and only counts the later ones as "
          "duplicates; the runner dedupes each batch with it before writing. For a feed of status updates that "
          "keeps the stalest row.\n\nOptions:\n\n"
          "1. **Keep last seen** — a later row in the file replaces the earlier one. Smallest change, but it "
          "relies on the file being in event order. The orders export looks sorted by `order_id`, not by time, so "
          "I wouldn't trust it.\n"
          "2. **Keep the row with the greatest `updated_at`** — right regardless of file order. Needs a rule for "
          "ties and for rows without `updated_at`.\n"
          "3. **Make it configurable** — a `keep=` flag per pipeline (`\"first\"`, `\"last\"`, `\"latest\"`), "
          "default `first` so nothing else changes.\n\n"
          "I'd go with 2: it's the only one that's correct for this feed without assumptions about ordering.")
    s.user("- 2, updated_at wins\n- tie → the later row in the file wins\n- no updated_at → counts as oldest\n"
           "- no keep= flag, nobody needs first-wins, it was never a choice just how it was written")
    s.edit("etlpipe/dedupe.py",
           '    """Keeps one record per key. Records are held until ``drain`` so a later duplicate can win."""\n',
           '    """Keeps one record per key: the one with the greatest ``order_by`` value (``updated_at``); on a\n'
           '    tie, the one later in the input. Records are held until ``drain`` so a later duplicate can win."""\n',
           text="Implementing option 2 with your tie rules.")
    s.edit("etlpipe/dedupe.py",
           "    def __init__(self, key_fields: list[str]):\n"
           "        if not key_fields:\n"
           "            raise ValueError(\"dedupe needs at least one key field\")\n"
           "        self.key_fields = list(key_fields)\n",
           "    def __init__(self, key_fields: list[str], order_by: str = \"updated_at\"):\n"
           "        if not key_fields:\n"
           "            raise ValueError(\"dedupe needs at least one key field\")\n"
           "        self.key_fields = list(key_fields)\n"
           "        self.order_by = order_by\n")
    s.edit("etlpipe/dedupe.py",
           "    def add(self, record: Record) -> None:\n"
           "        k = self.key(record)\n"
           "        if k in self._kept:\n"
           "            self.duplicates += 1\n"
           "            return\n"
           "        self._kept[k] = record\n",
           "    def _newer(self, candidate: Record, current: Record) -> bool:\n"
           "        \"\"\"Whether ``candidate`` replaces ``current``. A missing ``order_by`` value is older than any\n"
           "        value; equal values (or both missing) go to the later record.\"\"\"\n"
           "        a, b = candidate.get(self.order_by), current.get(self.order_by)\n"
           "        if a is None:\n"
           "            return b is None\n"
           "        if b is None:\n"
           "            return True\n"
           "        return a >= b\n\n"
           "    def add(self, record: Record) -> None:\n"
           "        k = self.key(record)\n"
           "        current = self._kept.get(k)\n"
           "        if current is None:\n"
           "            self._kept[k] = record\n"
           "            return\n"
           "        self.duplicates += 1\n"
           "        if self._newer(record, current):\n"
           "            self._kept[k] = record\n")
    s.edit("etlpipe/dedupe.py",
           "def dedupe(records: Iterable[Record], key_fields: list[str]) -> list[Record]:\n"
           "    d = Deduplicator(key_fields)\n",
           "def dedupe(records: Iterable[Record], key_fields: list[str], order_by: str = \"updated_at\") -> list[Record]:\n"
           "    d = Deduplicator(key_fields, order_by)\n")
    s.edit("tests/test_pipeline.py", TAIL_PY,
           TAIL_PY + "\n\ndef test_dedupe_latest_updated_at_wins():\n"
           "    rows = [\n"
           "        {\"order_id\": 1, \"status\": \"shipped\", \"updated_at\": \"2024-05-02T10:00:00\"},\n"
           "        {\"order_id\": 1, \"status\": \"paid\", \"updated_at\": \"2024-05-01T09:00:00\"},\n"
           "        {\"order_id\": 1, \"status\": \"cancelled\", \"updated_at\": None},\n"
           "        {\"order_id\": 2, \"status\": \"paid\", \"updated_at\": \"2024-05-01T09:00:00\"},\n"
           "        {\"order_id\": 2, \"status\": \"refunded\", \"updated_at\": \"2024-05-01T09:00:00\"},\n"
           "    ]\n"
           "    by_id = {r[\"order_id\"]: r[\"status\"] for r in dedupe(rows, [\"order_id\"])}\n"
           "    assert by_id == {1: \"shipped\", 2: \"refunded\"}\n")
    s.bash("python -m pytest -q", pyq(11, "0.38"), description="Run the test suite")
    s.say("Done. `Deduplicator` now keeps, per key, the record with the greatest `updated_at`; a tie goes to the "
          "later row, a missing `updated_at` loses to any value. The field is a constructor argument "
          "(`order_by`, default `updated_at`) only so the tests can name it — there's no first/last flag. "
          "The runner picks it up without changes. 11 passed, including a test with an out-of-order feed, a tie "
          "and a missing timestamp.")
    s.user("👍")
    return [s]


@scenario("resume-loses-batch", ETL,
          "person asks for a crash/resume test in shorthand; the test fails; agent finds the checkpoint is saved "
          "before the batch is written and swaps the order",
          [exp("gotcha", "etlpipe/runner.py:Runner.run", "before the write")])
def _resume(files):
    s = session("resume-loses-batch", "2025-03-06T14:40:00Z", files)
    s.user("need a test for resume-after-crash, we never had one:\n"
           "- writer blows up on the 2nd batch\n- rerun with the same checkpoint file\n"
           "- all 30 rows must land, no gaps no dupes")
    s.read("etlpipe/runner.py")
    s.read("etlpipe/checkpoint.py")
    s.edit("tests/test_pipeline.py", TAIL_PY,
           TAIL_PY + "\n\nclass CrashOnce(BatchWriter):\n"
           "    def __init__(self, *args, crash_at: int, **kwargs):\n"
           "        super().__init__(*args, **kwargs)\n"
           "        self.crash_at = crash_at\n\n"
           "    def write(self, batch_no, records):\n"
           "        if batch_no == self.crash_at:\n"
           "            self.crash_at = -1\n"
           "            raise OSError(\"disk full\")\n"
           "        return super().write(batch_no, records)\n\n\n"
           "def test_resume_after_crash(tmp_path):\n"
           "    rows = [\"id,email,signup\"] + [f\"{i},u{i}@x.io,\" for i in range(30)]\n"
           "    src = write_csv(tmp_path / \"u.csv\", rows)\n"
           "    w = CrashOnce(tmp_path / \"out\", \"users\", [\"id\", \"email\"], crash_at=1)\n"
           "    cp = Checkpoint(tmp_path / \"cp.json\")\n"
           "    with pytest.raises(OSError):\n"
           "        Runner(src, USERS, w, cp, batch_size=10).run()\n"
           "    Runner(src, USERS, w, cp, batch_size=10).run()\n"
           "    ids = sorted(r[\"id\"] for f in w.files for r in read_back(f))\n"
           "    assert ids == list(range(30))\n",
           text="Adding the test: a writer that raises on batch 1 once, then a second run on the same checkpoint.")
    body = ("=================================== FAILURES ===================================\n"
            "___________________________ test_resume_after_crash ____________________________\n\n"
            "tmp_path = PosixPath('/tmp/pytest-of-dana/pytest-112/test_resume_after_crash0')\n\n"
            "    def test_resume_after_crash(tmp_path):\n"
            "        rows = [\"id,email,signup\"] + [f\"{i},u{i}@x.io,\" for i in range(30)]\n"
            "        src = write_csv(tmp_path / \"u.csv\", rows)\n"
            "        w = CrashOnce(tmp_path / \"out\", \"users\", [\"id\", \"email\"], crash_at=1)\n"
            "        cp = Checkpoint(tmp_path / \"cp.json\")\n"
            "        with pytest.raises(OSError):\n"
            "            Runner(src, USERS, w, cp, batch_size=10).run()\n"
            "        Runner(src, USERS, w, cp, batch_size=10).run()\n"
            "        ids = sorted(r[\"id\"] for f in w.files for r in read_back(f))\n"
            ">       assert ids == list(range(30))\n"
            "E       assert [0, 1, 2, 3, 4, 5, ...] == [0, 1, 2, 3, 4, 5, ...]\n"
            "E         \n"
            "E         At index 10 diff: 20 != 10\n"
            "E         Right contains 10 more items, first extra item: 20\n"
            "E         Use -v to get more diff\n\n"
            "tests/test_pipeline.py:111: AssertionError\n")
    s.bash("python -m pytest -q", pyq(10, "0.44", ["tests/test_pipeline.py::test_resume_after_crash - assert [0, 1, "
                                                     "2, 3, ..."], body),
           fail=True, description="Run the test suite")
    s.say("It fails, and it's a real bug, not the test: rows 10–19 (the batch whose write crashed) never come back.",
          thinking="ids after the rerun: 0-9 then 20-29. So the rerun started at offset 20. The checkpoint must have "
                   "said 20 after the crash. In run(): state.offset = offset + 1; checkpoint.save(state); then "
                   "_flush. Save happens before the write. Yes.")
    s.read("etlpipe/runner.py", offset=72, limit=12)
    s.say("Found it. In `Runner.run` the checkpoint is saved before the write: when a batch fills up, it sets "
          "`state.offset` past the batch, **saves the checkpoint**, and only then calls `_flush`. When the write "
          "raises, the checkpoint on disk already says records 10–19 are done, so the rerun starts at 20 and that "
          "batch is silently lost. In production that's a crash on a full disk or a killed pod = missing rows with "
          "a green rerun.\n\nFix: write first, then advance and save the checkpoint. If we die between the write and "
          "the save, the rerun writes that batch again — and since the part file name comes from the batch number "
          "(`part-00001`), it overwrites the same file rather than duplicating rows.")
    s.edit("etlpipe/runner.py",
           "            if len(batch) >= self.batch_size:\n"
           "                state.offset = offset + 1\n"
           "                self.checkpoint.save(state)\n"
           "                self._flush(state, batch)\n"
           "                batch = []\n",
           "            if len(batch) >= self.batch_size:\n"
           "                # write first, then checkpoint: a crash in between rewrites the same part file on\n"
           "                # resume; the other order loses the batch\n"
           "                self._flush(state, batch)\n"
           "                state.offset = offset + 1\n"
           "                self.checkpoint.save(state)\n"
           "                batch = []\n")
    s.bash("python -m pytest -q", pyq(11, "0.41"), description="Run the test suite")
    s.say("11 passed. The new test covers exactly this: crash on batch 1, rerun, all 30 ids present once.")
    s.user("nice catch. ship it")
    return [s]


@scenario("pure-transforms", ETL,
          "tech lead states a rule up front while asking for a new transform; a week later the agent writes into "
          "the input record in another transform and the lead restates the rule in other words",
          [exp("invariant", "etlpipe/transforms.py", "never mutates")])
def _pure(files):
    s = session("pure-transforms-1", "2025-03-10T10:05:00Z", files)
    s.user("Add a `derive` transform to transforms.py: `derive(field, fn)` sets `field` to `fn(record)`. Register it "
           "so pipeline configs can use it (the fn is looked up by name from a dict we pass in, you don't need to "
           "solve that part today, just take the callable).\n\n"
           "One rule for everything in transforms.py, and I want it kept from now on: a transform never mutates the "
           "record it is given. It returns a new dict, or the same one untouched, or None to drop it. The runner "
           "keeps the validated record around for error reporting and the dedupe holds references to records; "
           "in-place edits have already cost us a day of debugging once.")
    s.read("etlpipe/transforms.py")
    s.say("All the existing transforms already follow that — `rename`/`drop_fields` build new dicts, "
          "`normalize_email` and `default` use `{**record, ...}`. I'll write `derive` the same way and put the rule "
          "in the module docstring so it's visible to whoever adds the next one.")
    s.edit("etlpipe/transforms.py",
           '"""Transforms: small functions record -> record (or None to drop it), chained by ``compose``."""\n',
           '"""Transforms: small functions record -> record (or None to drop it), chained by ``compose``.\n\n'
           'A transform never mutates the record it is given: it returns a new dict (or the same one untouched).\n'
           '"""\n')
    s.edit("etlpipe/transforms.py",
           "def compose(transforms: Iterable[Transform]) -> Transform:\n",
           "def derive(field: str, fn: Callable[[Record], object]) -> Transform:\n"
           "    def apply(record: Record) -> Record:\n"
           "        return {**record, field: fn(record)}\n"
           "    return apply\n\n\n"
           "def compose(transforms: Iterable[Transform]) -> Transform:\n")
    s.edit("etlpipe/transforms.py",
           '    "default": default,\n}\n',
           '    "default": default,\n    "derive": derive,\n}\n')
    s.edit("tests/test_pipeline.py",
           "from etlpipe.transforms import compose, default, drop_fields, normalize_email, rename\n",
           "from etlpipe.transforms import compose, default, derive, drop_fields, normalize_email, rename\n")
    s.edit("tests/test_pipeline.py", TAIL_PY,
           TAIL_PY + "\n\ndef test_derive_returns_a_new_record():\n"
           "    record = {\"first\": \"Ada\", \"last\": \"Lovelace\"}\n"
           "    out = derive(\"name\", lambda r: f\"{r['first']} {r['last']}\")(record)\n"
           "    assert out[\"name\"] == \"Ada Lovelace\"\n"
           "    assert \"name\" not in record\n")
    s.bash("python -m pytest -q", pyq(11, "0.33"), description="Run the test suite")
    s.say("Added `derive(field, fn)` (registered as `\"derive\"`), a test that also checks the input record is "
          "left alone, and the rule at the top of transforms.py. 11 passed.")
    s.user("Good.")

    s2 = session("pure-transforms-2", "2025-03-18T15:30:00Z", files)
    s2.user("`default` should take several fields at once: `default({\"country\": \"NL\", \"currency\": \"EUR\"})`. "
            "Keep `default(\"country\", \"NL\")` working, configs in three teams use it.")
    s2.read("etlpipe/transforms.py", offset=36, limit=10)
    s2.edit("etlpipe/transforms.py",
            "def default(field: str, value: object) -> Transform:\n"
            "    def apply(record: Record) -> Record:\n"
            "        if record.get(field) is None:\n"
            "            return {**record, field: value}\n"
            "        return record\n"
            "    return apply\n",
            "def default(field: str | dict[str, object], value: object = None) -> Transform:\n"
            "    defaults = field if isinstance(field, dict) else {field: value}\n\n"
            "    def apply(record: Record) -> Record:\n"
            "        for name, fallback in defaults.items():\n"
            "            if record.get(name) is None:\n"
            "                record[name] = fallback\n"
            "        return record\n"
            "    return apply\n")
    s2.say("`default` now accepts either a field and a value or a dict of field → value, and fills each field "
           "that is missing or None.")
    s2.user("No. You're writing into the record you were handed. That file has one rule and it covers every "
            "function in it, not just the one we talked about last time: copy, change the copy, hand the copy back. "
            "The caller's dict stays exactly as it came in.")
    s2.say("You're right, sorry — `record[name] = fallback` edits the caller's dict. Building the result instead:")
    s2.edit("etlpipe/transforms.py",
            "        for name, fallback in defaults.items():\n"
            "            if record.get(name) is None:\n"
            "                record[name] = fallback\n"
            "        return record\n",
            "        missing = {name: v for name, v in defaults.items() if record.get(name) is None}\n"
            "        return {**record, **missing} if missing else record\n")
    s2.edit("tests/test_pipeline.py", TAIL_PY,
            TAIL_PY + "\n\ndef test_default_many_fields_leaves_input_alone():\n"
            "    record = {\"country\": None, \"id\": 1}\n"
            "    out = default({\"country\": \"NL\", \"currency\": \"EUR\"})(record)\n"
            "    assert out == {\"country\": \"NL\", \"currency\": \"EUR\", \"id\": 1}\n"
            "    assert record == {\"country\": None, \"id\": 1}\n")
    s2.bash("python -m pytest -q", pyq(12, "0.36"), description="Run the test suite")
    s2.say("Fixed: `default` builds a new dict with the missing fields and returns the input unchanged when "
           "nothing is missing. The new test checks the caller's record is untouched. 12 passed (the single-field "
           "form is still covered by `test_transforms_compose`).")
    return [s, s2]


@scenario("rejects-file", ETL,
          "non-native English; agent proposes four numbered options with a recommendation; the person picks one "
          "and says why each other is out, plus what the file must hold",
          [exp("decision", "etlpipe/runner.py:Runner._reject", "rejects file",
               ["drop the record", "set the bad field to null", "fail the run"])])
def _rejects(files):
    s = session("rejects-file", "2025-03-12T08:20:00Z", files)
    s.user("Hello, I have question about the invalid rows. Now when the schema fail (for example amount = \"12a\" "
           "in the payments file) the runner only count it in stats.invalid and the row is gone. Finance team "
           "reconcile the row counts every morning and they cannot see which rows is missing, they ask me every "
           "day. What you propose?")
    s.read("etlpipe/runner.py")
    s.read("etlpipe/schema.py", offset=70, limit=20)
    s.say("Today `_validate` counts the row in `stats.invalid`, adds a line to `stats.errors` (which only lives in "
          "memory for the run) and drops it. Options:\n\n"
          "1. **Drop the record and log it** — today's behaviour plus one log line per bad row with the reasons. "
          "Cheap, but the log is the only trace and ours rotate after 3 days.\n"
          "2. **Write it to a rejects file** — `rejects.jsonl` next to the output: the row, its offset in the "
          "source and the reasons. Finance can check `written + rejected == read` and see exactly which rows.\n"
          "3. **Set the bad field to null and keep the row** — counts match, but a broken amount silently becomes "
          "an empty one downstream.\n"
          "4. **Fail the run** on the first bad row, so nobody misses it.\n\n"
          "I'd do 2.")
    s.user("We go with the 2, the rejects file. Drop and log is not enough, nobody is reading the logs. Null is "
           "dangerous for money, no. Fail the run also no — one bad row from the vendor and the whole night job "
           "stop, this happened already in January.\n"
           "Please: in the rejects file must be the original row like it was in the source, not the coerced one, "
           "so they can find it and fix in the source file.")
    s.edit("etlpipe/runner.py",
           "import logging\n",
           "import json\nimport logging\n",
           text="Adding the rejects file to the runner; by default it goes next to the written parts.")
    s.edit("etlpipe/runner.py",
           "                 batch_size: int = 1000):\n",
           "                 batch_size: int = 1000, rejects: Path | None = None):\n")
    s.edit("etlpipe/runner.py",
           "        self.batch_size = batch_size\n",
           "        self.batch_size = batch_size\n"
           "        self.rejects = Path(rejects) if rejects else self.writer.out_dir / \"rejects.jsonl\"\n")
    s.edit("etlpipe/runner.py",
           "            self.stats.errors.append(f\"record {offset}: {'; '.join(errors)}\")\n"
           "            return None\n"
           "        return clean\n",
           "            self.stats.errors.append(f\"record {offset}: {'; '.join(errors)}\")\n"
           "            self._reject(offset, record, errors)\n"
           "            return None\n"
           "        return clean\n\n"
           "    def _reject(self, offset: int, raw: Record, errors: list[str]) -> None:\n"
           "        \"\"\"One line in the rejects file: the row as the reader gave it (not coerced), where it was and\n"
           "        why it was refused.\"\"\"\n"
           "        self.rejects.parent.mkdir(parents=True, exist_ok=True)\n"
           "        line = {\"source\": str(self.source), \"offset\": offset, \"errors\": errors, \"record\": raw}\n"
           "        with open(self.rejects, \"a\", encoding=\"utf-8\") as fh:\n"
           "            fh.write(json.dumps(line, default=str) + \"\\n\")\n")
    s.edit("tests/test_pipeline.py", TAIL_PY,
           TAIL_PY + "\n\ndef test_invalid_rows_go_to_the_rejects_file(tmp_path):\n"
           "    src = write_csv(tmp_path / \"u.csv\", [\"id,email,signup\", \"1,a@x.io,\", \"12a,b@x.io,\"])\n"
           "    w = BatchWriter(tmp_path / \"out\", \"users\", [\"id\", \"email\"])\n"
           "    stats = Runner(src, USERS, w, Checkpoint(tmp_path / \"cp.json\")).run()\n"
           "    assert (stats.read, stats.invalid, stats.written) == (2, 1, 1)\n"
           "    [line] = (tmp_path / \"out\" / \"rejects.jsonl\").read_text().splitlines()\n"
           "    rejected = json.loads(line)\n"
           "    assert rejected[\"offset\"] == 1\n"
           "    assert rejected[\"record\"] == {\"id\": \"12a\", \"email\": \"b@x.io\", \"signup\": None}\n")
    s.bash("python -m pytest -q", pyq(11, "0.40"), description="Run the test suite")
    s.say("Done:\n- Every row that fails the schema is appended to `rejects.jsonl` in the output folder (or a path "
          "you pass as `rejects=`).\n- Each line has the source file, the offset, the reasons and the row **as the "
          "reader gave it** — `\"12a\"` stays `\"12a\"`.\n- The counts in `RunStats` are unchanged, so "
          "`written + invalid + dropped + duplicates == read` still holds for the report.\n\n11 passed.")
    s.user("Perfect, thank you!")
    return [s]


@scenario("partitioned-writer", ETL,
          "a long bullet message mixing on-call, a ticket, a scope limit and a version bump; the agent asks whether "
          "to drop an odd int-to-string branch and is told to keep it, with the reason",
          [exp("boundary", "etlpipe/writers.py:PartitionedWriter.partition", "daily only"),
           exp("workaround", "etlpipe/writers.py:_encode_value", "lose precision")])
def _partitions(files):
    s = session("partitioned-writer", "2025-03-20T13:00:00Z", files)
    s.user("few things, mostly unrelated:\n"
           "- on-call handoff moved to thurs. ignore the alerts from the staging bucket this week, known, infra is on it\n"
           "- DATA-412: events feed needs partitioned output. one folder per event date → "
           "`out/dt=2024-05-01/part-00000.pq.json`. field configurable, default `event_time`\n"
           "- daily only. not doing hourly partitions for now — the loader lists prefixes and hourly = 24x the list "
           "calls. revisit if volume grows\n"
           "- README still says python 3.9, ignore, I'll fix it in the docs PR\n"
           "- bump version to 0.5.0 when done pls")
    s.read("etlpipe/writers.py")
    s.say("Before I start: `_encode_value` turns ints above 2**53 into strings. That looks like a bug — the schema "
          "says `int` and `read_back` then returns a `str` for those values. Want me to drop that branch while I'm "
          "in this file?")
    s.user("- no, leave it\n- the ops dashboard reads these files in the browser with JSON.parse, ints > 2^53 "
           "lose precision there (order ids from the new shop are snowflake ids, 19 digits)\n"
           "- put a comment on it so nobody 'fixes' it again")
    s.edit("etlpipe/writers.py",
           "    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:\n"
           "        return str(value)\n",
           "    # Deliberate: ints beyond 2**53 are written as strings. The ops dashboard reads these files with\n"
           "    # JSON.parse, where such ints lose precision (snowflake order ids). Don't \"fix\".\n"
           "    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:\n"
           "        return str(value)\n",
           text="Leaving it, with a comment saying why.")
    s.edit("etlpipe/writers.py",
           "    def write(self, batch_no: int, records: list[Record]) -> Path:\n"
           "        path = self.target(batch_no, records)\n"
           "        path.parent.mkdir(parents=True, exist_ok=True)\n",
           "    def write(self, batch_no: int, records: list[Record]) -> list[Path]:\n"
           "        return [self._write_file(self.target(batch_no, records), records)]\n\n"
           "    def _write_file(self, path: Path, records: list[Record]) -> Path:\n"
           "        path.parent.mkdir(parents=True, exist_ok=True)\n",
           text="Now the partitions. A batch can span several days, so `write` has to be able to produce more than "
                "one file; I'm making it return the list of paths.")
    s.edit("etlpipe/writers.py",
           "def read_back(path: Path) -> list[Record]:\n",
           "class PartitionedWriter(BatchWriter):\n"
           "    \"\"\"One folder per day of ``field`` (``dt=YYYY-MM-DD``); a batch spanning several days is split.\"\"\"\n\n"
           "    def __init__(self, out_dir: Path, schema_name: str, columns: list[str], field: str = \"event_time\"):\n"
           "        super().__init__(out_dir, schema_name, columns)\n"
           "        self.field = field\n\n"
           "    def partition(self, record: Record) -> str:\n"
           "        \"\"\"The day of the record (daily partitions only, see DATA-412).\"\"\"\n"
           "        value = record.get(self.field)\n"
           "        if isinstance(value, (datetime, date)):\n"
           "            return value.isoformat()[:10]\n"
           "        if isinstance(value, str) and len(value) >= 10:\n"
           "            return value[:10]\n"
           "        return \"unknown\"\n\n"
           "    def write(self, batch_no: int, records: list[Record]) -> list[Path]:\n"
           "        by_day: dict[str, list[Record]] = {}\n"
           "        for r in records:\n"
           "            by_day.setdefault(self.partition(r), []).append(r)\n"
           "        return [self._write_file(self.out_dir / f\"dt={day}\" / f\"part-{batch_no:05d}.pq.json\", rows)\n"
           "                for day, rows in sorted(by_day.items())]\n\n\n"
           "def read_back(path: Path) -> list[Record]:\n")
    s.edit("tests/test_pipeline.py",
           "    path = w.write(0, [{\"id\": 1, \"email\": \"a\"}, {\"id\": 2, \"email\": \"b\"}])\n",
           "    [path] = w.write(0, [{\"id\": 1, \"email\": \"a\"}, {\"id\": 2, \"email\": \"b\"}])\n")
    s.edit("tests/test_pipeline.py",
           "from etlpipe.writers import BatchWriter, read_back\n",
           "from etlpipe.writers import BatchWriter, PartitionedWriter, read_back\n")
    s.edit("tests/test_pipeline.py", TAIL_PY,
           TAIL_PY + "\n\ndef test_partitioned_writer_splits_a_batch_by_day(tmp_path):\n"
           "    w = PartitionedWriter(tmp_path, \"events\", [\"id\", \"event_time\"])\n"
           "    rows = [{\"id\": 1, \"event_time\": \"2024-05-01T23:59:00\"}, {\"id\": 2, \"event_time\": \"2024-05-02T00:01:00\"}]\n"
           "    paths = w.write(3, rows)\n"
           "    assert [p.relative_to(tmp_path).as_posix() for p in paths] == [\n"
           "        \"dt=2024-05-01/part-00003.pq.json\", \"dt=2024-05-02/part-00003.pq.json\"]\n"
           "    assert read_back(paths[1]) == [rows[1]]\n")
    s.edit("pyproject.toml", 'version = "0.4.1"\n', 'version = "0.5.0"\n')
    s.edit("etlpipe/__init__.py", '__version__ = "0.4.1"\n', '__version__ = "0.5.0"\n')
    s.bash("python -m pytest -q", pyq(11, "0.39"), description="Run the test suite")
    s.say("Done:\n- `PartitionedWriter(out_dir, schema, columns, field=\"event_time\")` writes "
          "`dt=YYYY-MM-DD/part-NNNNN.pq.json`; a batch that spans midnight becomes one file per day. Rows without a "
          "usable date go to `dt=unknown/`.\n- Daily only, per your note; the docstring points at DATA-412.\n"
          "- `BatchWriter.write` now returns a list of paths (the runner ignores the return value; one test "
          "updated).\n- `_encode_value` left as is, with a comment.\n- Version 0.5.0.\n\n11 passed.")
    s.user("ty")
    return [s]


@scenario("excel-bom", ETL,
          "pasted CLI output of a failing run; agent finds a UTF-8 byte order mark glued to the first header and "
          "reads CSVs with utf-8-sig",
          [exp("gotcha", "etlpipe/readers.py:read_csv", "bom")])
def _bom(files):
    s = session("excel-bom", "2025-03-25T07:48:00Z", files)
    s.user("vendor file from finance fails validation on every single row. `id` is definitely there, opened it in "
           "excel\n```\n$ etlpipe run configs/vendors.json\netlpipe: 1204 read, 1204 invalid, 0 duplicates, 0 written\n"
           "  record 0: id: missing; unexpected fields: \ufeffid\n  record 1: id: missing; unexpected fields: \ufeffid\n"
           "  record 2: id: missing; unexpected fields: \ufeffid\n  ...\n```\n??")
    s.read("etlpipe/readers.py", offset=22, limit=15)
    s.bash("head -c 24 data/vendors.csv | xxd",
           "00000000: efbb bf69 642c 6e61 6d65 2c69 6261 6e2c  ...id,name,iban,\n"
           "00000010: 636f 756e 7472 792c                      country,\n",
           description="Look at the first bytes of the file")
    s.say("The file starts with `ef bb bf` — a UTF-8 byte order mark (BOM). Excel's \"CSV UTF-8\" export writes one. "
          "`read_csv` opens files with `encoding=\"utf-8\"`, which keeps the BOM as a `\\ufeff` character, so the "
          "first header is `\\ufeffid`, not `id` — invisible when printed, hence \"id: missing; unexpected fields: "
          "id\". The `.strip()` on header names doesn't help: U+FEFF isn't whitespace to `str.strip`.\n\n"
          "Fix: open with `encoding=\"utf-8-sig\"`. It reads plain UTF-8 exactly the same and drops a leading BOM "
          "when there is one.")
    s.edit("etlpipe/readers.py",
           "    with open(path, newline=\"\", encoding=\"utf-8\") as fh:\n",
           "    # utf-8-sig: Excel's \"CSV UTF-8\" export starts with a BOM, which would stick to the first header\n"
           "    with open(path, newline=\"\", encoding=\"utf-8-sig\") as fh:\n")
    s.edit("tests/test_pipeline.py", TAIL_PY,
           TAIL_PY + "\n\ndef test_read_csv_drops_excel_bom(tmp_path):\n"
           "    src = tmp_path / \"v.csv\"\n"
           "    src.write_bytes(b\"\\xef\\xbb\\xbfid,email\\n1,a@x.io\\n\")\n"
           "    assert [r for _, r in read_csv(src)] == [{\"id\": \"1\", \"email\": \"a@x.io\"}]\n")
    s.bash("python -m pytest -q", pyq(11, "0.35"), description="Run the test suite")
    s.bash("etlpipe run configs/vendors.json", "etlpipe: 1204 read, 3 invalid, 0 duplicates, 1201 written\n"
           "  record 388: iban: missing\n  record 902: iban: missing\n  record 1177: iban: missing",
           description="Rerun the vendors pipeline")
    s.say("Fixed. The vendors run now writes 1201 rows; the 3 left are real (empty IBANs). Added a test with a "
          "BOM-prefixed file; 11 passed.")
    s.user("ahh excel. thx")
    return [s]


@scenario("explain-checkpoints", ETL,
          "newcomer's questions about resume and offsets; a hypothetical about two runners with a 'would need'; "
          "no change, no decision", [])
def _explain(files):
    s = session("explain-checkpoints", "2025-03-27T11:02:00Z", files)
    s.user("hi, I'm new on the team and I'm trying to understand how the resume works before I touch anything. "
           "what exactly is the offset in the checkpoint, for jsonl with blank lines too? and what happens if the "
           "source file changes between the crash and the rerun?")
    s.read("etlpipe/checkpoint.py")
    s.read("etlpipe/readers.py", offset=40, limit=20)
    s.read("etlpipe/runner.py", offset=62, limit=24)
    s.say("**The offset** is the index of the next record to read, counted by the reader: for CSV the data row "
          "number (header not counted), for JSON lines the line number — blank lines are skipped but still count, "
          "so offsets stay stable if someone adds an empty line at the end. `read_csv(..., start=n)` / "
          "`read_jsonl(..., start=n)` skip everything before `n`.\n\n"
          "**When it's saved:** after each full batch is written, the runner sets `offset` to the record after the "
          "batch and saves the checkpoint (write to a `.tmp` file, then rename, so a crash mid-save leaves the old "
          "one). A run that finishes deletes the checkpoint.\n\n"
          "**If the source changes** between crash and rerun: nothing detects it. The checkpoint only stores the "
          "source path, so a rerun on a rewritten file with the same name skips the first `offset` records of the "
          "*new* file. A checkpoint for a different path is ignored (`load` starts over).")
    s.user("ok that makes sense. and hypothetically if two runners ran on the same source at the same time?")
    s.say("They'd share the checkpoint file and overwrite each other's state, and both would write `part-NNNNN` "
          "files with the same names into the same folder — last writer wins, per file. If you ever wanted that, "
          "each runner would need its own checkpoint and output folder, or there'd have to be a lock file next to "
          "the checkpoint (created with `O_EXCL`) so the second one refuses to start. Nothing does that today; it "
          "relies on one scheduled job per source.")
    s.user("got it, thanks. that's all for now")
    return [s]


@scenario("rename-read-ndjson", ETL, "terse rename across two files plus a process instruction (run ruff); no decision",
          [])
def _rename(files):
    s = session("rename-read-ndjson", "2025-03-28T16:45:00Z", files)
    s.user("rename read_jsonl -> read_ndjson everywhere incl tests. run ruff after")
    s.grep("read_jsonl", ["etlpipe/readers.py", "tests/test_pipeline.py"])
    s.edit("etlpipe/readers.py", "def read_jsonl(path: Path, start: int = 0)", "def read_ndjson(path: Path, start: int = 0)")
    s.edit("etlpipe/readers.py", "        return read_jsonl(path, start=start)\n", "        return read_ndjson(path, start=start)\n")
    s.edit("tests/test_pipeline.py", "from etlpipe.readers import ReaderError, read_csv, read_jsonl\n",
           "from etlpipe.readers import ReaderError, read_csv, read_ndjson\n")
    s.edit("tests/test_pipeline.py", "    assert [(o, r[\"id\"]) for o, r in read_jsonl(src)] == [(0, 1), (2, 2)]\n",
           "    assert [(o, r[\"id\"]) for o, r in read_ndjson(src)] == [(0, 1), (2, 2)]\n")
    s.bash("ruff check . && python -m pytest -q", "All checks passed!\n" + pyq(10, "0.31"),
           description="Lint and run the tests")
    s.say("Renamed in readers.py (definition and `open_source`) and in the tests. Ruff clean, 10 passed.")
    s.user("k")
    return [s]


# -- routekit (TypeScript) --------------------------------------------------------------------------------

RK = "routekit"
TAIL_TS = "    expect(router.current?.query).toEqual({ tab: \"posts\" });\n  });\n});\n"


@scenario("trailing-slash", RK,
          "pasted console error, a terse person; agent asks an inline 'strip or redirect?' question; answered in "
          "one word plus a reason",
          [exp("decision", "src/pattern.ts:compilePattern", "trailing slash", ["redirect"])])
def _slash(files):
    s = session("trailing-slash", "2025-04-02T09:30:00Z", files)
    s.user("```\n[routekit] no route matched \"/users/\" — rendering NotFound\n    at Router.settle (router.ts:84)\n```\n"
           "cms links all end in /")
    s.read("src/pattern.ts")
    s.say("`compilePattern(\"/users\")` builds `^/users$`, so `/users/` doesn't match any route. Parents (the "
          "non-`end` patterns) already accept a following `/`; leaf routes don't.\n\n"
          "Two ways to fix it: **strip** — let every pattern accept one trailing slash, so `/users/` and `/users` "
          "are the same route; or **redirect** — when a path with a trailing slash doesn't match, "
          "`history.replace` to the path without it, so the URL bar is canonical too. Strip or redirect?")
    s.user("strip. redirect fires the route twice, analytics double counts")
    s.edit("src/pattern.ts",
           "  const regex = new RegExp(\"^\" + (source || \"/\") + (end ? \"$\" : \"(?=/|$)\"), \"i\");\n",
           "  // a trailing slash is accepted: \"/users/\" is the same route as \"/users\"\n"
           "  const regex = new RegExp(\"^\" + source + (end ? \"/?$\" : \"(?=/|$)\"), \"i\");\n")
    s.edit("test/router.test.ts",
           "  it(\"builds paths\", () => {\n",
           "  it(\"accepts a trailing slash\", () => {\n"
           "    expect(matchPattern(\"/users/:id\", \"/users/42/\")?.params).toEqual({ id: \"42\" });\n"
           "    expect(matchPattern(\"/\", \"/\")).not.toBeNull();\n"
           "    expect(resolve(routes, \"/users/\")!.map((m) => m.route.name)).toEqual([\"users\"]);\n"
           "  });\n"
           "  it(\"builds paths\", () => {\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(8, 14, "09:34:51"), description="Type-check and run tests")
    s.say("Done in `compilePattern`, so `matchPattern` and nested routes get it too: leaf patterns now end in "
          "`/?$`. The root pattern still matches only `/`. 8 tests pass.")
    return [s]


@scenario("dom-only-in-two-files", RK,
          "tech lead states a firm rule up front (only history.ts and scroll.ts touch window); a week later the agent "
          "adds a `typeof window` check in router.ts and the lead restates the rule in other words",
          [exp("invariant", "src/**/*.ts", "touch window")])
def _window(files):
    s = session("dom-only-in-two-files-1", "2025-04-07T10:00:00Z", files)
    s.user("We're doing SSR next quarter, so from today: only history.ts and scroll.ts may touch window or document. "
           "Everything else gets what it needs through the RouterHistory interface or as a parameter. No exceptions "
           "for \"just one read\".\n\nFirst thing under that rule: the copy-link button needs "
           "`router.absoluteHref(to)` — the full URL with origin.")
    s.read("src/history.ts", offset=1, limit=20)
    s.read("src/router.ts", offset=60, limit=12)
    s.say("The origin is the only thing the router doesn't have. I'll put it on the `RouterHistory` interface: "
          "`BrowserHistory` reads `window.location.origin` (history.ts is allowed to), `MemoryHistory` takes it as "
          "a constructor option with a default, and `Router.absoluteHref` just concatenates.")
    s.edit("src/history.ts",
           "export interface RouterHistory {\n  readonly location: HistoryLocation;\n",
           "export interface RouterHistory {\n  readonly location: HistoryLocation;\n"
           "  /** \"https://example.com\" — for absolute links. */\n  readonly origin: string;\n")
    s.edit("src/history.ts",
           "  go(delta: number): void {\n    window.history.go(delta);\n  }\n",
           "  get origin(): string {\n    return window.location.origin;\n  }\n\n"
           "  go(delta: number): void {\n    window.history.go(delta);\n  }\n")
    s.edit("src/history.ts",
           "  constructor(initial = \"/\") {\n    this.entries = [parse(initial, newKey())];\n  }\n",
           "  readonly origin: string;\n\n"
           "  constructor(initial = \"/\", origin = \"http://localhost\") {\n"
           "    this.entries = [parse(initial, newKey())];\n    this.origin = origin;\n  }\n")
    s.edit("src/router.ts",
           "  private async settle(",
           "  absoluteHref(to: string | { name: string; params?: Params; query?: Query }): string {\n"
           "    return this.history.origin + this.href(to);\n  }\n\n"
           "  private async settle(")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(7, 12, "10:06:18"), description="Type-check and run tests")
    s.say("`router.absoluteHref(to)` returns origin + href. The origin comes from the history: `BrowserHistory` "
          "reads it from `window.location`, `MemoryHistory` takes `new MemoryHistory(\"/\", \"https://shop.test\")` "
          "(default `http://localhost`). router.ts has no `window` reference. Types check, 7 tests pass.")
    s.user("Good, that's the pattern.")

    s2 = session("dom-only-in-two-files-2", "2025-04-15T14:20:00Z", files)
    s2.user("Server render crashes when the Router is constructed: ScrollManager is created by default and its "
            "first save() reads window.scrollX. Make the router not create one when there is no DOM.")
    s2.read("src/router.ts", offset=22, limit=20)
    s2.edit("src/router.ts",
            "    this.scroll = options.scroll === false ? null : new ScrollManager();\n",
            "    this.scroll = options.scroll === false || typeof window === \"undefined\" ? null : new ScrollManager();\n")
    s2.say("The router now skips the ScrollManager when `typeof window === \"undefined\"`.")
    s2.user("No. router.ts doesn't look at window, not even with typeof. We agreed the DOM is reached from exactly "
            "two files; if you need to know whether scrolling is possible, ask scroll.ts.")
    s2.say("Right — the check belongs in scroll.ts. I'll give `ScrollManager` a static `available()` and have the "
           "router ask it.")
    s2.edit("src/router.ts",
            "    this.scroll = options.scroll === false || typeof window === \"undefined\" ? null : new ScrollManager();\n",
            "    this.scroll = options.scroll === false || !ScrollManager.available() ? null : new ScrollManager();\n")
    s2.edit("src/scroll.ts",
            "  constructor(limit = 50) {\n",
            "  /** Whether there is a window to scroll (false on the server). */\n"
            "  static available(): boolean {\n    return typeof window !== \"undefined\";\n  }\n\n"
            "  constructor(limit = 50) {\n")
    s2.grep("window\\.|document\\.|typeof window", ["src/history.ts", "src/scroll.ts"],
            text="Checking nothing outside the two files touches the DOM:")
    s2.bash("npx tsc --noEmit && npx vitest run", vitest(7, 12, "14:26:40"), description="Type-check and run tests")
    s2.say("Moved: `ScrollManager.available()` in scroll.ts does the `typeof window` check; router.ts only calls it. "
           "A grep for `window.`/`document.` finds only history.ts and scroll.ts. Types check, tests pass.")
    return [s, s2]


@scenario("guard-redirects", RK,
          "options as a table; the person picks one, then the agent parallelises route guards unasked and is "
          "corrected ('must run one after another, parent first'); later the person reverts the pick",
          [exp("decision", "src/guards.ts:Redirect", "throw", ["return an object", "widen the string"]),
           exp("invariant", "src/guards.ts:runGuards", "parent first", ["promise.all"])])
def _guards(files):
    s = session("guard-redirects", "2025-04-09T15:10:00Z", files)
    s.user("guards can only redirect to a string path rn. need: redirect to a named route + choose push vs replace. "
           "how should a guard say that")
    s.read("src/guards.ts")
    s.read("src/router.ts", offset=76, limit=24)
    s.say("Today a guard returns `true`/`undefined` (go on), `false` (block) or a string (redirect, always via "
          "`history.replace`). Three ways to extend it:\n\n"
          "| | guard does | + | − |\n|---|---|---|---|\n"
          "| A | widen the string: return `string \\| { name, params }` | tiny change | still no way to say push vs "
          "replace |\n"
          "| B | return an object: `{ redirect: to, replace?: boolean }` | explicit, room for more fields later | "
          "more verbose for the simple case |\n"
          "| C | throw a `Redirect(to, { replace })` | works from helpers deep inside a guard | exceptions as control "
          "flow; a `try/catch` in a guard can swallow it |\n\n"
          "I'd pick B, keeping plain strings working as a shorthand.")
    s.user("B. plain strings keep working")
    s.edit("src/guards.ts",
           "/** true/undefined: go on; false: block; a string: redirect there. */\n"
           "export type GuardResult = boolean | string | void;\n",
           "export type RedirectTarget = string | { name: string; params?: Record<string, string> };\n\n"
           "/** true/undefined: go on; false: block; a string or { redirect }: redirect there. */\n"
           "export type GuardResult = boolean | string | { redirect: RedirectTarget; replace?: boolean } | void;\n")
    s.edit("src/guards.ts",
           "export type GuardOutcome = { kind: \"allow\" } | { kind: \"block\" } | { kind: \"redirect\"; to: string };\n",
           "export type GuardOutcome =\n  | { kind: \"allow\" }\n  | { kind: \"block\" }\n"
           "  | { kind: \"redirect\"; to: RedirectTarget; replace: boolean };\n")
    s.edit("src/guards.ts",
           "  if (typeof result === \"string\") return { kind: \"redirect\", to: result };\n  return null;\n",
           "  if (typeof result === \"string\") return { kind: \"redirect\", to: result, replace: true };\n"
           "  if (result && typeof result === \"object\") {\n"
           "    return { kind: \"redirect\", to: result.redirect, replace: result.replace ?? true };\n  }\n"
           "  return null;\n")
    s.edit("src/guards.ts",
           "  for (const guard of [...global, ...guardsOf(to)]) {\n"
           "    const outcome = interpret(await guard(to, from));\n"
           "    if (outcome) return outcome;\n  }\n  return { kind: \"allow\" };\n",
           "  for (const guard of global) {\n"
           "    const outcome = interpret(await guard(to, from));\n"
           "    if (outcome) return outcome;\n  }\n"
           "  // route guards are independent of each other: run them together, first non-allow result (in route\n"
           "  // order) wins\n"
           "  const results = await Promise.all(guardsOf(to).map((guard) => guard(to, from)));\n"
           "  for (const result of results) {\n"
           "    const outcome = interpret(result);\n"
           "    if (outcome) return outcome;\n  }\n  return { kind: \"allow\" };\n")
    s.say("Guards can now return `{ redirect: \"/login\" }` or `{ redirect: { name: \"user\", params: { id } }, "
          "replace: false }`; a plain string still means a replace-redirect. While in `runGuards` I also made the "
          "route guards run concurrently with `Promise.all` — they don't depend on each other and it saves a "
          "round-trip when two of them fetch. Next: the router side.")
    s.user("no — route guards must run one after another, parent first. the auth guard on /account has to finish "
           "before the child's loader guard fires, otherwise the child fetches with no token. keep the loop")
    s.edit("src/guards.ts",
           "  for (const guard of global) {\n"
           "    const outcome = interpret(await guard(to, from));\n"
           "    if (outcome) return outcome;\n  }\n"
           "  // route guards are independent of each other: run them together, first non-allow result (in route\n"
           "  // order) wins\n"
           "  const results = await Promise.all(guardsOf(to).map((guard) => guard(to, from)));\n"
           "  for (const result of results) {\n"
           "    const outcome = interpret(result);\n"
           "    if (outcome) return outcome;\n  }\n  return { kind: \"allow\" };\n",
           "  // one after another, global guards then parents before children: a child's guard may rely on what a\n"
           "  // parent's guard set up (the auth token), and must not run at all if the parent redirects\n"
           "  for (const guard of [...global, ...guardsOf(to)]) {\n"
           "    const outcome = interpret(await guard(to, from));\n"
           "    if (outcome) return outcome;\n  }\n  return { kind: \"allow\" };\n",
           text="Back to the sequential loop, with a comment saying why.")
    s.edit("src/router.ts",
           "    if (outcome.kind === \"redirect\") {\n      this.history.replace(outcome.to);\n      return;\n    }\n",
           "    if (outcome.kind === \"redirect\") {\n"
           "      const href = this.href(outcome.to);\n"
           "      if (outcome.replace) this.history.replace(href);\n      else this.history.push(href);\n"
           "      return;\n    }\n")
    s.bash("npx tsc --noEmit", "", description="Type-check")
    s.say("Sequential again (global guards, then route guards parent → child, stopping at the first block or "
          "redirect). The router resolves named redirect targets through `href` and pushes or replaces as asked. "
          "Types check.")
    s.user("hm wait. our loaders call helpers that call helpers, 3 levels. returning an object up through all of "
           "them sucks. go with throwing after all (C). plain string return stays")
    s.edit("src/guards.ts",
           "/** true/undefined: go on; false: block; a string or { redirect }: redirect there. */\n"
           "export type GuardResult = boolean | string | { redirect: RedirectTarget; replace?: boolean } | void;\n",
           "/** true/undefined: go on; false: block; a string: redirect there (replace). Or throw a ``Redirect``. */\n"
           "export type GuardResult = boolean | string | void;\n\n"
           "/** Thrown from a guard, or from anything a guard calls, to redirect the navigation. */\n"
           "export class Redirect extends Error {\n"
           "  constructor(\n    readonly to: RedirectTarget,\n    readonly options: { replace?: boolean } = {},\n  ) {\n"
           "    super(\"routekit: redirect\");\n    this.name = \"Redirect\";\n  }\n}\n",
           text="Switching to C: guards (or helpers they call) throw `Redirect`; `runGuards` catches it.")
    s.edit("src/guards.ts",
           "  if (result && typeof result === \"object\") {\n"
           "    return { kind: \"redirect\", to: result.redirect, replace: result.replace ?? true };\n  }\n",
           "")
    s.edit("src/guards.ts",
           "  for (const guard of [...global, ...guardsOf(to)]) {\n"
           "    const outcome = interpret(await guard(to, from));\n"
           "    if (outcome) return outcome;\n  }\n",
           "  for (const guard of [...global, ...guardsOf(to)]) {\n"
           "    let result: GuardResult;\n"
           "    try {\n      result = await guard(to, from);\n    } catch (err) {\n"
           "      if (err instanceof Redirect) return { kind: \"redirect\", to: err.to, replace: err.options.replace ?? true };\n"
           "      throw err;\n    }\n"
           "    const outcome = interpret(result);\n"
           "    if (outcome) return outcome;\n  }\n")
    s.edit("src/index.ts",
           "export { runGuards, type Guard, type GuardResult } from \"./guards.js\";\n",
           "export { runGuards, Redirect, type Guard, type GuardResult } from \"./guards.js\";\n")
    s.edit("test/router.test.ts",
           "import { Router } from \"../src/router.js\";\n",
           "import { Router } from \"../src/router.js\";\nimport { Redirect } from \"../src/guards.js\";\n")
    s.edit("test/router.test.ts", TAIL_TS,
           "    expect(router.current?.query).toEqual({ tab: \"posts\" });\n  });\n"
           "  it(\"redirects when a guard throws Redirect\", async () => {\n"
           "    const history = new MemoryHistory(\"/\");\n"
           "    const router = new Router({ routes, history, scroll: false });\n"
           "    const requireLogin = () => {\n      throw new Redirect({ name: \"home\" });\n    };\n"
           "    router.beforeEach((to) => (to.path.startsWith(\"/users\") ? requireLogin() : true));\n"
           "    await router.start();\n    router.push(\"/users/3\");\n"
           "    await new Promise((r) => setTimeout(r, 0));\n"
           "    expect(router.current?.path).toBe(\"/\");\n  });\n});\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(8, 15, "15:41:09"), description="Type-check and run tests")
    s.say("Done:\n- `throw new Redirect(to, { replace })` from a guard or anything it calls; `to` is a path or "
          "`{ name, params }`, replace is the default.\n- Returning a string still redirects (replace); `false` "
          "still blocks.\n- The object form is gone.\n- Guards still run one at a time, parent first.\n\n"
          "Types check, 8 tests pass (new one: a helper two calls deep throws `Redirect`).")
    s.user("ok")
    return [s]


@scenario("safari-scroll", RK,
          "pasted bug report; agent finds the browser's own scroll restoration fighting the router, and restores "
          "after two animation frames; the person asks whether the double rAF is a typo and the agent explains",
          [exp("gotcha", "src/scroll.ts:ScrollManager.constructor", "scrollrestoration"),
           exp("workaround", "src/scroll.ts:ScrollManager.restore", "two animation frames")])
def _scroll(files):
    s = session("safari-scroll", "2025-04-11T11:25:00Z", files)
    s.user("safari: back button → page jumps to top then flickers to the right spot. sometimes just stays at top. "
           "chrome fine.\nrepro: /products → scroll way down → click an item → back")
    s.read("src/scroll.ts")
    s.read("src/router.ts", offset=78, limit=22)
    s.say("Two things add up here:\n\n"
          "1. `history.scrollRestoration` is never set, so it's `\"auto\"`: on back, the browser restores the "
          "position **itself**, before the router has rendered the list. Safari does it while the page still has "
          "the short item-page layout, so it clamps (→ top), then our `restore` scrolls again (→ the flicker). "
          "With `\"auto\"` the browser has also already moved the page when `popstate` fires, so the position we "
          "save for the entry we leave can be wrong too. It has to be `\"manual\"` when the router handles "
          "scrolling.\n"
          "2. `restore` runs right after `notify`, synchronously. The app renders the list in response to the "
          "notification, but the framework commits it later, so `scrollTo(0, 2400)` on a page that is still "
          "800px tall clamps to the top — the \"sometimes stays at top\".")
    s.edit("src/scroll.ts",
           "  constructor(limit = 50) {\n    this.limit = limit;\n  }\n",
           "  constructor(limit = 50) {\n    this.limit = limit;\n"
           "    // we restore positions ourselves; with \"auto\" the browser scrolls first (Safari: before the new\n"
           "    // route has rendered, clamped to the old layout) and the two fight\n"
           "    if (\"scrollRestoration\" in window.history) window.history.scrollRestoration = \"manual\";\n  }\n")
    s.edit("src/scroll.ts",
           "  restore(key: string, action: \"push\" | \"replace\" | \"pop\", hash = \"\"): void {\n"
           "    if (action === \"replace\") return;\n",
           "  restore(key: string, action: \"push\" | \"replace\" | \"pop\", hash = \"\"): void {\n"
           "    if (action === \"replace\") return;\n"
           "    // two animation frames: the first runs before the next paint, when the app may not have committed\n"
           "    // the new route yet; the second runs after it, when the page has its real height\n"
           "    requestAnimationFrame(() => requestAnimationFrame(() => this.apply(key, action, hash)));\n  }\n\n"
           "  private apply(key: string, action: \"push\" | \"pop\", hash: string): void {\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(7, 11, "11:39:02"), description="Type-check and run tests")
    s.say("Both fixed in scroll.ts:\n- the ScrollManager sets `history.scrollRestoration = \"manual\"` when it's "
          "created;\n- `restore` waits two animation frames before scrolling.\n\nTypes check and the tests pass, "
          "but none of them run a browser — I can't reproduce Safari here, please check on a device.")
    s.user("why 2 rafs? looks like a copy paste typo")
    s.say("It's deliberate. A single `requestAnimationFrame` callback runs *before* the next paint — React/Vue may "
          "not have committed the new list by then, so the page can still be short and the scroll clamps. The "
          "nested one runs in the frame after, when the new route's DOM is laid out. A `setTimeout(0)` isn't "
          "reliable either (it can run before the frame). The comment above the line says so, so nobody collapses "
          "it to one.")
    s.user("ok. checked on my iphone, back lands in the right place now 👍")
    return [s]


@scenario("repeated-query-keys", RK,
          "non-native English; agent offers lettered options a)–d); the person takes a), turns down b) and c) with "
          "reasons and rules nested objects out for now",
          [exp("decision", "src/query.ts:parseQuery", "repeated key",
               ["always arrays", "bracket syntax", "last one wins"]),
           exp("boundary", "src/query.ts:parseQuery", "nested objects")])
def _query(files):
    s = session("repeated-query-keys", "2025-04-14T08:50:00Z", files)
    s.user("Hi, we have the filter page with url like /search?tag=red&tag=blue. The router give me query.tag = "
           "\"blue\" only, the red is lost. Can you make it correct? Also stringify must do the reverse way.")
    s.read("src/query.ts")
    s.say("`parseQuery` assigns `query[key] = value` for every pair, so the last `tag` overwrites the earlier ones. "
          "`stringifyQuery` already writes arrays as repeated keys. How should parsing shape it?\n\n"
          "a) **A repeated key becomes an array**, a single one stays a string: `tag=red` → `\"red\"`, "
          "`tag=red&tag=blue` → `[\"red\", \"blue\"]`. The `Query` type already allows `string | string[]`; "
          "callers that can get several values must handle both shapes.\n"
          "b) **Always arrays** for every key — one shape, but `query.page[0]` everywhere.\n"
          "c) **Bracket syntax**: only `tag[]=red&tag[]=blue` makes an array (qs/Rails style), plain keys stay "
          "strings and last one wins.\n"
          "d) Keep **last one wins** and add a `parseQueryAll` for the pages that need every value.\n\n"
          "I'd go with a).")
    s.user("a) is good. b) no, too annoying for all the simple params like page. c) no, our backend is Go and it "
           "not understand the brackets, it see a key \"tag[]\". d) no.\nAnd nested objects like filter[color]=red "
           "we don't support, not now, please don't add this also.")
    s.edit("src/query.ts",
           "    const value = eq === -1 ? \"\" : decode(part.slice(eq + 1));\n    query[key] = value;\n",
           "    const value = eq === -1 ? \"\" : decode(part.slice(eq + 1));\n"
           "    const prev = query[key];\n"
           "    if (prev === undefined) query[key] = value;\n"
           "    else if (Array.isArray(prev)) prev.push(value);\n"
           "    else query[key] = [prev, value];\n")
    s.edit("src/query.ts",
           "export function parseQuery(search: string): Query {\n",
           "/** \"?tag=red&tag=blue&page=2\" -> { tag: [\"red\", \"blue\"], page: \"2\" }: a repeated key becomes an array,\n"
           " * a single one stays a string. No bracket syntax and no nested objects: \"filter[color]\" is a plain key. */\n"
           "export function parseQuery(search: string): Query {\n")
    s.edit("test/router.test.ts",
           "    expect(stringifyQuery({ page: \"2\", q: \"a&b\" })).toBe(\"?page=2&q=a%26b\");\n  });\n",
           "    expect(stringifyQuery({ page: \"2\", q: \"a&b\" })).toBe(\"?page=2&q=a%26b\");\n  });\n"
           "  it(\"repeated keys become arrays\", () => {\n"
           "    const q = parseQuery(\"?tag=red&page=2&tag=blue\");\n"
           "    expect(q).toEqual({ tag: [\"red\", \"blue\"], page: \"2\" });\n"
           "    expect(stringifyQuery(q)).toBe(\"?page=2&tag=red&tag=blue\");\n"
           "    expect(parseQuery(\"?filter[color]=red\")).toEqual({ \"filter[color]\": \"red\" });\n"
           "  });\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(8, 13, "08:57:30"), description="Type-check and run tests")
    s.say("Done: a key that appears more than once parses to an array in order, a single one stays a string, and "
          "`stringifyQuery` writes it back as repeated keys (round-trip tested). `filter[color]` stays a plain key "
          "— no nesting, as you said. 8 tests pass.")
    s.user("Thank you very much!")
    return [s]


@scenario("notify-microtask", RK,
          "a person thinking aloud who talks themself out of two options into a third; a follow-up question "
          "settles a detail; an unrelated scope decision (no hash mode) recorded in history.ts",
          [exp("decision", "src/router.ts:Router.notify", "microtask", ["snapshot the listeners", "detect re-entry"]),
           exp("boundary", "src/history.ts", "hash mode")])
def _notify(files):
    s = session("notify-microtask", "2025-04-17T16:05:00Z", files)
    s.user("ok so subscribers. right now notify() calls them synchronously inside settle, before the scroll restore. "
           "problem: a subscriber that calls router.push() (the login redirect in our header component does) starts "
           "the next navigation while settle hasn't finished the route it's announcing, so the old route's scroll "
           "restore runs after the new navigation already began and the saved positions get mixed up. and a "
           "subscriber that throws kills the rest of settle.\n\n"
           "thinking out loud: keep it sync and just snapshot the listeners before looping? no, that doesn't fix the "
           "order at all. detect re-entry and defer only then? that's the clever one and I don't love clever, "
           "nobody will remember why it's there. queue and deliver in a microtask? then tests need an await, but "
           "they already do for guards. ok — microtask, always. what do you think")
    s.read("src/router.ts", offset=78, limit=30)
    s.say("Microtask delivery fixes both: `notify` only records the route and schedules delivery, so `settle` "
          "finishes (current route, key, scroll restore) before any subscriber runs, and a `push()` from a "
          "subscriber starts from a settled router; a subscriber that throws can't abort `settle` any more. One "
          "question: if two navigations settle before the microtask runs (a subscriber redirecting immediately), "
          "should subscribers get both routes in order, or only the latest?")
    s.user("only the latest. nobody cares about a route that was already left.\n\n"
           "oh, unrelated: someone opened an issue asking for hash mode (#/users). we're not doing hash mode, "
           "BrowserHistory + MemoryHistory is all we ship. I'll close it")
    s.edit("src/router.ts",
           "  private notify(route: CurrentRoute): void {\n    for (const l of this.listeners) l(route);\n  }\n",
           "  // Subscribers are called in a microtask, never inside settle(): a subscriber that navigates would\n"
           "  // otherwise start the next navigation before settle() has finished (scroll restore) for the route it\n"
           "  // announces. Routes that settle before the microtask runs are collapsed: subscribers see the latest.\n"
           "  private notify(route: CurrentRoute): void {\n"
           "    const scheduled = this.pending !== null;\n    this.pending = route;\n    if (scheduled) return;\n"
           "    queueMicrotask(() => {\n      const latest = this.pending!;\n      this.pending = null;\n"
           "      for (const l of this.listeners) l(latest);\n    });\n  }\n")
    s.edit("src/router.ts",
           "  current: CurrentRoute | null = null;\n",
           "  private pending: CurrentRoute | null = null;\n  current: CurrentRoute | null = null;\n")
    s.edit("test/router.test.ts", TAIL_TS,
           "    expect(router.current?.query).toEqual({ tab: \"posts\" });\n  });\n"
           "  it(\"a subscriber may navigate; the others see every settled route in order\", async () => {\n"
           "    const history = new MemoryHistory(\"/\");\n"
           "    const router = new Router({ routes, history, scroll: false });\n"
           "    const seen: string[] = [];\n"
           "    router.subscribe((r) => {\n      if (r.path === \"/users/1\") router.push(\"/\");\n    });\n"
           "    router.subscribe((r) => seen.push(r.path));\n"
           "    await router.start();\n    router.push(\"/users/1\");\n"
           "    await new Promise((r) => setTimeout(r, 0));\n"
           "    expect(seen).toEqual([\"/\", \"/users/1\", \"/\"]);\n  });\n});\n")
    s.say("Delivery is in a microtask now, latest route only. Want me to write the hash-mode decision down in "
          "history.ts so the next person asking finds it?")
    s.user("sure")
    s.edit("src/history.ts",
           "// History adapters: the browser's History API, and an in-memory one for tests and SSR.\n",
           "// History adapters: the browser's History API, and an in-memory one for tests and SSR.\n"
           "// No hash mode (\"#/users\"): these two are all routekit ships.\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(8, 16, "16:19:44"), description="Type-check and run tests")
    s.say("Types check, 8 tests pass, including one where the first subscriber redirects: the second sees `/`, "
          "`/users/1`, `/` in order.")
    return [s]


@scenario("review-router", RK, "a review with 'should'/'must' suggestions; the person takes none of them up now", [])
def _review(files):
    s = session("review-router", "2025-04-22T17:40:00Z", files)
    s.user("review src/router.ts pls. anything bad?")
    s.read("src/router.ts")
    s.say("A few things, most important first:\n\n"
          "1. **Overlapping navigations.** `settle` awaits the guards; if a second navigation starts meanwhile and "
          "its guards finish first, the slower, older one still wins and sets `current`. It should tag each "
          "navigation with an id and drop results that are no longer the latest.\n"
          "2. **A throwing subscriber** stops the loop in `notify`, so later subscribers never hear about the "
          "route. Each call must be wrapped in a try/catch (report and continue).\n"
          "3. **`href` throws for unknown names.** Fine in dev; in production you might prefer logging and "
          "returning `\"#\"` so one bad link doesn't blank the page.\n"
          "4. **`start()` passes `\"replace\"`** as the action, so the first render never restores a scroll "
          "position; a reload in the middle of a long page jumps to the top.\n"
          "5. Minor: `beforeEach` returns an unsubscribe but `subscribe` returns a boolean-returning function "
          "(`Set.delete`) — harmless, inconsistent.")
    s.user("k thx. not now, we ship friday — I'll make tickets")
    return [s]


@scenario("colleague-trie", RK,
          "a colleague's rule reported second-hand and not adopted; the agent's plan for a trie nobody takes up; a "
          "typo fix", [])
def _trie(files):
    s = session("colleague-trie", "2025-04-24T13:15:00Z", files)
    s.user("My colleague Jonas says we should never use regexes for route matching and always build a radix trie, "
           "because regex matching is slow with many routes. Is this true for us? We have around 40 routes in the "
           "shop app. I don't want to rewrite things for nothing but I also don't want to argue with him without "
           "knowing.")
    s.read("src/routes.ts")
    s.read("src/pattern.ts", offset=14, limit=40)
    s.say("For 40 routes it doesn't matter. Compiled patterns are cached, so each navigation does at most one regex "
          "test per candidate route — 40 anchored regexes against a short path is on the order of microseconds, "
          "once per navigation. A trie pays off with thousands of routes or when matching on every request on a "
          "server.\n\nIf you ever wanted one, the plan would be:\n"
          "1. build a segment trie from the route table in `routes.ts` (static segments as children, one param "
          "child, one splat child);\n2. keep `compilePattern` only for `buildPath`;\n"
          "3. benchmark before and after with a few thousand generated routes.\n\n"
          "The part I'd keep either way is `bySpecificity`, which re-sorts siblings on every `resolve` call — "
          "that's the only real waste, and it's small.")
    s.user("ok, not worth it then, I'll tell him. While you're there — there's a typo in router.ts, \"nammed\" in "
           "the error message. fix that pls")
    s.edit("src/router.ts", "no route nammed", "no route named")
    s.bash("npx tsc --noEmit", "", description="Type-check")
    s.say("Fixed the typo (`no route named \"…\"`). Types check.")
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
