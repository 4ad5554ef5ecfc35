"""Scale benchmark: what an agent and an editor pay at 1,000, 10,000 and 100,000 notes.

    python3 bench/scale.py [--sizes 1000:2000,10000:20000,100000:20000] [--calls 60]
                           [--starts 2] [--json OUT] [--keep DIR] [--quick] [--commands]

For each size (notes:files) it generates a workspace with ``bench/lsp_latency.py``'s
generator (one 5,000-line module with 200 notes, the other notes spread over small Python
files; note files written with tether's own format functions), then measures, each as the
user pays it — a new process, end to end:

1. index build: ``tether reindex`` with no cache (wall time, peak RSS of the process);
2. ``tether check`` over the whole workspace, cold (no cache) and warm;
3. hook calls (``tether hook claude-code`` as ``init --agents`` writes it: ``PYTHON -P -S
   …/tether/__main__.py hook claude-code``; a PreToolUse Read of a file with notes, a new
   session each call so every answer is a full one) and ``tether context FILE:LINE``,
   p50 / p99 over ``--calls`` calls: alone (no server), then with ``tether serve`` running;
   and, served, a hook on an Edit right after another file was edited (an agent's session);
4. the language server: spawn -> first hover with notes, with no cache (cold) and warm;
5. the floors in the same run: ``python -c pass`` of the same interpreter, p50 / p99; the same
   without ``site`` (``python -P -S``: how a hook command starts the interpreter);
   and one stat of every note file (what a command alone pays, at least, to see a note file
   edited in place; in this process, best of five).

It prints one table per size (each figure beside its target and the floor), then the
growth factor of each figure between consecutive sizes beside the growth of the notes.

Then the whole-workspace commands, each a new process on the same workspace (index warm):
``list --json`` first (no anchor resolved yet: a fresh clone's first command once its index
is built; with the full run, after the runs above), ``list --json`` again, ``doctor --json``,
``check``, ``site --out DIR`` and ``sync`` after the code
of a tenth of the small files moved down (so about a tenth of the anchors moved), in one
table per size and one of growth factors: each must grow no faster than the notes
(``list --json``: <= 2 s at 10,000 notes, <= 15 s at 100,000), with each command's CPU
seconds beside (what a loaded machine changes least). ``--commands`` measures only these,
on a workspace committed to git (a CI's checkout); with ``--keep DIR`` each size is generated
once and later runs restore it from its commit (100,000 notes take minutes to generate).
``--quick`` only 1,000 and 10,000 notes. No assertions: it reports. The machine should be
otherwise idle.

Run it with the interpreter of a venv tether is installed in (``python -m venv V;
V/bin/pip install .; V/bin/python bench/scale.py``): it times that venv's ``tether``, as a
user's agent runs it. An interpreter with a crowded site-packages pays for it at every start
(here the system one: ``python -c pass`` 35-42 ms against 8-11 ms in a fresh venv).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "server"))

import lsp_latency as L  # noqa: E402
from check import compile_bytecode, tether_cmd  # noqa: E402
from lsprotocol import types as T  # noqa: E402

from tether.cli.client import listening, socket_path  # noqa: E402


@contextmanager
def serving(root: Path, env: dict):
    """``tether serve`` on ``root`` while the block runs, once it listens (60 s at most)."""
    server = subprocess.Popen(tether_cmd() + ["serve", str(root)], cwd=root, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        t = time.perf_counter()
        while not listening(socket_path(root)) and time.perf_counter() - t < 60:
            time.sleep(0.02)
        yield
    finally:
        server.kill()
        server.wait()

TARGETS = {"hook_alone_p99_ms": 100, "hook_served_p99_ms": 30, "hook_alone_p99_ms@100000": 150,
           "ready_cold_ms": 1000, "index_build_s": 10, "lsp_rss_mb": 400}


CPU: dict = {}  # the last run()'s CPU seconds (user + system, with its forked children)


@functools.cache
def hook_cmd() -> list[str]:
    """What an agent runs on every tool call: the hook command ``tether init --agents`` writes
    (a venv's tether, not on a login shell's PATH: this interpreter without site, on
    ``__main__.py`` of the tether installed here), asked of that tether itself."""
    r = subprocess.run([sys.executable, "-P", "-c", "from tether.agents.setup import hook_launcher, tether_command; "
                        "print(chr(0).join(hook_launcher(tether_command())))"], cwd=tempfile.gettempdir(),
                       capture_output=True, text=True, check=True)
    return r.stdout.rstrip("\n").split("\0")


def run(cmd: list[str], cwd: Path, stdin: bytes = b"", env: dict | None = None) -> tuple[float, float, bytes]:
    """(wall seconds, peak RSS MB, stdout) of one process (its CPU seconds: ``CPU["s"]``)."""
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.PIPE, stdout=out, stderr=subprocess.DEVNULL, env=env)
        p.stdin.write(stdin)
        p.stdin.close()
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        CPU["s"], CPU["exit"] = ru.ru_utime + ru.ru_stime, os.waitstatus_to_exitcode(status)
        out.seek(0)
        return wall, ru.ru_maxrss / 1024, out.read()


def stat_notes(root: Path) -> float:
    """Milliseconds to stat every note file, as a command alone must to see one edited in
    place (the cheapest way here: names, then a stat relative to the folder)."""
    folder = root / ".tether" / "notes"
    t = time.perf_counter()
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for name in os.listdir(folder):
            os.stat(name, dir_fd=fd, follow_symlinks=False)
    finally:
        os.close(fd)
    return (time.perf_counter() - t) * 1000


def calls(root: Path, gen: dict, n: int, seed: int) -> list[tuple[list[str], bytes, str]]:
    """``n`` hook calls and ``n`` context calls on files with notes: (argv, stdin, kind)."""
    rng = random.Random(seed)
    small = sorted(p.relative_to(root).as_posix() for p in (root / "src").rglob("helpers_*.py"))
    out = []
    for k in range(n):
        rel = L.BIG if k % 4 == 0 else rng.choice(small)
        event = {"session_id": f"bench-{seed}-{k}", "transcript_path": "", "cwd": str(root),
                 "hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": str(root / rel)}}
        out.append((["hook", "claude-code"], json.dumps(event).encode(), "hook"))
        line = gen["symbol_funcs"][k % len(gen["symbol_funcs"])]["start"] + 2 if rel == L.BIG else 2
        out.append((["context", f"{rel}:{line}"], b"", "context"))
    return out


def timed_calls(root: Path, gen: dict, n: int, seed: int, env: dict) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"hook": [], "context": []}
    answered = 0
    for argv, stdin, kind in calls(root, gen, n, seed):
        wall, _, out = run((hook_cmd() if kind == "hook" else tether_cmd()) + argv, root, stdin, env)
        times[kind].append(wall * 1000)
        answered += bool(out.strip())
    if answered < n:  # every call is on a file with notes: an empty answer is a broken run
        raise RuntimeError(f"only {answered} of {2 * n} calls answered with notes")
    return times


def edit_calls(root: Path, n: int, seed: int, env: dict) -> list[float]:
    """Milliseconds of ``n`` hooks on an Edit, each right after the agent's previous edit
    changed another file (what a served call pays to catch up with the sources)."""
    rng = random.Random(seed)
    small = sorted((root / "src").rglob("helpers_*.py"))
    times = []
    for k in range(n):
        before, target = rng.sample(small, 2)
        kept = before.read_bytes()
        before.write_bytes(kept + f"# edit {k}\n".encode())
        old = target.read_text().split("\n")[5]
        event = {"session_id": f"bench-edit-{seed}-{k}", "transcript_path": "", "cwd": str(root),
                 "hook_event_name": "PreToolUse", "tool_name": "Edit",
                 "tool_input": {"file_path": str(target), "old_string": old, "new_string": old + " "}}
        wall, _, out = run(hook_cmd() + ["hook", "claude-code"], root, json.dumps(event).encode(), env)
        before.write_bytes(kept)
        if not out.strip():
            raise RuntimeError(f"an edit hook on {target} answered nothing")
        times.append(wall * 1000)
    return times


async def lsp_ready(root: Path, gen: dict, starts: int) -> dict:
    funcs = gen["symbol_funcs"]
    pos = T.Position(funcs[len(funcs) // 2]["start"] + 3, 8)
    cold = [await L.start_once(root, gen["text"], pos, cold=True, watch=False) for _ in range(starts)]
    warm = [await L.start_once(root, gen["text"], pos, cold=False, watch=False) for _ in range(starts)]
    return {"cold_ms": max(r["ready"] for r in cold) * 1000, "warm_ms": max(r["ready"] for r in warm) * 1000,
            "rss_mb": max(r["memory"].get("VmHWM", 0) for r in cold + warm)}


def measure(root: Path, notes: int, files: int, args) -> dict:
    print(f"\n== {notes:,} notes over {files:,} files: generating in {root}", flush=True)
    t = time.perf_counter()
    gen = L.generate(root, notes, files)
    print(f"   generated in {time.perf_counter() - t:.1f} s", flush=True)
    res: dict = {"notes": gen["notes_written"], "files": files, "gen": gen}
    env = {**os.environ, "XDG_RUNTIME_DIR": str(root.parent / f"run-{notes}")}  # this size's server only
    os.makedirs(env["XDG_RUNTIME_DIR"], exist_ok=True)

    shutil.rmtree(root / ".tether" / "cache", ignore_errors=True)
    res["index_s"], res["index_rss_mb"], _ = run(tether_cmd() + ["reindex"], root, env=env)
    shutil.rmtree(root / ".tether" / "cache", ignore_errors=True)
    res["check_cold_s"], res["check_rss_mb"], _ = run(tether_cmd() + ["check"], root, env=env)
    res["check_warm_s"], _, _ = run(tether_cmd() + ["check"], root, env=env)

    floor = [run([sys.executable, "-c", "pass"], root)[0] * 1000 for _ in range(args.calls)]
    res["floor_p50_ms"], res["floor_p99_ms"] = L.pct(floor, 50), L.pct(floor, 99)
    bare = [run([sys.executable, "-P", "-S", "-c", "pass"], root)[0] * 1000 for _ in range(args.calls)]
    res["floor_nosite_p50_ms"], res["floor_nosite_p99_ms"] = L.pct(bare, 50), L.pct(bare, 99)
    res["stat_notes_ms"] = min(stat_notes(root) for _ in range(5))

    alone = timed_calls(root, gen, args.calls, 1, env)
    with serving(root, env):
        warm = gen["symbol_funcs"][0]["start"] + 2  # in a function: the call graph is read too
        run(tether_cmd() + ["context", f"{L.BIG}:{warm}"], root, env=env)  # the server's first answer warms it
        served = timed_calls(root, gen, args.calls, 2, env)
        served["edit"] = edit_calls(root, args.calls, 3, env)
        res.update(agent_path_served(root, gen, args.calls, env))
    for mode, times in (("alone", alone), ("served", served)):
        for kind, xs in times.items():
            res[f"{kind}_{mode}_p50_ms"], res[f"{kind}_{mode}_p99_ms"] = L.pct(xs, 50), L.pct(xs, 99)

    res.update({f"lsp_{k}": v for k, v in asyncio.run(lsp_ready(root, gen, args.starts)).items()})
    return res


ROWS = [  # key, label, target (None: none), unit
    ("index_s", "index build (tether reindex, no cache)", "<= 10 s", "s"),
    ("index_rss_mb", "index build peak RSS", None, "MB"),
    ("check_cold_s", "tether check, cold", None, "s"),
    ("check_warm_s", "tether check, warm", None, "s"),
    ("hook_alone_p50_ms", "hook p50, alone", None, "ms"),
    ("hook_alone_p99_ms", "hook p99, alone", "<= 100 ms (150 at 100k)", "ms"),
    ("hook_served_p50_ms", "hook p50, with tether serve", None, "ms"),
    ("hook_served_p99_ms", "hook p99, with tether serve", "<= 30 ms", "ms"),
    ("context_alone_p50_ms", "context p50, alone", None, "ms"),
    ("context_alone_p99_ms", "context p99, alone", "<= 100 ms", "ms"),
    ("context_served_p50_ms", "context p50, with tether serve", None, "ms"),
    ("context_served_p99_ms", "context p99, with tether serve", "<= 30 ms", "ms"),
    ("edit_served_p50_ms", "hook on an edit after an edit, served, p50", None, "ms"),
    ("edit_served_p99_ms", "hook on an edit after an edit, served, p99", None, "ms"),
    ("floor_p50_ms", "floor: python -c pass, p50", None, "ms"),
    ("floor_p99_ms", "floor: python -c pass, p99", None, "ms"),
    ("floor_nosite_p50_ms", "  of which not site: python -P -S, p50", None, "ms"),
    ("stat_notes_ms", "floor alone: a stat of every note file", None, "ms"),
    ("lsp_cold_ms", "LSP ready (first hover), cold, worst", "<= 1000 ms", "ms"),
    ("lsp_warm_ms", "LSP ready, warm cache, worst", None, "ms"),
    ("lsp_rss_mb", "LSP peak RSS", "<= 400 MB", "MB"),
]


def met(key: str, value: float, res: dict) -> str:
    limit = {"index_s": 10, "hook_alone_p99_ms": 150 if res["notes"] >= 100_000 else 100, "hook_served_p99_ms": 30,
             "context_alone_p99_ms": 100, "context_served_p99_ms": 30, "lsp_cold_ms": 1000, "lsp_rss_mb": 400}.get(key)
    if limit is None:
        return ""
    ok = value <= limit
    if key.endswith("_p99_ms") and "floor_p99_ms" in res:  # and within 4x the interpreter's own start
        ok = ok and value <= 4 * res["floor_p99_ms"]
    return "yes" if ok else "NO"


def table(res: dict) -> None:
    print(f"\n{res['notes']:,} notes over {res['files']:,} files")
    print(f"{'figure':<42} {'value':>10}  {'target':<26} met   x floor")
    for key, label, target, unit in ROWS:
        v = res[key]
        vs_floor = f"{v / res['floor_p50_ms']:.1f}" if unit == "ms" and key.endswith("p50_ms") else \
            f"{v / res['floor_p99_ms']:.1f}" if unit == "ms" and key.endswith("p99_ms") else ""
        print(f"{label:<42} {v:>8.1f} {unit:<2} {target or '-':<26} {met(key, v, res):<5} {vs_floor}")


def growth(results: list[dict], rows: list[tuple] = ROWS) -> None:
    if len(results) < 2:
        return
    print("\ngrowth between sizes (a figure should grow no faster than the notes)")
    heads = [f"{a['notes']:,}->{b['notes']:,}" for a, b in zip(results, results[1:])]
    print(f"{'figure':<54} " + " ".join(f"{h:>16}" for h in heads))
    print(f"{'notes':<54} " + " ".join(f"{b['notes'] / a['notes']:>15.1f}x" for a, b in zip(results, results[1:])))
    for key, label, *_ in rows:
        if key.startswith("floor"):
            continue
        print(f"{label:<54} " + " ".join(f"{b[key] / a[key]:>15.1f}x" if a[key] else f"{'-':>16}"
                                         for a, b in zip(results, results[1:])))


# -- the whole-workspace commands: linear in the notes ----------------------------------------

COMMANDS = [  # key, label, argv (OUT: a folder of this size's), target at 10k / 100k notes
    ("first_list_s", "list --json, first (no resolution kept yet)", ["list", "--json"], {10_000: 2, 100_000: 15}),
    ("list_s", "list --json", ["list", "--json"], {10_000: 2, 100_000: 15}),
    ("doctor_s", "doctor --json", ["doctor", "--json"], {}),
    ("check_s", "check", ["check"], {}),
    ("site_s", "site --out DIR", ["site", "--out", "OUT"], {}),
    ("sync_s", "sync, a tenth of the files' code moved", ["sync", "--json"], {}),
]


def move_code(root: Path, every: int = 10) -> int:
    """Push the code of every ``every``-th small file two lines down: its anchors moved."""
    moved = 0
    for k, f in enumerate(sorted((root / "src").rglob("helpers_*.py"))):
        if k % every == 0:
            f.write_text("# moved\n\n" + f.read_text())
            moved += 1
    return moved


READY = ".bench-commands.json"  # a generated workspace, committed: ``--keep`` restores it instead of generating


def fresh_clone(root: Path, notes: int, files: int) -> dict:
    """The workspace as a fresh clone has it: committed to git (a CI's checkout), its index
    built, no resolution kept. Generated once; under ``--keep``, a later run restores it
    from its commit (generating 100,000 notes takes minutes)."""
    git = ["git", "-c", "user.name=Bench", "-c", "user.email=bench@example.com", "-C", str(root)]
    ready = root / READY
    if ready.is_file() and json.loads(ready.read_text()).get("size") == [notes, files]:
        print(f"\n== {notes:,} notes over {files:,} files: restored in {root}", flush=True)
        subprocess.run(git + ["reset", "-q", "--hard"], check=True)
        subprocess.run(git + ["clean", "-q", "-fd"], check=True)  # (not the ignored cache: removed below)
        gen = json.loads(ready.read_text())
    else:
        print(f"\n== {notes:,} notes over {files:,} files: generating in {root}", flush=True)
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        gen = {"size": [notes, files], "notes_written": L.generate(root, notes, files)["notes_written"]}
        subprocess.run(git + ["init", "-q"], check=True)
        (root / ".gitignore").write_text(READY + "\n")
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-q", "-m", "generated"], check=True)
        ready.write_text(json.dumps(gen))
    shutil.rmtree(root / ".tether" / "cache", ignore_errors=True)
    subprocess.run(tether_cmd() + ["reindex"], cwd=root, check=True, stdout=subprocess.DEVNULL)
    return gen


def measure_commands(root: Path, notes: int, files: int, gen: dict | None = None) -> dict:
    if gen is None:
        gen = fresh_clone(root, notes, files)
    res: dict = {"notes": gen["notes_written"], "files": files}
    env = {**os.environ, "XDG_RUNTIME_DIR": str(root.parent / f"run-{notes}")}  # no server of another size answers
    os.makedirs(env["XDG_RUNTIME_DIR"], exist_ok=True)
    for key, label, argv, _ in COMMANDS:
        if key == "sync_s":
            res["sync_files"] = move_code(root)
        site = root.parent / f"site-{notes}"
        shutil.rmtree(site, ignore_errors=True)  # (one an interrupted run left half replaced is refused)
        argv = [str(site) if a == "OUT" else a for a in argv]
        res[key], res[key[:-2] + "_rss_mb"], out = run(tether_cmd() + argv, root, env=env)
        res[key[:-2] + "_cpu_s"] = CPU["s"]
        if CPU["exit"] not in (0, 1):  # 1: findings; anything else is no figure
            raise RuntimeError(f"tether {' '.join(argv)} exited with {CPU['exit']} in {root}")
        if key == "sync_s":
            res["sync_anchors"] = len(json.loads(out)["changed"])
        print(f"   {label:<40} {res[key]:>8.2f} s  (CPU {CPU['s']:.2f} s, load {os.getloadavg()[0]:.1f})", flush=True)
    return res


def commands_table(results: list[dict]) -> None:
    print("\nwhole-workspace commands (wall seconds, a new process each, index warm)")
    print(f"{'command':<54} " + " ".join(f"{r['notes']:>10,}" for r in results) + "   target")
    for key, label, _, targets in COMMANDS:
        cells = " ".join(f"{r[key]:>10.2f}" for r in results)
        goals = ", ".join(f"<= {t} s at {n // 1000}k" + (" " + ("yes" if r[key] <= t else "NO"))
                          for n, t in targets.items() for r in results if r["notes"] >= n > r["notes"] // 2)
        print(f"{label:<54} {cells}   {goals}")
    for key, label, _, _ in COMMANDS:  # what a loaded machine does not change much
        print(f"{'  CPU s: ' + label:<54} " + " ".join(f"{r[key[:-2] + '_cpu_s']:>10.2f}" for r in results))
    print(f"{'  peak RSS of list --json, MB':<54} " + " ".join(f"{r['list_rss_mb']:>10.0f}" for r in results))
    print(f"{'  anchors sync wrote':<54} " + " ".join(f"{r['sync_anchors']:>10,}" for r in results))
    growth(results, COMMANDS)
    growth(results, [(key[:-2] + "_cpu_s", "CPU s: " + label) for key, label, _, _ in COMMANDS])


# -- the agent's path (issue 33): what each tool call of an agent session costs, beside the floor --

AGENT_ROWS = [  # key, label, target
    ("floor_p50_ms", "floor: python -c pass, p50", None),
    ("floor_p99_ms", "floor: python -c pass, p99", None),
    ("floor_nosite_p50_ms", "floor without site: python -P -S (the hook's start), p50", None),
    ("floor_nosite_p99_ms", "floor without site: python -P -S (the hook's start), p99", None),
    ("post_edit_served_p50_ms", "PostToolUse after an edit of the 5,000-line file, served, p50", None),
    ("post_edit_served_p99_ms", "PostToolUse after an edit of the 5,000-line file, served, p99",
     "<= 30 ms and <= 4x floor p99"),
    ("post_edit_served_site_p50_ms", "  the same by the `tether` script (with site), p50", None),
    ("post_edit_served_site_p99_ms", "  the same by the `tether` script (with site), p99", None),
    ("post_edit_served_span_p50_ms", "  the same, in a function with a statement's note (resolved), p50", None),
    ("post_edit_served_span_p99_ms", "  the same, in a function with a statement's note (resolved), p99", None),
    ("post_edit_served_pre_p50_ms", "PreToolUse on an Edit of that file, served (the edit before checked), p50", None),
    ("post_edit_served_pre_p99_ms", "PreToolUse on an Edit of that file, served (the edit before checked), p99 (its first, cold)", None),
    ("hook_alone_p50_ms", "PreToolUse hook alone (no server), p50", None),
    ("hook_alone_p99_ms", "PreToolUse hook alone (no server), p99", "<= 150 ms at 10,000 notes"),
    ("hook_first_ms", "PreToolUse hook alone, the first after `tether reindex` (once)", None),
    ("stat_notes_ms", "floor alone: a stat of every note file (in process, best of 5)", None),
    ("edit_alone_p50_ms", "PreToolUse hook alone on an Edit (and what the code calls), p50", None),
    ("edit_alone_p99_ms", "PreToolUse hook alone on an Edit (and what the code calls), p99", "<= 150 ms at 10,000 notes"),
    ("read_big_alone_p50_ms", "  the same hook on a Read of that whole file, p50", None),
    ("read_big_alone_p99_ms", "  the same hook on a Read of that whole file, p99", None),
    ("edit_alone_cpu_p50_ms", "  its CPU time (user + system), p50: the work, less the load", None),
    ("loop_pre_alone_p50_ms", "PreToolUse alone on an Edit after an edit of that file (a loop), p50", None),
    ("loop_pre_alone_p99_ms", "PreToolUse alone on an Edit after an edit of that file (a loop), p99",
     "<= 150 ms at 10,000 notes"),
    ("loop_post_alone_p50_ms", "  the PostToolUse alone after each of those edits (its check), p50", None),
    ("loop_post_alone_p99_ms", "  the PostToolUse alone after each of those edits (its check), p99", None),
]


def alone_edits(root: Path, gen: dict, n: int, env: dict) -> tuple[list[float], list[float]]:
    """``n`` PreToolUse hooks on an Edit of a line in the 5,000-line file's noted functions, with no
    server, a new session each: the notes there and on what that code calls, which asks for the
    workspace's call graph. Timed once every source file's symbols are in the index, as a user's
    is after a server ran or a hundred calls alone (each parses up to 100 files it lacks). Beside
    each, a Read of that whole file (the same notes but none on what the code calls): the
    difference is what answering at a line adds."""
    from tether.context.calls import _index_of
    from tether.core.workspace import Workspace
    ws = Workspace(root)
    try:
        _index_of(ws).refresh(budget=1 << 30)
    finally:
        ws.close()
    big = root / L.BIG
    lines = big.read_text().split("\n")
    funcs = gen["symbol_funcs"]
    times, reads = [], []
    CPU["edits"] = []
    for k in range(n):
        i = funcs[k % len(funcs)]["start"] + 1
        event = {"session_id": f"bench-edit-{k}", "transcript_path": "", "cwd": str(root),
                 "hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_use_id": f"alone-edit-{k}",
                 "tool_input": {"file_path": str(big), "old_string": lines[i], "new_string": lines[i] + "  # edit"}}
        times.append(run(hook_cmd() + ["hook", "claude-code"], root, json.dumps(event).encode(), env)[0] * 1000)
        CPU["edits"].append(CPU["s"] * 1000)
        event = {"session_id": f"bench-read-big-{k}", "transcript_path": "", "cwd": str(root),
                 "hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": str(big)}}
        reads.append(run(hook_cmd() + ["hook", "claude-code"], root, json.dumps(event).encode(), env)[0] * 1000)
    return times, reads


def alone_loop(root: Path, gen: dict, n: int, env: dict) -> dict:
    """``n`` edits of the 5,000-line file as an agent with no server makes them, one after the
    other: the PreToolUse hook on the Edit (timed: the file changed since the hook before read
    it), the edit on disk, the PostToolUse hook that checks it (timed)."""
    big = root / L.BIG
    kept = big.read_text()
    lines = kept.split("\n")
    funcs = gen["symbol_funcs"]
    times: dict[str, list[float]] = {"pre": [], "post": []}
    try:
        for k in range(n):
            i = funcs[(7 * k) % len(funcs)]["start"] + 1  # (here and there in the file)
            old, new = lines[i], lines[i] + f"  # loop {k}"
            event = {"session_id": "bench-loop", "transcript_path": "", "cwd": str(root),
                     "hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_use_id": f"loop-{k}",
                     "tool_input": {"file_path": str(big), "old_string": old, "new_string": new}}
            times["pre"].append(run(hook_cmd() + ["hook", "claude-code"], root, json.dumps(event).encode(), env)[0] * 1000)
            lines[i] = new
            big.write_text("\n".join(lines))
            event.update(hook_event_name="PostToolUse", tool_response={"filePath": str(big)})
            times["post"].append(run(hook_cmd() + ["hook", "claude-code"], root, json.dumps(event).encode(), env)[0] * 1000)
    finally:
        big.write_text(kept)
    return {f"loop_{kind}_alone_p{q}_ms": L.pct(xs, q) for kind, xs in times.items() for q in (50, 99)}


THINK_S = 0.2  # the least an agent's model takes to write its next tool call once a hook answered


def agent_path_served(root: Path, gen: dict, n: int, env: dict) -> dict:
    """``n`` edits of the 5,000-line file as an agent makes them: the PreToolUse hook (``THINK_S``
    after the hook before it; timed as ``_pre`` when by the hook command), the edit on disk, then
    the PostToolUse hook that checks the edited file (timed), served — by
    the hook command ``init --agents`` writes and, in turn with it (so both meet the same load),
    by the ``tether`` script with site as an older hook command ran it (the first edit, on a server
    just started, is the hook command's: its p99 counts it, as before the script's row was added).
    Then ``n // 3`` edits (by the hook command) of functions holding a note on a statement, whose
    anchor the check resolves in the edited file (``_span``)."""
    big = root / L.BIG
    kept = big.read_text()
    lines = kept.split("\n")
    times: dict[str, list[float]] = {"": [], "_site": [], "_span": [], "_pre": []}
    try:
        for k in range(2 * n + n // 3):
            cmd, kind = (hook_cmd(), "") if k % 2 == 0 else (tether_cmd(), "_site")
            funcs = gen["symbol_funcs"]
            if k >= 2 * n:
                cmd, kind, funcs = hook_cmd(), "_span", gen["span_funcs"]
            i = funcs[k % len(funcs)]["start"] + 1  # a line in a noted function's body
            old, new = lines[i], lines[i] + f"  # edit {k}"
            event = {"session_id": f"bench-post-{k}", "transcript_path": "", "cwd": str(root),
                     "hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_use_id": f"edit-{k}",
                     "tool_input": {"file_path": str(big), "old_string": old, "new_string": new}}
            time.sleep(THINK_S)  # (the model writing its next tool call: the server's work after an answer is done)
            wall, _, _ = run(cmd + ["hook", "claude-code"], root, json.dumps(event).encode(), env)
            if kind == "":
                times["_pre"].append(wall * 1000)
            lines[i] = new
            big.write_text("\n".join(lines))
            event.update(hook_event_name="PostToolUse", tool_response={"filePath": str(big)})
            wall, _, _ = run(cmd + ["hook", "claude-code"], root, json.dumps(event).encode(), env)
            times[kind].append(wall * 1000)
    finally:
        big.write_text(kept)
    return {f"post_edit_served{kind}_p{q}_ms": L.pct(xs, q) for kind, xs in times.items() for q in (50, 99)}


def measure_agent_path(root: Path, notes: int, files: int, args) -> dict:
    """Only the agent's path (``--agent-path``): the floor, the hook alone, the served post-edit hook."""
    print(f"\n== {notes:,} notes over {files:,} files: generating in {root}", flush=True)
    gen = L.generate(root, notes, files)
    res: dict = {"notes": gen["notes_written"], "files": files}
    env = {**os.environ, "XDG_RUNTIME_DIR": str(root.parent / f"run-{notes}")}
    os.makedirs(env["XDG_RUNTIME_DIR"], exist_ok=True)
    run(tether_cmd() + ["reindex"], root, env=env)
    floor = [run([sys.executable, "-c", "pass"], root)[0] * 1000 for _ in range(args.calls)]
    res["floor_p50_ms"], res["floor_p99_ms"] = L.pct(floor, 50), L.pct(floor, 99)
    bare = [run([sys.executable, "-P", "-S", "-c", "pass"], root)[0] * 1000 for _ in range(args.calls)]
    res["floor_nosite_p50_ms"], res["floor_nosite_p99_ms"] = L.pct(bare, 50), L.pct(bare, 99)
    # the first hook after the index is rebuilt works out once what a rebuild drops (which anchored
    # files are gone, the big file's definitions): timed on its own, not as one of the calls below,
    # where it would be their p99 whatever the calls after it cost (a user's index has it already)
    event = {"session_id": "bench-first", "transcript_path": "", "cwd": str(root), "hook_event_name": "PreToolUse",
             "tool_name": "Read", "tool_input": {"file_path": str(root / L.BIG)}}
    res["hook_first_ms"] = run(hook_cmd() + ["hook", "claude-code"], root, json.dumps(event).encode(), env)[0] * 1000
    res["stat_notes_ms"] = min(stat_notes(root) for _ in range(5))
    alone = timed_calls(root, gen, args.calls, 1, env)["hook"]
    res["hook_alone_p50_ms"], res["hook_alone_p99_ms"] = L.pct(alone, 50), L.pct(alone, 99)
    edits, reads = alone_edits(root, gen, args.calls, env)
    res["edit_alone_p50_ms"], res["edit_alone_p99_ms"] = L.pct(edits, 50), L.pct(edits, 99)
    res["read_big_alone_p50_ms"], res["read_big_alone_p99_ms"] = L.pct(reads, 50), L.pct(reads, 99)
    res["edit_alone_cpu_p50_ms"] = L.pct(CPU["edits"], 50)
    res.update(alone_loop(root, gen, args.calls, env))
    with serving(root, env):
        res.update(agent_path_served(root, gen, args.calls, env))
    return res


def agent_table(res: dict) -> None:
    if "post_edit_served_p99_ms" not in res:
        return
    floor = res["floor_p99_ms"]
    print(f"\nthe agent's path at {res['notes']:,} notes (each call a new process, as the agent runs it)")
    print(f"{'figure':<64} {'value':>9}  {'target':<30} met   x floor")
    for key, label, target in AGENT_ROWS:
        if key not in res:  # (the first hook after a reindex: --agent-path only)
            continue
        v = res[key]
        if key == "hook_alone_p99_ms" and res["notes"] > 10_500:
            target = None  # the table above holds its target at this size
        met = "" if target is None else "yes" if (
            v <= 30 and v <= 4 * floor if key.startswith("post_edit") else v <= 150) else "NO"
        ratio = v / (res["floor_p99_ms"] if key.endswith("p99_ms") else res["floor_p50_ms"])
        print(f"{label:<64} {v:>6.1f} ms  {target or '-':<30} {met:<5} {ratio:.1f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000:2000,10000:20000,100000:20000", help="NOTES:FILES,...")
    ap.add_argument("--calls", type=int, default=60, help="hook and context calls per mode")
    ap.add_argument("--starts", type=int, default=2, help="LSP starts, cold and warm")
    ap.add_argument("--agent-path", action="store_true",
                    help="only the agent's path: the hook alone and the served post-edit hook, beside the floor (quick)")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--keep", help="generate the workspaces under this folder and keep them")
    ap.add_argument("--quick", action="store_true", help="only 1,000 and 10,000 notes")
    ap.add_argument("--commands", action="store_true", help="only the whole-workspace commands (list, sync, ...)")
    args = ap.parse_args(argv)
    if args.quick:
        args.sizes = ",".join(args.sizes.split(",")[:2])
    compile_bytecode()
    base = Path(args.keep or tempfile.mkdtemp(prefix="tether-scale-"))
    results, commands = [], []
    try:
        for size in args.sizes.split(","):
            notes, files = (int(x) for x in size.split(":"))
            root = base / f"ws-{notes}"
            if args.commands:
                commands.append(measure_commands(root, notes, files))
                continue
            shutil.rmtree(root, ignore_errors=True)
            root.mkdir(parents=True)
            if args.agent_path:
                results.append(measure_agent_path(root, notes, files, args))
            else:
                results.append(measure(root, notes, files, args))
                table(results[-1])
                commands.append(measure_commands(root, notes, files, results[-1]["gen"]))
            agent_table(results[-1])
        if not args.agent_path:
            growth(results)
        if commands:
            commands_table(commands)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"sizes": [{k: v for k, v in r.items() if k != "gen"} for r in results],
                                               "commands": commands}, indent=1))
    print(f"\npython {sys.version.split()[0]}, {os.cpu_count()} cpus, load {os.getloadavg()[0]:.2f} at the end; "
          f"p50/p99 over {args.calls} calls of each kind and mode")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
