"""Builds the labelled capture sets of ``bench/sessions/`` from their data: every set's
``sessions/*.jsonl`` (Claude Code transcripts, paths written as ``{{ROOT}}``), then checks it.

A set is data, written by hand:

- ``repos/<repo>/`` — the repositories its scenarios start from;
- ``expected.json`` — the scenarios: ``{"set", "scenarios": [{name, repo, sessions, note, expected}]}``;
  a scenario's ``sessions`` run in order on one fresh copy of its repository, and ``expected`` are
  the writer's labels (``kind``, ``anchor``, ``phrase``, ``rejected``);
- ``turns/<session>.toml`` — what happens in a session: ``start`` (its first timestamp), optionally
  ``id`` (its session id), then one ``[[step]]`` table per thing the person or the agent does. A
  step names its action by one key whose value is the action's first argument; its other keys are
  the rest, as the ``Session`` builder of ``tests/fixtures/transcripts/build.py`` names them::

      user = "…"          (seconds)              the person types a prompt
      say = "…"           (thinking, seconds)    the agent answers
      read = "PATH"       (offset, limit, text)  text: what the agent says before a tool call
      edit = "PATH"       old, new (text)        old must occur once in the file
      failed_edit = "PATH" old, new (text)       an Edit whose old string is not found
      write = "PATH"      content (text)
      bash = "COMMAND"    output (fail, description, text, seconds)
      grep = "PATTERN"    found (text)
      subagent = "PROMPT" answer
      meta / command (output) / system / compacted / summary = "…"

The tool results (Read's numbered lines, Edit's patch, …) are computed from the files as the
session changes them, so the transcripts never disagree with the repositories.

The check, per scenario, on a copy of its repository: every session replays through
``tests/capture_fixtures.py``'s ``hook_events`` with every edit applying; the replayed end state
equals the builder's and parses; every expected anchor names a definition there; every key phrase
and rejected option is said in the sessions. Problems are listed and the exit status is 1.

    python3 bench/sessions/build.py                 # every set
    python3 bench/sessions/build.py tune heldout3   # some
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path

SETS = Path(__file__).resolve().parent
TOP = SETS.parents[1]
sys.path.insert(0, str(TOP / "server"))
sys.path.insert(0, str(TOP / "tests"))
from capture_fixtures import PLACEHOLDER, hook_events  # noqa: E402
from tether.core.files import glob_match  # noqa: E402
from tether.core.languages import for_path  # noqa: E402
from tether.core.syntax import SourceFile  # noqa: E402

# the transcript builder, loaded by path: its module name is this file's own
_spec = importlib.util.spec_from_file_location("transcript_builder", TOP / "tests" / "fixtures" / "transcripts" / "build.py")
_builder = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_builder)
Session = _builder.Session

ACTIONS = ("user", "meta", "command", "system", "compacted", "summary", "say", "read", "edit", "failed_edit",
           "write", "bash", "grep", "subagent")


def set_names() -> list[str]:
    return sorted(d.name for d in SETS.iterdir() if (d / "expected.json").is_file())


def scenarios(folder: Path) -> list[dict]:
    return json.loads((folder / "expected.json").read_text(encoding="utf-8"))["scenarios"]


def repo_files(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts}


def session(folder: Path, name: str, files: dict[str, str]) -> Session:
    """The session ``name`` (``turns/<name>.toml``) played on ``files``, which it changes as it edits."""
    path = folder / "turns" / f"{name}.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        sys.exit(f"{path}: no such file (expected.json lists the session {name})")
    except tomllib.TOMLDecodeError as e:
        sys.exit(f"{path}: {e}")
    s = Session(name, data["start"], files, data.get("id"))
    for i, step in enumerate(data.get("step", []), 1):
        action = [a for a in ACTIONS if a in step]
        if len(action) != 1:
            sys.exit(f"{path}: step {i} names {' and '.join(action) or 'no action'}; one of {', '.join(ACTIONS)}")
        args = {("content_" if k == "content" else k): v for k, v in step.items() if k != action[0]}
        try:
            getattr(s, action[0])(step[action[0]], **args)
        except (TypeError, KeyError, AssertionError) as e:
            sys.exit(f"{path}: step {i} ({action[0]}): {e}")
    return s


def played(folder: Path, sc: dict) -> Iterator[tuple[Session, dict[str, str]]]:
    """Each session of the scenario in order, with the repository's files as they are after it."""
    files = repo_files(folder / "repos" / sc["repo"])
    for name in sc["sessions"]:
        s = session(folder, name.removesuffix(".jsonl"), files)
        yield s, dict(files)


# -- the check -------------------------------------------------------------------------------------------

def said(sessions: list[Session]) -> str:
    """What people and the agent said (prompts and text blocks), lower case."""
    out = []
    for s in sessions:
        for rec in s.lines:
            content = rec.get("message", {}).get("content") if rec.get("type") in ("user", "assistant") else None
            if isinstance(content, str):
                out.append(content)
            elif isinstance(content, list):
                out += [b["text"] for b in content if b.get("type") == "text"]
    return "\n".join(out).lower()


def has_anchor(root: Path, anchor: str) -> bool:
    if any(c in anchor for c in "*?["):
        return any(glob_match(anchor, p.relative_to(root).as_posix()) for p in root.rglob("*") if p.is_file())
    path, _, name = anchor.partition(":")
    f = root / path
    if not f.is_file():
        return False
    return not name or name in {d.qualname for d in SourceFile(f.read_text(encoding="utf-8"), for_path(path)).defs}


def check(folder: Path, sc: dict, sessions: list[Session], final: dict[str, str]) -> list[str]:
    """Problems with one scenario: an edit that does not replay, an end state that differs from the
    builder's or does not parse, an anchor that names nothing, a phrase nobody said."""
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        shutil.copytree(folder / "repos" / sc["repo"], root,
                        ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        for s in sessions:
            path = Path(tmp) / f"{s.name}.jsonl"
            path.write_text(s.jsonl().replace(PLACEHOLDER, json.dumps(str(root))[1:-1]), encoding="utf-8")
            try:
                for _event, change in hook_events(path, root):
                    if change is not None:
                        change()
            except AssertionError as e:
                problems.append(f"{s.name}: {e}")
        for rel, text in final.items():
            if (root / rel).read_text(encoding="utf-8") != text:
                problems.append(f"replayed {rel} differs from the session's end state")
            tree = SourceFile(text, for_path(rel)).tree
            if tree is not None and tree.root_node.has_error:
                problems.append(f"{rel} does not parse at the end")
        words = said(sessions)
        for e in sc["expected"]:
            if not has_anchor(root, e["anchor"]):
                problems.append(f"anchor {e['anchor']} names nothing in the final state")
            for phrase in [e["phrase"], *e["rejected"]]:
                if phrase.lower() not in words:
                    problems.append(f"{phrase!r} is never said")
    return problems


def build(name: str) -> list[str]:
    """Writes the set's transcripts; returns the problems the check found."""
    folder = SETS / name
    out = folder / "sessions"
    out.mkdir(exist_ok=True)
    for old in out.glob("*.jsonl"):
        old.unlink()
    problems = []
    if json.loads((folder / "expected.json").read_text(encoding="utf-8")).get("set") != name:
        problems.append(f"{name}/expected.json: its \"set\" is not {name!r}")
    for sc in scenarios(folder):
        runs = list(played(folder, sc))
        for s, _files in runs:
            (out / f"{s.name}.jsonl").write_text(s.jsonl(), encoding="utf-8")
        final = runs[-1][1] if runs else {}
        problems += [f"{name}/{sc['name']}: {p}" for p in check(folder, sc, [s for s, _ in runs], final)]
    return problems


def main(argv: list[str]) -> int:
    names = argv or set_names()
    unknown = [n for n in names if n not in set_names()]
    if unknown:
        sys.exit(f"no set {', '.join(unknown)} under {SETS} (sets: {', '.join(set_names())})")
    problems = []
    for n in names:
        found = build(n)
        sc = scenarios(SETS / n)
        print(f"{n:10} {len(sc):3} scenarios {sum(len(s['sessions']) for s in sc):3} sessions "
              f"{sum(len(s['expected']) for s in sc):3} labels  {'ok' if not found else f'{len(found)} problems'}")
        problems += found
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
