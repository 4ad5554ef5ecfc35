"""`tether site` benchmark: the whole site of a generated repository, written by the real CLI.

    python bench/site.py [--files 500] [--lines 50000] [--notes 1000] [--keep]

The repository is bench/check.py's (``--lines`` lines over ``--files`` files in six languages,
``--notes`` invariants on their functions, half with checks, some violated). It prints the
wall and CPU time and peak memory of ``tether site`` cold (no ``.tether/cache``: a CI job on a fresh
clone) and warm, the pages written and their size. No assertions: it reports.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from check import compile_bytecode, generate, tether_cmd  # noqa: E402


def run_site(root: Path, out: Path) -> dict:
    t0 = time.perf_counter()
    p = subprocess.Popen(tether_cmd() + ["site", "--out", str(out)], cwd=root, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"tether site failed: {p.stderr.read().decode(errors='replace')[-2000:]}")
    pages = list(out.rglob("*.html"))
    return {"wall_s": round(wall, 2), "cpu_s": round(ru.ru_utime + ru.ru_stime, 2), "rss_mb": round(ru.ru_maxrss / 1024, 1), "pages": len(pages),
            "mb": round(sum(f.stat().st_size for f in out.rglob("*") if f.is_file()) / 1e6, 1)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=500)
    ap.add_argument("--lines", type=int, default=50_000)
    ap.add_argument("--notes", type=int, default=1000)
    ap.add_argument("--keep", action="store_true", help="keep the generated repository and site")
    args = ap.parse_args(argv)
    compile_bytecode()
    tmp = Path(tempfile.mkdtemp(prefix="tether-site-bench-"))
    try:
        root = tmp / "repo"
        root.mkdir()
        gen = generate(root, args.files, args.lines, args.notes)
        print(f"{gen['lines']} lines in {args.files} files, {gen['notes_written']} notes on {gen['noted_files']} files")
        shutil.rmtree(root / ".tether" / "cache")
        for label in ("cold", "warm"):
            r = run_site(root, tmp / "site")
            print(f"tether site, {label}: {r['wall_s']} s ({r['cpu_s']} s CPU), {r['rss_mb']} MB peak, {r['pages']} pages, {r['mb']} MB")
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
