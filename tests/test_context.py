"""Ranked context: each tier, the calls that are resolved (and the ones that must not be),
superseded notes, and the token budget — on a real workspace, real grammars, real LMDB."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tether.core import anchors as A
from tether.context.ranking import CALLEE, ENCLOSING, ON_FILE, ON_PATTERN, ON_SYMBOL, context_for, estimate_tokens
from tether.core.workspace import Workspace

FILES = {
    "pkg/__init__.py": "",
    "pkg/ledger.py": '''\
class Ledger:
    def append(self, entry):
        self.entries.append(entry)

    def total(self):
        return sum(self.entries)


def join(a, b):
    return a + b
''',
    "pkg/billing.py": '''\
import os
from .ledger import Ledger as Book
from . import ledger


class Base:
    def audit(self, what):
        return what


class Charger(Base):
    def charge(self, amount):
        book = Book()
        self.audit(amount)
        helper(amount)
        ledger.join(1, 2)
        os.path.join("a", "b")
        return round(amount)

    def refund(self, amount):
        def helper(x):
            return x
        return helper(amount)


class Other:
    def audit(self, what):
        return None


def helper(x):
    return x * 2
''',
    "web/app.ts": '''\
import { render as draw } from "./view";

export class App {
  start(): void {
    this.boot();
    draw(1);
  }

  boot(): void {}
}
''',
    "web/view.ts": '''\
export function render(n: number): number {
  return n;
}
''',
}


def line_of(rel: str, needle: str) -> int:
    return next(i for i, row in enumerate(FILES[rel].split("\n")) if needle in row)


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Workspace:
    root = tmp_path_factory.mktemp("ctx") / "repo"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    ws, _ = Workspace.init(root, exact=True)
    rec = lambda kind, rel, needle, title, **kw: ws.record(kind, rel, line_of(rel, needle), title=title, **kw)  # noqa: E731
    ws.n = {
        "charge": rec("decision", "pkg/billing.py", "def charge", "charge rounds to cents"),
        "charger": rec("invariant", "pkg/billing.py", "class Charger", "Charger never stores cards"),
        "refund": rec("decision", "pkg/billing.py", "def refund", "refunds are whole"),
        "file": ws.record("boundary", "pkg/billing.py", how=A.FILE, title="billing talks to no network"),
        "append": rec("invariant", "pkg/ledger.py", "def append", "the ledger is append-only"),
        "ledger": rec("intent", "pkg/ledger.py", "class Ledger", "Ledger is the book of record"),
        "join": rec("decision", "pkg/ledger.py", "def join", "join adds"),
        "audit": rec("decision", "pkg/billing.py", "def audit(self, what):\n        return what".split("\n")[0],
                     "audit echoes"),
        "other_audit": ws.record("decision", "pkg/billing.py", line_of("pkg/billing.py", "class Other") + 1,
                                 title="Other.audit is a no-op"),
        "helper": ws.record("workaround", "pkg/billing.py", line_of("pkg/billing.py", "return x * 2") - 1,
                            title="helper doubles"),
        "pkg_glob": ws.record("intent", "pkg/**", how=A.GLOB, title="pkg is pure Python"),
        "repo": ws.record("boundary", "**", how=A.GLOB, title="no new runtime dependency"),
        "web_glob": ws.record("intent", "web/*.ts", how=A.GLOB, title="web is TypeScript"),
        "render": rec("decision", "web/view.ts", "export function render", "render is pure"),
        "boot": rec("decision", "web/app.ts", "boot(): void", "boot is idempotent"),
    }
    # `helper` has two definitions: the module one (noted) and the one nested in refund
    yield ws
    ws.close()


def ids_tiers(ctx) -> list[tuple[str, int]]:
    return [(i.note.id, i.tier) for i in ctx.items]


def test_each_tier_in_order(ws):
    n = ws.n
    ctx = context_for(ws, "pkg/billing.py", line_of("pkg/billing.py", "self.audit(amount)"))
    got = dict(ids_tiers(ctx))
    assert got[n["charge"].id] == ON_SYMBOL or got[n["charge"].id] == ENCLOSING
    assert got[n["charger"].id] == ENCLOSING
    assert got[n["file"].id] == ON_FILE
    assert got[n["audit"].id] == CALLEE  # self.audit -> Base.audit through the base class
    assert got[n["helper"].id] == CALLEE  # the module-level helper of this file
    assert got[n["join"].id] == CALLEE  # ledger.join through `from . import ledger`
    assert got[n["ledger"].id] == CALLEE  # Book() is Ledger imported under another name
    assert got[n["pkg_glob"].id] == ON_PATTERN and got[n["repo"].id] == ON_PATTERN
    tiers = [t for _, t in ids_tiers(ctx)]
    assert tiers == sorted(tiers)
    md = ctx.to_markdown()
    assert "\n## On code it calls\n" in md and "\n## On the whole repository\n" in md  # one heading each way
    assert "\ndecision (`Base.audit`): audit echoes (" in md  # and what the heading leaves unsaid
    assert "\nintent (in pkg/ledger.py): Ledger is the book of record (" in md  # (the title names it)
    assert [i.reason for i in ctx.items if i.note.id == n["ledger"].id] == ["on `Ledger` in pkg/ledger.py, called here as `Book`"]


def test_a_note_whose_code_is_gone_is_named_never_handed_over(ws):
    """It says what the code was, not what it is: it must not take the place of a note that
    applies within the budget, so it is only counted in the last line."""
    n = ws.n
    path = ws.root / "pkg/billing.py"
    text = path.read_text()
    start = text.index("    def refund")
    path.write_text(text[:start].rstrip() + "\n\n\n" + text[text.index("class Other"):])  # refund is gone
    try:
        for line in (None, line_of("pkg/billing.py", "self.audit(amount)")):
            ctx = context_for(ws, "pkg/billing.py", line)
            assert n["refund"].id not in {i.note.id for i in ctx.items + ctx.left_out}
            assert [i.note.id for i in ctx.gone] == [n["refund"].id]
            assert "1 on code gone or not found: `tether list pkg/billing.py`" in ctx.to_markdown()
            assert ctx.to_json()["gone"][0]["id"] == n["refund"].id
            # at a budget the relevant notes just fill (with the estimate's margin), the gone one takes no room
            full = [i.note.id for i in ctx.items]
            tight = context_for(ws, "pkg/billing.py", line, budget=ctx.tokens + ctx.tokens // 30 + 1)
            assert [i.note.id for i in tight.items] == full
    finally:
        path.write_text(text)


def test_what_is_not_resolved_is_not_handed_over(ws):
    n = ws.n
    ctx = context_for(ws, "pkg/billing.py", line_of("pkg/billing.py", "self.audit(amount)"))
    got = {i.note.id for i in ctx.items}
    assert n["other_audit"].id not in got  # a same-named method of an unrelated class
    assert n["refund"].id not in got  # another definition of the file that charge does not call
    assert n["append"].id not in got  # Ledger.append is not called here
    assert n["web_glob"].id not in got and n["render"].id not in got
    # os.path.join goes outside the workspace: the workspace's `join` is not its note... but
    # ledger.join is called too, so look at a function that only calls os.path.join
    refund = context_for(ws, "pkg/billing.py", line_of("pkg/billing.py", "return helper(amount)"))
    got = {i.note.id for i in refund.items}
    assert n["helper"].id not in got  # the nested helper shadows the module one
    assert n["refund"].id in got


def test_typescript_this_and_aliased_import(ws):
    n = ws.n
    ctx = context_for(ws, "web/app.ts", line_of("web/app.ts", "this.boot()"))
    got = dict(ids_tiers(ctx))
    assert got[n["boot"].id] == CALLEE and got[n["render"].id] == CALLEE
    assert got[n["web_glob"].id] == ON_PATTERN
    assert n["pkg_glob"].id not in got


def test_superseded_after_active_and_brief(ws):
    n = ws.n
    newer = ws.record("decision", "pkg/billing.py", line_of("pkg/billing.py", "def charge"),
                      title="charge rounds half-even")
    ws.supersede(n["charge"].id, newer.id)
    try:
        ctx = context_for(ws, "pkg/billing.py", line_of("pkg/billing.py", "def charge"))
        order = [i.note.id for i in ctx.items]
        assert order.index(newer.id) < order.index(n["charge"].id)
        assert order[-1] == n["charge"].id  # every active note first
        md = ctx.to_markdown()
        short = ws.repo.short_id
        assert f"Superseded decision ({short(n['charge'].id)}, by {short(newer.id)}): charge rounds to cents\n" in md
        assert md.count("charge rounds to cents") == 1
    finally:
        ws.retire(newer.id)
        ws.update(n["charge"].id, lambda note: setattr(note, "status", "active") or setattr(note, "superseded_by", ""))


def test_budget_cut_keeps_rank_and_says_what_was_left_out(ws):
    line = line_of("pkg/billing.py", "self.audit(amount)")
    full = context_for(ws, "pkg/billing.py", line, budget=100_000)
    assert not full.left_out
    small = context_for(ws, "pkg/billing.py", line, budget=120)
    assert small.left_out and small.items
    assert estimate_tokens(small.to_markdown()) <= 120
    assert small.tokens == estimate_tokens(small.to_markdown())
    kept = [i.note.id for i in small.items]
    ranked = [i.note.id for i in full.items]
    assert kept == [x for x in ranked if x in kept]  # rank order kept
    assert kept[0] == ranked[0]  # the best note is always in
    md = small.to_markdown()
    assert f"Not shown: {len(small.left_out)} more: " in md  # one short line
    assert md.splitlines()[-1].startswith("Not shown: ")
    assert f"`tether context pkg/billing.py:{line + 1} --budget" in md
    for i in small.items:
        assert f": {i.note.title} ({ws.repo.short_id(i.note.id)})\n" in md
    j = small.to_json()
    assert j["budget"] == 120 and j["tokens"] <= 120 and {x["id"] for x in j["left_out"]} == {i.note.id for i in small.left_out}


def test_a_tight_budget_names_every_note_before_telling_the_best_in_full(tmp_path):
    """At a budget too small for every note's text, each note that applies is named by its
    line (kind, where, title, the handle `tether show` takes) before any is told in full, the
    best told in full first; the whole answer, counted honestly, stays within the budget."""
    root = tmp_path / "repo"
    (root / "shop").mkdir(parents=True)
    (root / "shop/pay.py").write_text("def fee(x):\n    return x // 100\n\n\ndef charge(card, amount):\n"
                                      "    total = amount + fee(amount)\n    return card.debit(total)\n")
    ws, _ = Workspace.init(root, exact=True)
    why = "Rounding once at the end keeps the ledger and the card statement equal to the cent. " * 2
    notes = [ws.record("decision", "shop/pay.py", 4, title="charge debits the total once", rationale=why,
                       rejected=[("debit per item", "one refund per item")]),
             ws.record("invariant", "shop/pay.py", 4, title="charge never retries", body=why),
             ws.record("boundary", "shop/pay.py", how=A.FILE, title="pay talks to no network", body=why),
             ws.record("decision", "shop/pay.py", 0, title="fees are whole cents", body=why),
             ws.record("intent", "shop/**", how=A.GLOB, title="shop is pure Python", body=why)]
    try:
        line = 5  # total = amount + fee(amount)
        whole = context_for(ws, "shop/pay.py", line, budget=100_000)
        ranked = [i.note.id for i in whole.items]
        assert set(ranked) == {n.id for n in notes} and not any(i.brief for i in whole.items)
        seen_named = False
        for budget in range(60, whole.tokens + 5, 5):
            ctx = context_for(ws, "shop/pay.py", line, budget=budget)
            md = ctx.to_markdown()
            assert ctx.tokens <= budget and estimate_tokens(md) == ctx.tokens
            got = [i.note.id for i in ctx.items]
            assert got == [x for x in ranked if x in got]  # rank order kept
            named = [i for i in ctx.items if i.brief]
            for i in ctx.items:  # where it applies, unless the heading or the title says it
                head = f"{i.note.kind} (`fee`): " if i.note.id == notes[3].id else f"{i.note.kind}: "
                head += f"{i.note.title} ({ws.repo.short_id(i.note.id)})"
                assert (f"\n- {head}\n" if i.brief else f"\n{head}\n") in md
            assert md.count(why.strip()) == len(ctx.items) - len(named)  # a named note's text is left for `show`
            if named:
                assert md.splitlines()[-1].startswith(f"Not shown: the text of the {len(named)} named "
                                                      "(`tether show ID`)")
                assert [j["shown"] for j in ctx.to_json()["notes"]] == ["title" if i.brief else "full" for i in ctx.items]
            if not ctx.left_out and named:  # every note named, some told in full: the best ones
                seen_named = True
                assert got == ranked
                extra = [i.full_tokens - i.head_tokens for i in ctx.items]  # what telling it in full adds
                for k, i in enumerate(ctx.items):  # a named note ranked above a told one did not fit
                    assert i.brief or all(extra[j] > extra[k] for j in range(k) if ctx.items[j].brief)
        assert seen_named  # some budget names them all but tells only some
        handle = ws.repo.short_id(notes[3].id)
        shown = subprocess.run([sys.executable, "-m", "tether", "show", handle], cwd=root, capture_output=True,
                               text=True)
        assert shown.returncode == 0 and why.strip() in shown.stdout and "fees are whole cents" in shown.stdout
    finally:
        ws.close()


def test_a_gotcha_is_told_with_how_it_fails_and_why(tmp_path):
    """What an agent needs of a gotcha is its failure and its cause; a workaround's, what it
    works around and when it can go."""
    root = tmp_path / "repo"
    (root / "shop").mkdir(parents=True)
    (root / "shop/pay.py").write_text("def charge(card, amount):\n    return card.debit(amount)\n")
    ws, _ = Workspace.init(root, exact=True)
    try:
        ws.record("gotcha", "shop/pay.py", 0, title="a retry debits twice", failure="the card is charged twice",
                  cause="the gateway commits before it answers")
        ws.record("workaround", "shop/pay.py", 0, title="debit through the old client",
                  works_around="the new client drops the idempotency key", remove_when="gateway v3 ships")
        md = context_for(ws, "shop/pay.py", 1).to_markdown()
        assert "\ngotcha (`charge`): a retry debits twice (" in md
        assert "\nFails with: the card is charged twice\nCause: the gateway commits before it answers\n" in md
        assert "\nWorks around: the new client drops the idempotency key\nCan go when: gateway v3 ships\n" in md
    finally:
        ws.close()


def test_an_overload_signature_is_touched_as_the_method_it_declares(tmp_path):
    """A line of a Python @overload stub is about the implementation it declares: recorded
    there, a note anchors the method (not its class); asked there, the method's notes are the
    notes on the code here."""
    root = tmp_path / "repo"
    root.mkdir()
    (root / "box.py").write_text("from typing import overload\n\n\nclass Box:\n    @overload\n    def __init__(\n"
                                 "        self, key: str,\n    ) -> None: ...\n\n    def __init__(self, key):\n"
                                 "        self.key = key\n\n    def size(self):\n        return 1\n")
    ws, _ = Workspace.init(root, exact=True)
    try:
        on_stub = ws.record("decision", "box.py", 6, title="keys are strings")  # the stub's parameter line
        on_class = ws.record("intent", "box.py", 3, title="Box holds one key")
        assert on_stub.anchors[0].name == "Box.__init__"
        at_stub = context_for(ws, "box.py", 6)
        assert [(i.note.id, i.tier) for i in at_stub.items] == [(on_stub.id, ON_SYMBOL), (on_class.id, ENCLOSING)]
        assert at_stub.where == "box.py:7"  # the answer is still about the line asked
        at_size = context_for(ws, "box.py", 13)
        assert on_stub.id not in {i.note.id for i in at_size.items}  # not a note on the class any more
    finally:
        ws.close()


def test_cli_budget_and_json(ws):
    line = line_of("pkg/billing.py", "self.audit(amount)") + 1
    run = lambda *a: subprocess.run([sys.executable, "-m", "tether", *a], cwd=ws.root, capture_output=True, text=True)  # noqa: E731
    r = run("context", f"pkg/billing.py:{line}", "--budget", "150", "--format", "json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["tokens"] <= 150 and d["left_out"]
    assert run("context", "pkg/billing.py:3", "--budget", "0").returncode == 2


def test_unsaved_text_is_what_counts(ws):
    """An editor's buffer (text=) is read, not the file on disk."""
    rel = "pkg/billing.py"
    text = FILES[rel].replace("        self.audit(amount)\n", "")
    ctx = context_for(ws, rel, line_of(rel, "helper(amount)"), text=text)
    assert ws.n["audit"].id not in {i.note.id for i in ctx.items}
    assert ws.n["helper"].id in {i.note.id for i in ctx.items}


def test_symlink_out_of_the_workspace_is_ignored(ws, tmp_path: Path):
    outside = tmp_path / "elsewhere.py"
    outside.write_text("def join(a, b):\n    return a\n")
    link = ws.root / "pkg" / "link.py"
    link.symlink_to(outside)
    try:
        ctx = context_for(ws, "pkg/billing.py", line_of("pkg/billing.py", "self.audit(amount)"))
        assert ws.n["join"].id in {i.note.id for i in ctx.items}
        assert "pkg/link.py" not in ws.files()
    finally:
        link.unlink()


def test_an_invariants_checks_are_part_of_its_context(ws):
    rel = "pkg/billing.py"
    inv = ws.record("invariant", rel, line_of(rel, "def charge"), title="charge never sleeps",
                    checks=[{"id": "no-sleep", "kind": "forbid-call", "pattern": "time.sleep",
                             "message": "charge runs on the request path"}])
    try:
        md = context_for(ws, rel, line_of(rel, "def charge")).to_markdown()
        assert "Checked: forbid-call time.sleep (charge runs on the request path)\n" in md
    finally:
        ws.retire(inv.id)


def test_a_fresh_clone_answers_at_once_and_finds_callees_by_name_once_every_file_is_known(tmp_path, monkeypatch):
    from tether.context import calls
    monkeypatch.setattr(calls, "PARSE_PER_CALL", 3)  # files a call parses for the symbol table
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg/__init__.py").write_text("")
    (root / "pkg/a.py").write_text("from .b import fee\n\n\ndef pay(x):\n    fee(x)\n    return tally(x)\n")
    (root / "pkg/b.py").write_text("def fee(x):\n    return x\n")
    for k in range(8):
        (root / f"pkg/filler{k}.py").write_text(f"def f{k}():\n    return {k}\n")
    (root / "pkg/zz.py").write_text("def tally(x):\n    return x\n")  # the one `tally`: last in the walk
    first, _ = Workspace.init(root, exact=True)
    fee = first.record("decision", "pkg/b.py", 0, title="fees are flat")
    tally = first.record("decision", "pkg/zz.py", 0, title="tally counts once")
    first.close()

    ws = Workspace.find(root)  # a new process: nothing parsed yet
    try:
        got = {i.note.id for i in context_for(ws, "pkg/a.py", 4).items}
        assert fee.id in got  # through the import: the file it names is parsed at once
        assert tally.id not in got  # a unique name in the workspace: not known to be unique yet
        for _ in range(4):  # each call parses a few more files
            got = {i.note.id for i in context_for(ws, "pkg/a.py", 4).items}
        assert {fee.id, tally.id} <= got
    finally:
        ws.close()


CLOSURES = {
    "plugins/map.ts": '''\
export function enableMapSet() {
  function markChanged(state: any) {
    state.modified = true
  }

  function set(state: any, key: string) {
    const markChanged = state.onChange
    markChanged(key)
    return key
  }

  function remove(state: any) {
    markChanged(state)
  }
  return { set, remove }
}
''',
    "pkg/outer.py": '''\
def outer():
    def clean(x):
        return x.strip()

    def run(x):
        return clean(x)

    return run
''',
}


def test_a_call_to_a_function_nested_in_the_one_around_it_hands_over_its_notes(tmp_path):
    """Closures (a plugin's helpers inside its enable function, Python inner functions): the
    call resolves to the nested function scoping finds, not to nothing; a local that
    shadows the name is not that function."""
    for rel, text in CLOSURES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    ws, _ = Workspace.init(tmp_path, exact=True)
    try:
        row = lambda rel, needle: next(i for i, r in enumerate(CLOSURES[rel].split("\n")) if needle in r)  # noqa: E731
        mark = ws.record("invariant", "plugins/map.ts", row("plugins/map.ts", "function markChanged"),
                         title="markChanged is the only writer of modified")
        clean = ws.record("decision", "pkg/outer.py", row("pkg/outer.py", "def clean"), title="clean strips only")
        got = context_for(ws, "plugins/map.ts", row("plugins/map.ts", "markChanged(state)"))
        assert [(i.note.id, i.tier) for i in got.items] == [(mark.id, CALLEE)]
        assert "decision" not in got.to_markdown() and "(`enableMapSet.markChanged`): markChanged is the only" in got.to_markdown()
        assert context_for(ws, "plugins/map.ts", row("plugins/map.ts", "return key")).items == []  # shadowed there
        got = context_for(ws, "pkg/outer.py", row("pkg/outer.py", "return clean(x)"))
        assert [(i.note.id, i.tier) for i in got.items] == [(clean.id, CALLEE)]
    finally:
        ws.close()


def workspace_of(root: Path, files: dict[str, str]) -> Workspace:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return Workspace.init(root, exact=True)[0]


def test_a_call_through_an_import_inside_the_function_hands_over_the_callees_notes(tmp_path):
    """``from ._impl import open_url`` inside the function (Python puts off an import's cost so),
    re-exported there from the module the code moved to: the call resolves through both; a
    nested function's own import, or the same name bound otherwise, does not count."""
    files = {"pkg/__init__.py": "", "pkg/_win.py": "def open_url(url):\n    return url\n",
             "pkg/_impl.py": "from ._win import open_url\n",
             "pkg/term.py": "def launch(url):\n    from ._impl import open_url\n\n    return open_url(url)\n\n\n"
                            "def other(url):\n    def inner():\n        from ._impl import open_url\n"
                            "    open_url = str\n    return open_url(url)\n"}
    ws = workspace_of(tmp_path, files)
    try:
        note = ws.record("intent", "pkg/_win.py", 0, title="open_url is the one place that opens a browser")
        got = context_for(ws, "pkg/term.py", 3)
        assert [(i.note.id, i.tier) for i in got.items] == [(note.id, CALLEE)]
        assert "\nintent (in pkg/_win.py): open_url is the one place" in got.to_markdown()
        assert context_for(ws, "pkg/term.py", 10).items == []  # `other`: its own `open_url` is a variable
    finally:
        ws.close()


def test_a_wrapper_calling_the_same_name_in_another_module_hands_over_that_ones_notes(tmp_path):
    """``def asdict(...): return _asdict(...)`` with ``from ._funcs import asdict as _asdict``:
    the call is to the other module's ``asdict``, not the wrapper calling itself."""
    files = {"pkg/__init__.py": "", "pkg/_funcs.py": "def asdict(inst):\n    return dict(inst)\n",
             "pkg/next_gen.py": "from ._funcs import asdict as _asdict\n\n\ndef asdict(inst):\n    return _asdict(inst)\n"}
    ws = workspace_of(tmp_path, files)
    try:
        note = ws.record("decision", "pkg/_funcs.py", 0, title="asdict copies, never aliases")
        got = context_for(ws, "pkg/next_gen.py", 4)
        assert [(i.note.id, i.tier) for i in got.items] == [(note.id, CALLEE)]
        assert "\ndecision (in pkg/_funcs.py): asdict copies, never aliases" in got.to_markdown()
    finally:
        ws.close()


def test_this_in_javascript_before_classes_is_the_prototype_the_function_is_assigned_beside(tmp_path):
    """``this.lookup()`` in a constructor ``function Router`` or in ``Router.prototype.handle``
    is ``Router.prototype.lookup`` — the one in this file, though another file has a ``lookup``
    method too; in a function nested in the constructor ``this`` is not the instance."""
    router = ("function Router(opts) {\n  this.lookup(opts);\n  function later() { return this.lookup(); }\n}\n\n"
              "Router.prototype.lookup = function lookup(opts) {\n  return [opts];\n};\n\n"
              "Router.prototype.handle = function handle(req) {\n  return this.lookup(req);\n};\n")
    other = "function Cache() {}\n\nCache.prototype.lookup = function (key) {\n  return key;\n};\n"
    ws = workspace_of(tmp_path, {"lib/router.js": router, "lib/cache.js": other})
    try:
        note = ws.record("invariant", "lib/router.js", 5, title="lookup returns a new array")
        ws.record("decision", "lib/cache.js", 2, title="a miss returns the key")
        for line in (1, 10):  # the constructor, a method beside it
            got = context_for(ws, "lib/router.js", line)
            assert [(i.note.id, i.tier) for i in got.items] == [(note.id, CALLEE)], line
        assert context_for(ws, "lib/router.js", 2).items == []  # `later`: its own `this`
    finally:
        ws.close()
