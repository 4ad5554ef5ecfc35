"""Capture, end to end: the real hook command fed the events of recorded Claude Code
sessions (tests/fixtures/transcripts/) while their edits are applied to a copy of the sample
repository, then the real ``tether log``, ``distill``, ``review``, ``accept`` and
``dismiss`` commands, each a subprocess in its own git repository."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from capture_fixtures import FIXTURES, anchor_label, make_repo, materialize, matches, replay, scenario
from tether.core.files import glob_match

ID_RE = r"[0-9a-hjkmnp-tv-z]{26}"
REPLAYED = ("choose-approach", "set-rule", "failure-then-fix", "no-decisions", "restated", "misleading",
            "boundary-and-workaround")


def env_for(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("VISUAL", "EDITOR", "GIT_DIR", "GIT_WORK_TREE",
                                                          "TETHER_LOG_MAX_BYTES")}
    env.update(PYTHONIOENCODING="utf-8", GIT_CONFIG_NOSYSTEM="1", **extra)
    return env


def run(cwd: Path, *args: str, env: dict | None = None, input: str | None = None) -> subprocess.CompletedProcess:
    r = subprocess.run([sys.executable, "-m", "tether", *args], cwd=cwd, capture_output=True, text=True,
                       input=input, env=env or env_for(), timeout=120)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def ok(cwd: Path, *args: str, **kw) -> subprocess.CompletedProcess:
    r = run(cwd, *args, **kw)
    assert r.returncode == 0, f"tether {' '.join(args)} -> {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r


def ok_json(cwd: Path, *args: str, **kw):
    return json.loads(ok(cwd, *args, "--json", **kw).stdout)


def fails(cwd: Path, *args: str, code: int = 2) -> str:
    r = run(cwd, *args)
    assert r.returncode == code, f"tether {' '.join(args)} -> {r.returncode}\n{r.stdout}\n{r.stderr}"
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tether: "), r.stderr
    return lines[0]


def hook(root: Path, event: dict, env: dict | None = None) -> str:
    """The hook as Claude Code runs it: it always exits 0 and never writes to stderr."""
    r = subprocess.run([sys.executable, "-m", "tether", "hook", "claude-code"], input=json.dumps(event), cwd=root,
                       capture_output=True, text=True, timeout=60, env=env or env_for())
    assert r.returncode == 0 and r.stderr == "", (event.get("hook_event_name"), r.returncode, r.stderr)
    return r.stdout


class Replayed:
    def __init__(self, base: Path, name: str):
        self.name = name
        self.root = base / name / "repo"
        self.transcripts: list[Path] = []
        self.outputs: dict[str, list[str]] = {}

    def review(self) -> list[dict]:
        return ok_json(self.root, "review")["candidates"]


def replay_scenario(base: Path, name: str) -> Replayed:
    r = Replayed(base, name)
    make_repo(r.root)
    ok(r.root, "init")
    for session in scenario(name)["sessions"]:
        path = materialize(session, r.root, base / name / "transcripts")
        r.transcripts.append(path)
        replay(path, r.root, lambda ev: r.outputs.setdefault(ev["hook_event_name"], []).append(hook(r.root, ev)))
    shutil.copytree(r.root, base / name / "pristine", symlinks=True)
    return r


@pytest.fixture(scope="module")
def replayed(tmp_path_factory) -> dict[str, Replayed]:
    """Every session replayed through the real hook command (scenarios side by side); a
    copy of each repository as the replay left it is kept for the tests that change it."""
    base = tmp_path_factory.mktemp("capture")
    with ThreadPoolExecutor(len(REPLAYED)) as ex:
        return dict(zip(REPLAYED, ex.map(lambda n: replay_scenario(base, n), REPLAYED)))


def fresh(replayed: dict[str, Replayed], tmp_path: Path, name: str, distilled: bool = True) -> Replayed:
    """A scenario's repository as its replay left it (its log, its files), this test's own."""
    src = replayed[name]
    r = Replayed(tmp_path, name)
    shutil.copytree(src.root.parent / "pristine", r.root, symlinks=True)
    r.transcripts = [materialize(session, r.root, tmp_path / "transcripts") for session in scenario(name)["sessions"]]
    r.outputs = src.outputs
    if distilled:
        distill(r)
    return r


def distill(r: Replayed, *transcripts: Path) -> list[dict]:
    out = []
    for t in transcripts or r.transcripts:
        out.append(ok_json(r.root, "distill", "--transcript", str(t)))
    return out


def log(r: Replayed, session: str | None = None) -> list[dict]:
    return ok_json(r.root, "log", *(["--session", session] if session else []))["entries"]


def touched(r: Replayed) -> set[str]:
    """Every symbol (path:name) and file the sessions edited, from the observation log."""
    out = set()
    for e in log(r):
        if e["kind"] == "edit":
            out.add(e["path"])
            out.update(f"{e['path']}:{s}" for s in e["symbols"])
    return out | {"**"}


# -- the observation log ---------------------------------------------------------------------------

def test_the_hooks_record_prompts_reads_edits_with_their_symbols_commands_and_failures(replayed):
    r = replayed["failure-then-fix"]
    assert set(r.outputs) == {"UserPromptSubmit", "PostToolUse", "PostToolUseFailure"}
    assert all(out == "" for outs in r.outputs.values() for out in outs)  # recording says nothing to the agent
    entries = log(r)
    sid = entries[0]["session"]
    assert {e["session"] for e in entries} == {sid}
    kinds = [e["kind"] for e in entries]
    assert kinds == ["prompt", "failure", "read", "edit", "command"]
    prompt, failure, read, edit, command = entries
    assert prompt["text"] == "The expiry test is failing on CI, can you take a look?"
    assert failure["tool"] == "Bash" and failure["command"] == "python -m pytest -q tests/test_dates.py"
    assert "TypeError: can't compare offset-naive and offset-aware datetimes" in failure["error"]
    assert read == {**read, "path": "src/shop/dates.py", "tool": "Read"}
    assert edit["path"] == "src/shop/dates.py" and edit["symbols"] == ["parse_date"] and edit["lines"] == [[4, 4]]
    assert command["command"] == "python -m pytest -q tests/test_dates.py"
    assert all(e["at"] < f["at"] for e, f in zip(entries, entries[1:]))  # timestamps, in order
    assert all(e["tool_use_id"].startswith("toolu_01") for e in entries[1:])

    text = ok(r.root, "log", "--session", sid[:8]).stdout.splitlines()
    assert text[0] == f"session {sid}"
    assert text[4].split()[1:] == ["edit", "src/shop/dates.py", "(parse_date)"]
    assert "-> Exit code 1" in text[2] and "$ python -m pytest -q tests/test_dates.py" in text[2]


def test_an_edit_records_only_the_definitions_it_changed(replayed):
    edits = {(e["path"], tuple(e["symbols"])) for e in log(replayed["set-rule"]) if e["kind"] == "edit"}
    assert edits == {("src/shop/ledger.py", ("Ledger.correct",))}
    restated = [e for e in log(replayed["restated"]) if e["kind"] == "edit"]
    # an import added at the top of the module touches no definition
    assert [(e["path"], e["symbols"]) for e in restated] == [
        ("src/shop/money.py", ["to_cents"]), ("src/shop/money.py", []), ("src/shop/money.py", ["to_cents"]),
        ("src/shop/cart.py", ["Cart.add"]), ("src/shop/money.py", ["to_cents"])]


def test_the_log_is_capped_and_the_oldest_entries_go_first(tmp_path):
    root = tmp_path / "repo"
    make_repo(root)
    ok(root, "init")
    env = env_for(TETHER_LOG_MAX_BYTES="1500")
    for i in range(12):
        sid = "old-session" if i < 4 else "new-session"
        hook(root, {"session_id": sid, "cwd": str(root), "hook_event_name": "UserPromptSubmit",
                    "prompt": f"prompt {i:02d} " + "x" * 200}, env)
    entries = log(_at(root))
    texts = [e["text"][:9] for e in entries]
    assert texts == [f"prompt {i:02d}" for i in range(12 - len(texts), 12)] and 3 <= len(texts) <= 6
    assert sum(len(json.dumps(e, separators=(",", ":"))) for e in entries) <= 1500
    sessions = ok_json(root, "log")["sessions"]
    assert [s["id"] for s in sessions] == ["new-session"]  # every entry of the old one is gone, and so is it


def _at(root: Path) -> Replayed:
    r = Replayed(root.parent, root.name)
    r.root = root
    return r


# -- distillation ------------------------------------------------------------------------------------

def test_a_session_that_chooses_one_approach_yields_a_decision_with_the_rejected_option(replayed):
    r = replayed["choose-approach"]
    (done,) = distill(r)
    assert done["lines"] == 17 and done["transcript"] == str(r.transcripts[0])
    (c,) = done["new"]
    assert matches(c, {"kind": "decision", "anchor": "src/shop/prices.py:lookup_price", "phrase": "lru_cache"})
    assert c["title"] == "Use an in-process `functools.lru_cache`"
    assert c["alternatives"] == [{"option": "Redis", "rejected_because": "a network hop per lookup would double the "
                                  "p99 latency and the shop runs as a single process"}]
    assert c["rationale"].startswith("a network hop per lookup")
    assert c["anchors"] == [{"type": "symbol", "path": "src/shop/prices.py", "name": "lookup_price"}]
    (a,) = r.review()[0]["anchors"]  # review resolves each anchor in the file as it is now
    assert a["state"] == "ok" and a["range"]["start"]["line"] == 13  # the decorated definition (0-based)
    (e,) = c["evidence"]
    assert e["who"] == "assistant" and e["at"] == "2026-11-20T09:02:44.000Z" and e["line"] == 7
    assert "rather than Redis" in e["quote"]
    assert c["status"] == "pending" and 0.5 <= c["confidence"] <= 0.95 and c["sessions"] == [done["session"]]


def test_a_session_that_sets_a_rule_yields_an_invariant_on_the_code_written_for_it(replayed):
    r = replayed["set-rule"]
    (done,) = distill(r)
    (c,) = done["new"]
    assert c["kind"] == "invariant" and [anchor_label(a) for a in c["anchors"]] == ["src/shop/ledger.py:Ledger.correct"]
    assert "ledger rows must never be changed in place" in c["title"].lower()
    assert c["evidence"][0]["who"] == "user"


def test_a_failure_then_fix_yields_a_gotcha_on_the_edit_that_fixed_it(replayed):
    r = replayed["failure-then-fix"]
    (done,) = distill(r)
    (c,) = done["new"]
    assert c["kind"] == "gotcha" and c["note_kind"] == "gotcha"
    assert [anchor_label(a) for a in c["anchors"]] == ["src/shop/dates.py:parse_date"]
    assert "naive datetimes" in c["title"]
    assert c["works_around"] == "TypeError: can't compare offset-naive and offset-aware datetimes"
    who = [e["who"] for e in c["evidence"]]
    assert who == ["tool", "assistant", "assistant"]
    assert c["evidence"][0]["quote"].startswith("$ python -m pytest -q tests/test_dates.py\nTypeError")
    assert "`python -m pytest -q tests/test_dates.py` then passed" in c["evidence"][2]["quote"]


@pytest.mark.parametrize("name", ["no-decisions", "misleading"])
def test_sessions_without_decisions_yield_no_candidate(replayed, name):
    r = replayed[name]
    (done,) = distill(r)
    assert done["new"] == [] and done["updated"] == []
    assert r.review() == []
    assert ok(r.root, "distill", "--transcript", str(r.transcripts[0])).stdout.splitlines()[-1] == "  no candidate notes"


def test_candidates_are_anchored_only_on_code_their_session_touched(replayed):
    for name in ("boundary-and-workaround", "restated"):
        r = replayed[name]
        distill(r)
        code = touched(r)
        for c in r.review():
            for label in (anchor_label(a) for a in c["anchors"]):  # or what the code it touched shares: a rule said
                # again about other code is on the package of both
                assert label in code or "*" in label and len({x.split(":")[0] for x in code
                                                              if glob_match(label, x.split(":")[0])}) >= 2, \
                    (name, c["title"], c["anchors"])
    labels = {c["kind"]: anchor_label(c["anchors"][0]) for c in replayed["boundary-and-workaround"].review()}
    # the session read checkout.py and gateway.py whole: the candidates sit on what it edited
    assert labels == {"boundary": "src/shop/checkout.py:charge", "workaround": "src/shop/gateway.py:Gateway.send"}


def test_a_decision_restated_in_three_sessions_is_one_candidate_with_three_pieces_of_evidence(replayed):
    r = replayed["restated"]
    distill(r)  # (also run by the test above: the queue is the same either way)
    (c,) = r.review()
    # on the code each session applied it to (the second also made Cart.add convert), and on what both share
    assert c["kind"] == "decision" and [anchor_label(a) for a in c["anchors"]] == [
        "src/shop/**/*.py", "src/shop/money.py:to_cents", "src/shop/cart.py:Cart.add"]
    assert len(c["sessions"]) == 3 and len(c["evidence"]) == 3
    assert [e["at"][:10] for e in c["evidence"]] == ["2026-11-22", "2026-11-24", "2026-11-27"]
    assert c["alternatives"] == [{"option": "floats", "rejected_because": "float sums drift by a cent now and then"}]
    again = distill(r)  # distilling the same sessions again adds nothing
    assert all(d["new"] == [] and d["updated"] == [] for d in again)
    assert r.review() == [c]


def test_a_damaged_transcript_loses_only_its_bad_lines_and_says_which(replayed, tmp_path):
    r = fresh(replayed, tmp_path, "boundary-and-workaround", distilled=False)
    good = r.transcripts[0].read_text(encoding="utf-8").splitlines(keepends=True)
    rec = json.loads(good[2])  # the agent's first tool call
    rec["message"]["content"] = 42
    damaged = tmp_path / "damaged.jsonl"
    # a line with another shape, a line that is not JSON, a record type tether does not know,
    # and a last line cut while it was written (a session killed mid-write)
    damaged.write_text("".join(good[:2]) + json.dumps(rec) + "\n" + "".join(good[3:5]) + "{\"type\": \"user\", oops\n" +
                       json.dumps({"type": "telemetry-v9", "x": 1}) + "\n" + "".join(good[5:]) +
                       good[-1][:57], encoding="utf-8")
    cut_at = len(good) + 3
    r_ = run(r.root, "distill", "--transcript", str(damaged), "--json")
    assert r_.returncode == 0, r_.stderr
    out = json.loads(r_.stdout)
    assert [(k["file"], k["line"], k["reason"].split(" (")[0]) for k in out["skipped"]] == [
        (str(damaged), 3, "\"message.content\" is a string or a list of blocks, not int"),
        (str(damaged), 6, "not valid JSON"),
        (str(damaged), 7, "unknown record type 'telemetry-v9'"),
        (str(damaged), cut_at, "truncated: the last line ends before its JSON does")]
    assert out["skipped"][3]["reason"] == "truncated: the last line ends before its JSON does (the file was cut " \
                                          "while being written)"
    assert r_.stderr.splitlines() == [f"tether: skipped {k['file']}:{k['line']}: {k['reason']}" for k in out["skipped"]]
    assert len(out["new"]) == 2  # everything readable was distilled: both candidates of the session
    distill(r)  # the intact transcript finds the same candidates, nothing more
    assert len(r.review()) == 2
    assert fails(r.root, "distill", "--transcript", str(tmp_path / "missing.jsonl")) == \
        f"tether: {tmp_path / 'missing.jsonl'}:0: no such transcript file"


def test_a_vscode_copilot_chat_session_is_read_through_the_same_reader(tmp_path):
    root = tmp_path / "repo"
    make_repo(root)
    ok(root, "init")
    session = materialize("vscode-copilot.json", root, tmp_path / "chatSessions")
    edit = json.loads(json.loads(session.read_text())["requests"][1]["result"]["metadata"]["toolCallRounds"][0]
                      ["toolCalls"][0]["arguments"])
    money = root / "src/shop/money.py"
    money.write_text(money.read_text().replace(edit["oldString"], edit["newString"]))
    r_ = run(root, "distill", "--transcript", str(session), "--json")
    assert r_.returncode == 0, r_.stderr
    out = json.loads(r_.stdout)
    assert out["session"] == "6a1f0c52-9d3e-4b7a-8c21-3f5e0b9d7a44" and out["lines"] == 3
    assert out["edited"] == ["src/shop/money.py"]
    assert [(k["line"], k["reason"]) for k in out["skipped"]] == [
        (2, "request 2: response part 6 is not an object"),
        (3, "request 3: needs a \"timestamp\" (epoch milliseconds)")]
    assert out["new"] and all(anchor_label(c["anchors"][0]) == "src/shop/money.py:to_cents" for c in out["new"])
    # the agent's two options and the person's one-word answer: a decision, the other option rejected with the
    # agent's own reason; and the rule the person added
    (d,) = [c for c in out["new"] if c["kind"] == "decision"]
    assert d["title"].startswith("Refuse anything that isn't a whole number of cents")
    assert d["alternatives"] == [{"option": "clamp the value to whole cents with `round`", "rejected_because":
                                  "a bad price would slip through unnoticed"}]  # (not what it has for it)
    (i,) = [c for c in out["new"] if c["kind"] == "invariant"]
    assert i["title"] == "Prices are kept as whole cents everywhere"
    quotes = [e for c in out["new"] for e in c["evidence"]]
    assert {e["line"] for e in quotes} <= {1, 2} and {e["at"][:10] for e in quotes} == {"2026-11-26"}


# -- review, accept, dismiss, merge ------------------------------------------------------------------

def test_accept_writes_a_note_file_with_the_evidence_in_its_body(replayed, tmp_path):
    r = fresh(replayed, tmp_path, "choose-approach")
    (c,) = r.review()
    text = ok(r.root, "review").stdout
    assert f"{c['id'][:8]}      decision   Use an in-process `functools.lru_cache`" in text  # its short id
    assert "on `lookup_price` at src/shop/prices.py:14-15" in text and "rejected: Redis (a network hop" in text
    out = ok(r.root, "accept", c["id"][:8]).stdout.split()
    assert out[0] == "recorded" and out[2].startswith(".tether/notes/")
    note = ok_json(r.root, "show", out[1])
    assert note["kind"] == "decision" and note["title"] == c["title"]
    assert note["alternatives"] == c["alternatives"] and note["rationale"] == c["rationale"]
    assert [(a["path"], a["name"], a["state"]) for a in note["anchors"]] == [("src/shop/prices.py", "lookup_price", "ok")]
    assert "## Evidence" in note["body"] and "> I'll go with an in-process `functools.lru_cache` rather than Redis" \
        in note["body"] and "> — assistant, 2026-11-20T09:02:44.000Z, session " in note["body"]
    assert note["author"] == "Ada Lovelace <ada@example.com>"
    assert r.review() == []
    (done,) = ok_json(r.root, "review", "--all")["candidates"]
    assert done["status"] == "accepted" and done["note"] == note["id"]
    assert fails(r.root, "accept", c["id"]) == f"tether: candidate {c['id']} was already accepted (as note {note['id']})"
    (again,) = distill(r)  # distilled again: not proposed again
    assert again["new"] == [] and again["updated"] == []


def test_a_gotcha_is_accepted_as_a_gotcha_note_with_its_failure_and_cause(replayed, tmp_path):
    r = fresh(replayed, tmp_path, "failure-then-fix")
    (c,) = r.review()
    note = ok_json(r.root, "accept", c["id"])
    assert note["kind"] == "gotcha" and note["tags"] == []
    assert note["failure"] == "TypeError: can't compare offset-naive and offset-aware datetimes"
    assert note["cause"] and note["works_around"] is None
    assert "> $ python -m pytest -q tests/test_dates.py" in note["body"]


def test_dismiss_drops_a_candidate_for_good(replayed, tmp_path):
    r = fresh(replayed, tmp_path, "set-rule")
    (c,) = r.review()
    assert ok(r.root, "dismiss", c["id"]).stdout.startswith(f"dismissed {c['id']}")
    assert r.review() == []
    assert distill(r)[0]["new"] == []  # the same session distilled again: still dismissed
    assert ok_json(r.root, "review", "--all")["candidates"][0]["status"] == "dismissed"
    assert fails(r.root, "dismiss", c["id"]) == f"tether: candidate {c['id']} was dismissed"
    assert fails(r.root, "accept", "zzzz") == "tether: no candidate 'zzzz' (see `tether review`)"


def test_accepting_a_near_duplicate_offers_to_merge_and_merge_adds_the_evidence(replayed, tmp_path):
    r = fresh(replayed, tmp_path, "restated")
    (c,) = r.review()
    nid = ok(r.root, "record", "decision", "src/shop/money.py:7", "--title", "Keep money in integer cents").stdout.strip()
    (cand,) = ok_json(r.root, "review")["candidates"]
    assert cand["near_duplicates"] == [{"id": nid, "kind": "decision", "title": "Keep money in integer cents"}]
    assert f"repeats note {nid[:8]}" in ok(r.root, "review").stdout  # its short id
    msg = fails(r.root, "accept", c["id"], code=1)
    assert msg == (f"tether: candidate {c['id']} repeats note {nid} \"Keep money in integer cents\" (same code, similar "
                   f"text); `tether accept {c['id']} --merge {nid}` adds its evidence to that note, "
                   f"`tether dismiss {c['id']}` drops it")
    notes = sorted((r.root / ".tether/notes").iterdir())
    assert len(notes) == 1
    out = ok(r.root, "accept", c["id"], "--merge", nid[:6]).stdout
    assert out.startswith(f"merged into {nid}")
    assert sorted((r.root / ".tether/notes").iterdir()) == notes  # no second note
    note = ok_json(r.root, "show", nid)
    assert note["title"] == "Keep money in integer cents"
    assert note["alternatives"] == [{"option": "floats", "rejected_because": "float sums drift by a cent now and then"}]
    assert note["body"].startswith(f"## More evidence (candidate {c['id']})")
    assert note["body"].count("> — user") == 2 and note["body"].count("> — assistant") == 1
    assert ok_json(r.root, "review", "--all")["candidates"][0]["status"] == "merged"


def test_a_candidate_that_restates_an_active_note_in_other_words_is_flagged(replayed, tmp_path):
    r = fresh(replayed, tmp_path, "choose-approach")
    (c,) = r.review()  # "Use an in-process `functools.lru_cache`", Redis rejected, on lookup_price
    at = "src/shop/prices.py:15"
    other = ok(r.root, "record", "decision", at, "--title", "Prices are fetched in cents").stdout.strip()
    assert ok_json(r.root, "review")["candidates"][0]["near_duplicates"] == []  # same code, another subject
    same_option = ok(r.root, "record", "decision", at, "--title", "Keep price lookups in process memory",
                     "--rejected", "a Redis cache: another service to run").stdout.strip()
    names_it = ok(r.root, "record", "decision", at, "--title", "lru_cache it is").stdout.strip()
    near = ok_json(r.root, "review")["candidates"][0]["near_duplicates"]
    assert {n["id"] for n in near} == {same_option, names_it} and other not in {n["id"] for n in near}
    assert f"repeats note {near[0]['id'][:8]}" in ok(r.root, "review").stdout
    fails(r.root, "accept", c["id"], code=1)


def test_search_finds_notes_candidates_and_what_the_sessions_said_and_did(replayed, tmp_path):
    r = fresh(replayed, tmp_path, "failure-then-fix")
    nid = ok(r.root, "record", "invariant", "src/shop/dates.py:1", "--file", "--title",
             "Dates are parsed as aware datetimes, never naive").stdout.strip()
    sid = log(r)[0]["session"]
    found = ok_json(r.root, "search", "naive datetime")["results"]
    types = [h["type"] for h in found]
    assert types[0] == "note" and found[0]["id"] == nid and found[0]["note"]["title"].startswith("Dates are parsed")
    assert "candidate" in types and "failure" in types  # the gotcha, and the failing test's error text
    failure = next(h for h in found if h["type"] == "failure")
    assert failure["sessions"] == [sid] and "naive" in failure["entry"]["error"].lower()
    edits = ok_json(r.root, "search", "parse_date", "--session", sid[:8])["results"]
    assert {h["type"] for h in edits} >= {"edit"} and all(sid in h["sessions"] for h in edits)  # no notes
    assert ok_json(r.root, "search", "naive", "--since", "2999-01-01")["results"] == []
    assert ok_json(r.root, "search", "naive", "--since", "1h") == ok_json(r.root, "search", "naive")
    text = ok(r.root, "search", "naive datetime").stdout.splitlines()
    assert re.fullmatch(rf"note       {nid[:8]}\w* +  invariant  Dates are parsed as aware datetimes, never naive", text[0])
    assert any(line.startswith("failure    ") and f"session {sid[:8]}" in line for line in text)
    assert fails(r.root, "search", "x", "--since", "last tuesday").startswith("tether: --since 'last tuesday': give")
    assert ok(r.root, "search", "kubernetes").stdout == "nothing matches 'kubernetes'\n"


def test_accept_edit_opens_the_new_note_in_the_editor(replayed, tmp_path):
    r = fresh(replayed, tmp_path, "set-rule")
    (c,) = r.review()
    editor = tmp_path / "editor.sh"
    editor.write_text("#!/bin/sh\nprintf 'Reviewed by hand.\\n' >> \"$1\"\n", encoding="utf-8")
    editor.chmod(0o755)
    out = ok(r.root, "accept", c["id"], "--edit", env=env_for(EDITOR=str(editor))).stdout
    nid = out.split()[1]
    assert ok_json(r.root, "show", nid)["body"].endswith("Reviewed by hand.\n")


def test_the_queue_survives_a_reindex(replayed, tmp_path):
    r = fresh(replayed, tmp_path, "choose-approach")
    before = r.review()
    ok(r.root, "reindex")
    assert r.review() == before and len(log(r)) > 0


# -- at the end of a session -------------------------------------------------------------------------

def test_session_end_distils_the_session_and_never_fails(replayed, tmp_path):
    r = fresh(replayed, tmp_path, "boundary-and-workaround", distilled=False)
    t = r.transcripts[0]
    sid = log(r)[0]["session"]
    end = {"session_id": sid, "transcript_path": str(t), "cwd": str(r.root), "hook_event_name": "SessionEnd",
           "reason": "prompt_input_exit", "permission_mode": "default"}
    assert hook(r.root, end) == ""
    kinds = sorted(c["kind"] for c in r.review())
    assert kinds == ["boundary", "workaround"]
    (entry,) = [e for e in log(r) if e["kind"] == "distill"]
    assert entry["event"] == "SessionEnd" and len(entry["new"]) == 2
    assert hook(r.root, {**end, "hook_event_name": "Stop", "stop_hook_active": False}) == ""
    assert len([e for e in log(r) if e["kind"] == "distill"]) == 1  # nothing new: nothing logged

    cut = tmp_path / "cut.jsonl"
    cut.write_text(t.read_text(encoding="utf-8")[:-40], encoding="utf-8")
    before = r.review()
    assert hook(r.root, {**end, "transcript_path": str(cut)}) == ""
    assert r.review() == before
    assert f"{cut}:" in (r.root / ".tether/cache/hooks.log").read_text(encoding="utf-8")
    # no transcript and an unknown session: nothing to do, nothing said
    assert hook(r.root, {**end, "session_id": "unknown", "transcript_path": str(tmp_path / "none.jsonl")}) == ""


# -- exchanges: how the person answers the agent ------------------------------------------------------------

def exchange(tmp_path: Path, name: str, said: list[tuple[str, str]], edit: tuple[str, str, str]) -> dict:
    """A Claude Code session where the person and the agent say ``said`` and the agent then
    makes ``edit`` (path, old, new) — applied to a fresh sample repository — distilled."""
    root, t = session_file(tmp_path, name, said, edit)
    return ok_json(root, "distill", "--transcript", str(t))


def session_file(tmp_path: Path, name: str, said: list[tuple[str, str]], edit: tuple[str, str, str],
                 *init: str) -> tuple[Path, Path]:
    """The sample repository after ``edit``, and the transcript of the session that said
    ``said`` and made it where ``said`` has ``("edit", "")`` (else at the end; ``tether init``
    run with ``init``)."""
    root = tmp_path / name
    make_repo(root)
    ok(root, "init", *init)
    return root, more_session(root, tmp_path / f"{name}.jsonl", said, edit)


def more_session(root: Path, t: Path, said: list[tuple[str, str]], edit: tuple[str, str, str]) -> Path:
    """Another session on ``root`` (its transcript written at ``t``): it says ``said`` and
    makes ``edit`` as :func:`session_file` does."""
    name = t.stem
    path, old, new = edit
    f = root / path
    f.write_text(f.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    lines = []

    def add(kind: str, content, **extra):
        lines.append({"type": kind, "sessionId": name, "uuid": f"u{len(lines)}",
                      "timestamp": f"2026-11-30T10:{len(lines):02d}:00.000Z",
                      "message": {"role": kind, "content": content}, **extra})
    for who, text in said if ("edit", "") in said else [*said, ("edit", "")]:
        if who == "edit":
            add("assistant", [{"type": "tool_use", "id": "toolu_1", "name": "Edit",
                               "input": {"file_path": str(f), "old_string": old, "new_string": new}}])
            add("user", [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "The file has been updated."}])
        else:
            add(who, text if who == "user" else [{"type": "text", "text": text}])
    t.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return t


TO_CENTS = ("src/shop/money.py", "    return round(amount * 100)\n",
            "    if round(amount * 100) != amount * 100:\n        raise ValueError(amount)\n    return round(amount * 100)\n")


def test_an_option_the_person_picks_is_a_decision_and_the_others_are_rejected_with_the_agents_reasons(tmp_path):
    out = exchange(tmp_path, "pick", [
        ("user", "to_cents rounds 0.125 silently. what are the options?"),
        ("assistant", "Three ways:\n\n1. **Round half up** — what finance expects on invoices, but it hides bad "
                      "input.\n2. **Refuse fractions of a cent** with a `ValueError` — loud; callers clean their "
                      "data first.\n3. **Truncate** — never overcharges, but totals drift.\n\nI'd go with 2."),
        ("user", "the second")], TO_CENTS)
    (c,) = out["new"]
    assert (c["kind"], c["title"]) == ("decision", "Refuse fractions of a cent")
    assert [anchor_label(a) for a in c["anchors"]] == ["src/shop/money.py:to_cents"]
    assert c["alternatives"] == [
        {"option": "Round half up", "rejected_because": "it hides bad input"},  # what it has against it
        {"option": "Truncate", "rejected_because": "totals drift"}]
    assert [e["who"] for e in c["evidence"]] == ["assistant", "user"] and c["evidence"][1]["quote"] == "the second"


def test_a_proposal_the_person_turns_down_is_the_rejected_option_of_their_rule(tmp_path):
    out = exchange(tmp_path, "turn-down", [
        ("user", "to_cents(0.125) gives 12, a customer was undercharged"),
        ("assistant", "The quickest fix is to round half up in `to_cents` with `Decimal`."),
        ("user", "no — that still hides the bad input. to_cents must never round away a fraction of a cent, "
                 "callers fix their data.")], TO_CENTS)
    (c,) = out["new"]
    assert c["kind"] == "invariant" and c["title"].startswith("to_cents must never round away a fraction of a cent")
    assert c["alternatives"] == [{"option": "round half up in `to_cents` with `Decimal`",
                                  "rejected_because": "that still hides the bad input"}]
    assert [anchor_label(a) for a in c["anchors"]] == ["src/shop/money.py:to_cents"]


def test_a_choice_reverted_later_leaves_the_final_one_with_the_reverted_one_rejected(tmp_path):
    out = exchange(tmp_path, "revert", [
        ("user", "to_cents drops the fraction of a cent. what now?"),
        ("assistant", "Two ways:\n- round half up — what invoices expect\n- refuse fractions of a cent — loud, "
                      "callers clean their data\n\nI'd go with rounding."),
        ("user", "ok"),
        ("assistant", "Rounding half up now."),
        ("user", "hm, no. back to refusing fractions of a cent: the importer must fix its data, finance agreed.")],
        TO_CENTS)
    (c,) = out["new"]
    assert (c["kind"], c["title"]) == ("decision", "Refusing fractions of a cent")
    assert c["alternatives"] == [{"option": "round half up",
                                  "rejected_because": "the importer must fix its data, finance agreed"}]



def test_what_the_agent_says_alone_while_it_edits_is_no_candidate(tmp_path):
    out = exchange(tmp_path, "musing", [
        ("user", "make to_cents refuse fractions of a cent"),
        ("assistant", "The amount should never be negative here, I think, or the ledger would complain. "
                      "I used a plain comparison instead of `Decimal`. `to_cents` must not be confused with "
                      "`format_price`, which takes cents.")], TO_CENTS)
    assert out["new"] == []


def test_a_plain_rule_the_person_states_is_an_invariant_on_the_code_then_edited(tmp_path):
    out = exchange(tmp_path, "plain-rule", [
        ("user", "amounts stay integers in minor units. make to_cents blow up on a fraction of a cent")], TO_CENTS)
    (c,) = out["new"]
    assert (c["kind"], c["title"]) == ("invariant", "Amounts stay integers in minor units")
    assert [anchor_label(a) for a in c["anchors"]] == ["src/shop/money.py:to_cents"]


def test_a_proposal_the_person_waves_off_in_passing_is_the_rejected_option_of_their_choice(tmp_path):
    out = exchange(tmp_path, "wave-off", [
        ("user", "to_cents(0.125) gives 12"),
        ("assistant", "We could round half up with `Decimal` so 0.125 becomes 13."),
        ("user", "rounding is friendlier but it hides the caller's bug. raise a ValueError instead")], TO_CENTS)
    (c,) = out["new"]
    assert c["kind"] == "decision" and c["title"].startswith("Raise a ValueError")
    assert [a["option"] for a in c["alternatives"]] == ["We could round half up with `Decimal` so 0.125 becomes 13"]
    assert [anchor_label(a) for a in c["anchors"]] == ["src/shop/money.py:to_cents"]

def test_options_laid_out_as_a_table_and_a_label_said_after_turning_the_recommendation_down(tmp_path):
    out = exchange(tmp_path, "table", [
        ("user", "to_cents(0.125) gives 12. ideas"),
        ("assistant", "Three ways out:\n\n| | How | Bad |\n|---|---|---|\n"
                      "| **A. Round half up** | `Decimal` quantize | hides sloppy feeds |\n"
                      "| **B. Refuse** | raise `ValueError` | old imports fail |\n"
                      "| **C. Truncate** | as today | loses money quietly |\n\n**Recommendation:** A."),
        ("user", "nope. no silent fixes. B")], TO_CENTS)
    (c,) = out["new"]
    assert (c["kind"], c["title"]) == ("decision", "`to_cents`: refuse")
    assert c["alternatives"] == [{"option": "Round half up", "rejected_because": "hides sloppy feeds"},
                                 {"option": "Truncate", "rejected_because": "loses money quietly"}]


def test_the_agent_taking_an_option_of_its_own_list_as_a_workaround_names_it(tmp_path):
    out = exchange(tmp_path, "own-pick", [
        ("user", "to_cents(0.125) gives 12, the importer sends sub-cent prices"),
        ("assistant", "Two ways out:\n\n- **fix the importer** — right, but it belongs to another team\n"
                      "- **raise on sub-cent amounts here** — loud, and our callers already handle ValueError\n\n"
                      "I'll do the second as a deliberate workaround until the importer is fixed.")], TO_CENTS)
    (c,) = out["new"]
    assert (c["kind"], c["title"]) == ("workaround", "Raise on sub-cent amounts here")
    assert [a["option"] for a in c["alternatives"]] == ["fix the importer"]
    assert [anchor_label(a) for a in c["anchors"]] == ["src/shop/money.py:to_cents"]


def test_why_odd_code_is_there_said_in_a_comment_the_agent_wrote_is_a_workaround(tmp_path):
    commented = (TO_CENTS[0], TO_CENTS[1], "    # Workaround: the importer sends sub-cent prices; raising here\n"
                                           "    # keeps them out until it is fixed upstream.\n" + TO_CENTS[2])
    out = exchange(tmp_path, "comment", [("user", "to_cents(0.125) gives 12, make it loud")], commented)
    (c,) = out["new"]
    assert c["kind"] == "workaround" and c["title"].startswith("Workaround: the importer sends sub-cent prices")
    assert c["evidence"][0]["quote"].startswith("(a comment in src/shop/money.py) Workaround: the importer")
    assert [anchor_label(a) for a in c["anchors"]] == ["src/shop/money.py:to_cents"]
    # a comment that only describes the code proposes nothing
    plain = (TO_CENTS[0], TO_CENTS[1], "    # cents from a float amount\n" + TO_CENTS[2])
    assert exchange(tmp_path, "plain-comment", [("user", "to_cents(0.125) gives 12, make it loud")], plain)["new"] == []


def test_a_choice_the_person_questions_and_keeps_once_the_agent_says_why_is_a_decision(tmp_path):
    out = exchange(tmp_path, "kept", [
        ("user", "to_cents(0.125) gives 12, make it loud"),
        ("assistant", "I'll raise `ValueError` on sub-cent amounts so the importer hears about them."), ("edit", ""),
        ("user", "works. why raise though, rounding would have been friendlier"),
        ("assistant", "Rounding hides the importer's bug: its totals would drift a cent at a time and nobody "
                      "would know which feed did it."),
        ("user", "ok fair, keep the raise")], TO_CENTS)
    (c,) = out["new"]
    assert (c["kind"], c["title"]) == ("decision", "Keep the raise")
    assert [a["option"] for a in c["alternatives"]] == ["rounding"]
    assert [anchor_label(a) for a in c["anchors"]] == ["src/shop/money.py:to_cents"]
    assert [e["who"] for e in c["evidence"]] == ["assistant", "user", "assistant", "user"]  # the choice as made first


def test_a_list_of_rules_the_person_writes_is_read_an_item_at_a_time(tmp_path):
    out = exchange(tmp_path, "rules-list", [
        ("user", "to_cents needs fixing. rules for amounts:\n\n"
                 "- a fraction of a cent is refused with a ValueError. rounding hides bugs\n"
                 "- prices come from the catalog as strings, not floats — the feed sends both\n"
                 "- currencies other than USD stay out for now\n"
                 "- run the tests before you say you're done")], TO_CENTS)
    got = sorted((c["kind"], c["title"]) for c in out["new"])
    assert got == [("boundary", "Currencies other than USD stay out for now"),
                   ("decision", "Prices come from the catalog as strings"),
                   ("invariant", "A fraction of a cent is refused with a ValueError")]
    (d,) = [c for c in out["new"] if c["kind"] == "decision"]
    assert [a["option"] for a in d["alternatives"]] == ["floats"]
    assert all(anchor_label(c["anchors"][0]) == "src/shop/money.py:to_cents" for c in out["new"])


def test_answers_by_number_settle_each_numbered_question_on_its_own(tmp_path):
    out = exchange(tmp_path, "numbered", [
        ("user", "to_cents is sloppy. go through it and ask before fixing"),
        ("assistant", "Questions:\n\n1. Should to_cents refuse fractions of a cent with a `ValueError`?\n"
                      "2. Keep accepting ints as well as floats (today's behaviour)?\n"
                      "3. Negative amounts: (a) refuse them, (b) pass them through (today), or (c) clamp them to "
                      "zero with a warning?\n4. Do you want a changelog entry?"),
        ("user", "1. yes\n2. yes keep it\n3. c for now, refunds get their own function later\n4. later")], TO_CENTS)
    got = sorted((c["kind"], c["title"]) for c in out["new"])
    assert got == [("boundary", "Clamp them to zero with a warning"),
                   ("decision", "to_cents refuse fractions of a cent with a `ValueError`")]
    (b,) = [c for c in out["new"] if c["kind"] == "boundary"]
    assert [a["option"] for a in b["alternatives"]] == ["refuse them", "pass them through (today)"]
    assert b["evidence"][1]["quote"] == "3. c for now, refunds get their own function later"
    assert all(anchor_label(c["anchors"][0]) == "src/shop/money.py:to_cents" for c in out["new"])


def test_a_person_who_changes_their_mind_about_the_option_they_picked_leaves_the_new_pick(tmp_path):
    out = exchange(tmp_path, "changed-mind", [
        ("user", "to_cents(0.125) gives 12. least invasive fix?"),
        ("assistant", "Two ways:\n\n1. Refuse fractions of a cent with a `ValueError`.\n"
                      "2. Round half up, but log a warning.\n\n2 changes less for callers."),
        ("user", "hmm 2 sounds less invasive. do 2"), ("assistant", "Done: half up, with a warning."),
        ("user", "actualy no, thinking about it more 2 is weird — nobody reads the logs. lets go with 1"),
        ("edit", ""), ("assistant", "Done: fractions of a cent raise `ValueError` now.")], TO_CENTS)
    (c,) = out["new"]
    assert (c["kind"], c["title"]) == ("decision", "Refuse fractions of a cent with a `ValueError`")
    assert [a["option"] for a in c["alternatives"]] == ["Round half up — log a warning"]
    assert c["rationale"] == "nobody reads the logs"
    assert [anchor_label(a) for a in c["anchors"]] == ["src/shop/money.py:to_cents"]


def test_the_person_overriding_what_the_agent_chose_leaves_their_choice_and_a_limit(tmp_path):
    out = exchange(tmp_path, "override", [
        ("user", "to_cents(0.125) gives 12. your call what it should do"),
        ("assistant", "I'll round half up with `Decimal`: callers never see an error. Shall I?"),
        ("user", "Reading this again — I'm overriding that. Refuse fractions of a cent with a ValueError. A cent "
                 "rounded away is how the last audit started. And before you ask — not adding currency support "
                 "here, that lives in the FX service."), ("edit", ""), ("assistant", "Done.")], TO_CENTS)
    got = sorted((c["kind"], c["title"]) for c in out["new"])
    assert got == [("boundary", "Not adding currency support here, that lives in the FX service"),
                   ("decision", "Refuse fractions of a cent with a ValueError")]
    (d,) = [c for c in out["new"] if c["kind"] == "decision"]
    assert [a["option"] for a in d["alternatives"]] == ["round half up with `Decimal`: callers never see an error"]
    assert d["rationale"] == "A cent rounded away is how the last audit started"


def test_a_plan_the_person_approves_is_the_choice_made_inside_it_with_what_it_turned_down(tmp_path):
    out = exchange(tmp_path, "plan-yes", [
        ("user", "to_cents(0.125) gives 12. fix it"),
        ("assistant", "Plan:\n1. Add a test for 0.125.\n2. **Refuse fractions of a cent.** I considered truncating, "
                      "but it loses money silently. Rounding half up is the middle ground and keeps callers "
                      "working; I'd go with refusing since a fraction of a cent is always an importer bug.\n\n"
                      "Go ahead?"),
        ("user", "yes"), ("edit", ""), ("assistant", "Done.")], TO_CENTS)
    (c,) = out["new"]
    assert (c["kind"], c["title"]) == ("decision", "Refuse fractions of a cent")
    assert [a["option"] for a in c["alternatives"]] == ["truncating", "Rounding half up"]
    assert [e["quote"] for e in c["evidence"]][-1] == "yes"


def test_the_option_the_agent_says_the_person_described_is_their_pick(tmp_path):
    out = exchange(tmp_path, "described", [
        ("user", "to_cents(0.125) gives 12. what can we do?"),
        ("assistant", "### Option A — Round half up\nWhat people expect on invoices.\n\n"
                      "### Option B — Refuse fractions of a cent\nA `ValueError` the caller sees.\n\n"
                      "A is the smallest change."),
        ("user", "Picture the importer feeding us 0.125 from a bad feed. I want it to blow up right there, loudly, "
                 "so nobody bills a customer a made-up cent."),
        ("assistant", "That's Option B: refuse fractions of a cent."), ("edit", ""), ("assistant", "Done.")], TO_CENTS)
    (c,) = out["new"]
    assert (c["kind"], c["title"]) == ("decision", "Refuse fractions of a cent")
    assert [a["option"] for a in c["alternatives"]] == ["Round half up — What people expect on invoices"]


def test_giving_in_to_the_agents_push_back_leaves_its_way_and_rejects_what_was_asked(tmp_path):
    out = exchange(tmp_path, "conceded", [
        ("user", "to_cents should round half up, finance expects that"),
        ("assistant", "Before I do that, I'd push back a bit: rounding hides the importer's bad feeds. I'd "
                      "**refuse fractions of a cent** with a `ValueError` instead. If you still want rounding, "
                      "say so."),
        ("user", "hm ok fair, the feeds are the real problem. refuse fractions of a cent then."),
        ("edit", ""), ("assistant", "Done.")], TO_CENTS)
    (c,) = out["new"]
    assert c["kind"] == "decision" and c["title"].startswith("Refuse fractions of a cent")
    assert [a["option"] for a in c["alternatives"]] == ["round half up, finance expects that"]
    assert [e["who"] for e in c["evidence"]] == ["user", "assistant", "user"]


def test_a_yes_to_the_change_the_agent_asks_about_is_a_decision_against_what_it_replaces(tmp_path):
    out = exchange(tmp_path, "yes-to", [
        ("user", "to_cents(0.125) gives 12"),
        ("assistant", "Right now a fraction of a cent is rounded down silently. Should to_cents raise a `ValueError` "
                      "for a fraction of a cent?"),
        ("user", "yes. the importer has to clean its data"), ("edit", ""), ("assistant", "Done.")], TO_CENTS)
    (c,) = out["new"]
    assert (c["kind"], c["title"]) == ("decision", "to_cents raise a `ValueError` for a fraction of a cent")
    assert [a["option"] for a in c["alternatives"]] == ["a fraction of a cent is rounded down silently"]
    # a yes to a detail that replaces nothing is no decision
    out = exchange(tmp_path, "yes-to-detail", [
        ("user", "to_cents(0.125) gives 12"), ("assistant", "I'll make it raise. Should it also log the amount?"),
        ("user", "yes"), ("edit", ""), ("assistant", "Done.")], TO_CENTS)
    assert [c["title"] for c in out["new"] if c["kind"] == "decision" and "log" in c["title"]] == []


def test_what_the_agent_reports_it_chose_and_did_not_is_a_decision_once_the_person_agrees(tmp_path):
    out = exchange(tmp_path, "reported-choice", [
        ("user", "to_cents(0.125) gives 12. customers must never be billed a made-up cent"), ("edit", ""),
        ("assistant", "Done. What I chose and why:\n\n- **Refuse fractions of a cent.** `to_cents` raises "
                      "`ValueError`, so the importer sees it.\n- **Did not round half up.** It would hide the bad "
                      "feed.\n- **Did not use a decimal library** (py-moneyed or similar): every call site would "
                      "change, for one function. A test now pins the refusal."),
        ("user", "Good. That's what I wanted.")], TO_CENTS)
    (c,) = [c for c in out["new"] if c["kind"] == "decision"]
    assert c["title"] == "Refuse fractions of a cent"
    assert c["alternatives"] == [  # an aside after the option is its own; the reason, its sentence after, whole
        {"option": "round half up", "rejected_because": "It would hide the bad feed"},
        {"option": "use a decimal library (py-moneyed or similar)",
         "rejected_because": "every call site would change, for one function"}]
    out = exchange(tmp_path, "reported-fragment", [
        ("user", "to_cents(0.125) gives 12. customers must never be billed a made-up cent"), ("edit", ""),
        ("assistant", "Done. What I chose and why:\n\n- **Fixed in the importer only.** The importer now refuses a "
                      "third decimal, which is where the bad feed comes in.\n- **Did not round half up.** It would "
                      "hide the bad feed."), ("user", "Good. That's what I wanted.")], TO_CENTS)
    (c,) = [c for c in out["new"] if c["kind"] == "decision"]
    assert c["title"] == "Fixed in the importer only: the importer now refuses a third decimal"  # not the fragment


def test_a_rule_the_person_has_protected_from_the_next_fix_is_a_workaround(tmp_path):
    out = exchange(tmp_path, "guarded", [
        ("user", "one more, and yes it's silly: to_cents has to keep accepting the string '12.50'. the 2019 "
                 "importer still sends strings. leave a comment so nobody 'fixes' it."),
        ("edit", ""), ("assistant", "Done, with a comment on why strings stay.")], TO_CENTS)
    (c,) = out["new"]
    assert c["kind"] == "workaround" and c["title"].startswith("to_cents has to keep accepting the string")
    assert c["works_around"] == "the 2019 importer still sends strings"


def test_rules_under_a_heading_are_read_a_paragraph_or_an_item_at_a_time(tmp_path):
    out = exchange(tmp_path, "rules-heading", [
        ("user", "## Context\n\nto_cents needs tightening before the audit.\n\n## Rules\n\n"
                 "- **Fractions.** A fraction of a cent must be refused with a ValueError, never rounded.\n"
                 "- **Out of scope.** Currencies other than USD. The FX team owns that.\n\n"
                 "## Process\n\n- Run the linter before you hand it back.")], TO_CENTS)
    got = sorted((c["kind"], c["title"]) for c in out["new"])
    assert got == [("boundary", "Currencies other than USD"),
                   ("invariant", "A fraction of a cent must be refused with a ValueError, never rounded")]
    (b,) = [c for c in out["new"] if c["kind"] == "boundary"]
    assert b["rationale"] == "The FX team owns that"


def test_a_revert_takes_back_the_plan_the_agent_carried_out(tmp_path):
    out = exchange(tmp_path, "revert-plan", [
        ("user", "to_cents(0.125) gives 12. fix it however you think best"),
        ("assistant", "I'll round half up with `Decimal`, so 0.125 becomes 13."), ("edit", ""),
        ("assistant", "Done."),
        ("user", "hmm, actually scratch that — rounding hides the importer's bug. refuse sub-cent amounts instead")],
        TO_CENTS)
    (c,) = out["new"]
    assert c["kind"] == "decision" and c["title"].startswith("Refuse sub-cent amounts")
    assert [a["option"] for a in c["alternatives"]] == ["round half up with `Decimal`"]


def test_a_pick_said_far_down_a_long_reply_or_by_the_words_of_the_code_an_option_names(tmp_path):
    options = ("assistant", "Options:\n\n1. **keep `ROUND_HALF_UP`** — what people expect; a cent off now and then\n"
                            "2. **switch to `ROUND_HALF_EVEN`** — matches the bank\n"
                            "3. **refuse fractions of a cent** — loud\n\nWhich one?")
    # the option named by the words of its code, with the person's reason (a "must" said as a reason is no rule)
    out = exchange(tmp_path, "code-words", [("user", "to_cents is a cent off the bank sometimes"), options,
                                            ("user", "half even. totals must match the statement")], TO_CENTS)
    (c,) = out["new"]
    assert (c["kind"], c["title"], c["rationale"]) == ("decision", "Switch to `ROUND_HALF_EVEN`",
                                                       "totals must match the statement")
    assert [a["option"] for a in c["alternatives"]] == ["keep `ROUND_HALF_UP` — what people expect",
                                                        "refuse fractions of a cent — loud"]
    # a long reply about several things that picks one in passing — after weighing another
    out = exchange(tmp_path, "far-down", [("user", "to_cents is a cent off the bank sometimes"), options, (
        "user", "Thanks. A few things first: the CI cache is stale again, I'll look at it myself. Ana asked about "
                "the changelog, ignore that for now. On rounding: my first instinct was 1, because people expect "
                "it, but honestly a cent off is how the last audit started. So let's go with refusing fractions of "
                "a cent, loudly, and the importer can clean its data.")], TO_CENTS)
    (c,) = out["new"]
    assert (c["kind"], c["title"]) == ("decision", "Refuse fractions of a cent")
    assert [anchor_label(a) for a in c["anchors"]] == ["src/shop/money.py:to_cents"]


def test_none_of_the_options_then_what_the_person_wants_instead_rejects_them_all(tmp_path):
    out = exchange(tmp_path, "none-of-these", [
        ("user", "to_cents(0.125) gives 12. options?"),
        ("assistant", "| option | how | bad |\n|---|---|---|\n| **round half up** | `Decimal` | hides bad feeds |\n"
                      "| **truncate** | as today | loses money |\n\nI'd go with round half up."),
        ("user", "Okay, read it twice. Unrelated: the deploy notes are mine, leave them. On rounding itself: none of "
                 "these, really. What I want is a ValueError for fractions of a cent, so the importer has to clean "
                 "its data.")], TO_CENTS)
    (c,) = out["new"]
    assert c["kind"] == "decision" and c["title"].startswith("A ValueError for fractions of a cent")
    assert [a["option"] for a in c["alternatives"]] == ["round half up", "truncate"]


def test_a_rule_for_the_whole_library_is_on_its_package_and_said_again_later_it_is_one_candidate(tmp_path):
    root, t1 = session_file(tmp_path, "lib-rule", [
        ("user", "format_price drifts on big carts"),
        ("assistant", "I'll sum the float prices and round once at the end."), ("edit", ""),
        ("user", "no float pls. in this lib money is never float, also not for a sum. cents all the way")],
        ("src/shop/money.py", "    return f\"${cents / 100:.2f}\"\n",
         "    return f\"${cents // 100}.{cents % 100:02d}\"\n"))
    (c,) = ok_json(root, "distill", "--transcript", str(t1))["new"]
    assert c["kind"] == "invariant" and [anchor_label(a) for a in c["anchors"]] == ["src/**/*.py"]
    # a week later, other code, other words: the same rule, recalled
    t2 = more_session(root, tmp_path / "lib-rule-2.jsonl", [
        ("user", "cart total is slow"),
        ("assistant", "I'll keep a running float total in `Cart.add`."), ("edit", ""),
        ("user", "no — same rule like last week, money is never float anywhere in src. keep cents")],
        ("src/shop/cart.py", "    def total(self):\n", "    def total(self):  # cents\n"))
    out = ok_json(root, "distill", "--transcript", str(t2))
    assert out["new"] == [] and [len(c["sessions"]) for c in out["updated"]] == [2]


def test_a_rule_recalled_from_another_file_joins_that_files_candidate(tmp_path):
    root, t1 = session_file(tmp_path, "recalled", [
        ("user", "format_price shows floats. rule for money from now on: cents are integers, never floats."),
        ("edit", ""), ("assistant", "Done.")],
        ("src/shop/money.py", "    return f\"${cents / 100:.2f}\"\n",
         "    return f\"${cents // 100}.{cents % 100:02d}\"\n"))
    (c,) = ok_json(root, "distill", "--transcript", str(t1))["new"]
    assert c["kind"] == "invariant"
    t2 = more_session(root, tmp_path / "recalled-2.jsonl", [
        ("user", "cart total is slow"), ("assistant", "I'll keep a running float total in `Cart.add`. OK?"),
        ("user", "no. same as in money.py. the running total must stay an integer count of cents"), ("edit", ""),
        ("assistant", "Done.")],
        ("src/shop/cart.py", "    def total(self):\n", "    def total(self):  # cents\n"))
    out = ok_json(root, "distill", "--transcript", str(t2))
    assert [len(c["sessions"]) for c in out["updated"]] == [2] and out["updated"][0]["id"] == c["id"]


def test_a_bug_told_in_words_then_diagnosed_and_fixed_is_a_gotcha(tmp_path):
    out = exchange(tmp_path, "told-bug", [
        ("user", "format_price(5) shows nothing useful, the receipt is blank for small amounts"),
        ("assistant", "That's the division: `cents / 100` gives 0.05 and the template drops values under 0.1."),
        ("edit", ""), ("assistant", "Fixed.")],
        ("src/shop/money.py", "    return f\"${cents / 100:.2f}\"\n",
         "    return f\"${cents // 100}.{cents % 100:02d}\"\n"))
    (c,) = out["new"]
    assert c["kind"] == "gotcha" and c["title"].startswith("That's the division")
    assert [anchor_label(a) for a in c["anchors"]] == ["src/shop/money.py:format_price"]
    # told without a diagnosis before the fix: no gotcha
    assert exchange(tmp_path, "told-no-why", [
        ("user", "the receipt is blank for small amounts"), ("edit", ""), ("assistant", "Fixed.")],
        ("src/shop/money.py", "    return f\"${cents / 100:.2f}\"\n",
         "    return f\"${cents // 100}.{cents % 100:02d}\"\n"))["new"] == []


def test_code_the_agent_took_for_a_bug_and_the_person_has_put_back_is_a_workaround(tmp_path):
    out = exchange(tmp_path, "put-back", [
        ("user", "add a docstring to to_cents"),
        ("assistant", "While I'm here: `round(amount * 100)` looks wrong for negative refunds, so I'll drop the "
                      "round."),
        ("user", "no no, it must round!! the gateway rejects fractional cents. keep it, and write a comment so "
                 "nobody 'fixes' it again"), ("edit", "")],
        (TO_CENTS[0], TO_CENTS[1], "    # the gateway rejects fractional cents\n" + TO_CENTS[1]))
    (c,) = out["new"]
    assert c["kind"] == "workaround" and "round" in c["title"].lower()
    assert [anchor_label(a) for a in c["anchors"]] == ["src/shop/money.py:to_cents"]


# -- the agent distils its own session: the request at Stop -----------------------------------------

def stop_event(r: Replayed, sid: str, **kw) -> dict:
    return {"session_id": sid, "transcript_path": str(r.transcripts[0]), "cwd": str(r.root), "hook_event_name": "Stop",
            "stop_hook_active": False, "permission_mode": "default", **kw}


def test_stop_asks_the_agent_once_to_record_what_its_session_decided_and_the_answer_lands_on_the_code(
        replayed, tmp_path):
    r = fresh(replayed, tmp_path, "choose-approach", distilled=False)
    ok(r.root, "init", "--agents")  # ask_at_stop = true
    sid = log(r)[0]["session"]
    stop = stop_event(r, sid)
    # while the agent is already answering a stop hook: never block again (it distils all the same)
    assert hook(r.root, {**stop, "stop_hook_active": True}) == ""
    (c,) = r.review()
    reply = json.loads(hook(r.root, stop))
    assert set(reply) == {"decision", "reason"} and reply["decision"] == "block"
    reason = reply["reason"]
    assert reason.startswith("This session changed src/shop/prices.py. Before you finish, record as tether notes "
                             "what it settled")
    # the agent writes the notes itself; tether's candidates come after, as hints to check
    assert reason.index("tether record KIND PATH:LINE") < reason.index("record_note(") < \
        reason.index("tether's hints, to check") < reason.index(c["id"])
    assert f"- candidate {c['id']} decision \"{c['title']}\" on `lookup_price` (src/shop/prices.py:" in reason
    assert "  rejected: Redis" in reason and "  said: \"I'll go with an in-process" in reason
    assert "\nTo correct a note you recorded: tether amend ID [--title" in reason and "amend_note(id, …)" in reason
    for what in ("accept_candidate(id)", "`tether accept ID`", "dismiss_candidate(id)", "--joins ID"):
        assert what in reason
    assert hook(r.root, {**stop, "stop_hook_active": True}) == ""  # once only …
    assert hook(r.root, stop) == ""  # … and the next stop has nothing new to ask

    note = ok_json(r.root, "accept", c["id"])  # the agent answers through the CLI
    assert [(a["path"], a["name"]) for a in note["anchors"]] == [("src/shop/prices.py", "lookup_price")]
    assert ok(r.root, "context", "src/shop/prices.py:15").stdout.count(c["title"]) == 1
    assert r.review() == []


def test_stop_is_silent_when_the_session_changed_no_code_or_the_setting_is_off(replayed, tmp_path):
    r = fresh(replayed, tmp_path, "choose-approach", distilled=False)
    ok(r.root, "init", "--agents")
    # a session that settled a rule but changed nothing: its candidate waits in review, unasked
    talk = {"session_id": "talk-only", "cwd": str(r.root), "permission_mode": "default"}
    hook(r.root, {**talk, "hook_event_name": "UserPromptSubmit",
                  "prompt": "From now on card numbers must never be written to any log."})
    assert hook(r.root, {**talk, "hook_event_name": "Stop", "stop_hook_active": False}) == ""
    assert [c["sessions"] for c in r.review()] == [["talk-only"]]
    # off with one line
    settings = r.root / ".tether/agents.toml"
    settings.write_text(settings.read_text().replace("ask_at_stop = true", "ask_at_stop = false"))
    assert hook(r.root, stop_event(r, log(r)[0]["session"])) == ""
    assert len(r.review()) == 2  # distilled all the same


def test_stop_asks_about_what_the_person_settled_that_tether_could_not_read(tmp_path):
    said = [("user", "to_cents(0.125) gives 12. what can we do?"),
            ("assistant", "Options:\n1. round half up with `Decimal` — 0.125 becomes 13\n"
                          "2. raise `ValueError` on anything finer than a cent\n3. keep truncating, document it"),
            ("user", "the middle one, obviously")]
    root, t = session_file(tmp_path, "lead", said, TO_CENTS, "--agents")
    stop = {"session_id": "lead", "transcript_path": str(t), "cwd": str(root), "hook_event_name": "Stop",
            "stop_hook_active": False}
    reply = json.loads(hook(root, stop))
    assert reply["decision"] == "block"
    reason = reply["reason"]
    assert reason.startswith("This session changed src/shop/money.py.")
    assert "If the session settled nothing worth a note, record nothing" in reason
    assert "not a passing remark, a plan nobody agreed to" in reason  # the standard every labelled set keeps
    # what is worth a note: what the code cannot say — not the change itself, one note per rule
    assert "record as tether notes what it settled that the next session could not read from the code" in reason
    assert "\n- not the change itself: what the code now does" in reason
    assert "a rule over several places is one note on all of them, not a note per place" in reason
    assert ("- the person may have settled something here (answered options): round half up with `Decimal` / raise "
            "`ValueError` on anything finer than a cent / keep truncating, document it → \"the middle one, "
            "obviously\"") in reason
    assert "record_note(" in reason and "accept_candidate" not in reason  # no candidate to accept
    assert hook(root, stop) == ""  # asked once
    # the agent answers: a note on the code the session changed
    note = ok_json(root, "record", "decision", "src/shop/money.py:6", "--title", "Refuse amounts finer than a cent",
                   "--rationale", "a feed finer than a cent is a bug to hear about", "--rejected", "round half up: hides the bug")
    assert [(a["path"], a["name"]) for a in note["anchors"]] == [("src/shop/money.py", "to_cents")]
    # in a long message, the lead quotes what was said about the options, not the greeting before it
    said[2] = ("user", "Thanks for laying that out, and sorry for the delay, the release ate my whole morning and "
                       "the CI cache is broken again, I'll look at it myself later. On the rounding itself: the one "
                       "that raises on anything finer than a cent, obviously")
    root, t = session_file(tmp_path, "lead-long", said, TO_CENTS, "--agents")
    reason = json.loads(hook(root, {**stop, "session_id": "lead-long", "transcript_path": str(t), "cwd": str(root)}))
    assert "→ \"On the rounding itself: the one that raises on anything finer than a cent" in reason["reason"]


def test_before_a_compaction_the_session_is_distilled_and_the_request_comes_after_it(replayed, tmp_path):
    r = fresh(replayed, tmp_path, "choose-approach", distilled=False)
    ok(r.root, "init", "--agents")
    sid = log(r)[0]["session"]
    base = {"session_id": sid, "transcript_path": str(r.transcripts[0]), "cwd": str(r.root)}
    assert hook(r.root, {**base, "hook_event_name": "PreCompact", "trigger": "auto", "custom_instructions": ""}) == ""
    (c,) = r.review()
    out = json.loads(hook(r.root, {**base, "hook_event_name": "SessionStart", "source": "compact"}))
    context = out["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("This session changed src/shop/prices.py.") and c["id"] in context
    assert hook(r.root, stop_event(r, sid)) == ""  # asked already


def test_distilling_from_the_log_alone_and_errors_without_a_session(tmp_path):
    root = tmp_path / "repo"
    make_repo(root)
    ok(root, "init")
    assert fails(root, "distill").startswith("tether: the observation log holds no session yet")
    for ev in ({"hook_event_name": "UserPromptSubmit", "prompt": "Refunds are out of scope for checkout."},
               {"hook_event_name": "UserPromptSubmit", "prompt": "What is 2 + 2?"}):
        hook(root, {"session_id": "s-1", "cwd": str(root), **ev})
    out = ok(root, "distill").stdout.splitlines()
    assert out[0] == "session s-1: from the observation log (no transcript)"
    assert out[1].startswith("  new: ") and out[1].endswith("boundary   Refunds are out of scope for checkout")
    (c,) = ok_json(root, "review")["candidates"]
    assert [anchor_label(a) for a in c["anchors"]] == ["**"] and c["evidence"][0]["line"] == 0
    assert fails(root, "distill", "--session", "nope") == "tether: no session 'nope' in the observation log (see `tether log`)"


# -- the core API the editor and the MCP server use ------------------------------------------------

def in_process(tmp_path: Path, name: str):
    """A scenario replayed through the hook function itself (no subprocess)."""
    from tether.agents.hooks import answer
    from tether.core.workspace import Workspace
    root = tmp_path / "repo"
    make_repo(root)
    ws, _ = Workspace.init(root, exact=True)
    paths = [materialize(s, root, tmp_path / "transcripts") for s in scenario(name)["sessions"]]
    for path in paths:
        replay(path, root, lambda ev: answer(ws, ev))
    return ws, paths


def test_places_follow_the_code_a_candidate_is_on(tmp_path):
    from tether.capture import candidates as capture
    from tether.capture.distill import distill
    ws, (path,) = in_process(tmp_path, "set-rule")
    try:
        distill(ws, transcript=path)
        (c,) = capture.candidates(ws)
        (p,) = capture.places(ws, "src/shop/ledger.py")
        assert p.candidate.id == c.id and p.range.sl == 7 and p.resolution.state == "ok"
        text = (ws.root / "src/shop/ledger.py").read_text(encoding="utf-8")
        moved = "# moved down\n\n\n" + text  # an editor's unsaved buffer
        (p,) = capture.places(ws, "src/shop/ledger.py", moved)
        assert p.range.sl == 10 and p.resolution.name == "Ledger.correct"
        gone = text.replace("def correct(", "def amend(").replace("self.rows.append([account, cents])", "pass")
        assert capture.places(ws, "src/shop/ledger.py", gone) == []  # never shown on other code
        assert capture.places(ws, "src/shop/money.py") == []
    finally:
        ws.close()


def test_the_time_budget_and_another_extractor(tmp_path):
    from tether.capture import candidates as capture
    from tether.capture.candidates import Evidence
    from tether.capture.distill import distill
    from tether.capture.session import Proposal
    ws, (path,) = in_process(tmp_path, "choose-approach")
    try:
        done = distill(ws, transcript=path, budget=0.0)
        assert done.cut and capture.candidates(ws) == []

        class Echo:  # any extractor: proposals in, fingerprinted candidates out
            name = "echo"

            def propose(self, session):
                u = session.said()[0]
                return [Proposal("intent", "Checkout must stay fast", 0.9, [("src/shop/prices.py", "lookup_price")],
                                 [Evidence(session.id, u.who, u.at, u.text, u.line)]),
                        Proposal("decision", "Too unsure", 0.3, [("**", "")], [])]

        done = distill(ws, transcript=path, extractor=Echo())
        (c,) = done.queued.new
        assert (c.kind, c.extractor, c.anchors[0].name, c.anchors[0].hash != "") == \
            ("intent", "echo", "lookup_price", True)
    finally:
        ws.close()


# -- the gate: ask whenever a session changed code and the person said more than bare commands -----------

def agent_hook(root: Path, agent: str, event: dict) -> dict:
    r = subprocess.run([sys.executable, "-m", "tether", "hook", agent], input=json.dumps(event), cwd=root,
                       capture_output=True, text=True, timeout=60, env=env_for())
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return {} if agent == "copilot" and not r.stdout else json.loads(r.stdout)  # copilot says nothing with nothing to say


QUIET = ("src/shop/money.py", "    return round(amount * 100)\n", "    return int(round(amount * 100))\n")


def test_stop_asks_about_a_session_that_settled_what_no_rule_reads(tmp_path):
    said = [("user", "amounts from the clinic arrive as '12,50': a decimal comma, the way Portugal writes them. "
                     "parse those in to_cents."), ("edit", ""), ("assistant", "Done.")]
    root, t = session_file(tmp_path, "quiet", said, QUIET, "--agents")
    stop = {"session_id": "quiet", "transcript_path": str(t), "cwd": str(root), "hook_event_name": "Stop",
            "stop_hook_active": False}
    reply = json.loads(hook(root, stop))
    assert ok_json(root, "review")["candidates"] == [] and "hints" not in reply["reason"]  # the rules found nothing
    assert reply["decision"] == "block" and reply["reason"].startswith("This session changed src/shop/money.py.")
    assert hook(root, stop) == ""  # once
    # the agent's answer arrives as "Stop hook feedback: …", it records, and stops: no words of the person's, no
    # new request; new work the person explains is asked about again
    lines = t.read_text().splitlines()
    more = [{"type": "user", "sessionId": "quiet", "uuid": "f1", "timestamp": "2026-11-30T11:00:00.000Z",
             "message": {"role": "user", "content": "Stop hook feedback:\n" + reply["reason"]}}]
    t.write_text("\n".join(lines + [json.dumps(x) for x in more]) + "\n")
    assert hook(root, stop) == ""
    f = root / "src/shop/money.py"
    f.write_text(f.read_text().replace("int(round(", "int(round(  ").replace("  amount", "amount"))
    more = [{"type": "user", "sessionId": "quiet", "uuid": "p2", "timestamp": "2026-11-30T11:05:00.000Z",
             "message": {"role": "user", "content": "also negative amounts are refunds: keep the sign, never abs()"}},
            {"type": "assistant", "sessionId": "quiet", "uuid": "e2", "timestamp": "2026-11-30T11:06:00.000Z",
             "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_2", "name": "Edit", "input": {
                 "file_path": str(f), "old_string": "x", "new_string": "y"}}]}}]
    t.write_text(t.read_text() + "".join(json.dumps(x) + "\n" for x in more))
    assert json.loads(hook(root, stop))["decision"] == "block"


def test_stop_does_not_ask_about_bare_commands_or_a_session_that_edited_nothing(tmp_path):
    rename = ("src/shop/money.py", "def to_cents(", "def as_cents(")
    root, t = session_file(tmp_path, "rename", [("user", "rename to_cents -> as_cents everywhere. run the tests after"),
                                                ("edit", ""), ("assistant", "Renamed; 12 passed."), ("user", "👍")],
                           rename, "--agents")
    stop = {"session_id": "rename", "transcript_path": str(t), "cwd": str(root), "hook_event_name": "Stop",
            "stop_hook_active": False}
    assert hook(root, stop) == ""
    talk = tmp_path / "talk.jsonl"
    talk.write_text(json.dumps({"type": "user", "sessionId": "talk", "uuid": "a", "timestamp": "2026-11-30T10:00:00Z",
                                "message": {"role": "user", "content": "why does to_cents round? it must never "
                                                                      "lose a cent, I think"}}) + "\n")
    assert hook(root, {**stop, "session_id": "talk", "transcript_path": str(talk)}) == ""


def test_cursor_gemini_and_vscode_take_the_request_at_the_end_of_a_turn_and_it_is_no_prompt(tmp_path):
    root = tmp_path / "agents"
    make_repo(root)
    ok(root, "init", "--agents", "cursor,gemini,vscode")
    money = root / "src/shop/money.py"
    prompt = "to_cents: amounts from the clinic feed use a decimal comma, never a dot. parse that."

    def work(agent: str, start: dict, after: dict) -> None:
        agent_hook(root, agent, start)
        money.write_text(money.read_text().replace("round(amount * 100)", "round(amount * 100)  # ok"))
        agent_hook(root, agent, after)

    asked = {}
    base = {"generation_id": "g", "workspace_roots": [str(root)], "cursor_version": "2.7.0"}
    cur = {**base, "conversation_id": "cur"}
    work("cursor", {**cur, "hook_event_name": "beforeSubmitPrompt", "prompt": prompt},
         {**cur, "hook_event_name": "postToolUse", "tool_name": "Write", "tool_use_id": "t1", "cwd": str(root),
          "tool_input": {"file_path": str(money), "content": money.read_text()}})
    stop = {**cur, "hook_event_name": "stop", "status": "completed"}
    assert agent_hook(root, "cursor", {**stop, "loop_count": 1}) == {}  # its own follow-up's stop: no loop
    out = agent_hook(root, "cursor", {**stop, "loop_count": 0})
    assert set(out) == {"followup_message"}
    asked["cursor"] = out["followup_message"]
    assert agent_hook(root, "cursor", {**stop, "loop_count": 0}) == {}  # asked once

    g = {"transcript_path": "/tmp/none.json", "cwd": str(root), "timestamp": "2026-12-06T10:00:00.000Z"}
    work("gemini", {**g, "session_id": "gem", "hook_event_name": "BeforeAgent", "prompt": prompt},
         {**g, "session_id": "gem", "hook_event_name": "AfterTool", "tool_name": "write_file",
          "tool_input": {"file_path": str(money), "content": money.read_text()}, "tool_response": {"llmContent": "ok"}})
    after = {**g, "session_id": "gem", "hook_event_name": "AfterAgent", "prompt": prompt, "prompt_response": "Done."}
    assert agent_hook(root, "gemini", {**after, "stop_hook_active": True}) == {}
    out = agent_hook(root, "gemini", {**after, "stop_hook_active": False})
    assert out["decision"] == "deny"
    asked["gemini"] = out["reason"]

    vs = {"timestamp": "2026-12-06T10:00:00.000Z", "cwd": str(root), "sessionId": "vsc",
          "transcript_path": "/tmp/none.json"}
    old = money.read_text()
    work("copilot", {**vs, "hookEventName": "UserPromptSubmit", "prompt": prompt},
         {**vs, "hookEventName": "PostToolUse", "tool_name": "replace_string_in_file", "tool_use_id": "v1",
          "tool_input": {"filePath": str(money), "oldString": old, "newString": money.read_text()}})
    out = agent_hook(root, "copilot", {**vs, "hookEventName": "Stop", "stop_hook_active": False})
    assert out["decision"] == "block"
    asked["vscode"] = out["reason"]

    for agent, request in asked.items():  # the exact CLI form and the MCP form side by side, in each
        assert "record as tether notes what it settled" in request, agent
        # the person's rule is a candidate: not asked about again as a lead (these agents' sessions are read
        # from the observation log, which has no transcript lines)
        assert "- candidate " in request and "the person may have settled" not in request, (agent, request)
        assert "\nCLI: tether record KIND PATH:LINE [PATH:LINE …] --title" in request, agent
        assert "\nMCP: record_note(kind, path, line, title" in request and "also=[{path, line}]" in request, agent

    # the follow-up comes back as Cursor's next prompt (and Gemini's reason as its next): tether's own words,
    # never read as the person's
    agent_hook(root, "cursor", {**cur, "hook_event_name": "beforeSubmitPrompt", "prompt": asked["cursor"]})
    agent_hook(root, "cursor", {**stop, "loop_count": 1})
    agent_hook(root, "gemini", {**g, "session_id": "gem", "hook_event_name": "BeforeAgent", "prompt": asked["gemini"]})
    agent_hook(root, "gemini", {**after, "stop_hook_active": True})
    quotes = [e["quote"] for c in ok_json(root, "review", "--json")["candidates"] for e in c["evidence"]]
    assert quotes and not [q for q in quotes if "tether" in q or "the person may have settled" in q], quotes


def test_accepting_a_candidate_on_several_places_confirms_every_one(tmp_path):
    from tether.capture import candidates as capture
    from tether.capture.candidates import Candidate, Evidence
    from tether.core import anchors as A
    from tether.core.languages import for_path
    from tether.core.syntax import SourceFile
    from tether.core.workspace import Workspace
    root = tmp_path / "many"
    make_repo(root)
    ws, _ = Workspace.init(root)
    try:
        anchors = []
        for rel, name in (("src/shop/money.py", "to_cents"), ("src/shop/prices.py", "lookup_price")):
            src = SourceFile(ws.read_source(rel), for_path(rel))
            anchors.append(A.symbol_anchor(src, rel, next(d for d in src.defs if d.qualname == name)))
        q = capture.queue(ws, [Candidate("", "invariant", "Amounts are integer cents everywhere", 0.8, anchors,
                                         [Evidence("s", "user", "2026-12-06T10:00:00Z", "cents, always", 3)])])
        cid = q.new[0].id
    finally:
        ws.close()
    note = ok_json(root, "accept", cid)
    assert [a["name"] for a in note["anchors"]] == ["to_cents", "lookup_price"]
    assert all(a["state"] == "ok" for a in ok_json(root, "list", "--json")["notes"][0]["anchors"])
    r = run(root, "check", "--format", "json")
    assert json.loads(r.stdout)["findings"] == []  # not "changed since it was last confirmed" on the second place


# -- candidates are hints that do not mislead ----------------------------------------------------------

def test_a_title_whose_it_refers_to_nothing_in_it_is_said_of_the_code_it_governs(tmp_path):
    # "It must …": the code is the subject
    (c,) = exchange(tmp_path, "it-must", [
        ("user", "to_cents gets amounts with three decimals from the feed. It must refuse them, never round: a "
                 "cent lost per invoice adds up.")], TO_CENTS)["new"]
    assert c["title"].startswith("`to_cents` must refuse them, never round"), c["title"]
    # "keep it simple", answering the agent's plan: which code "it" is, in the title
    (c,) = exchange(tmp_path, "keep-it", [
        ("user", "to_cents(0.125) gives 12. make it refuse fractions of a cent"),
        ("assistant", "I'll use `pydantic` for this; it validates the amount and gives a clear error."),
        ("user", "nah, keep it simple. no new dependency for three lines of code"), ("edit", "")], TO_CENTS)["new"]
    assert (c["kind"], c["title"]) == ("decision", "`to_cents`: keep it simple"), c
    assert c["alternatives"][0]["option"].startswith("use `pydantic`")
    (c,) = exchange(tmp_path, "for-this", [
        ("user", "to_cents(0.125) gives 12. make it refuse fractions of a cent"),
        ("assistant", "**Proposal.** I'd replace the check with `pydantic` (a validated `Amount` type), so the "
                      "error names the field. Go ahead?"),
        ("user", "no. no deps for this, just make it refuse fractions"), ("edit", "")], TO_CENTS)["new"]
    assert c["title"] == "`to_cents`: no deps for this", c
    # a finding's opener says nothing of it
    (c,) = exchange(tmp_path, "found-it", [
        ("user", "to_cents(0.29) gives the wrong value: 28, not 29"),
        ("assistant", "Found it: `amount * 100` is 28.999999999999996 for 0.29 and the conversion truncates it."),
        ("edit", ""), ("assistant", "Fixed.")], TO_CENTS)["new"]
    assert c["kind"] == "gotcha" and c["title"].startswith("`amount * 100` is 28.99"), c["title"]


def test_a_title_that_is_only_the_option_picked_is_said_of_its_code(tmp_path):
    """"Exit 2", "Raise": the option the person picked, on its own, says nothing of what it
    was picked for; its code says where."""
    (c,) = exchange(tmp_path, "fragment", [
        ("user", "to_cents(0.125) gives 12 silently"),
        ("assistant", "For a fraction of a cent, should to_cents round half up, or raise?"),
        ("user", "raise. silently changing money is worse than an error"), ("edit", "")], TO_CENTS)["new"]
    assert (c["kind"], c["title"]) == ("decision", "`to_cents`: raise"), c
    assert [a["option"] for a in c["alternatives"]] == ["round half up"]


def test_a_removal_condition_the_person_states_is_kept_with_what_the_workaround_works_around(tmp_path):
    (c,) = exchange(tmp_path, "remove-when", [
        ("user", "to_cents: textwire 3.3 sends amounts as strings with a trailing space. strip it before converting. "
                 "it's a workaround, remove when textwire 3.4 ships the fix."), ("edit", ""), ("assistant", "Done.")],
        QUIET)["new"]
    assert (c["kind"], c["title"]) == ("workaround", "`to_cents`: strip it before converting")  # not "It's a workaround, …"
    assert c["works_around"] == "to_cents: textwire 3.3 sends amounts as strings with a trailing space"
    assert c["remove_when"] == "textwire 3.4 ships the fix"
    (c,) = exchange(tmp_path, "remove-when-next", [
        ("user", "keep the strip() in to_cents even if it looks redundant — textwire pads amounts. we can drop it "
                 "once textwire 3.4 ships the fix"), ("edit", ""), ("assistant", "Kept.")], QUIET)["new"]
    assert (c["kind"], c["works_around"], c["remove_when"]) == ("workaround", "textwire pads amounts",
                                                                "textwire 3.4 ships the fix")


def test_a_title_says_what_it_is_about_not_it(tmp_path):
    (c,) = exchange(tmp_path, "fragment", [
        ("user", "should the price cache go to redis?"),
        ("assistant", "Two options:\n1. **Redis** — shared across workers, but another service to run.\n"
                      "2. **Leave it in memory** — per process, lost on restart.\n\nI'd go with 2."),
        ("user", "2"), ("edit", "")], QUIET)["new"]
    assert c["title"] == "Leave the price cache in memory"
    (c,) = exchange(tmp_path, "backwards", [
        ("user", "why does to_cents multiply before rounding?"),
        ("assistant", "That looks backwards, but is deliberate: rounding first would lose the half cents the gateway "
                      "expects."), ("edit", "")], QUIET)["new"]
    assert (c["kind"], c["title"]) == ("workaround", "to_cents multiplies before rounding on purpose")
    assert c["works_around"] == "rounding first would lose the half cents the gateway expects"


def test_what_the_agent_says_of_an_option_is_its_rejection_reason_only_when_it_holds_something_against_it(
        tmp_path):
    (c,) = exchange(tmp_path, "own-description", [
        ("user", "how should to_cents handle 0.125?"),
        ("assistant", "Options:\n- **Banker's rounding** — round half to even\n- **Round half up** — rounds 0.125 to 13, "
                      "but hides bad input\n- **Raise** — refuse anything finer than a cent\n\nI'd go with raising."),
        ("user", "raise"), ("edit", "")], QUIET)["new"]
    assert c["title"] == "Raise: refuse anything finer than a cent" and c["alternatives"] == [  # (the label, said)
        {"option": "Banker's rounding — round half to even", "rejected_because": ""},  # a description, no reason
        {"option": "Round half up", "rejected_because": "hides bad input"}]


def test_a_choice_reverted_later_is_offered_the_way_it_ended(tmp_path):
    out = exchange(tmp_path, "reversed", [
        ("user", "to_cents: should we round half up or truncate?"),
        ("assistant", "Options:\n1. **Round half up** — what invoices expect.\n2. **Truncate** — never overcharges.\n\n"
                      "I'd go with 1."),
        ("user", "1"), ("edit", ""), ("assistant", "Done, rounding half up."),
        ("user", "actually no, revert to truncating"), ("edit", ""), ("assistant", "Reverted to truncating.")], QUIET)
    (c,) = out["new"]
    assert (c["title"], [a["option"] for a in c["alternatives"]]) == ("`to_cents`: truncate", ["Round half up"])
    assert out["leads"] == []  # not the pick of "1" again, as if it still held


def tool_session(tmp_path: Path, name: str, steps: list[tuple]) -> tuple[Path, Path]:
    """A session on a fresh sample repository with shell commands: ``("user"|"assistant", text)``,
    ``("bash", command, output, failed)``, ``("edit", path, old, new)`` (applied to the file)."""
    root = tmp_path / name
    make_repo(root)
    ok(root, "init")
    lines = []

    def add(kind: str, content):
        lines.append({"type": kind, "sessionId": name, "uuid": f"u{len(lines)}",
                      "timestamp": f"2026-11-30T10:{len(lines):02d}:00.000Z", "message": {"role": kind, "content": content}})
    for n, step in enumerate(steps):
        if step[0] == "file":  # ("file", path, text): there before the session, no part of it
            (root / step[1]).parent.mkdir(parents=True, exist_ok=True)
            (root / step[1]).write_text(step[2])
        elif step[0] == "bash":
            _, command, output, failed = step
            add("assistant", [{"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"command": command}}])
            add("user", [{"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": output, "is_error": failed}])
        elif step[0] == "edit":
            _, path, old, new = step
            f = root / path
            f.write_text(f.read_text().replace(old, new))
            add("assistant", [{"type": "tool_use", "id": f"toolu_{n}", "name": "Edit",
                               "input": {"file_path": str(f), "old_string": old, "new_string": new}}])
            add("user", [{"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": "The file has been updated."}])
        else:
            add(step[0], step[1] if step[0] == "user" else [{"type": "text", "text": step[1]}])
    t = tmp_path / f"{name}.jsonl"
    t.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return root, t


def test_failing_output_nobody_explained_and_lint_fixes_are_no_gotchas(tmp_path):
    fix = ("edit", "src/shop/money.py", "    return round(amount * 100)\n", "    return round(float(amount) * 100)\n")
    test = "python -m pytest -q tests/test_money.py"
    failed = "FAILED tests/test_money.py::test_to_cents - TypeError: can't multiply sequence by non-int of type " \
             "'float' in to_cents"
    steps = [("user", "make to_cents accept amounts given as strings"), ("bash", test, failed, True), fix,
             ("bash", test, "1 passed", False), ("assistant", "Done.")]
    root, t = tool_session(tmp_path, "unexplained", steps)
    assert ok_json(root, "distill", "--transcript", str(t))["new"] == []  # the test's output is no title
    steps.insert(2, ("assistant", "It fails because the amount is a string: `'1.5' * 100` is a TypeError, not 150."))
    root, t = tool_session(tmp_path, "explained", steps)
    (c,) = ok_json(root, "distill", "--transcript", str(t))["new"]
    assert c["kind"] == "gotcha" and c["title"].startswith("The amount is a string")
    assert c["rationale"].startswith("the amount is a string")  # a gotcha note's cause
    lint = "ruff check src"
    root, t = tool_session(tmp_path, "lint", [
        ("user", "fix what ruff reports"), ("bash", lint, "src/shop/money.py:6:12: E711 comparison to None", True),
        fix, ("bash", lint, "All checks passed!", False), ("assistant", "Fixed the lint error in `to_cents`.")])
    assert ok_json(root, "distill", "--transcript", str(t))["new"] == []


# -- candidates as hints that do not mislead ------------------------------------------------------------------

ROUNDING = ("user", "to_cents: how should it treat half a cent?"), \
    ("assistant", "Options:\n1. **Round half up** — what invoices expect.\n2. **Banker's rounding** — round half to "
                  "even, no drift over many lines.\n3. **Raise** — refuse it.\n\nI'd go with 1.")


def test_an_option_weighed_and_turned_down_in_the_reply_is_not_offered_as_the_choice(tmp_path):
    for n, reply in enumerate(["Round half up is what I'd have said yesterday, but the totals drift over a long "
                               "invoice. Banker's rounding.",
                               "ok, but I'd rather go with banker's rounding, totals drift otherwise.",
                               "makes sense for invoices, but our totals drift. banker's rounding then."]):
        (c,) = exchange(tmp_path, f"weighed-{n}", [*ROUNDING, ("user", reply), ("edit", "")], QUIET)["new"]
        assert c["kind"] == "decision" and c["title"].lower().endswith("banker's rounding"), reply
        assert any(a["option"].startswith("Round half up") for a in c["alternatives"]), reply


def test_a_choice_taken_back_in_other_words_is_offered_the_way_it_ended(tmp_path):
    out = exchange(tmp_path, "taken-back", [
        ("user", "to_cents: should we round half up or truncate?"),
        ("assistant", "Options:\n1. **Round half up** — what invoices expect.\n2. **Truncate** — never overcharges.\n\n"
                      "I'd go with 1."),
        ("user", "Hmm, let me think aloud. Let's try round half up."), ("edit", ""),
        ("assistant", "Done, rounding half up."),
        ("user", "I'm sorry to go back on this — I'd rather we didn't keep rounding half up after all. A customer was "
                 "overcharged by a cent. Could we truncate instead?"), ("edit", ""), ("assistant", "Truncating now.")],
        QUIET)
    (c,) = out["new"]
    assert c["title"].lower().endswith("truncate") and c["alternatives"][0]["option"] == "rounding half up"


def test_a_title_is_the_statement_without_asides_and_a_remark_is_no_candidate(tmp_path):
    (c,) = exchange(tmp_path, "aside", [("user", "Honestly, to_cents must never round a fraction of a cent away.")],
                    QUIET)["new"]
    assert (c["kind"], c["title"]) == ("invariant", "to_cents must never round a fraction of a cent away")
    (c,) = exchange(tmp_path, "plan", [
        ("user", "textwire 3.3 pads the amounts it sends with a space"),
        ("assistant", "I'll strip the amount in `to_cents` before converting, as a workaround for textwire 3.3 padding "
                      "amounts; it can go once textwire 3.4 ships the fix."), ("edit", ""), ("assistant", "Done.")],
        QUIET)["new"]
    assert c["kind"] == "workaround" and c["title"].startswith("Strip the amount in `to_cents` before converting")
    assert exchange(tmp_path, "defer", [("user", "Let me think about it, I need to talk to Ana about the worker idea "
                                                 "anyway.")], QUIET)["new"] == []  # put off: nothing settled
    assert exchange(tmp_path, "process", [("user", "leave the package.json version alone, the release job bumps it")],
                    QUIET)["new"] == []  # how the work is released, not how the code behaves
    # the agent's first words on a bug pasted in are a remark; what it found is the title
    root, t = tool_session(tmp_path, "remark", [
        ("user", "to_cents('1.5') blows up:\n\nTypeError: can't multiply sequence by non-int of type 'float'"),
        ("assistant", "I think I know this one. `to_cents` multiplies the string itself: `'1.5' * 100` repeats text "
                      "instead of scaling a number."),
        ("edit", "src/shop/money.py", "    return round(amount * 100)\n", "    return round(float(amount) * 100)\n"),
        ("assistant", "Fixed.")])
    (c,) = ok_json(root, "distill", "--transcript", str(t))["new"]
    assert c["kind"] == "gotcha" and c["title"].startswith("`to_cents` multiplies the string itself")


def test_the_sessions_own_slip_fixed_at_once_is_no_gotcha(tmp_path):
    test = "python -m pytest -q tests/test_money.py"
    for n, (output, said) in enumerate([
            ("E   NameError: name 'Decimal' is not defined", "The new code in `to_cents` uses `Decimal` and never "
                                                            "imports it."),
            ("FAILED tests/test_money.py::test_to_cents - AssertionError: assert 150 == 15", "Forgot the import in "
                                                                                            "`to_cents`.")]):
        root, t = tool_session(tmp_path, f"slip-{n}", [
            ("user", "make to_cents accept amounts given as strings"), ("bash", test, output, True), ("assistant", said),
            ("edit", "src/shop/money.py", "    return round(amount * 100)\n", "    return round(float(amount) * 100)\n"),
            ("bash", test, "1 passed", False), ("assistant", "Done.")])
        assert ok_json(root, "distill", "--transcript", str(t))["new"] == [], output


def test_rejected_options_are_options_not_fragments(tmp_path):
    (c,) = exchange(tmp_path, "fragments", [
        ("user", "to_cents: how should it treat half a cent?"),
        ("assistant", "| option | how | good | bad |\n|---|---|---|---|\n| Round half up | `ROUND_HALF_UP` | what "
                      "invoices expect | drifts \\| hides input |\n| Banker's rounding | `ROUND_HALF_EVEN` | no drift | "
                      "surprises people |\n| before | - | - | - |\n\nI'd go with banker's rounding."),
        ("user", "banker's rounding"), ("edit", "")], QUIET)["new"]
    assert c["title"].lower().endswith("banker's rounding")
    assert [a["option"] for a in c["alternatives"]] == ["Round half up"]
    assert "drifts | hides input" in c["alternatives"][0]["rejected_because"]


def test_at_stop_a_gotcha_is_offered_with_its_failure_and_cause(replayed, tmp_path):
    r = fresh(replayed, tmp_path, "failure-then-fix", distilled=False)
    ok(r.root, "init", "--agents")
    reason = json.loads(hook(r.root, stop_event(r, log(r)[0]["session"])))["reason"]
    (c,) = r.review()
    assert c["kind"] == "gotcha" and f"- candidate {c['id']} gotcha " in reason
    assert "  failure: TypeError: can't compare offset-naive and offset-aware datetimes; cause: " in reason
    assert "works around:" not in reason


# -- what an agent trusting the hints would be misled by (the tune sets' players reported each) ----------------

def exchange_on(tmp_path: Path, name: str, files: dict[str, str], said: list[tuple[str, str]],
                edit: tuple[str, str, str]) -> dict:
    """:func:`exchange` on the sample repository with ``files`` written into it first (code that
    was there before the session)."""
    root = tmp_path / name
    make_repo(root)
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    ok(root, "init")
    return ok_json(root, "distill", "--transcript", str(more_session(root, tmp_path / f"{name}.jsonl", said, edit)))


def test_a_rejected_option_shows_the_reason_given_against_it_or_none(tmp_path):
    # the agent's own question is no reason ("Round or raise?")
    (c,) = exchange(tmp_path, "question", [
        ("user", "to_cents gets 0.125 from the feed and rounds it away"),
        ("assistant", "Two ways to go: round half up to 13 cents, or raise `ValueError` with the amount in the message. "
                      "Round or raise?"),
        ("user", "raise. silently changing money is worse than an error"), ("edit", "")], TO_CENTS)["new"]
    assert c["alternatives"] == [{"option": "round half up to 13 cents", "rejected_because": ""}], c["alternatives"]
    # a table: its "trade-off" column, not how the option works
    (c,) = exchange(tmp_path, "table", [
        ("user", "to_cents: how should it treat half a cent?"),
        ("assistant", "| option | how | trade-off |\n|---|---|---|\n| Round half up | `ROUND_HALF_UP` | totals drift over "
                      "long invoices |\n| Raise | refuse it | callers clean their data first |\n\nWhich one?"),
        ("user", "raise"), ("edit", "")], TO_CENTS)["new"]
    assert c["alternatives"] == [{"option": "Round half up", "rejected_because": "totals drift over long invoices"}]
    # no reason from the agent: the person's objection that names it
    (c,) = exchange(tmp_path, "objections", [
        ("user", "to_cents gets 0.125 from the feed. propose something before you change anything."),
        ("assistant", "I could either round half up to 13 cents, or refuse anything finer than a cent with a "
                      "`ValueError`. I'd lean to rounding: it's one line."),
        ("user", "Some objections.\n\n1. Rounding half up hides the feeds that send a third decimal, and finance only "
                 "sees it at month end.\n2. So refuse anything finer than a cent, with the amount in the message."),
        ("edit", ""), ("assistant", "Done: `to_cents` refuses anything finer than a cent.")], TO_CENTS)["new"]
    assert c["alternatives"] == [{"option": "round half up to 13 cents", "rejected_because": "Rounding half up hides "
                                  "the feeds that send a third decimal, and finance only sees it at month end"}]
    # turned down: the person's words about that option, not the choice they made instead
    (c,) = exchange(tmp_path, "chosen", [
        ("user", "to_cents should accept amounts given as strings"),
        ("assistant", "I can do that, but I want to flag the risk first: a string can carry a comma. I'd lean to "
                      "`Decimal` for strings."),
        ("user", "no. I get the risk, but we own the feed and the rule for it is dots only. convert them, accept every "
                 "string. we tried Decimal in the importer last year and it was ten times slower."), ("edit", "")],
        QUIET)["new"]
    assert c["alternatives"] == [{"option": "`Decimal` for strings", "rejected_because":
                                  "we tried Decimal in the importer last year and it was ten times slower"}]
    # the agent's push-back: its reason, not its preamble
    (c,) = exchange(tmp_path, "preamble", [
        ("user", "to_cents should round half up"),
        ("assistant", "Before I do that, I'd push back a bit on rounding. The feed sends a third decimal only when "
                      "the importer is broken, and rounding half up would hide that on every invoice. I'd **refuse "
                      "fractions of a cent** with a `ValueError` instead. If you still want rounding, say so."),
        ("user", "hm ok fair. refuse fractions of a cent then."), ("edit", ""), ("assistant", "Done.")], TO_CENTS)["new"]
    (alt,) = c["alternatives"]
    assert alt["rejected_because"].startswith("The feed sends a third decimal only when the importer is broken"), alt
    # from the agent's list: what it held against an option, not what the option is
    (c,) = exchange(tmp_path, "described", [
        ("user", "to_cents: how should it treat half a cent?"),
        ("assistant", "A few ways:\n1. **Round half up** (0.125 → 13). One line, but totals drift over a long invoice.\n"
                      "2. **Raise** — refuse anything finer than a cent.\n3. **Clamp** — keep refusing nothing, but "
                      "log a warning so support can see it.\n\nWhich fits?"),
        ("user", "2"), ("edit", "")], TO_CENTS)["new"]
    assert c["alternatives"] == [{"option": "Round half up", "rejected_because": "totals drift over a long invoice"},
                                 {"option": "Clamp — keep refusing nothing, but log a warning so support can see it",
                                  "rejected_because": ""}], c["alternatives"]  # (a short description names it)


def test_a_candidate_is_on_the_code_its_rule_governs(tmp_path):
    money = (FIXTURES / "repo" / "src/shop/money.py").read_text() + \
        "\n\nclass AmountError(ValueError):\n    \"\"\"An amount that is no price.\"\"\"\n"
    # an error class the rule names is what the code raises, not what the rule governs
    (c,) = exchange_on(tmp_path, "raised", {"src/shop/money.py": money}, [
        ("user", "to_cents gets 0.125 from the feed"),
        ("assistant", "Should `to_cents` round half up, or raise `AmountError`?"),
        ("user", "raise `AmountError` with the amount in the message. a cent lost per invoice adds up"), ("edit", "")],
        TO_CENTS)["new"]
    assert [anchor_label(a) for a in c["anchors"]] == ["src/shop/money.py:to_cents"], c["anchors"]
    # a test block named like the code is not the code ("describe('toCents')")
    spec = 'import { toCents } from "../src/money";\n\ndescribe("toCents", () => {\n  it("rounds", () => {});\n});\n'
    ts = 'export function toCents(amount: number): number {\n  return Math.round(amount * 100);\n}\n'
    root, t = tool_session(tmp_path, "describe", [
        ("file", "web/money.ts", ts), ("file", "web/money.test.ts", spec),
        ("user", "the app calls toCents on every keystroke. amounts must never lose a fraction of a cent: finance "
                 "reconciles every cent"),
        ("edit", "web/money.ts", "  return Math.round(amount * 100);\n",
         "  if (Math.round(amount * 100) !== amount * 100) throw new Error(String(amount));\n  return amount * 100;\n"),
        ("edit", "web/money.test.ts", '  it("rounds", () => {});\n', '  it("rounds", () => {});\n  it("throws", () => {});\n'),
        ("assistant", "Done.")])
    (c,) = ok_json(root, "distill", "--transcript", str(t))["new"]
    assert [anchor_label(a) for a in c["anchors"]] == ["web/money.ts:toCents"], c["anchors"]
    # one rule of several a message joins with semicolons: where its clause says, not the library another names
    (c, *_) = exchange(tmp_path, "clauses", [
        ("user", "context: the ledger sums cents per account, which is the whole reason amounts are ints — so "
                 "to_cents must never return a float, one int per amount; no rounding helpers in this library "
                 "either (the gateway rounds)"), ("edit", ""), ("assistant", "Done.")], QUIET)["new"]
    assert c["title"].startswith("to_cents must never return a float") and \
        [anchor_label(a) for a in c["anchors"]] == ["src/shop/money.py:to_cents"], c


def test_a_choice_taken_back_is_offered_with_what_was_held_against_the_old_one(tmp_path):
    root, t = tool_session(tmp_path, "so", [
        ("user", "to_cents gets float noise from the feed, 0.1 + 0.2 and such. I think we should round to the cent, "
                 "half up. yeah, let's do that, round half up."),
        ("edit", "src/shop/money.py", "    return round(amount * 100)\n", "    return int(amount * 100 + 0.5)\n"),
        ("assistant", "Added rounding half up to `to_cents`: `int(amount * 100 + 0.5)`. Tests pass."),
        ("user", "hmm. thinking about it more, that's going to hide bad feeds: a price of 0.125 quietly becomes 13 "
                 "cents. revert the rounding. the feed knows each currency's precision, so let it pass the number of "
                 "decimals: to_cents refuses anything finer."),
        ("edit", "src/shop/money.py", "    return int(amount * 100 + 0.5)\n", "    return round(amount * 100)\n"),
        ("assistant", "Reverted the rounding; `to_cents` now takes the precision.")])
    (c,) = ok_json(root, "distill", "--transcript", str(t))["new"]
    assert c["title"].startswith("Let it pass the number of decimals"), c["title"]  # not the premise
    assert c["rationale"] == "the feed knows each currency's precision"
    (alt,) = c["alternatives"]
    assert alt["rejected_because"].startswith("that's going to hide bad feeds"), alt  # not the new choice


def test_a_gotcha_is_a_trap_the_person_hit_told_by_what_they_saw(tmp_path):
    fix = ("edit", "src/shop/money.py", "    return round(amount * 100)\n", "    return round(float(amount) * 100)\n")
    # a change asked for with an example pasted: the code as it was is no trap
    root, t = tool_session(tmp_path, "wanted", [
        ("user", "```python\n>>> to_cents('1.5')\n150\n>>> to_cents('x')\nValueError: not an amount: 'x'\n```\n"
                 "want this: amounts given as strings work too. today it's a TypeError."),
        ("assistant", "Today `to_cents` multiplies whatever it gets by 100, so a string is repeated instead of scaled."),
        fix, ("assistant", "Done: `to_cents` converts strings first.")])
    assert [c["kind"] for c in ok_json(root, "distill", "--transcript", str(t))["new"]] == []
    # a bug reported, reproduced by a test the agent wrote: the failure is what the person saw, not the test's output
    test = "python -m pytest -q tests/test_dates.py"
    root, t = tool_session(tmp_path, "ticket", [
        ("user", "Support ticket, pasted:\n\n> Our invoice shows 28 cents for an item priced 0.29, and the totals "
                 "are off by a cent here and there.\n\nCan you find out what's going on?"),
        ("assistant", "Suspicious: `to_cents` multiplies a float by 100. Let me confirm with a test."),
        ("edit", "tests/test_dates.py", "from shop.dates import", "from shop.money import to_cents\nfrom shop.dates import"),
        ("bash", test, "FAILED tests/test_dates.py::test_cents - AssertionError: assert 28 == 29", True),
        ("assistant", "Confirmed: `amount * 100` is 28.999999999999996 for 0.29 because 0.29 has no exact binary "
                      "float, and `to_cents` drops the fraction."),
        fix, ("bash", test, "3 passed", False), ("assistant", "Fixed.")])
    (c,) = ok_json(root, "distill", "--transcript", str(t))["new"]
    assert c["kind"] == "gotcha" and c["works_around"] == "Our invoice shows 28 cents for an item priced 0.29, and " \
                                                          "the totals are off by a cent here and there", c


def test_a_title_states_the_rule_not_its_premise_a_label_or_a_cut_quote(tmp_path):
    # "X, so Y": X is why, Y the limit
    (c,) = exchange(tmp_path, "premise", [
        ("user", "to_cents: honestly the gateway only ever sends euros, so whatever happens with other currencies is "
                 "fine for now, we don't need to handle them"), ("edit", ""), ("assistant", "Done.")], QUIET)["new"]
    assert (c["kind"], c["title"]) == ("boundary", "Whatever happens with other currencies is fine for now, we don't "
                                                   "need to handle them"), c
    assert c["rationale"] == "the gateway only ever sends euros"
    # an option picked by its label: with what the agent said it does
    (c,) = exchange(tmp_path, "label", [
        ("user", "to_cents: 0.125 comes in from the feed. what can we do?"),
        ("assistant", "A few ways:\n1. **Round half up** — 13 cents, but it hides bad feeds.\n2. **Underflow** — "
                      "raise `ValueError` for anything finer than a cent (`to_cents(0.125)` fails loudly).\n\n"
                      "Which one?"),
        ("user", "2"), ("edit", "")], TO_CENTS)["new"]
    assert c["title"] == "Underflow: raise `ValueError` for anything finer than a cent", c["title"]
    # a question answered "yes" is said as a statement; an option is read whole ("`#AMOUNT!`": a "!" in a word)
    (c,) = exchange(tmp_path, "asked", [
        ("user", "to_cents gets 0.125 from the feed"),
        ("assistant", "Should the amount be refused when it has a third decimal, instead of rounded, so that the feed "
                      "gets fixed?"), ("user", "yes"), ("edit", "")], TO_CENTS)["new"]
    assert c["title"] == "The amount is refused when it has a third decimal", c["title"]
    (c,) = exchange(tmp_path, "bang", [
        ("user", "to_cents gets 0.125 from the feed"),
        ("assistant", "Two ways: raise `ValueError` for the whole invoice, or store `#AMOUNT!` in the line's total, the "
                      "way sheets show an error in a cell. Which one?"),
        ("user", "the second. one bad line must not block an invoice"), ("edit", "")], TO_CENTS)["new"]
    assert c["title"].startswith("Store `#AMOUNT!` in the line's total"), c["title"]
    # a long statement: up to the end of a clause, its asides left out, never cut mid-thought
    (c,) = exchange(tmp_path, "long", [
        ("user", "to_cents must never round a fraction of a cent away (the ledger sums cents per account and "
                 "finance reconciles them monthly), one exact int per amount, no 'helpful' rounding of feeds that "
                 "send three decimals, whoever asks")], QUIET)["new"]
    assert c["title"] == "to_cents must never round a fraction of a cent away, one exact int per amount", c["title"]


def test_the_person_not_settling_is_no_lead(tmp_path):
    out = exchange(tmp_path, "unsure", [
        ("user", "to_cents gets 0.125 from the feed"),
        ("assistant", "Two ways to go: round half up to 13 cents, or raise `ValueError` with the amount in the message. "
                      "Round or raise?"),
        ("user", "hmm not sure. what does the importer do with a ValueError? and would 0.125 just become 13 silently?"),
        ("assistant", "The importer logs it and skips the row. And yes, rounding would be silent."),
        ("user", "raise then. a skipped row gets looked at, a silent cent doesn't"), ("edit", "")], TO_CENTS)
    assert [c["kind"] for c in out["new"]] == ["decision"] and out["leads"] == [], out["leads"]
    out = exchange(tmp_path, "later", [
        ("user", "let me think about it, I need to talk to Ana about rounding anyway. for now just make to_cents "
                 "accept strings, it must not crash on them"), ("edit", ""), ("assistant", "Done.")], QUIET)
    assert out["leads"] == [], out["leads"]  # put off: what is said after is no rule either


def test_a_rule_said_again_is_offered_to_join_the_note_it_restates(tmp_path):
    root, t = session_file(tmp_path, "first", [
        ("user", "to_cents must never round a fraction of a cent away: finance reconciles every cent")], QUIET, "--agents")
    (c,) = ok_json(root, "distill", "--transcript", str(t))["new"]
    note = re.search(ID_RE, ok(root, "accept", c["id"]).stdout).group(0)
    t = more_session(root, tmp_path / "second.jsonl", [
        ("user", "format_price: same as in money.py, a price must never lose a cent on its way to the screen"),
        ("edit", ""), ("assistant", "Done.")],
        ("src/shop/money.py", '    return f"${cents / 100:.2f}"\n', '    return f"${cents // 100}.{cents % 100:02d}"\n'))
    stop = {"session_id": "second", "transcript_path": str(t), "cwd": str(root), "hook_event_name": "Stop",
            "stop_hook_active": False}
    reason = json.loads(hook(root, stop))["reason"]
    (c,) = ok_json(root, "review")["candidates"]
    assert c["title"] == "A price must never lose a cent on its way to the screen"  # not "Same as in money.py, …"
    assert f"- candidate {c['id']} " in reason and \
        f"  restates note {note} \"" in reason and f"`tether accept {c['id']} --merge {note}`" in reason, reason


def test_the_spec_of_new_code_asked_for_is_no_rule(tmp_path):
    out = exchange(tmp_path, "spec", [
        ("user", "need to_cents(amount) in money.py: euros and dollars only, amounts must be positive, everything "
                 "else raises."), ("edit", ""), ("assistant", "Done.")], QUIET)
    assert out["new"] == [], out["new"]  # the feature asked for: the agent says at Stop what, if anything, was settled
