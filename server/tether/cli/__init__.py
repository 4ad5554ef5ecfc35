"""The ``tether`` command. What an agent runs as a new process on every tool call (``hook``,
``context``) is first offered to the workspace's resident server (``tether serve``), before
anything else is imported: the imports alone cost more than the server's answer."""

import gc
import io
import sys

def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # a command's many objects (100,000 notes and their anchors) live to its end: collecting
    # garbage 140 times less often halves what a whole-workspace command costs
    gc.set_threshold(100_000, 50, 100)
    if argv[:1] in (["hook"], ["context"]) and "--help" not in argv and "-h" not in argv:
        from .client import HOOK_AGENTS, through_server  # built-in modules only
        stdin = sys.stdin.buffer.read() if argv[0] == "hook" else b""
        code = through_server(argv, stdin)
        if code is not None:
            ended(code)
        with_site()  # (once: both ways on from here need site-packages)
        if argv[0] == "hook":
            sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="surrogateescape")
            if argv[1:2] and argv[1] in HOOK_AGENTS and argv[2:] in ([], ["--serve"]):  # all the parser would say
                from types import SimpleNamespace  # (argparse, and its regular expressions: ~3 ms of a hook alone)

                from .faces import cmd_hook
                ended(cmd_hook(SimpleNamespace(agent=argv[1])))
    else:
        with_site()
    from .main import main as run
    return run(argv)


def ended(code: int) -> None:
    """End a hook's or ``context``'s process once its answer is out: it has nothing left to do
    (the server answered, or its workspace is closed and its writes committed), and the
    interpreter's teardown, which the agent waits for, is ~2 ms of a served hook (a tenth of it)
    and ~5–10 ms of one that worked alone (every note, anchor and parse freed one by one)."""
    import posix  # (built in, as everything this module imports)
    sys.stdout.flush()
    sys.stderr.flush()
    posix._exit(code)


def with_site() -> None:
    """Run ``site`` now when the interpreter was started without it (``-S``: a hook command,
    ``tether.__main__``): what the server did not answer imports lmdb, tree-sitter and the rest
    from site-packages, with their ``.pth`` files, user site and ``sitecustomize`` as always."""
    if sys.flags.no_site:
        import site
        site.main()
