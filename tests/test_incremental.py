"""After an edit, a long-lived process (the server agents' hooks ask) parses only around the
edit and brings the anchors the edit did not reach over from their last resolution. What it
answers must be exactly what resolving the new text from scratch answers: the same states,
places, names and fingerprints, for every anchor, after every kind of edit — in a body, on a
definition's own line, a class renamed (renaming what it holds), a twin definition added, a
docstring left open that swallows the rest of the file, and undoing each."""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys
from collections import Counter

import pytest

from tether.capture import observations as K
from tether.core import anchors as A
from tether.core.languages import for_path
from tether.core.notes import Note
from tether.core.resolution import anchored_in, resolve_anchors
from tether.core.syntax import _PARSED, SourceFile, edited, parsed
from tether.core.text import digest

PY = '''import os


class Ledger:
    """Money in integer cents."""

    def add(self, amount):
        total = amount + 1
        return total

    def remove(self, amount):
        return -amount

    @property
    def size(self):
        return 3


def pay(amount):
    # a comment
    x = amount * 2
    return x


def refund(amount):
    return -amount


class Audit:
    def add(self, line):
        return line
'''

TS = '''export class Cart {
  add(item: string): number {
    const n = item.length;
    return n;
  }

  remove(item: string): number {
    return -1;
  }
}

export function total(xs: number[]): number {
  let t = 0;
  for (const x of xs) { t += x; }
  return t;
}

function helper(): void {
  console.log("x");
}
'''


def replace(old: str, new: str, count: int = 1):
    def edit(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, count)
    return edit


EDITS = {  # each applied to the text the previous one left
    "x.py": [
        replace("total = amount + 1", "total = amount + 2"),  # inside a body
        replace("    def remove(self, amount):", "    def remove(self, amount, why):"),  # a definition's own line
        replace("class Ledger:", "class Book:"),  # renames what it holds, far below the edit
        replace("class Book:", "class Ledger:"),
        replace("def refund(amount):", "def pay(amount):\n    return 0\n\n\ndef refund(amount):"),  # a twin of pay
        replace("def pay(amount):\n    return 0\n\n\n", ""),
        replace("import os\n", 'import os\n"""\n'),  # an open docstring: the rest of the file is a string
        replace('import os\n"""\n', "import os\n"),
        replace("    # a comment\n", ""),
        replace("        return 3\n", "        return 3\n\n    def extra(self):\n        return 4\n"),
        replace("class Audit:\n    def add(self, line):\n        return line\n", ""),  # a definition deleted
    ],
    "x.ts": [
        replace("const n = item.length;", "const n = item.length + 1;"),
        replace("export class Cart {", "export class Basket {"),
        replace("export class Basket {", "export class Cart {"),
        replace("  return t;\n}", "  return t;\n}\n\nexport function total(xs: string[]): number { return 0; }"),
        replace("function helper(): void {", "function helper(): void { /*"),
        replace("function helper(): void { /*", "function helper(): void {"),
    ],
}


def anchors_of(rel: str, src: SourceFile) -> list[tuple[Note, int, A.Anchor]]:
    """A note on every definition, and one on a statement of each function."""
    todo = []
    for d in src.defs:
        a = A.record(src, rel, src.def_range(d).sl, src.def_range(d).sc)
        todo.append((Note(id=f"d{d.index}", kind="decision", title=d.qualname, anchors=[a]), 0, a))
    for s in src.stmts:
        r = src.range_of(s.start, s.end)
        a = A.record(src, rel, r.sl, r.sc, how=A.SPAN)
        todo.append((Note(id=f"s{s.index}", kind="decision", title="statement", anchors=[a]), 0, a))
    return todo


def records(updates: dict) -> dict:
    return {(k.split("\0")[0], int(k.split("\0")[1])): v for k, v in updates.items()}


def answer(located) -> list[tuple]:
    return [(loc.note.id, loc.state, loc.resolution.range, loc.resolution.name, loc.resolution.hash,
             loc.resolution.params, loc.resolution.candidates) for loc in located]


@pytest.mark.parametrize("rel,text", [("x.py", PY), ("x.ts", TS)])
def test_an_edit_parsed_incrementally_resolves_as_from_scratch(rel: str, text: str):
    lang = for_path(rel)
    todo = anchors_of(rel, SourceFile(text, lang))
    _, updates, _ = resolve_anchors(rel, text, digest(text), todo, {}, {})
    last, olds = records(updates), {digest(text): text}
    _PARSED.clear()
    parsed(rel, text, lang).names  # noqa: B018 — what a server read before the edit
    carried = 0
    for edit in EDITS[rel]:
        new = edit(text)
        src = parsed(rel, new, lang)
        assert src.change is not None  # parsed from the text before
        assert +src.names == +SourceFile(new, lang).names  # the names, kept through the edit
        h = digest(new)
        fresh, updates, _ = resolve_anchors(rel, new, h, todo, last, olds, SourceFile(new, lang))
        served, _, _ = resolve_anchors(rel, new, h, todo, last, olds, src)
        assert answer(served) == answer(fresh), edit
        carried += sum(1 for n, i, a in todo if last.get((n.id, i), {}).get("resolved_in") == src.change.base)
        last, text = records(updates), new
        olds[h] = new
    assert carried  # (the case under test happened)


def test_random_edits_keep_the_names_and_the_resolutions():
    rng = random.Random(7)
    rel, lang = "x.py", for_path("x.py")
    text = PY * 3
    todo = anchors_of(rel, SourceFile(text, lang))
    _, updates, _ = resolve_anchors(rel, text, digest(text), todo, {}, {})
    last, olds = records(updates), {digest(text): text}
    _PARSED.clear()
    parsed(rel, text, lang).names  # noqa: B018
    pieces = ["    x = 1", "def zz():\n    pass", "class K:\n    def m(self):\n        pass", '"""', "#", "    ", "):",
              "def ", "class ", "@deco", "", "    def add(self):\n        return 2"]
    for _ in range(60):
        new = random_edit(rng, text, pieces)
        src = parsed(rel, new, lang)
        assert Counter(src.names) == Counter(SourceFile(new, lang).names)
        h = digest(new)
        fresh, updates, _ = resolve_anchors(rel, new, h, todo, last, olds, SourceFile(new, lang))
        served, _, _ = resolve_anchors(rel, new, h, todo, last, olds, src)
        assert answer(served) == answer(fresh)
        last, text = records(updates), new
        olds[h] = new


def random_edit(rng: random.Random, text: str, pieces: list[str]) -> str:
    """``text`` with a line inserted, deleted, or a piece typed into it."""
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    if rng.random() < 0.4:
        lines.insert(i, rng.choice(pieces))
    elif rng.random() < 0.5:
        del lines[i]
    else:
        j = rng.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:j] + rng.choice(pieces) + lines[i][j + rng.randrange(3):]
    return "\n".join(lines)


JS = """const api = {
  get(id) { return id; },
  nested: { put: function (x) { return x; } },
};
module.exports.handlers = { post: (req) => req };

class Store {
  add(item) { return item; }
}

function helper() { return 1; }
"""

GO = """package shop

type Cart struct{ items []int }

func (c *Cart) Add(x int) int { return x }

func (c Cart) Size() int { return len(c.items) }

func Total(xs []int) int {
	t := 0
	return t
}
"""

RUST = """struct Cart { items: Vec<i32> }

impl Cart {
    fn add(&mut self, x: i32) -> i32 { x }
    fn size(&self) -> usize { self.items.len() }
}

impl std::fmt::Display for Cart {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { Ok(()) }
}

fn total(xs: &[i32]) -> i32 { 0 }
"""

SHIFTED = {  # a sample of each language, and pieces a random edit types in
    "x.py": (PY * 2, ["    x = 1", "def zz():\n    pass", "class K:\n    def m(self):\n        pass", '"""', "#",
                      "):", "def ", "class ", "@deco", "", "    @overload\n    def add(self, a: int): ..."]),
    "x.ts": (TS, ["  x = 1;", "function f() {}", "}", "{", "class K { m() {} }", "export ", "/*", "const o = { m() {} };"]),
    "x.js": (JS, ["  z() { return 0; },", "const api = {", "}", "{", "nested", "  x: { y() {} },", "api", "= {", ""]),
    "x.go": (GO, ["func (c *Cart) Pay() {}", "}", "{", "type Bag struct{}", "func F() {}", "(c Cart)", "//"]),
    "x.rs": (RUST, ["impl Cart {", "}", "{", "fn f() {}", "impl Bag for Cart {", "trait T { fn t(&self); }", "//"]),
}


def fields(d) -> tuple:
    return (d.index, d.kind, d.name, d.qualname, d.child_scope, d.node_type, d.start, d.end, d.parent, d.params,
            d.key, d.outer, d.node.id)


@pytest.mark.parametrize("rel", list(SHIFTED))
def test_the_definitions_of_an_edited_text_are_those_of_the_text_before_moved_and_those_the_edit_reached(rel):
    """After an edit, a file's definitions are found from those of the text before it (the
    ones the edit did not reach, at their new place in the new tree) and the ones around the
    edit read anew: exactly what the whole query over the new tree finds, field for field and
    node for node, over chains of random edits (a class renamed, a brace or a docstring left
    open, an object literal's name typed over)."""
    text, pieces = SHIFTED[rel]
    lang = for_path(rel)
    rng = random.Random(rel)
    src = SourceFile(text, lang)
    src.defs  # noqa: B018 — read once, by the whole query
    shifted = 0
    for _ in range(150):
        new = edited(src, random_edit(rng, src.text, pieces))
        shifted += new._base_defs is not None and new._shifted() is not None
        assert [fields(d) for d in new.defs] == [fields(d) for d in new._find_defs()], new.text
        assert +new.names == +SourceFile(new.text, lang).names
        src = new
    assert shifted > 100


def test_an_overload_stub_of_an_edited_text_declares_what_it_declared_in_a_fresh_parse():
    """Definitions derived from the text before an edit leave the stubs unread: a touch on a
    stub still finds the implementation it declares, and a touch elsewhere none."""
    text = ("from typing import overload\n\n\nclass Box:\n    @overload\n    def get(self, k: int) -> int: ...\n"
            "    @overload\n    def get(self, k: str) -> str: ...\n    def get(self, k):\n        return k\n\n\n"
            "def other():\n    return 1\n")
    lang = for_path("box.py")
    src = SourceFile(text, lang)
    src.defs  # noqa: B018
    new = edited(src, text.replace("return 1", "return 2"))
    assert new._base_defs is not None and new.defs and new._stubs is None  # derived, the stubs not read
    fresh = SourceFile(new.text, lang)
    for needle in ("def get(self, k: int)", "def get(self, k: str)", "return k", "return 2"):
        at = new.text.index(needle)
        got, want = new.implementation_of_stub(at), fresh.implementation_of_stub(at)
        assert (got and (got.qualname, got.start)) == (want and (want.qualname, want.start)), needle
    assert fresh.implementation_of_stub(text.index("def get(self, k: int)")).qualname == "Box.get"


def test_the_definitions_an_edit_touched_are_read_around_it_as_in_the_whole_file():
    """The observation log names the definitions an edit touched; read with a query over the
    edited lines (and the comment and decorators below them), as over the whole file."""
    src = SourceFile(PY, for_path("x.py"))
    lines = PY.count("\n")
    for sl in range(lines):
        for el in (sl, min(sl + 2, lines), min(sl + 9, lines)):
            around = [d.qualname for d in K.touched_definitions(src, [(sl, el)])]
            spans = K._touched(src, src.defs, *_trimmed(src, sl, el))
            assert around == [d.qualname for d in spans], (sl, el)


def _trimmed(src: SourceFile, sl: int, el: int) -> tuple[int, int]:
    lines = src.pos.lines
    el = min(el, len(lines) - 1)
    while sl < el and not lines[sl].strip():
        sl += 1
    while el > sl and not lines[el].strip():
        el -= 1
    return sl, el


def test_a_served_check_answers_from_what_the_edit_reached_and_keeps_every_anchor_after(tmp_path):
    """A server checking an agent's edit (``tether hook`` after an Edit) resolves before its
    answer only the invariants' anchors and those the edit may have reached, and the rest once
    the answer is out (``Workspace.later``); told of the edit before (the hook before it), it
    has checked the text announced while the agent made it. After every edit its findings are
    those of a command alone on a copy edited alike, and once the rest ran every anchor's
    resolution and record are those of a process that resolved them all before answering."""
    import shutil

    from tether.checks.findings import _AHEAD, check, parse_ahead
    from tether.core.workspace import Workspace

    rng = random.Random(11)
    text = PY * 2  # every name twice: what the edits bring back, lose and make ambiguous
    roots = {side: tmp_path / side for side in ("served", "eager", "alone")}
    roots["served"].mkdir()
    (roots["served"] / "x.py").write_text(text)
    ws, _ = Workspace.init(roots["served"], exact=True)
    src = SourceFile(text, for_path("x.py"))
    for k, d in enumerate(src.defs):
        r = src.def_range(d)
        kind = "invariant" if k % 3 == 0 else "decision"
        ws.record(kind, "x.py", r.sl, r.sc, title=f"{kind} on {d.qualname} {k}",
                  checks=[{"id": "no-print", "kind": "forbid-call", "pattern": "print"}] if k == 3 else ())
    ws.close()
    for side in ("eager", "alone"):
        shutil.copytree(roots["served"], roots[side])
    served, eager = Workspace(roots["served"]), Workspace(roots["eager"])  # long-lived, each with its parses
    served.deferred = []  # as a server sets it: the rest after the answer
    parses = {"served": {}, "eager": {}, "alone": {}}

    def run(side: str, fn, *args):
        """``fn`` run as in the process of ``side`` (its own parses kept)."""
        _PARSED.clear()
        _PARSED.update(parses[side])
        try:
            return fn(*args)
        finally:
            parses[side] = dict(_PARSED)
            _PARSED.clear()

    def records(w: Workspace) -> list:
        with w.store.read() as txn:
            return [{k: v for k, v in w.store.get(txn, "anchors", f"{n.id}\0{i}").items() if k != "at"}
                    for n, i, _ in anchored_in("x.py", w.notes_on("x.py"))]

    pieces = ["    x = 1", "def zz():\n    pass", "    print(1)", '"""', "#", "", "    def add(self):\n        return 2",
              "class Ledger:", "        return -amount", "  # note", " + 1", "def pay(amount):\n    return 0"]
    later = ahead = 0
    try:
        for k in range(41):
            if k:
                edit = random_edit(rng, text, pieces)
                # the hook before the edit: the server checks the text announced (now and then not the one made)
                announced = edit if k % 4 else random_edit(rng, text, pieces)
                run("served", parse_ahead, served, "x.py", text, (), announced)
                text = edit
                for root in roots.values():
                    (root / "x.py").write_text(text)
            ahead += _AHEAD.get((served.root, "x.py"), ("",))[0] == digest(text)
            answer_served = [f.to_text() for f in run("served", check, served, ["x.py"])]
            later += bool(served.deferred)
            for fn, args in served.deferred:  # what the server runs once the answer is out
                run("served", fn, *args)
            served.deferred.clear()
            assert answer_served == [f.to_text() for f in run("eager", check, eager, ["x.py"])]
            alone = Workspace(roots["alone"])
            try:
                parses["alone"] = {}  # a new process
                assert answer_served == [f.to_text() for f in run("alone", check, alone, ["x.py"])]
            finally:
                alone.close()
            assert records(served) == records(eager)
            assert all(r["resolved_in"] == digest(text) for r in records(served))
            assert answer(run("served", served.resolutions.locate, "x.py")) == \
                answer(run("eager", eager.resolutions.locate, "x.py"))
    finally:
        served.close()
        eager.close()
    assert later > 20  # (the anchors the edit did not reach were resolved after the answer)
    assert ahead > 20  # (the findings of the text announced, made before the edit, were the answer)


def test_a_long_lived_process_reads_the_records_another_process_wrote_since(tmp_path):
    """The anchors' records a server keeps in memory are those of the store until another
    process writes any: then they are read again (a record made in the text on disk now is
    used as it is, nothing resolved again)."""
    from tether.core.workspace import Workspace

    (tmp_path / "x.py").write_text(PY)
    ws, _ = Workspace.init(tmp_path, exact=True)
    ws.record("decision", "x.py", 18, 0, title="Pay in cents")
    todo = anchored_in("x.py", ws.notes_on("x.py"))
    ws.resolutions.locate("x.py")  # read, resolved, kept: in memory now
    (tmp_path / "x.py").write_text("\n\n" + PY)
    other = subprocess.run([sys.executable, "-m", "tether", "check", "x.py"], cwd=tmp_path, capture_output=True,
                           text=True, timeout=120)  # another process resolves the file as it is now, and writes
    assert other.returncode == 0, other.stderr
    h = digest("\n\n" + PY)
    last, _ = ws.resolutions.last_seen(todo, h)
    assert [st["resolved_in"] for st in last.values()] == [h]
    assert ws.resolutions.locate("x.py")[0].range.sl == 20
    ws.close()


@contextlib.contextmanager
def served(tmp_path, notes: dict[int, str]):
    """A workspace holding ``x.py`` (PY) with a decision on each of ``notes``' lines, open as a
    server keeps it, and ``hook(event)``: the Claude Code hook on an agent's Edit of ``x.py``
    (``x = amount * 2`` to ``* 3``) as the server runs it, its answer."""
    import json

    from tether.cli import resident
    from tether.cli.main import main
    from tether.core.workspace import Workspace

    (tmp_path / "x.py").write_text(PY)
    ws, _ = Workspace.init(tmp_path, exact=True)
    for line, title in notes.items():
        ws.record("decision", "x.py", line, 0, title=title)
    Workspace.resident[ws.root] = ws
    ws.deferred = []
    _PARSED.clear()

    def hook(name: str) -> str:
        event = {"session_id": "s", "transcript_path": "", "cwd": str(tmp_path), "hook_event_name": name,
                 "tool_name": "Edit", "tool_use_id": "t",
                 "tool_input": {"file_path": str(tmp_path / "x.py"), "old_string": "x = amount * 2",
                                "new_string": "x = amount * 3"}}
        if name == "PostToolUse":
            event["tool_response"] = {"filePath": str(tmp_path / "x.py")}
        return resident._run(main, ws.root, ["hook", "claude-code"], str(tmp_path), json.dumps(event).encode()).decode()
    try:
        yield ws, hook
    finally:
        Workspace.resident.pop(ws.root, None)
        ws.deferred = None
        ws.close()


@pytest.mark.parametrize("made", ["as announced", "otherwise"])
def test_a_server_told_a_file_is_to_be_edited_parses_it_once_its_answer_is_out(tmp_path, made):
    """The hook before an agent's Edit makes a server parse the file after answering, and the
    text the edit will make of it, so the check after the edit (the answer the agent waits for)
    finds the parse made; an edit made otherwise is parsed from the file as it was (whose
    anchors' resolutions are kept), only what it changed."""
    from tether.cli import resident

    with served(tmp_path, {18: "Pay in cents"}) as (ws, hook):
        assert "Pay in cents" in hook("PreToolUse")
        resident._deferred(ws)  # what the server does once the answer is out
        assert parsed("x.py", PY, for_path("x.py"))._names is not None  # parsed, its names read: kept
        announced = PY.replace("x = amount * 2", "x = amount * 3")
        ahead = _PARSED[("x.py", announced)]
        edit = announced if made == "as announced" else PY.replace("x = amount * 2", "x = amount * 4")
        (tmp_path / "x.py").write_text(edit)
        hook("PostToolUse")
        after = parsed("x.py", edit, for_path("x.py"))
        assert (after is ahead) == (made == "as announced")  # the check parsed nothing more, or the edit made
        assert after.change is not None and after.change.base == digest(PY)  # from the text parsed ahead
        resident._deferred(ws)


@pytest.mark.parametrize("meanwhile", ["nothing", "the note amended"])
def test_the_check_after_an_edit_made_ahead_is_the_answer_while_the_notes_are_the_same(tmp_path, meanwhile):
    """The findings a server worked out for the text an Edit announced are the check's answer
    after the edit only while the notes are those it worked them out with: a note amended
    meanwhile (by a person, another agent) is what the answer says."""
    from tether.cli import resident
    from tether.checks.findings import _AHEAD

    with served(tmp_path, {}) as (ws, hook):
        inv = ws.record("invariant", "x.py", 18, 0, title="Pay never rounds")
        hook("PreToolUse")
        resident._deferred(ws)  # the text announced checked, once the answer is out
        assert (ws.root, "x.py") in _AHEAD
        (tmp_path / "x.py").write_text(PY.replace("x = amount * 2", "x = amount * 3"))
        if meanwhile == "the note amended":
            ws.amend(inv.id, title="Pay never rounds down")
        answer = hook("PostToolUse")
        title = "Pay never rounds down" if meanwhile == "the note amended" else "Pay never rounds"
        assert f'invariant \\"{title}\\": this code changed since it was last confirmed' in answer
        resident._deferred(ws)


@pytest.mark.parametrize("read_empty", ["once the answer is out", "before the check"])
def test_a_file_read_while_the_agent_writes_it_does_not_cost_the_check_a_whole_parse(tmp_path, read_empty):
    """An agent's tool writes the file it edits in place: for a moment it is empty. A server
    that reads it then — once it has answered the hook before the edit, or for another request
    just before the check — must not parse the edited file from that empty text: the check
    would parse the whole file anew and resolve every anchor in it again. It parses the edit
    from the text the hook before it read, the one the anchors were last resolved in."""
    from tether.cli import resident

    with served(tmp_path, {18: "Pay in cents", 28: "Audit lines"}) as (ws, hook):
        hook("PreToolUse")
        (tmp_path / "x.py").write_text("")  # the tool has opened the file to write it
        resident._deferred(ws)  # what the server does once the answer is out
        if read_empty == "before the check":
            parsed("x.py", "", for_path("x.py")).names  # noqa: B018 — another request read it so
        edit = PY.replace("x = amount * 2", "x = amount * 3")
        (tmp_path / "x.py").write_text(edit)
        hook("PostToolUse")
        after = parsed("x.py", edit, for_path("x.py"))
        assert after.change is not None and after.change.base == digest(PY)  # from the text the anchors are in
        assert PY.index("x = amount") <= after.change.lo < after.change.old_hi < PY.index("def refund")
        resident._deferred(ws)
        assert [loc.range.sl for loc in ws.resolutions.locate("x.py")] == [18, 28]


def test_the_text_an_announced_edit_will_make_is_made_as_the_agents_tools_make_it():
    """What a server parses ahead: each replacement in turn, its old text found exactly once (an
    agent's Edit refuses any other); a Write's whole content; nothing when it cannot know."""
    from tether.agents.hooks import touches
    from tether.checks.findings import edited_text

    multi = touches("MultiEdit", {"file_path": "x.py", "edits": [
        {"old_string": "x = amount * 2", "new_string": "x = amount * 3"},
        {"old_string": "x = amount * 3\n    return x", "new_string": "return amount * 3"}]})[0]
    made = edited_text(PY, list(zip(multi.olds, multi.news)))
    assert made == PY.replace("x = amount * 2\n    return x", "return amount * 3")
    assert edited_text(PY, [("return -amount", "return 0")]) is None  # twice in the file: the tool would refuse
    assert edited_text(PY, [("no such text", "x")]) is None
    assert edited_text(PY, []) is None
    assert touches("Write", {"file_path": "x.py", "content": PY})[0].written == PY
    assert touches("Edit", {"file_path": "x.py", "old_string": "a", "new_string": "b"})[0].news == ["b"]
