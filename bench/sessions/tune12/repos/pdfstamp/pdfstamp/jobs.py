"""The batch runner: one job per input file, run on a thread pool."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from pypdf import PdfReader, PdfWriter

from .fonts import FontCache
from .naming import DEFAULT_TEMPLATE, output_path
from .pages import parse_ranges
from .scrub import scrub_document
from .watermark import Watermark, stamp

log = logging.getLogger("pdfstamp.jobs")


@dataclass
class Job:
    src: Path
    pages: str = ""
    watermark: Watermark | None = None
    scrub: bool = False
    keep_title: bool = False
    out_dir: Path | None = None
    template: str = DEFAULT_TEMPLATE


@dataclass
class Result:
    job: Job
    out: Path | None = None
    stamped: int = 0
    removed: list[str] = field(default_factory=list)
    error: str | None = None


def run_job(job: Job, fonts: FontCache) -> Result:
    reader = PdfReader(job.src)
    writer = PdfWriter(clone_from=reader)
    result = Result(job)
    if job.watermark is not None:
        indexes = parse_ranges(job.pages, len(writer.pages))
        result.stamped = stamp(list(writer.pages), indexes, job.watermark, fonts)
    if job.scrub:
        result.removed = scrub_document(writer, keep_title=job.keep_title)
    out = output_path(job.src, job.out_dir, job.template)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as fh:
        writer.write(fh)
    result.out = out
    return result


def run_batch(jobs: list[Job], workers: int = 4, fonts: FontCache | None = None) -> list[Result]:
    fonts = fonts or FontCache()
    results: list[Result] = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(run_job, job, fonts): job for job in jobs}
        for fut in as_completed(futures):
            results.append(fut.result())
            log.info("done %s", futures[fut].src.name)
    return results
