"""Proxy benchmark: what ``tether proxy`` adds between a client and a local model API, direct and
through the proxy in the same run.

    python3 bench/proxy.py [--quick] [--notes 10000] [--json OUT]

It generates a workspace of ``--notes`` notes (``bench/lsp_latency.py``'s generator: a
5,000-line module with 200 notes, the rest spread over small files), starts a local upstream
(an aiohttp server in its own process that answers ``POST /v1/messages`` with Anthropic-framed
SSE: a short reply, or ``?size=BYTES`` of text deltas, ``&pace=MS`` between 64 KB writes) and
``tether proxy`` in that workspace pointed at it, and measures with an aiohttp client:

1. time to first byte of a main turn (tools offered; a short streamed reply; one conversation, as
   an agent's turns are), direct and through the proxy, interleaved: p50 / p99 and the p99 the
   proxy adds;
2. the same for a request whose newest message carries a tool result of a file with notes (the
   proxy looks the notes up and adds them: a new conversation each request, so every lookup is
   full);
3. throughput of one 50 MB SSE stream read as fast as the client can, direct and through, best
   of three (one with --quick): MB/s and the ratio — once taking the bytes as they come, once
   decoding each event's JSON as an SDK does;
4. 100 concurrent paced streams (1 MB each, over about 3 s) through the proxy: errors, and the
   proxy's peak RSS (VmHWM);
5. the injection lookup alone, in this process: ``Capture.request_body`` for a Read of the big
   module and of a small file, a new session each call: p50 / p99.

Each figure is printed beside its target. No assertions: it reports. The machine should be idle.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "server"))

import aiohttp  # noqa: E402
import orjson  # noqa: E402

TARGETS = {"added_ttfb_p99_ms": ("<=", 2.0), "throughput_ratio": (">=", 0.95), "concurrent_rss_mb": ("<=", 150.0),
           "concurrent_errors": ("<=", 0), "inject_lookup_p99_ms": ("<=", 5.0)}
CHUNK = 64 << 10


# -- the upstream (run as: bench/proxy.py --upstream) -------------------------------------------------

def _sse(event: dict) -> bytes:
    return b"event: " + event["type"].encode() + b"\ndata: " + orjson.dumps(event) + b"\n\n"


def upstream_main() -> None:
    from aiohttp import web
    short = b"".join(_sse(e) for e in (
        {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "content": [],
                                              "stop_reason": None}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Done."}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}}, {"type": "message_stop"}))
    delta = _sse({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "x" * 200}})
    block = delta * (CHUNK // len(delta))

    async def messages(request: web.Request) -> web.StreamResponse:
        await request.read()
        size, pace = int(request.query.get("size", 0)), float(request.query.get("pace", 0)) / 1000
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await resp.prepare(request)
        if not size:
            await resp.write(short)
            return resp
        await resp.write(short[:short.index(b"event: content_block_stop")])
        sent = 0
        while sent < size:
            await resp.write(block)
            sent += len(block)
            if pace:
                await asyncio.sleep(pace)
        await resp.write(short[short.index(b"event: content_block_stop"):])
        return resp

    app = web.Application(client_max_size=64 << 20)
    app.router.add_post("/v1/messages", messages)

    async def run():
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        print(runner.addresses[0][1], flush=True)
        await asyncio.Event().wait()
    asyncio.run(run())


# -- helpers ---------------------------------------------------------------------------------------------

def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q / 100 * (len(xs) - 1))))] if xs else float("nan")


def request_body(root: Path, rel: str | None, sid: str) -> bytes:
    msgs: list[dict] = [{"role": "user", "content": "look at the code"}]
    if rel is not None:
        msgs += [{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Read",
                                                    "input": {"file_path": str(root / rel)}}]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "..."}]}]
    return orjson.dumps({"model": "bench", "max_tokens": 100, "stream": True, "tools": [{"name": "Read"}],
                         "metadata": {"user_id": json.dumps({"session_id": sid})}, "messages": msgs})


async def ttfb(session: aiohttp.ClientSession, url: str, body: bytes) -> float:
    t0 = time.perf_counter()
    async with session.post(url, data=body, headers={"content-type": "application/json",
                                                     "x-api-key": "bench-key"}) as r:
        await r.content.readany()
        t = time.perf_counter() - t0
        await r.read()
    return t * 1000


async def stream_mb_s(session: aiohttp.ClientSession, url: str, size: int, parse: bool) -> float:
    """MB/s of one stream: its bytes as they come (``parse`` False), or read event by event and
    each event's JSON decoded, as an SDK reads it."""
    t0 = time.perf_counter()
    n, rest = 0, b""
    async with session.post(url + f"?size={size}", data=request_body(Path("/"), None, "tp"),
                            headers={"content-type": "application/json"}) as r:
        async for chunk in r.content.iter_any():
            n += len(chunk)
            if parse:
                *events, rest = (rest + chunk).split(b"\n\n")
                for ev in events:
                    orjson.loads(ev[ev.index(b"data: ") + 6:])
    return n / (time.perf_counter() - t0) / 1e6


def vm(pid: int, key: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


# -- the run ---------------------------------------------------------------------------------------------

async def measure(root: Path, direct: str, proxy: str, proxy_pid: int, args) -> dict:
    import lsp_latency as L
    res: dict = {}
    small = next(p.relative_to(root).as_posix() for p in sorted((root / "src").rglob("helpers_*.py")))
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as s:
        n = 100 if args.quick else 500
        for label, rel in (("ttfb", None), ("ttfb_inject", L.BIG)):
            times: dict[str, list[float]] = {"direct": [], "proxy": []}
            for _ in range(10):  # warm both paths
                for base in (direct, proxy):
                    await ttfb(s, base + "/v1/messages", request_body(root, rel, "warm"))
            for i in range(n):  # a main turn: one conversation, as an agent's; notes: a new one each time
                sid = label if rel is None else f"{label}-{i}"
                for name, base in (("direct", direct), ("proxy", proxy)):
                    times[name].append(await ttfb(s, base + "/v1/messages", request_body(root, rel, sid)))
            res[label] = {k: {"p50": pct(v, 50), "p99": pct(v, 99)} for k, v in times.items()}
            res[label]["added_p99"] = res[label]["proxy"]["p99"] - res[label]["direct"]["p99"]
        size = 50 * 10**6
        for key, parse in (("throughput", False), ("throughput_parsed", True)):
            best = {"direct": 0.0, "proxy": 0.0}
            for _ in range(1 if args.quick else 3):
                for name, base in (("direct", direct), ("proxy", proxy)):
                    best[name] = max(best[name], await stream_mb_s(s, base + "/v1/messages", size, parse))
            res[key] = {**best, "ratio": best["proxy"] / best["direct"]}

        async def one(i: int) -> bool:
            try:
                async with s.post(proxy + "/v1/messages?size=1000000&pace=200",
                                  data=request_body(root, None, f"c{i}"),
                                  headers={"content-type": "application/json"}) as r:
                    got = sum([len(c) async for c in r.content.iter_any()])
                    return r.status == 200 and got > 1_000_000
            except aiohttp.ClientError:
                return False
        t0 = time.perf_counter()
        ok = await asyncio.gather(*(one(i) for i in range(100)))
        res["concurrent"] = {"streams": 100, "errors": ok.count(False), "seconds": time.perf_counter() - t0,
                             "rss_peak_mb": vm(proxy_pid, "VmHWM"), "rss_now_mb": vm(proxy_pid, "VmRSS")}
    return res


def lookups(root: Path, quick: bool) -> dict:
    import lsp_latency as L

    from tether.core.workspace import Workspace
    from tether.proxy.apis import ANTHROPIC
    from tether.proxy.capture import Capture, Options
    from tether.proxy.exchange import read_request
    ws = Workspace(root)
    cap = Capture(ws, Options(distil=False))
    small = next(p.relative_to(root).as_posix() for p in sorted((root / "src").rglob("helpers_*.py")))
    out = {}
    for name, rel in (("big module", L.BIG), ("small file", small)):
        times = []
        for i in range(60 if quick else 300):
            req = read_request(ANTHROPIC, request_body(root, rel, f"lookup-{name}-{i}"), {})
            t0 = time.perf_counter()
            body = cap.request_body(req)
            times.append((time.perf_counter() - t0) * 1000)
            assert b"# tether notes for" in body, "no notes were added"
        out[name] = {"p50": pct(times, 50), "p99": pct(times, 99)}
    ws.close()
    return out


def table(res: dict, notes: int) -> None:
    rows = [
        ("TTFB, main turn (ms)", f"{res['ttfb']['direct']['p50']:.2f} / {res['ttfb']['direct']['p99']:.2f}",
         f"{res['ttfb']['proxy']['p50']:.2f} / {res['ttfb']['proxy']['p99']:.2f}",
         f"added p99 {res['ttfb']['added_p99']:.2f}", "added p99 <= 2 ms", res['ttfb']['added_p99'] <= 2),
        ("TTFB, with notes added (ms)", f"{res['ttfb_inject']['direct']['p50']:.2f} / "
                                        f"{res['ttfb_inject']['direct']['p99']:.2f}",
         f"{res['ttfb_inject']['proxy']['p50']:.2f} / {res['ttfb_inject']['proxy']['p99']:.2f}",
         f"added p99 {res['ttfb_inject']['added_p99']:.2f}", "(lookup included)", None),
        *((f"50 MB SSE stream, {how} (MB/s)", f"{res[k]['direct']:.0f}", f"{res[k]['proxy']:.0f}",
           f"{res[k]['ratio'] * 100:.1f} %", ">= 95 % of direct", res[k]['ratio'] >= 0.95)
          for k, how in (("throughput", "bytes as they come"), ("throughput_parsed", "events decoded"))),
        ("100 concurrent streams", "", f"{res['concurrent']['errors']} errors, RSS peak "
                                        f"{res['concurrent']['rss_peak_mb']:.0f} MB",
         f"{res['concurrent']['seconds']:.1f} s", "no error, RSS <= 150 MB",
         res['concurrent']['errors'] == 0 and res['concurrent']['rss_peak_mb'] <= 150),
    ]
    for name, v in res["lookup"].items():
        rows.append((f"injection lookup, {name} (ms)", "", f"{v['p50']:.2f} / {v['p99']:.2f}", f"{notes:,} notes",
                     "p99 <= 5 ms", v["p99"] <= 5))
    w = [max(len(str(r[i])) for r in rows) for i in range(5)]
    head = ("figure", "direct p50 / p99", "proxy p50 / p99", "", "target")
    print("  ".join(h.ljust(w[i]) for i, h in enumerate(head)))
    for r in rows:
        mark = "" if r[5] is None else ("ok" if r[5] else "MISSED")
        print("  ".join(str(r[i]).ljust(w[i]) for i in range(5)) + "  " + mark)
    print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer samples, one throughput run")
    p.add_argument("--notes", type=int, default=10000)
    p.add_argument("--json", metavar="OUT")
    p.add_argument("--upstream", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.upstream:
        upstream_main()
        return 0
    import lsp_latency as L
    tmp = Path(tempfile.mkdtemp(prefix="tether-proxy-bench-"))
    root = tmp / "repo"
    root.mkdir()
    procs: list[subprocess.Popen] = []
    try:
        t0 = time.perf_counter()
        gen = L.generate(root, args.notes, max(1, args.notes // 5))
        print(f"workspace: {gen['indexed']} notes indexed in {time.perf_counter() - t0:.1f} s", flush=True)
        up = subprocess.Popen([sys.executable, __file__, "--upstream"], stdout=subprocess.PIPE, text=True)
        procs.append(up)
        direct = f"http://127.0.0.1:{up.stdout.readline().strip()}"
        env = {**os.environ, "PYTHONPATH": str(HERE.parent / "server")}
        px = subprocess.Popen([sys.executable, "-m", "tether", "proxy", "--port", "0", "--anthropic-upstream", direct],
                              cwd=root, stdout=subprocess.PIPE, text=True, env=env)
        procs.append(px)
        proxy = px.stdout.readline().split()[2]
        res = asyncio.run(measure(root, direct, proxy, px.pid, args))
        res["lookup"] = lookups(root, args.quick)
        res["notes"] = gen["indexed"]
        print()
        table(res, gen["indexed"])
        if args.json:
            Path(args.json).write_text(json.dumps(res, indent=2))
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
