"""Anchor re-location benchmark harness (../shared/bench/anchors/SPEC.md, corpus version 2).

    python bench/anchors.py --corpus DIR --out RESULTS.jsonl [--max-cases N]
    python ../shared/bench/anchors/score.py DIR RESULTS.jsonl

For each case and mode it records every anchor on ``before`` with tether's own record
path, then resolves in ``after``: ``replace`` gets the whole new text, ``edits`` gets the
LSP changes one by one through a LiveDocument (incremental re-parse). Only ``lang``,
``before``, ``after``/``edits`` and each anchor's ``id``, ``kind`` and ``range`` are read.
``record_us`` / ``resolve_us`` are per anchor, with the parse of the file shared out
evenly among the file's anchors (the parse is paid once per file, not per anchor)."""

from __future__ import annotations

import argparse
import gzip
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from tether.core import anchors as A  # noqa: E402
from tether.core.languages import by_name  # noqa: E402
from tether.core.live import LiveDocument  # noqa: E402
from tether.core.syntax import SourceFile  # noqa: E402
from tether.core.text import Range  # noqa: E402


def record_range(src: SourceFile, kind: str, r: Range) -> A.Anchor:
    """Record the anchor the benchmark names by its range, through tether's record path:
    the definition / statement at the range's start whose lines match."""
    if kind == "symbol":
        for d in src.defs:
            dr = src.def_range(d)
            if (dr.sl, dr.el) == (r.sl, r.el):
                return A.symbol_anchor(src, "", d)
        return A.record(src, "", r.sl, r.sc, how=A.SYMBOL)
    for s in src.stmts:
        sr = src.range_of(s.start, s.end)
        if (sr.sl, sr.el) == (r.sl, r.el) and sr.sc == r.sc:
            return A.span_anchor(src, "", s)
    return A.record(src, "", r.sl, r.sc, how=A.SPAN, end=(r.el, r.ec))


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--max-cases", type=int, default=0)
    ap.add_argument("--only", default="", help="substring of case ids to run")
    args = ap.parse_args()
    t0 = time.perf_counter()
    count = 0
    with gzip.open(args.corpus / "cases.jsonl.gz", "rb") as f, args.out.open("wb") as w:
        for line in f:
            case = orjson.loads(line)
            if args.only and args.only not in case["case"]:
                continue
            out: list = []
            run_case(case, out)
            w.write(b"".join(orjson.dumps(o) + b"\n" for o in out))
            count += 1
            if args.max_cases and count >= args.max_cases:
                break
    print(f"bench/anchors.py: {count} cases in {time.perf_counter() - t0:.1f}s -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
