"""Distillation benchmark: precision and recall of candidate notes on the transcript
fixtures, and distillation time per 1,000 transcript lines.

For each scenario of ``tests/fixtures/transcripts/expected.json`` the sample repository is
copied to a temporary folder, each session is replayed through the hook handler (the
observation log records prompts, edits with their symbols, commands and failures while
the edits are applied), then ``distill`` reads each transcript. The pending candidates
are scored against the expected ones: a candidate is right when its kind, one of its
anchors (``path:Qualified.name``, ``path`` or ``**``) and the key phrase (in its title or
evidence) match an expected candidate. Scenarios marked ``holdout`` were not used to tune
the rules and are reported apart.

Time: the seconds ``distill`` takes (reading the transcript, extraction, fingerprinting
the anchors, the queue) per 1,000 transcript lines, on the fixtures and on a synthetic
long transcript made of the fixtures' sessions repeated. Figures are printed, never
asserted.

    python3 bench/distill.py [--repeat 40] [--json OUT] [-v]
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

from capture_fixtures import materialize, make_repo, replay, scenarios, score  # noqa: E402

from tether.agents.hooks import answer  # noqa: E402
from tether.capture import candidates as capture  # noqa: E402
from tether.capture.distill import distill  # noqa: E402
from tether.core.workspace import Workspace  # noqa: E402


def run_scenario(sc: dict, base: Path, verbose: bool) -> dict:
    root = base / sc["name"] / "repo"
    make_repo(root)
    ws, _ = Workspace.init(root, exact=True)
    seconds, lines = 0.0, 0
    try:
        for name in sc["sessions"]:
            path = materialize(name, root, base / sc["name"] / "transcripts")
            replay(path, root, lambda ev: answer(ws, ev))
            t = time.perf_counter()
            done = distill(ws, transcript=path)
            seconds += time.perf_counter() - t
            lines += done.lines
        cands = [c.to_json() for c in capture.candidates(ws)]
    finally:
        ws.close()
    tp, n, m = score(cands, sc["expected"])
    if verbose:
        print(f"\n{sc['name']}: {tp}/{n} candidates right, {tp}/{m} expected found")
        for c in cands:
            anchors = ", ".join(a.get("name") and f"{a['path']}:{a['name']}" or a.get("path") or a.get("pattern")
                                for a in c["anchors"])
            print(f"   {c['kind']:<10} {c['confidence']:.2f} [{anchors}] {c['title']} ({len(c['evidence'])} evidence)")
        for e in sc["expected"]:
            print(f"   expected: {e['kind']} [{e['anchor']}] \"{e['phrase']}\"")
    return {"name": sc["name"], "holdout": sc["holdout"], "tp": tp, "candidates": n, "expected": m,
            "seconds": seconds, "lines": lines}


def synthetic(base: Path, repeat: int) -> dict:
    """One long transcript: every fixture session's lines, repeated with fresh ids."""
    root = base / "synthetic" / "repo"
    make_repo(root)
    ws, _ = Workspace.init(root, exact=True)
    out = []
    names = [n for sc in scenarios() for n in sc["sessions"]]
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=40, help="repetitions of the fixture sessions in the long transcript")
    ap.add_argument("--json", metavar="OUT", help="also write the figures as JSON")
    ap.add_argument("-v", "--verbose", action="store_true", help="list each scenario's candidates")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="tether-distill-") as tmp:
        base = Path(tmp)
        rows = [run_scenario(sc, base, args.verbose) for sc in scenarios()]
        long = synthetic(base, args.repeat)
    print(f"\n{'scenario':<28} {'right':>5} {'cands':>5} {'expected':>8}")
    for r in rows:
        print(f"{r['name']:<28} {r['tp']:>5} {r['candidates']:>5} {r['expected']:>8}" + ("  (held out)" if r["holdout"] else ""))
    summary = {}
    for label, pick in (("tuning set", lambda r: not r["holdout"]), ("held out", lambda r: r["holdout"]),
                        ("all", lambda r: True)):
        sel = [r for r in rows if pick(r)]
        tp, n, m = (sum(r[k] for r in sel) for k in ("tp", "candidates", "expected"))
        summary[label] = {"scenarios": len(sel), "precision": ratio(tp, n), "recall": ratio(tp, m),
                          "right": tp, "candidates": n, "expected": m}
        print(f"{label:<11} ({len(sel):>2} scenarios): precision {ratio(tp, n):.2f} ({tp}/{n}), "
              f"recall {ratio(tp, m):.2f} ({tp}/{m})")
    lines = sum(r["lines"] for r in rows)
    secs = sum(r["seconds"] for r in rows)
    warm_lines, warm_secs = lines - rows[0]["lines"], secs - rows[0]["seconds"]
    print(f"time: fixtures {lines} lines in {secs * 1000:.0f} ms = {secs / lines * 1e6:.0f} ms per 1,000 lines "
          f"({warm_secs / warm_lines * 1e6:.0f} ms without the first call, which loads the grammars); "
          f"synthetic {long['lines']:,} lines in {long['seconds'] * 1000:.0f} ms = "
          f"{long['seconds'] / long['lines'] * 1e6:.0f} ms per 1,000 lines")
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "scenarios": rows, "synthetic": long,
                                               "fixture_lines": lines, "fixture_seconds": secs}, indent=2) + "\n")


if __name__ == "__main__":
    main()
