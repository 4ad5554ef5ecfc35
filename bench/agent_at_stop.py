"""The agent at Stop: a language model plays each labelled session's own agent — it gets the
transcript and exactly the request tether's Stop hook returns for the session, and records notes
with the CLI as the request says — then a second, blind one judges by meaning which of the
writer's labels those notes state (the rule, on the labelled code). ``bench/distill.py`` scores
the result, kept beside the set as ``bench/sessions/SET/agent_at_stop.json``.

``lay-out SET --to DIR`` makes, per scenario, a case folder ``DIR/SET/cNN/`` under made-up names:
``work/`` — the scenario's repository as a real user's (a git repository, ``tether init --agents
claude`` run and committed) after its first session, replayed through tether's hook — and per
session ``sNN/`` with ``transcript.jsonl`` (its paths in ``work/``), ``transcript.txt`` (the same,
readable) and ``request.txt``: the ``reason`` of the answer ``tether hook claude-code`` (the real
command, as Claude Code runs it) gives the Stop event, byte for byte — or ``not-asked.txt`` when it
does not ask. The player follows ``PLAYER.md`` (written beside); in a case of several sessions it
runs ``next DIR/SET/cNN`` after each, which commits ``work/`` (the earlier session's code and
notes, as a user would) and plays the next session into it the same way. The key from the
made-up names back to the scenarios stays in ``DIR/.key-SET/``.

``collect SET --from DIR`` reads each case's notes (through tether: kind, title, rationale,
rejected options, places; which session recorded each, and whether it is a candidate accepted
unchanged) and what each session was asked, into ``agent_at_stop.json``. ``judge-layout SET --to
JDIR`` writes a blind packet: per case the sessions (readable), the writer's labels and the
player's notes under shuffled made-up ids — nothing says which notes came from candidates — and
``JUDGE.md``; ``judge-collect SET --from JDIR`` adds the judgments to ``agent_at_stop.json``.

    python3 bench/agent_at_stop.py lay-out tune2 --to /tmp/play
    python3 bench/agent_at_stop.py next /tmp/play/tune2/c03          # (the player runs this)
    python3 bench/agent_at_stop.py collect tune2 --from /tmp/play
    python3 bench/agent_at_stop.py judge-layout tune2 --to /tmp/judge
    python3 bench/agent_at_stop.py judge-collect tune2 --from /tmp/judge
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOP = HERE.parent
sys.path.insert(0, str(TOP / "tests"))
sys.path.insert(0, str(TOP / "server"))

from capture_fixtures import PLACEHOLDER, make_repo, materialize, replay, suites, text_of  # noqa: E402

from tether.agents.hooks import answer  # noqa: E402
from tether.capture import candidates as capture  # noqa: E402
from tether.capture import observations as K  # noqa: E402
from tether.core.workspace import Workspace  # noqa: E402

PLAYER = ("a language-model helper playing each session's agent: given the session's transcript and exactly the "
          "request tether's Stop hook returned for it (bench/agent_at_stop.py lay-out, PLAYER.md), it recorded with "
          "the tether CLI")
JUDGE = ("a second language-model helper, blind (not told which notes came from tether's candidates), given each "
         "case's sessions, the writer's labels and the player's notes shuffled under made-up ids (JUDGE.md), "
         "judging by meaning which labels each note states and whether it is on the labelled code")
ENV = {**os.environ, "PYTHONPATH": str(TOP / "server")}
EDITS = ("Edit", "MultiEdit", "Write", "NotebookEdit")


def suite_of(name: str):
    found = [s for s in suites() if s.name == name and s.name != "fixtures"]
    if not found:
        sys.exit(f"no labelled set {name!r} under {HERE / 'sessions'}")
    return found[0]


def git(work: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=work, check=True, capture_output=True)


def tether(work: Path, *args: str, stdin: str | None = None) -> str:
    done = subprocess.run([sys.executable, "-P", "-m", "tether", *args], cwd=work, env=ENV, input=stdin,
                          capture_output=True, text=True, check=True)
    return done.stdout


# -- the player's folders -------------------------------------------------------------------------------

def render(path: Path) -> str:
    """A transcript as its agent remembers it: the person's prompts, its own text and thinking, each
    tool call with its input and result, in order (sub-agents and compactions marked). Paths of a
    set's transcript (``{{ROOT}}/…``) are shown inside the repository."""
    out = []
    for line in path.read_text(encoding="utf-8").replace(PLACEHOLDER + "/", "").splitlines():
        rec = json.loads(line)
        kind, msg = rec.get("type"), rec.get("message") or {}
        side = "[sub-agent] " if rec.get("isSidechain") else ""
        if kind == "summary":
            out.append(f"--- summary: {rec.get('summary', '')}")
        elif kind == "system" and rec.get("subtype") == "compact_boundary":
            out.append("--- the conversation was compacted here")
        elif kind == "user" and isinstance(msg.get("content"), str):
            who = "COMPACTION SUMMARY" if rec.get("isCompactSummary") else "META" if rec.get("isMeta") else "PERSON"
            out.append(f"{side}{who}: {msg['content']}")
        elif kind == "user":
            for b in msg.get("content") or []:
                if b.get("type") == "tool_result":
                    err = " (error)" if b.get("is_error") else ""
                    out.append(f"{side}RESULT{err}:\n{text_of(b.get('content') or '')}")
        elif kind == "assistant":
            for b in msg.get("content") or []:
                if b.get("type") == "text":
                    out.append(f"{side}AGENT: {b['text']}")
                elif b.get("type") == "thinking":
                    out.append(f"{side}AGENT (thinking): {b['thinking']}")
                elif b.get("type") == "tool_use":
                    out.append(f"{side}AGENT calls {b['name']}:\n" + "\n".join(
                        f"  {k}: {v}" if not isinstance(v, str) or "\n" not in v else f"  {k}:\n{v}"
                        for k, v in b.get("input", {}).items()))
    return "\n\n".join(out) + "\n"


def edited(path: Path) -> bool:
    """The session changed a file (a successful Edit, MultiEdit or Write)."""
    uses, ok = {}, False
    for line in path.read_text(encoding="utf-8").splitlines():
        for b in ((json.loads(line).get("message") or {}).get("content") or []):
            if not isinstance(b, dict):
                continue
            if b.get("type") == "tool_use":
                uses[b["id"]] = b["name"]
            elif b.get("type") == "tool_result" and uses.get(b.get("tool_use_id")) in EDITS and not b.get("is_error"):
                ok = True
    return ok




def play(suite, sc: dict, k: int, case: Path, entry: dict) -> None:
    """Session ``k`` of the scenario into ``case/work`` through tether's hook, and its folder."""
    work, folder = case / "work", case / f"s{k + 1:02d}"
    folder.mkdir(parents=True)
    real = sc["sessions"][k]
    path = materialize("transcript.jsonl", work, folder, suite.transcript(real))
    sid = next(r["sessionId"] for r in map(json.loads, path.read_text(encoding="utf-8").splitlines()) if "sessionId" in r)
    (folder / "transcript.txt").write_text(render(path), encoding="utf-8")
    ws = Workspace.find(work)
    try:
        answer(ws, {"hook_event_name": "SessionStart", "session_id": sid, "transcript_path": str(path),
                    "cwd": str(work), "source": "startup"})
        replay(path, work, lambda ev: answer(ws, ev))
    finally:
        ws.close()
    stop = {"hook_event_name": "Stop", "session_id": sid, "transcript_path": str(path), "cwd": str(work),
            "permission_mode": "default", "stop_hook_active": False}
    out = tether(work, "hook", "claude-code", stdin=json.dumps(stop)).strip()
    reply = json.loads(out) if out else None
    request = reply["reason"] if reply and reply.get("decision") == "block" else None
    if request is None:
        (folder / "not-asked.txt").write_text("tether's Stop hook did not ask anything at the end of this session. "
                                              "An agent that is not asked records nothing: skip this session.\n",
                                              encoding="utf-8")
    else:
        (folder / "request.txt").write_text(request, encoding="utf-8")
    ws = Workspace.find(work)
    try:  # a loaded machine can run the hook's distillation out of its time budget: fewer candidates to ask about
        cut = any(e["kind"] == "distill" and e.get("cut") for e in K.observations(ws, sid))
        before = [n.id for n in ws.notes()]
    finally:
        ws.close()
    if cut:
        print(f"{case.name}/{folder.name}: tether's distillation at Stop ran out of its time budget (a loaded "
              f"machine): its request may miss candidates; lay the set out again on a quieter machine", file=sys.stderr)
    entry["sessions"].append({"session": real, "folder": folder.name, "edited": edited(path), "request": request,
                              "cut": cut, "notes_before": before})


def lay_out(name: str, out: Path) -> None:
    suite = suite_of(name)
    d = out / name
    if d.exists():
        sys.exit(f"{d} exists: lay a set out into a new folder (it holds the players' work)")
    d.mkdir(parents=True)
    key = {}
    for i, sc in enumerate(suite.scenarios, 1):
        case = d / f"c{i:02d}"
        work = case / "work"
        make_repo(work, suite.repo(sc))
        tether(work, "init", "--agents", "claude")
        git(work, "add", "-A")
        git(work, "commit", "-q", "-m", "as it was before the session")
        key[case.name] = entry = {"scenario": sc["name"], "sessions": []}
        play(suite, sc, 0, case, entry)
        _save_key(out, name, case.name, entry)
    instructions("PLAYER.md", d, {"DIR": str(out), "SET": name, "TOP": str(TOP), "PYTHON": sys.executable})
    asked = sum(s["request"] is not None for e in key.values() for s in e["sessions"])
    print(f"{name}: {len(key)} cases, {sum(len(sc['sessions']) for sc in suite.scenarios)} sessions → {d}; "
          f"first sessions asked at Stop: {asked}/{len(key)}")


def _load_key(out: Path, name: str) -> dict:
    """Each case's scenario and sessions played, kept apart from the players: one file a case
    (``DIR/.key-SET/cNN.json``), so that players of one set's different cases never write one file."""
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((out / f".key-{name}").glob("c*.json"))}


def _save_key(out: Path, name: str, case: str, entry: dict) -> None:
    (out / f".key-{name}").mkdir(exist_ok=True)
    (out / f".key-{name}" / f"{case}.json").write_text(json.dumps(entry, indent=1), encoding="utf-8")


def next_session(case: Path) -> None:
    """After the player answered a case's latest session: commit, then play the next one."""
    case = case.resolve()
    out, name = case.parent.parent, case.parent.name
    entry = _load_key(out, name)[case.name]
    suite = suite_of(name)
    sc = next(s for s in suite.scenarios if s["name"] == entry["scenario"])
    k = len(entry["sessions"])
    if k >= len(sc["sessions"]):
        sys.exit(f"{case.name} has no more sessions: it is done")
    work = case / "work"
    git(work, "add", "-A")
    git(work, "commit", "-q", "--allow-empty", "-m", f"after session {k}")
    play(suite, sc, k, case, entry)
    _save_key(out, name, case.name, entry)
    s = entry["sessions"][-1]
    print(f"{case.name}/{s['folder']} is ready: " + ("read its request.txt" if s["request"] is not None else
                                                      "tether did not ask (not-asked.txt)"))


def instructions(md: str, to: Path, values: dict[str, str]) -> None:
    """``bench/sessions/<md>`` for a helper, into ``to``: its placeholders filled in, without the
    opening note that says what the file is for in this repository."""
    text = re.sub(r"\(The instructions .*?\)\n\n", "", (HERE / "sessions" / md).read_text(encoding="utf-8"),
                  count=1, flags=re.S)
    for k, v in values.items():
        text = text.replace(f"<{k}>", v)
    (to / md).write_text(text, encoding="utf-8")


# -- what the player recorded ---------------------------------------------------------------------------

def place(a) -> str:
    if a.pattern:
        return a.pattern
    lines = f" (lines {a.range.sl + 1}-{a.range.el + 1})" if a.range is not None and a.type != "symbol" else ""
    return (f"{a.path}:{a.name}" if a.name else a.path) + lines


def unchanged(c, n) -> bool:
    """The note is the candidate as tether proposed it."""
    return (c.title, c.note_kind, c.rationale, [(a.option, a.rejected_because) for a in c.alternatives]) == \
        (n.title, n.kind, n.rationale, [(a.option, a.rejected_because) for a in n.alternatives])


def collect(name: str, src: Path) -> None:
    suite = suite_of(name)
    key = _load_key(src, name)
    out = {}
    for case, entry in key.items():
        sc = next(s for s in suite.scenarios if s["name"] == entry["scenario"])
        ws = Workspace.find(src / name / case / "work")
        try:
            notes = ws.notes()
            decided = capture.candidates(ws, None)
            came = {c.note: c for c in decided if c.status == capture.ACCEPTED and c.note}
            merged = [c.note for c in decided if c.status == capture.MERGED]
            befores = [set(s["notes_before"]) for s in entry["sessions"]]
            recorded = []
            for n in notes:
                k = max((i for i, b in enumerate(befores) if n.id not in b), default=None)
                if k is None:
                    continue  # there before the first session
                c = came.get(n.id)
                recorded.append({
                    "id": n.id, "session": entry["sessions"][k]["session"], "status": n.status,
                    "kind": "gotcha" if "gotcha" in n.tags else n.kind, "title": n.title, "rationale": n.rationale,
                    "rejected": [{"option": a.option, "because": a.rejected_because} for a in n.alternatives],
                    "works_around": n.works_around, "remove_when": n.remove_when,
                    "places": [place(a) for a in n.anchors], "body": n.body,
                    "candidate": None if c is None else "accepted unchanged" if unchanged(c, n) else "accepted, changed",
                    "joined": merged.count(n.id) + n.body.count("## Said again (")})  # candidates merged, restatements
            tally = {s: sum(c.status == s for c in decided) for s in (capture.ACCEPTED, capture.MERGED,
                                                                     capture.DISMISSED, capture.PENDING)}
        finally:
            ws.close()
        if len(entry["sessions"]) < len(sc["sessions"]):
            print(f"{name}/{case}: only {len(entry['sessions'])} of {len(sc['sessions'])} sessions were played "
                  f"(`next` was not run): the rest count as not asked", file=sys.stderr)
        unplayed = [{"session": real, "edited": edited(suite.transcript(real)), "request": None, "played": False}
                    for real in sc["sessions"][len(entry["sessions"]):]]
        out[sc["name"]] = {"sessions": [{"session": s["session"], "edited": s["edited"], "request": s["request"],
                                         "cut": s.get("cut", False)} for s in entry["sessions"]] + unplayed,
                           "notes": recorded, "candidates": tally}
    path = suite.folder / "agent_at_stop.json"
    old = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    path.write_text(json.dumps({"player": PLAYER, "scenarios": out, **({"judge": old["judge"]} if "judge" in old else {})},
                               indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{name}: {sum(len(v['notes']) for v in out.values())} notes from {len(out)} cases → {path}")


# -- the blind judge ------------------------------------------------------------------------------------

def judge_layout(name: str, out: Path) -> None:
    suite = suite_of(name)
    played = json.loads((suite.folder / "agent_at_stop.json").read_text(encoding="utf-8"))["scenarios"]
    d = out / name
    if d.exists():
        sys.exit(f"{d} exists: lay the packet out into a new folder")
    (d / "sessions").mkdir(parents=True)
    rng = random.Random()
    cases, key, n = [], {}, 0
    for i, sc in enumerate(suite.scenarios, 1):
        case = f"c{i:02d}"
        if not (played.get(sc["name"]) or {}).get("notes"):
            continue  # nothing to judge: its labels count as missed
        names = []
        for real in sc["sessions"]:
            n += 1
            names.append(f"s{n:02d}.txt")
            (d / "sessions" / names[-1]).write_text(render(suite.transcript(real)), encoding="utf-8")
        labels = list(enumerate(sc["expected"]))
        notes = list((played.get(sc["name"]) or {}).get("notes", []))
        rng.shuffle(labels)
        rng.shuffle(notes)
        lids = {f"L{j}": idx for j, (idx, _) in enumerate(labels, 1)}
        nids = {f"N{j}": note["id"] for j, note in enumerate(notes, 1)}
        key[case] = {"scenario": sc["name"], "labels": lids, "notes": nids}
        cases.append({
            "case": case, "sessions": names,
            "labels": [{"id": lid, "kind": e["kind"], "code": e["anchor"], "key phrase": e["phrase"],
                        "rejected options": e["rejected"]} for lid, (_, e) in zip(lids, labels)],
            "notes": [{"id": nid, "kind": x["kind"], "title": x["title"], "rationale": x["rationale"],
                       "rejected": [r["option"] + (f" ({r['because']})" if r["because"] else "") for r in x["rejected"]],
                       **({"works around": x["works_around"]} if x["works_around"] else {}),
                       **({"remove when": x["remove_when"]} if x["remove_when"] else {}),
                       "code": x["places"]} for nid, x in zip(nids, notes)],
            "judgments": []})
    (d / "judge.json").write_text(json.dumps({"set": name, "cases": cases}, indent=1, ensure_ascii=False) + "\n",
                                  encoding="utf-8")
    (out / f".key-judge-{name}.json").write_text(json.dumps(key), encoding="utf-8")
    instructions("JUDGE.md", d, {})
    print(f"{name}: {len(cases)} cases, {sum(len(c['notes']) for c in cases)} notes, "
          f"{sum(len(c['labels']) for c in cases)} labels → {d}")


def judge_collect(name: str, src: Path) -> None:
    suite = suite_of(name)
    key = json.loads((src / f".key-judge-{name}.json").read_text(encoding="utf-8"))
    path = suite.folder / "agent_at_stop.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    problems = []
    for case in json.loads((src / name / "judge.json").read_text(encoding="utf-8"))["cases"]:
        k = key[case["case"]]
        scen = data["scenarios"].setdefault(k["scenario"], {"sessions": [], "notes": [], "candidates": {}})
        judged = {}
        for j in case["judgments"]:
            if j.get("note") not in k["notes"]:
                problems.append(f"{case['case']}: a judgment of no note ({j.get('note')!r})")
                continue
            states = [{"label": k["labels"][s["label"]], "code": s.get("code") is True}
                      for s in j.get("states", []) if s.get("label") in k["labels"]]
            if len(states) != len(j.get("states", [])):
                problems.append(f"{case['case']}: {j['note']} states a label that is not in the case")
            judged[k["notes"][j["note"]]] = {"states": states, "settled_unlabelled": j.get("settled_unlabelled") is True}
        missing = [nid for nid, real in k["notes"].items() if real not in judged]
        if missing:
            problems.append(f"{case['case']}: no judgment of {', '.join(missing)}")
        for note in scen["notes"]:
            note["judged"] = judged.get(note["id"])
    data["judge"] = JUDGE
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{name}: judgments → {path}")
    for p in problems:
        print(f"  {p}", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    for step, flag, what in (("lay-out", "--to", "the folder to lay the set out in"),
                             ("collect", "--from", "the folder the set was laid out in and played"),
                             ("judge-layout", "--to", "the folder to lay the judging packet out in"),
                             ("judge-collect", "--from", "the folder the judge filled in")):
        p = sub.add_parser(step)
        p.add_argument("sets", nargs="+", metavar="SET")
        p.add_argument(flag, dest="dir", type=Path, required=True, help=what)
    p = sub.add_parser("next", help="play a case's next session (after its player answered the latest)")
    p.add_argument("case", type=Path)
    args = ap.parse_args()
    if args.step == "next":
        return next_session(args.case)
    run = {"lay-out": lay_out, "collect": collect, "judge-layout": judge_layout, "judge-collect": judge_collect}
    for name in args.sets:
        run[args.step](name, args.dir.resolve())


if __name__ == "__main__":
    main()
