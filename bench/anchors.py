"""Anchor re-location benchmark harness (../shared/bench/anchors/SPEC.md, corpus version 3).

    python bench/anchors.py --corpus DIR --out RESULTS.jsonl [--cases single|multi] [--max-cases N]

prints the scorer's table at the end (``../shared/bench/anchors/score.py``, beside this
checkout; ``--no-score`` leaves it out).

For each case and mode it records every anchor on ``before`` with tether's own record
path, then resolves in ``after``: ``replace`` gets the whole new text, ``edits`` gets the
LSP changes one by one through a LiveDocument (incremental re-parse). Only ``lang``,
``before``, ``after``/``edits`` and each anchor's ``id``, ``kind`` and ``range`` are read.
``record_us`` / ``resolve_us`` are per anchor, with the parse of the file shared out
evenly among the file's anchors (the parse is paid once per file, not per anchor).

Multi-file cases (``multi.jsonl.gz``, SPEC section 9) run through the real resolution path:
a workspace on disk with the case's files, one note holding every anchor (recorded on the
before files, which are opened first as an editor would), then the files replaced by
``files_after`` (deleted, created — with the editor's file-created notice — rewritten where
they changed) and every anchor resolved by ``Workspace.locate_note``. Only ``files_before``, ``files_after`` and each anchor's ``id``,
``kind``, ``path`` and ``range`` are read. An anchor that cannot be recorded is reported on
standard error and written as orphaned; a case that fails is reported and skipped."""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from tether.core import anchors as A  # noqa: E402
from tether.core.languages import by_name, for_path  # noqa: E402
from tether.core.live import LiveDocument  # noqa: E402
from tether.core.notes import Note, new_id, now  # noqa: E402
from tether.core.syntax import SourceFile  # noqa: E402
from tether.core.text import Range  # noqa: E402
from tether.core.workspace import Workspace  # noqa: E402


SCORER = Path(__file__).resolve().parents[2] / "shared" / "bench" / "anchors" / "score.py"


def record_range(src: SourceFile, kind: str, r: Range, path: str = "") -> A.Anchor:
    """Record the anchor the benchmark names by its range, through tether's record path:
    the definition / statement at the range's start whose lines match."""
    if kind == "symbol":
        for d in src.defs:
            dr = src.def_range(d)
            if (dr.sl, dr.el) == (r.sl, r.el):
                return A.symbol_anchor(src, path, d)
        return A.record(src, path, r.sl, r.sc, how=A.SYMBOL)
    for s in src.stmts:
        sr = src.range_of(s.start, s.end)
        if (sr.sl, sr.el) == (r.sl, r.el) and sr.sc == r.sc:
            return A.span_anchor(src, path, s)
    return A.record(src, path, r.sl, r.sc, how=A.SPAN, end=(r.el, r.ec))


def run_case(case: dict, out: list) -> None:
    lang = by_name(case["lang"])
    specs = [(a["id"], a["kind"], Range(*a["range"])) for a in case["anchors"]]
    n = max(1, len(specs))
    for mode in ("replace", "edits"):
        t0 = time.perf_counter()
        if mode == "replace":
            old = SourceFile(case["before"], lang)
        else:
            doc = LiveDocument(case["before"], lang)
            old = doc.base
        shared = time.perf_counter() - t0
        anchors, rec = [], []
        for _, kind, r in specs:
            t1 = time.perf_counter()
            try:
                anchors.append(record_range(old, kind, r))
            except A.AnchorError:
                anchors.append(None)
            rec.append(time.perf_counter() - t1)
        t2 = time.perf_counter()
        live = [a for a in anchors if a is not None]
        if mode == "replace":
            new = SourceFile(case["after"], lang)
            resolver = A.Resolver(new, old)
            results = [resolver.resolve(a) for a in live]
        else:
            for slot, a in enumerate(live):
                doc.track(slot, a.range)
            for e in case["edits"]:
                doc.apply(Range(*e["range"]), e["text"])
            results = doc.resolve(live)
        resolve_total = time.perf_counter() - t2
        it = iter(results)
        for (aid, _, _), a, r_us in zip(specs, anchors, rec):
            res = next(it) if a is not None else None
            out.append({
                "id": aid, "mode": mode,
                "resolved": list(res.range) if res is not None and res.attached and res.range else None,
                "record_us": round((r_us + shared / n) * 1e6, 1),
                "resolve_us": round(resolve_total / n * 1e6, 1),
            })


def run_multi(case: dict, out: list, tmp: Path, costs: list) -> None:
    root = Path(tempfile.mkdtemp(dir=tmp))
    try:
        before, after = case["files_before"], case["files_after"]
        for p, text in before.items():
            _write(root / p, text)
        ws, _ = Workspace.init(root, exact=True)
        srcs = {p: SourceFile(text, for_path(p)) for p, text in before.items()}
        ws.resolutions.see(*srcs.items())  # the files are opened first, as in an editor
        anchors, slots = [], {}
        for a in case["anchors"]:
            try:
                anchor = record_range(srcs[a["path"]], a["kind"], Range(*a["range"]), a["path"])
            except (A.AnchorError, KeyError) as e:
                print(f"bench/anchors.py: {a['id']}: not recorded ({e}); reported orphaned", file=sys.stderr)
                continue
            slots[a["id"]] = len(anchors)
            anchors.append(anchor)
        stamp = now()
        note = ws.save(Note(id=new_id(), kind="intent", title=case["case"][:80], created=stamp, updated=stamp,
                            anchors=anchors))
        for i, anchor in enumerate(anchors):
            ws.resolutions.remember(note, i, anchor, before[anchor.path])
        for p in before:  # the change arrives as whole files
            if p not in after:
                os.unlink(root / p)
        for p, text in after.items():
            if before.get(p) != text:
                _write(root / p, text)
            if p not in before:  # the editor's file-created notice (workspace/didCreateFiles)
                ws.resolutions.created(p)
        t0 = time.perf_counter()
        located = {loc.index: loc for loc in ws.locate_note(note)}
        spent = time.perf_counter() - t0
        lost = sum(1 for a in anchors if a.path not in after or after[a.path] != before[a.path])
        costs.append((spent, max(1, lost)))
        ws.close()
        for a in case["anchors"]:
            loc = located.get(slots.get(a["id"], -1))
            if loc is None or not loc.resolution.attached or loc.range is None:
                out.append({"id": a["id"], "path": None, "range": None, "state": "orphaned"})
            else:
                out.append({"id": a["id"], "path": loc.path, "range": list(loc.range),
                            "state": "moved" if loc.path != a["path"] else "anchored"})
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--max-cases", type=int, default=0)
    ap.add_argument("--only", default="", help="substring of case ids to run")
    ap.add_argument("--cases", choices=("all", "single", "multi"), default="all")
    ap.add_argument("--no-score", action="store_true", help="do not run the scorer beside the corpus spec")
    args = ap.parse_args()
    t0 = time.perf_counter()
    count = failed = 0
    costs: list = []
    with args.out.open("wb") as w, tempfile.TemporaryDirectory() as tmp:
        for name, run in (("cases.jsonl.gz", "single"), ("multi.jsonl.gz", "multi")):
            path = args.corpus / name
            if args.cases not in ("all", run) or not path.is_file():
                continue
            n = 0
            with gzip.open(path, "rb") as f:
                for line in f:
                    case = orjson.loads(line)
                    if args.only and args.only not in case["case"]:
                        continue
                    out: list = []
                    try:
                        run_case(case, out) if run == "single" else run_multi(case, out, Path(tmp), costs)
                    except Exception:  # noqa: BLE001 — one case never stops the run: it is reported
                        failed += 1
                        print(f"bench/anchors.py: case {case['case']} failed:\n{traceback.format_exc()}", file=sys.stderr)
                        continue
                    w.write(b"".join(orjson.dumps(o) + b"\n" for o in out))
                    count += 1
                    n += 1
                    if args.max_cases and n >= args.max_cases:
                        break
    print(f"bench/anchors.py: {count} cases ({failed} failed) in {time.perf_counter() - t0:.1f}s -> {args.out}",
          file=sys.stderr)
    if costs:
        per = [spent / lost * 1e3 for spent, lost in costs]
        print(f"bench/anchors.py: multi-file resolution per lost anchor: median {statistics.median(per):.2f} ms, "
              f"p95 {sorted(per)[int(len(per) * 0.95)]:.2f} ms (a case's whole locate_note over its anchors on "
              f"changed files)", file=sys.stderr)
    if not args.no_score and SCORER.is_file():  # the scorer's table, beside the baselines it computes
        only = [] if args.cases == "all" else ["--only", args.cases]
        subprocess.run([sys.executable, str(SCORER), str(args.corpus), str(args.out), *only], check=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
