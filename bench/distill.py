"""Distillation benchmark: how well candidate notes match labelled sessions, and distillation
time per 1,000 transcript lines.

Sets: the transcript fixtures (``tests/fixtures/transcripts/``, written with the rules; its
scenarios marked ``holdout`` are reported apart) and every labelled set under
``bench/sessions/*/`` (``expected.json``, ``repos/<repo>/``, ``sessions/``), each written by a
writer who never saw the rules: ``tune*`` sets were read while tuning them, ``heldout*`` sets
never were; both halves are also printed pooled, held out first. For each scenario
its repository is copied to a temporary folder, each session is replayed through the hook
handler (the observation log records prompts, edits with their symbols, commands and
failures while the edits are applied), then ``distill`` reads each transcript. The pending
candidates are scored against the expected ones: a candidate is right when its kind, one of
its anchors (``path:Qualified.name``, ``path`` or a pattern — or a pattern that picks the same
files of the repository's end state: ``pkg/*.py`` is ``pkg/**/*.py`` in a flat package) and the
key phrase (in its title or evidence) match an expected candidate.

Figures per set: precision, recall, rejected options recovered (an expected ``rejected``
phrase in an option — or its reason — of the matching candidate), false positives per 10
sessions (candidates that match nothing expected), cross-session merges (expected candidates
of a scenario of several sessions matched by one candidate with evidence from more than one
session), what the request at Stop asks the session's own agent about (expected candidates
the rules missed whose key phrase a lead quotes: "found or asked"), expected candidates missed
although a wrong candidate states them (its key phrase, but on other code or as another kind),
the scenarios whose agent the gate at Stop asks (:mod:`tether.capture.gate`: every labelled one
should be, none that edited nothing), and the milliseconds
``distill`` takes (reading the transcript, extraction, fingerprinting the anchors, the queue)
per 1,000 transcript lines; also on a synthetic long transcript made of the fixtures'
sessions repeated. Where a second reader also labelled a set's sessions, blind (its
``second_reader.json``: a language-model helper given the transcripts and the repositories'
end states under made-up names, not the writer's labels, and asked what a careful reviewer
would keep — much what the agent is asked at Stop), its notes are scored against the writer's
labels exactly as the candidates are, beside the extractor on the same scenarios: how far a
model that reads the session agrees with the labels. Where a model played each session's own
agent (its ``agent_at_stop.json``, written by ``bench/agent_at_stop.py``: given the transcript and
exactly the request tether's Stop hook returned, it recorded with the CLI; a second, blind model
judged by meaning which labels its notes state), the "agent at Stop" section counts, held out
first: the sessions that settled something (a label's key phrase is said in them) that tether
asked, the sessions that edited nothing that it asked anyway, recall (labels some note states),
precision (notes that state a label), the stated labels whose note is on the labelled code and of
the labelled kind, the notes the judge found settled but unlabelled, and the notes that are
tether's candidates accepted unchanged. Figures are printed, never asserted.

    python3 bench/distill.py [--set NAME]… [--repeat 40] [--json OUT] [-v]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE.parent / "server"))

from capture_fixtures import Suite, anchor_label, detail, make_repo, materialize, pairs, replay, said, suites  # noqa: E402

from tether.agents.hooks import answer  # noqa: E402
from tether.capture import candidates as capture  # noqa: E402
from tether.capture.distill import distill  # noqa: E402
from tether.capture.gate import worth_asking  # noqa: E402
from tether.core.workspace import Workspace  # noqa: E402

SUMMED = ("tp", "candidates", "expected", "sessions", "rejected", "rejected_found", "restated", "merged", "asked",
          "leads", "near_anchor", "near_kind", "near_both")
GATE = ("labelled", "labelled_asked", "edited_nothing", "edited_nothing_asked", "unlabelled_edited",
        "unlabelled_edited_asked")  # the gate at Stop, by scenario (asked: any session of it is)


def run_scenario(suite: Suite, sc: dict, base: Path, verbose: bool) -> dict:
    root = base / suite.name / sc["name"] / "repo"
    make_repo(root, suite.repo(sc))
    ws, _ = Workspace.init(root, exact=True)
    seconds, lines, leads, gated, edited = 0.0, 0, [], False, False
    try:
        for name in sc["sessions"]:
            path = materialize(name, root, base / suite.name / sc["name"] / "transcripts", suite.transcript(name))
            replay(path, root, lambda ev: answer(ws, ev))
            t = time.perf_counter()
            done = distill(ws, transcript=path)
            seconds += time.perf_counter() - t
            lines += done.lines
            leads += [x.quote.lower() for x in done.leads]
            gated |= worth_asking(done.session_read)
            edited |= bool(done.edited)
        cands = [c.to_json() for c in capture.candidates(ws)]
    finally:
        ws.close()
    files = [p.relative_to(root).as_posix() for p in root.rglob("*")
             if p.is_file() and not {".git", ".tether"} & set(p.relative_to(root).parts)]
    d = detail(cands, sc["expected"], len(sc["sessions"]), files)
    # what the rules missed that the request at Stop asks the agent about (a lead quotes its key phrase)
    d["asked"] = sum(any(e["phrase"].lower() in q for q in leads) for e in d["missed"])
    d["leads"] = len(leads)
    if verbose:
        print(f"\n{suite.name}/{sc['name']}: {d['tp']}/{d['candidates']} candidates right, "
              f"{d['tp']}/{d['expected']} expected found, {d['rejected_found']}/{d['rejected']} rejected options")
        for c in cands:
            mark = "  " if c in d["wrong"] else "ok"
            anchors = ", ".join(anchor_label(a) for a in c["anchors"])
            alts = "; ".join(a["option"] for a in c["alternatives"])
            print(f"  {mark} {c['kind']:<10} {c['confidence']:.2f} [{anchors}] {c['title']}"
                  + (f" (rejected: {alts})" if alts else "") + f" ({len(c['sessions'])} session(s))")
        for e in d["missed"]:
            print(f"  missed: {e['kind']} [{e['anchor']}] \"{e['phrase']}\" rejected {e.get('rejected', [])}")
    reader, second = suite.second_reader(sc), None
    if reader is not None:  # scored as the candidates are; and the wrong candidates it kept too (not noise, then)
        r = detail(reader, sc["expected"], len(sc["sessions"]), files)
        kept = [{"kind": n["kind"], "anchor": anchor_label(n["anchors"][0]), "phrase": n["phrase"]} for n in reader]
        second = {**{k: r.get(k, 0) for k in SUMMED}, "also_kept": len(pairs(d["wrong"], kept, files))}
    labelled = bool(sc["expected"])
    gate = {"labelled": labelled, "labelled_asked": labelled and gated, "edited_nothing": not edited,
            "edited_nothing_asked": not edited and gated, "unlabelled_edited": edited and not labelled,
            "unlabelled_edited_asked": edited and not labelled and gated}
    return {"name": sc["name"], "holdout": sc.get("holdout", False), "seconds": seconds, "lines": lines,
            **{k: d[k] for k in SUMMED}, "gate": gate, "second_reader": second}


def synthetic(base: Path, repeat: int) -> dict:
    """One long transcript: every fixture session's lines, repeated with fresh ids."""
    fixtures = suites()[0]
    root = base / "synthetic" / "repo"
    make_repo(root)
    ws, _ = Workspace.init(root, exact=True)
    out = []
    names = [n for sc in fixtures.scenarios for n in sc["sessions"] if n.endswith(".jsonl")]
    for r in range(repeat):
        for name in names:
            text = materialize(name, root, base / "synthetic" / "parts").read_text(encoding="utf-8")
            for line in text.splitlines():
                rec = json.loads(line)
                rec["sessionId"] = "synthetic-session"
                out.append(json.dumps(rec).replace('"toolu_01', f'"toolu_{r:04d}'))
    path = base / "synthetic" / "long.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    try:
        t = time.perf_counter()
        done = distill(ws, transcript=path)
        seconds = time.perf_counter() - t
    finally:
        ws.close()
    return {"lines": done.lines, "seconds": seconds, "candidates": len(done.queued.new) + len(done.queued.updated)}


def ratio(a: int, b: int) -> float:
    return a / b if b else 1.0


def summary(rows: list[dict]) -> dict:
    t = {k: sum(r[k] for r in rows) for k in SUMMED}
    lines, secs = sum(r["lines"] for r in rows), sum(r["seconds"] for r in rows)
    return {"scenarios": len(rows), **t, "precision": ratio(t["tp"], t["candidates"]),
            "recall": ratio(t["tp"], t["expected"]), "rejected_recovered": ratio(t["rejected_found"], t["rejected"]),
            "false_positives_per_10_sessions": 10 * (t["candidates"] - t["tp"]) / t["sessions"] if t["sessions"] else 0,
            "found_or_asked": ratio(t["tp"] + t["asked"], t["expected"]),
            "lines": lines, "seconds": secs, "ms_per_1000_lines": secs / lines * 1e6 if lines else 0.0}


def line(label: str, s: dict) -> str:
    """A summary's figures; the time and the request at Stop only where a transcript was distilled
    (not for the second reader)."""
    timed = (f", {s['ms_per_1000_lines']:.0f} ms per 1,000 lines ({s['lines']} lines); found or asked about at Stop "
             f"{s['found_or_asked']:.2f} ({s['tp']}+{s['asked']}/{s['expected']}, {s['leads']} leads)") if s["lines"] else ""
    return (f"{label:<22} {s['scenarios']:>3} scenarios {s['sessions']:>3} sessions: precision {s['precision']:.2f} "
            f"({s['tp']}/{s['candidates']}), recall {s['recall']:.2f} ({s['tp']}/{s['expected']}), rejected options "
            f"{s['rejected_recovered']:.2f} ({s['rejected_found']}/{s['rejected']}), false positives "
            f"{s['false_positives_per_10_sessions']:.1f} per 10 sessions, merged across sessions "
            f"{s['merged']}/{s['restated']}{timed}; missed but stated by a wrong candidate: on other code "
            f"{s['near_anchor']}, as another kind {s['near_kind']}, both {s['near_both']}")


def read_also(rows: list[dict]) -> list[dict]:
    """The second reader's figures of the scenarios it labelled, shaped as rows."""
    return [{**r["second_reader"], "name": r["name"], "seconds": 0.0, "lines": 0} for r in rows if r["second_reader"]]


def at_stop(suite: Suite) -> dict | None:
    """The agent at Stop of one set (``agent_at_stop.json``, ``bench/agent_at_stop.py``): what tether
    asked, what the playing agent recorded and what the blind judge found in it, counted. A session
    settled something when a label's key phrase is said in it."""
    path = suite.folder / "agent_at_stop.json"
    if not path.is_file():
        return None
    played = json.loads(path.read_text(encoding="utf-8"))["scenarios"]
    t = dict.fromkeys(("sessions", "settled", "settled_asked", "idle", "idle_asked", "labels", "stated", "on_code",
                       "of_kind", "notes", "right", "unchanged", "left_out", "judged", "cut", "twice",
                       "superseded"), 0)
    for sc in suite.scenarios:
        got = played.get(sc["name"], {"sessions": [], "notes": []})
        asked = {s["session"]: s for s in got["sessions"]}
        for name in sc["sessions"]:
            s = asked.get(name, {"edited": True, "request": None})
            text = said(suite.transcript(name)).lower()
            settled = any(" ".join(e["phrase"].lower().split()) in text for e in sc["expected"])
            t["sessions"] += 1
            t["settled"] += settled
            t["settled_asked"] += settled and s["request"] is not None
            t["idle"] += not s["edited"]
            t["idle_asked"] += not s["edited"] and s["request"] is not None
            t["cut"] += s.get("cut", False)  # distillation at Stop out of its time budget when laid out
        # a note the agent itself superseded or retired in a later session of the case (the person reversed it)
        # is history, handed to no later session: not counted
        notes = [n for n in got["notes"] if n.get("status", "active") == "active"]
        t["superseded"] += len(got["notes"]) - len(notes)
        t["notes"] += len(notes)
        t["unchanged"] += sum(n["candidate"] == "accepted unchanged" for n in notes)
        t["labels"] += len(sc["expected"])
        if notes and any(n.get("judged") is None for n in notes):
            continue  # not judged (yet): the recall and precision below count judged scenarios only
        t["judged"] += len(sc["expected"])
        t["right"] += sum(bool(n["judged"]["states"]) for n in notes)
        t["left_out"] += sum(n["judged"]["settled_unlabelled"] for n in notes)
        for i, e in enumerate(sc["expected"]):
            by = [(n, x) for n in notes for x in n["judged"]["states"] if x["label"] == i]
            t["stated"] += bool(by)
            t["twice"] += len({id(n) for n, _ in by}) > 1  # one rule split over notes, or restated as a second
            t["on_code"] += any(x["code"] for _, x in by)
            t["of_kind"] += any(n["kind"] == e["kind"] for n, _ in by)
    return t


def at_stop_line(label: str, t: dict) -> str:
    judged = (f"recall {ratio(t['stated'], t['judged']):.2f} ({t['stated']}/{t['judged']}; target ≥ 0.9), precision "
              f"{ratio(t['right'], t['notes']):.2f} ({t['right']}/{t['notes']}; target ≥ 0.9; "
              f"{ratio(t['right'] + t['left_out'], t['notes']):.2f} "
              f"counting the notes the judge found settled but the key left out), on the labelled code "
              f"{ratio(t['on_code'], t['stated']):.2f} ({t['on_code']}/{t['stated']}; target ≥ 0.9), of the labelled "
              f"kind {ratio(t['of_kind'], t['stated']):.2f} ({t['of_kind']}/{t['stated']}), notes the key left out "
              f"{t['left_out']}, labels stated by more than one note {t['twice']}"
              + (f", notes the agent superseded in a later session (not counted) {t['superseded']}" if t["superseded"]
                 else "")
              + (f" ({t['labels'] - t['judged']} labels not judged yet)" if t["judged"] < t["labels"]
                 else "")) if t["judged"] else "not judged yet"
    return (f"{label:<22} {t['sessions']:>3} sessions: settled something and asked {ratio(t['settled_asked'], t['settled']):.2f} "
            f"({t['settled_asked']}/{t['settled']}; target 1.00), edited nothing and asked {t['idle_asked']} "
            f"(of {t['idle']}; target 0); {judged}; "
            f"candidates accepted unchanged {ratio(t['unchanged'], t['notes']):.2f} ({t['unchanged']}/{t['notes']})"
            + (f" — {t['cut']} sessions' distillation at Stop was cut short (a loaded machine): lay out again" if t["cut"]
               else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", action="append", metavar="NAME", help="only this set (fixtures, or a folder of "
                                                                      "bench/sessions/); repeatable")
    ap.add_argument("--repeat", type=int, default=40, help="repetitions of the fixture sessions in the long transcript")
    ap.add_argument("--json", metavar="OUT", help="also write the figures as JSON")
    ap.add_argument("-v", "--verbose", action="store_true", help="list each scenario's candidates and what it missed")
    args = ap.parse_args()
    chosen = [s for s in suites() if not args.set or s.name in args.set]
    report = {}
    with tempfile.TemporaryDirectory(prefix="tether-distill-") as tmp:
        base = Path(tmp)
        for suite in chosen:
            rows = [run_scenario(suite, sc, base, args.verbose) for sc in suite.scenarios]
            print(f"\n== {suite.name} ({suite.folder.relative_to(HERE.parent)})")
            print(f"{'scenario':<34} {'right':>5} {'cands':>5} {'expected':>8} {'rejected':>8}")
            for r in rows:
                print(f"{r['name']:<34} {r['tp']:>5} {r['candidates']:>5} {r['expected']:>8} "
                      f"{r['rejected_found']:>4}/{r['rejected']:<3}" + ("  (held out)" if r["holdout"] else ""))
            parts = [("all", rows)]
            if any(r["holdout"] for r in rows):
                parts = [("tuned on", [r for r in rows if not r["holdout"]]),
                         ("held out", [r for r in rows if r["holdout"]]), *parts]
            second = read_also(rows)  # a second, blind reading scored the same way: how far the labels are taste
            if second:
                parts.append(("2nd reader", second))
            report[suite.name] = {"summary": {label: summary(sel) for label, sel in parts}, "scenarios": rows}
            for label, sel in parts:
                print(line(f"{suite.name} {label}", report[suite.name]["summary"][label]))
        long = synthetic(base, args.repeat) if any(s.name == "fixtures" for s in chosen) else None
    # the labelled sets pooled by half: written by writers who never saw the rules, read while tuning
    # them (tune*), or never read by anyone tuning (heldout*)
    halves = {half: [r for name, rep in report.items() if name.startswith(half) for r in rep["scenarios"]]
              for half in ("heldout", "tune")}
    if all(halves.values()):
        print("\n== the labelled sets by half (held out first)")
        for half, label in (("heldout", "held out (pooled)"), ("tune", "tuned on (pooled)")):
            report[f"{half}*"] = {"summary": {"all": summary(halves[half])}}
            print(line(label, report[f"{half}*"]["summary"]["all"]))
        print("\n== the gate at Stop: scenarios whose agent is asked (held out first; target: every labelled one, none "
              "that edited nothing)")
        for half, label in (("heldout", "held out (pooled)"), ("tune", "tuned on (pooled)")):
            g = {k: sum(r["gate"][k] for r in halves[half]) for k in GATE}
            report[f"{half}*"]["gate"] = g
            print(f"{label:<22} labelled {g['labelled_asked']}/{g['labelled']} "
                  f"({ratio(g['labelled_asked'], g['labelled']):.0%}), edited nothing {g['edited_nothing_asked']}/"
                  f"{g['edited_nothing']}, unlabelled that edited code {g['unlabelled_edited_asked']}/"
                  f"{g['unlabelled_edited']}")
    read = {half: [r for name, rep in report.items() if name.startswith(half) for r in rep.get("scenarios", [])
                   if r["second_reader"]] for half in ("heldout", "tune")}
    if any(read.values()):  # the extractor and a second, blind reader against the same labels
        print("\n== the scenarios a second reader labelled too: the extractor, then the reader, against the writers' "
              "labels (held out first)")
    for half, rows in read.items():
        if not rows:
            continue
        ext, reader = summary(rows), summary(read_also(rows))
        also = sum(r["second_reader"]["also_kept"] for r in rows)  # wrong by the writer's labels, kept by the reader
        ext["precision_either"] = ratio(ext["tp"] + also, ext["candidates"])
        report[f"{half}* read twice"] = {"summary": {"extractor": ext, "reader": reader}}
        print(line(f"{half} extractor", ext))
        print(line(f"{half} 2nd reader", reader))
        print(f"{'':<22} the extractor's candidates that the writer or the reader kept: {ext['precision_either']:.2f} "
              f"({ext['tp']}+{also}/{ext['candidates']})")
    played = {s.name: t for s in chosen if s.name != "fixtures" and (t := at_stop(s))}
    if played:  # a model playing each session's agent, answering tether's Stop request; judged blind
        print("\n== the agent at Stop: a model playing each session's agent answers exactly tether's Stop request with "
              "the CLI; a blind judge matches its notes to the writers' labels (held out first)")
    for half, label in (("heldout", "held out (pooled)"), ("tune", "tuned on (pooled)")):
        sets = {n: t for n, t in played.items() if n.startswith(half)}
        for n, t in sorted(sets.items()):
            print(at_stop_line(n, t))
        if sets:
            pooled = {k: sum(t[k] for t in sets.values()) for k in next(iter(sets.values()))}
            report[f"{half}* at Stop"] = {"summary": pooled, "sets": sets}
            print(at_stop_line(label, pooled))
    if long:
        print(f"\nsynthetic: {long['lines']:,} lines in {long['seconds'] * 1000:.0f} ms = "
              f"{long['seconds'] / long['lines'] * 1e6:.0f} ms per 1,000 lines")
    if args.json:
        Path(args.json).write_text(json.dumps({"sets": report, "synthetic": long}, indent=2) + "\n")


if __name__ == "__main__":
    main()
