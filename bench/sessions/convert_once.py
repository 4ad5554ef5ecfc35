"""One-off: turns each set's old ``build.py`` (Python scenarios calling the transcript builder's
``Session``) into data, ``turns/<session>.toml``, by running the old builder with a ``Session`` that
records every call, and checks that replaying the data gives the committed transcripts byte for byte.
Deleted once every set is converted; kept in the history beside the data it made.

    python3 bench/sessions/convert_once.py [SET ...]
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import re
import sys
import tomllib
from pathlib import Path

SETS = Path(__file__).resolve().parent
TOP = SETS.parents[1]
sys.path.insert(0, str(TOP / "tests" / "fixtures" / "transcripts"))
sys.path.insert(0, str(TOP / "server"))

ACTIONS = ("user", "meta", "command", "system", "compacted", "summary", "say", "read", "edit", "failed_edit",
           "write", "bash", "grep", "subagent")


# -- TOML, written so that it reads back to exactly the same strings -------------------------------------

def _basic(s: str, multiline: bool = False) -> str:
    out = []
    for ch in s:
        o = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n" and multiline:
            out.append("\n")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\t")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\u{o:04X}")
        else:
            out.append(ch)
    body = "".join(out)
    return f'"""\n{body}"""' if multiline else f'"{body}"'


def _literal_ok(s: str) -> bool:
    return not any((ord(c) < 0x20 and c not in "\t\n") or ord(c) == 0x7F for c in s)


def tstr(s: str) -> str:
    if "\n" not in s:
        if _literal_ok(s) and "'" not in s:
            return f"'{s}'" if '"' in s or "\\" in s else json.dumps(s, ensure_ascii=False)
        return _basic(s)
    if _literal_ok(s) and "'''" not in s and not s.endswith("'"):
        return f"'''\n{s}'''"
    return _basic(s, multiline=True)


def tval(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return tstr(v)
    if isinstance(v, list):
        return "[" + ", ".join(tval(x) for x in v) + "]"
    raise TypeError(v)


def toml(head: dict, steps: list[dict]) -> str:
    lines = [f"{k} = {tval(v)}" for k, v in head.items()]
    for st in steps:
        lines += ["", "[[step]]"] + [f"{k} = {tval(v)}" for k, v in st.items()]
    return "\n".join(lines) + "\n"


# -- recording the old builders ----------------------------------------------------------------------------

def recorder(base):
    clock = [0]

    class Recording(base):
        def __init__(self, name, start, files, session_id=None):
            super().__init__(name, start, files, session_id)
            self.head = {"start": start, **({"id": session_id} if session_id else {})}
            self.steps, self.calls, self.depth = [], [], 0
            Recording.made.append(self)

    Recording.made = []

    def wrap(action):
        method = getattr(base, action)
        sig = inspect.signature(method)

        def recorded(self, *args, **kwargs):
            if self.depth == 0:
                bound = sig.bind(self, *args, **kwargs)
                params = list(sig.parameters.values())[1:]
                step = {action: bound.arguments[params[0].name]}
                for p in params[1:]:
                    if p.name in bound.arguments and bound.arguments[p.name] != p.default:
                        step["content" if p.name == "content_" else p.name] = bound.arguments[p.name]
                self.steps.append(step)
                clock[0] += 1
                self.calls.append(clock[0])
            self.depth += 1
            try:
                return method(self, *args, **kwargs)
            finally:
                self.depth -= 1
        return recorded

    for a in ACTIONS:
        setattr(Recording, a, wrap(a))
    return Recording


def replay(base, head: dict, name: str, steps: list[dict], files: dict) -> str:
    s = base(name, head["start"], files, head.get("id"))
    for st in steps:
        action = next(a for a in ACTIONS if a in st)
        kw = {("content_" if k == "content" else k): v for k, v in st.items() if k != action}
        getattr(s, action)(st[action], **kw)
    return s.jsonl()


def repo_files(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts}


def convert(name: str) -> list[str]:
    here = SETS / name
    spec = importlib.util.spec_from_file_location(f"old_{name}", here / "build.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    base = mod.Session
    mod.Session = rec = recorder(base)
    expected = json.loads((here / "expected.json").read_text(encoding="utf-8"))["scenarios"]
    assert [sc["name"] for sc in mod.SCENARIOS] == [sc["name"] for sc in expected], name
    problems, written = [], set()
    (here / "turns").mkdir(exist_ok=True)
    for sc, exp in zip(mod.SCENARIOS, expected):
        rec.made.clear()
        files = repo_files(here / "repos" / sc["repo"])
        sessions = sc["fn"](files)
        if [s.name for s in rec.made] != [s.name for s in sessions] or [s.name + ".jsonl" for s in sessions] != exp["sessions"]:
            problems.append(f"{sc['name']}: sessions made {[s.name for s in rec.made]}, returned "
                            f"{[s.name for s in sessions]}, listed {exp['sessions']}")
        if any(s.files is not files for s in sessions):
            problems.append(f"{sc['name']}: a session works on another copy of the files")
        order = [c for s in sessions for c in s.calls]
        if order != sorted(order):
            problems.append(f"{sc['name']}: sessions interleave")
        again = repo_files(here / "repos" / sc["repo"])
        for s in sessions:
            text = toml(s.head, s.steps)
            data = tomllib.loads(text)
            if data != {**s.head, **({"step": s.steps} if s.steps else {})}:
                problems.append(f"{s.name}: the TOML does not read back to the calls")
            (here / "turns" / f"{s.name}.toml").write_text(text, encoding="utf-8")
            written.add(f"{s.name}.toml")
            built = replay(base, data, s.name, data.get("step", []), again)
            committed = (here / "sessions" / f"{s.name}.jsonl").read_text(encoding="utf-8")
            if built != committed:
                problems.append(f"{s.name}: replayed from the data, the transcript differs from the committed one")
        if again != files:
            problems.append(f"{sc['name']}: the end state replayed from the data differs")
    for stale in (here / "turns").glob("*.toml"):
        if stale.name not in written:
            stale.unlink()
    return problems


if __name__ == "__main__":
    names = sys.argv[1:] or sorted(d.name for d in SETS.iterdir() if (d / "build.py").is_file())
    bad = 0
    for n in names:
        p = convert(n)
        bad += bool(p)
        print(f"{n:10} {'ok' if not p else 'PROBLEMS'}: {len(list((SETS / n / 'turns').glob('*.toml')))} sessions")
        for line in p:
            print("    " + line)
    sys.exit(1 if bad else 0)
