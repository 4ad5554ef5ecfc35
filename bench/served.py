"""The resident server's own latency (``tether serve``), quiet and under the loads that used to
stall it: what a served hook call costs beyond starting its process.

    python3 bench/served.py [--notes 1000] [--files 200] [--calls 200] [--transcript-mb 200]
                            [--tree SERVER_DIR] [--quick]

It generates a workspace with ``bench/lsp_latency.py``'s generator, starts ``tether serve`` on
it (from ``--tree``, default this checkout's ``server/``: point it at another checkout to
compare), and times round trips over the socket from this process (``client.ask``: the
request a ``tether hook claude-code`` process sends — a PreToolUse Read of a file with notes,
a new session each call — and its answer), p50 / p99 of ``--calls``:

1. quiet;
2. while 3 clients each send a byte of a request every 1.5 s (the server used to wait for
   them one ``recv`` at a time: every other call timed out);
3. while a ``Stop`` hook runs on a ``--transcript-mb`` transcript through the server (it used
   to read it whole in the server, holding every other call for its ~27 s);

and the Stop hook itself, end to end (its process, ``--serve``), on a 500 KB transcript, which
the server distils itself (one over 1 MB it leaves to the hook's own process).

A call the server does not answer within the client's 2 s counts as "alone" (the hook then
runs in its own process). It prints each figure beside its target. No assertions: it reports.
Say what else the machine was running beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "server"))

import lsp_latency as L  # noqa: E402

from tether.cli.client import ask, listening, request, socket_path  # noqa: E402

TARGET_P99_MS = 30  # bench/scale.py's target for a served hook, process start included


def pct(xs: list[float], p: int) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))] if xs else float("nan")


def round_trips(root: Path, files: list[str], n: int, tag: str) -> tuple[list[float], int]:
    """Milliseconds of ``n`` served hook calls, and how many went unanswered (alone)."""
    times, alone = [], 0
    for k in range(n):
        event = {"session_id": f"{tag}-{k}", "cwd": str(root), "hook_event_name": "PreToolUse", "tool_name": "Read",
                 "tool_input": {"file_path": str(root / files[k % len(files)])}}
        t0 = time.perf_counter()
        got = ask(str(root), ["hook", "claude-code"], str(root), json.dumps(event).encode())
        if got is None or not got[0].isdigit():
            alone += 1
            continue
        times.append((time.perf_counter() - t0) * 1000)
    return times, alone


def trickle(root: Path, stop: threading.Event) -> None:
    """A client that sends one byte of its request every 1.5 s."""
    try:
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(socket_path(root))
            for b in request(["context", "x.py"], str(root), b""):
                s.sendall(bytes([b]))
                if stop.wait(1.5):
                    return
    except OSError:
        return  # dropped by the server


def transcript(path: Path, root: Path, size: int) -> None:
    """``size`` bytes of a session's turns: a question, a file read whole, an answer."""
    content = "\n".join(f"{i:6}→    total = total + amount_{i}" for i in range(900))
    with open(path, "w", encoding="utf-8") as f:
        i = 0
        while f.tell() < size:
            at = f"2026-11-19T{8 + i // 3600 % 10:02}:{i // 60 % 60:02}:{i % 60:02}.000Z"
            base = {"sessionId": "big", "cwd": str(root), "timestamp": at}
            for rec in ({**base, "type": "user", "message": {"role": "user", "content": f"What is part {i}?"}},
                        {**base, "type": "assistant", "message": {"role": "assistant", "content": [
                            {"type": "tool_use", "id": f"r{i}", "name": "Read", "input": {"file_path": "x.py"}}]}},
                        {**base, "type": "user", "message": {"role": "user", "content": [
                            {"type": "tool_result", "tool_use_id": f"r{i}", "content": content}]}},
                        {**base, "type": "assistant", "message": {"role": "assistant", "content": f"Part {i}."}}):
                f.write(json.dumps(rec) + "\n")
            i += 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--notes", type=int, default=1000)
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--transcript-mb", type=int, default=200)
    ap.add_argument("--tree", type=Path, default=HERE.parent / "server", help="the server/ folder to run tether from")
    ap.add_argument("--quick", action="store_true", help="60 calls, a 50 MB transcript")
    args = ap.parse_args(argv)
    if args.quick:
        args.calls, args.transcript_mb = 60, 50
    tmp = Path(tempfile.mkdtemp(prefix="tether-served-bench-"))
    root = tmp / "ws"
    root.mkdir()
    env = {**os.environ, "PYTHONPATH": str(args.tree.resolve()), "XDG_RUNTIME_DIR": str(tmp / "run")}
    os.environ["XDG_RUNTIME_DIR"] = env["XDG_RUNTIME_DIR"]  # this process's client finds the same socket
    server = None
    try:
        gen = L.generate(root, args.notes, args.files)
        files = [L.BIG] + sorted(p.relative_to(root).as_posix() for p in (root / "src").rglob("helpers_*.py"))[:50]
        big = tmp / "big.jsonl"
        transcript(big, root, args.transcript_mb << 20)
        server = subprocess.Popen([sys.executable, "-m", "tether", "serve", str(root)], cwd=root, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 300
        while not listening(socket_path(root)):
            if time.monotonic() > end:
                raise RuntimeError("the server did not start listening in 300 s")
            time.sleep(0.05)
        round_trips(root, files, 20, "warm")
        rows = []
        quiet, alone = round_trips(root, files, args.calls, "quiet")
        rows.append(("quiet", quiet, alone))

        stop = threading.Event()
        slow = [threading.Thread(target=trickle, args=(root, stop)) for _ in range(3)]
        for t in slow:
            t.start()
        try:
            times, alone = round_trips(root, files, args.calls, "slow")
        finally:
            stop.set()
            for t in slow:
                t.join()
        rows.append(("3 clients sending a byte every 1.5 s", times, alone))

        event = json.dumps({"session_id": "big", "transcript_path": str(big), "cwd": str(root),
                            "hook_event_name": "Stop", "stop_hook_active": False})
        t0 = time.perf_counter()
        stop_hook = subprocess.Popen([sys.executable, "-m", "tether", "hook", "claude-code", "--serve"], cwd=root,
                                     env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        stop_hook.stdin.write(event.encode())
        stop_hook.stdin.close()
        times, alone = [], 0
        while stop_hook.poll() is None and len(times) + alone < args.calls:
            t, a = round_trips(root, files, 1, f"stop-{len(times) + alone}")
            times += t
            alone += a
        stop_hook.wait()
        stop_s = time.perf_counter() - t0
        rows.append((f"while a Stop hook reads a {args.transcript_mb} MB transcript ({stop_s:.1f} s)", times, alone))
        small = tmp / "small.jsonl"
        transcript(small, root, 500_000)
        stops = []
        for k in range(5):
            event = json.dumps({"session_id": f"small-{k}", "transcript_path": str(small), "cwd": str(root),
                                "hook_event_name": "Stop", "stop_hook_active": False})
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "tether", "hook", "claude-code", "--serve"], cwd=root, env=env,
                           input=event.encode(), capture_output=True)
            stops.append((time.perf_counter() - t0) * 1000)
    finally:
        if server is not None:
            server.kill()
            server.wait()
        subprocess.run(["rm", "-rf", str(tmp)])

    print(f"\nserved hook round trip, {gen['indexed']} notes, server from {args.tree}")
    w = max(len(r[0]) for r in rows)
    print(f"{'while':<{w}}  {'p50 ms':>8}  {'p99 ms':>8}  {'answered':>9}  {'alone':>6}  target")
    for name, times, alone in rows:
        print(f"{name:<{w}}  {pct(times, 50):8.1f}  {pct(times, 99):8.1f}  {len(times):9}  {alone:6}  "
              f"p99 <= {TARGET_P99_MS} ms (with the process start), none alone")
    print(f"Stop hook on a 500 KB transcript, end to end: p50 {pct(stops, 50):.0f} ms, max {max(stops):.0f} ms "
          f"(5 runs; the process start included)")
    print(f"\npython {sys.version.split()[0]}, {os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
