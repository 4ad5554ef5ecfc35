"""``pdfstamp`` command line."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from .fonts import FontCache
from .jobs import Job, run_batch
from .naming import DEFAULT_TEMPLATE
from .pages import PageRangeError, describe
from .watermark import Watermark


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="pdfstamp", description="Stamp and scrub PDFs in batches.")
    p.add_argument("inputs", nargs="+", type=Path, help="PDF files")
    p.add_argument("--text", help="watermark text (no watermark if omitted)")
    p.add_argument("--pages", default="", help="page ranges to stamp, e.g. 1-3,5,9- (default: all)")
    p.add_argument("--opacity", type=float, default=0.35)
    p.add_argument("--font", default="Helvetica")
    p.add_argument("--scrub", action="store_true", help="remove document metadata")
    p.add_argument("--keep-title", action="store_true", help="with --scrub, keep /Title")
    p.add_argument("-o", "--out-dir", type=Path, help="folder for outputs (default: next to input)")
    p.add_argument("--name", default=DEFAULT_TEMPLATE, help="output name template")
    p.add_argument("-j", "--jobs", type=int, default=4, help="parallel workers")
    p.add_argument("-v", "--verbose", action="store_true")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    wm = Watermark(args.text, font=args.font, opacity=args.opacity) if args.text else None
    jobs = [Job(src, pages=args.pages, watermark=wm, scrub=args.scrub, keep_title=args.keep_title,
                out_dir=args.out_dir, template=args.name) for src in args.inputs]
    try:
        results = run_batch(jobs, workers=args.jobs, fonts=FontCache())
    except PageRangeError as e:
        print(f"pdfstamp: {e}", file=sys.stderr)
        return 2
    for r in results:
        line = f"{r.job.src} -> {r.out}"
        if r.stamped:
            line += f"  stamped {r.stamped} page(s)"
        if args.verbose and r.removed:
            line += f"  removed {', '.join(r.removed)}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
