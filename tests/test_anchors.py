"""Structural anchors: recording, and resolution after edits, in the 7 languages.

Every resolution scenario is checked two ways in, which must agree:

* *replace*: ``A.resolve(anchor, SourceFile(after), SourceFile(before))`` (and the shared
  ``A.Resolver``), as when a whole new version of the file arrives;
* *edits*: the same change sent to a :class:`LiveDocument` as LSP incremental changes,
  once as a line diff applied bottom-up and once as a character diff applied top-down
  (each change relative to the text left by the previous ones).

Expected positions are computed from the snippets here (independently of the core).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Callable

import pytest

from tether.core import anchors as A
from tether.core.languages import by_name, for_path
from tether.core.live import LiveDocument
from tether.core.syntax import SourceFile
from tether.core.text import Range

LANGS = ("python", "javascript", "typescript", "tsx", "go", "rust", "java")


# =========================================================================================
# helpers: positions (computed independently of the core)
# =========================================================================================

def u16(s: str) -> int:
    """Length of ``s`` in UTF-16 code units (an LSP column)."""
    return len(s.encode("utf-16-le")) // 2


def position(text: str, offset: int) -> tuple[int, int]:
    """LSP position (line, UTF-16 column) of a str offset."""
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return line, u16(text[start:offset])


def pos_of(text: str, needle: str, inside: int = 0) -> tuple[int, int]:
    """Position of the (unique) occurrence of ``needle``, ``inside`` characters into it."""
    assert text.count(needle) == 1, f"{needle!r} occurs {text.count(needle)} times"
    return position(text, text.index(needle) + inside)


def line_of(text: str, needle: str) -> int:
    return pos_of(text, needle)[0]


def span_range(text: str, needle: str) -> Range:
    """Range of the unique occurrence of ``needle`` (a one-statement text)."""
    i = text.index(needle)
    assert text.count(needle) == 1, needle
    return Range(*position(text, i), *position(text, i + len(needle)))


# =========================================================================================
# helpers: the two ways in
# =========================================================================================

def line_changes(before: str, after: str) -> list[tuple[Range, str]]:
    """A line diff as LSP changes, bottom-up (so every range is valid when applied)."""
    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    out = [(Range(i1, 0, i2, 0), "".join(b[j1:j2]))
           for tag, i1, i2, j1, j2 in sm.get_opcodes() if tag != "equal"]
    return out[::-1]


def char_changes(before: str, after: str) -> list[tuple[Range, str]]:
    """A character diff as LSP changes, top-down: each range is in the text produced by the
    changes before it (what an editor sends for several edits in one didChange)."""
    sm = difflib.SequenceMatcher(None, before, after, autojunk=False)
    out, cur, delta = [], before, 0
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        a, b = i1 + delta, i2 + delta
        out.append((Range(*position(cur, a), *position(cur, b)), after[j1:j2]))
        cur = cur[:a] + after[j1:j2] + cur[b:]
        delta += (j2 - j1) - (i2 - i1)
    assert cur == after
    return out


def defs_summary(src: SourceFile) -> list[tuple]:
    return [(d.qualname, d.kind, src.range_of(d.start, d.end)) for d in src.defs]


def stmts_summary(src: SourceFile) -> list[tuple]:
    return [(s.node_type, src.defs[s.owner].qualname, src.range_of(s.start, s.end)) for s in src.stmts]


def via_edits(lang, before: str, after: str, anchors: list[A.Anchor],
              changes: list[tuple[Range, str]]) -> list[A.Resolution]:
    doc = LiveDocument(before, lang)
    # as when the anchors are recorded on doc.base: its definitions and statements are
    # computed before the first edit (test_live_base_survives_edits covers the other case)
    assert stmts_summary(doc.base) == stmts_summary(SourceFile(before, lang))
    for slot, a in enumerate(anchors):
        doc.track(slot, a.range)
    for rng, new_text in changes:
        doc.apply(rng, new_text)
    assert doc.text == after
    cur = doc.current
    assert cur.text == after
    # the incrementally re-parsed tree must describe the file as a fresh parse does
    fresh = SourceFile(after, lang)
    assert defs_summary(cur) == defs_summary(fresh)
    assert stmts_summary(cur) == stmts_summary(fresh)
    return doc.resolve(anchors)


def key(r: A.Resolution) -> tuple:
    return (r.state, r.range, r.name if r.state != A.ORPHANED else "")


def resolve_replaced(lang, before: str, after: str, anchors: list[A.Anchor]) -> list[A.Resolution]:
    """Resolve ``anchors`` in a whole new version of the file, alone and shared; they agree."""
    old, new = SourceFile(before, lang), SourceFile(after, lang)
    alone = [A.resolve(a, new, old) for a in anchors]
    assert [key(r) for r in A.resolve_all(anchors, new, old)] == [key(r) for r in alone]
    return alone


def resolve_both(lang, before: str, after: str, anchors: list[A.Anchor]) -> list[A.Resolution]:
    """Resolve ``anchors`` (recorded in ``before``) in ``after`` both ways; assert that every
    way gives the same answer; return it."""
    old, new = SourceFile(before, lang), SourceFile(after, lang)
    replaced = [A.resolve(a, new, old) for a in anchors]
    resolver = A.Resolver(SourceFile(after, lang), SourceFile(before, lang))
    shared = [resolver.resolve(a) for a in anchors]
    assert [key(r) for r in shared] == [key(r) for r in replaced], "Resolver disagrees with resolve"
    assert [key(r) for r in A.resolve_all(anchors, new, old)] == [key(r) for r in replaced]
    for name, changes in (("line edits", line_changes(before, after)),
                          ("char edits", char_changes(before, after))):
        edited = via_edits(lang, before, after, anchors, changes)
        assert [key(r) for r in edited] == [key(r) for r in replaced], \
            f"{name} disagree with replace:\n  edits:   {[key(r) for r in edited]}\n" \
            f"  replace: {[key(r) for r in replaced]}"
    return replaced


# =========================================================================================
# per-language code generators (free functions: Java has static methods of class Util)
# =========================================================================================

@dataclass(frozen=True)
class Gen:
    name: str
    ext: str
    header: Callable[[str], str]  # the definition line of function ``name`` (unique needle)
    var: Callable[[str, str], str]
    call: Callable[[str, str], str]
    ret: Callable[[str], str]
    prelude: str
    indent: str  # statement indentation inside a function
    braces: bool = True
    cls: str = ""  # Java: enclosing class

    @property
    def lang(self):
        return by_name(self.name)

    def fn(self, name: str, body: list[str]) -> str:
        lines = [self.header(name)] + [self.indent + s for s in body]
        if self.braces:
            lines.append("}")
        return "\n".join(lines) + "\n"

    def module(self, fns: list[str]) -> str:
        """A file holding the functions, separated by blank lines."""
        if self.cls:
            body = "\n".join(fns)
            body = "".join(("    " + ln if ln.strip() else ln) for ln in body.splitlines(keepends=True))
            return f"{self.prelude}class {self.cls} {{\n{body}}}\n"
        return self.prelude + "\n".join(fns)

    def qual(self, name: str) -> str:
        return f"{self.cls}.{name}" if self.cls else name

    def fn_lines(self, text: str, name: str, body: list[str]) -> tuple[int, int]:
        """First and last line of function ``name`` (with that body) in ``text``."""
        first = line_of(text, self.header(name))
        return first, first + len(body) + (1 if self.braces else 0)


GENS = {
    "python": Gen("python", ".py", lambda n: f"def {n}(a, b):", lambda v, e: f"{v} = {e}",
                  lambda f, args: f"{f}({args})", lambda e: f"return {e}",
                  "import os\n\n\n", "    ", braces=False),
    "javascript": Gen("javascript", ".js", lambda n: f"function {n}(a, b) {{",
                      lambda v, e: f"const {v} = {e};", lambda f, args: f"{f}({args});",
                      lambda e: f"return {e};", 'import { load } from "./load.js";\n\n', "  "),
    "typescript": Gen("typescript", ".ts", lambda n: f"function {n}(a: number, b: number): number {{",
                      lambda v, e: f"const {v} = {e};", lambda f, args: f"{f}({args});",
                      lambda e: f"return {e};", 'import { load } from "./load";\n\n', "  "),
    "tsx": Gen("tsx", ".tsx", lambda n: f"function {n}(a: number, b: number): number {{",
               lambda v, e: f"const {v} = {e};", lambda f, args: f"{f}({args});",
               lambda e: f"return {e};",
               'import React from "react";\n\nexport const Badge = (props: { n: number }) => '
               '<span className="badge">{props.n}</span>;\n\n', "  "),
    "go": Gen("go", ".go", lambda n: f"func {n}(a int, b int) int {{", lambda v, e: f"{v} := {e}",
              lambda f, args: f"{f}({args})", lambda e: f"return {e}",
              'package main\n\nimport "fmt"\n\n', "\t"),
    "rust": Gen("rust", ".rs", lambda n: f"fn {n}(a: i32, b: i32) -> i32 {{",
                lambda v, e: f"let {v} = {e};", lambda f, args: f"{f}({args});",
                lambda e: f"return {e};", "use std::fmt;\n\n", "    "),
    "java": Gen("java", ".java", lambda n: f"static int {n}(int a, int b) {{",
                lambda v, e: f"int {v} = {e};", lambda f, args: f"{f}({args});",
                lambda e: f"return {e};", "package demo;\n\nimport java.util.List;\n\n", "    ",
                cls="Util"),
}


def gen_params():
    return [pytest.param(GENS[n], id=n) for n in LANGS]


class Funcs:
    """Three distinct functions (gamma calls the other two) for generator ``g``."""

    def __init__(self, g: Gen):
        self.g = g

    def alpha_body(self, beta="beta"):
        g = self.g
        return [g.var("total", "load(a, 10)"), g.call("check", 'total, "total"'), g.ret("total * 2 + b")]

    def beta_body(self, emit_args='"beta", scale'):
        g = self.g
        return [g.var("scale", "b - a"), g.call("emit", emit_args), g.var("out", "scale * scale"),
                g.ret("out")]

    def gamma_body(self, alpha="alpha", beta="beta"):
        g = self.g
        return [g.var("r", f"{alpha}(a, b)"), g.call("record", 'r, "gamma"'), g.ret(f"r + {beta}(b, a)")]

    def alpha(self, name="alpha"):
        return self.g.fn(name, self.alpha_body())

    def beta(self, name="beta", body=None):
        return self.g.fn(name, body or self.beta_body())

    def gamma(self, alpha="alpha", beta="beta"):
        return self.g.fn("gamma", self.gamma_body(alpha, beta))


def sym(src: SourceFile, g: Gen, needle: str, inside: int = 1) -> A.Anchor:
    line, col = pos_of(src.text, needle, inside)
    return A.record(src, "demo" + g.ext, line, col, how=A.SYMBOL)


def span(src: SourceFile, g: Gen, needle: str, inside: int = 1) -> A.Anchor:
    line, col = pos_of(src.text, needle, inside)
    return A.record(src, "demo" + g.ext, line, col, how=A.SPAN)


def lines_of(r: Range | None) -> tuple[int, int] | None:
    return None if r is None else (r.sl, r.el)


# =========================================================================================
# per-language realistic snippets for recording (a class with methods, a free function)
# =========================================================================================

SNIPPETS = {
    "python": ("""import math


class Counter:
    def __init__(self, start):
        self.count = start
        self.history = []

    def add(self, n):
        self.count += n
        self.history.append(n)
        return self.count

    def reset(self):
        self.history.clear()
        self.count = 0


def total(counters):
    result = 0
    for c in counters:
        result += c.count
    return result
""", "Counter.add", "total"),
    "javascript": ("""import { log } from "./log.js";

class Counter {
  constructor(start) {
    this.count = start;
    this.history = [];
  }

  add(n) {
    this.count += n;
    this.history.push(n);
    return this.count;
  }

  reset() {
    this.history.length = 0;
    this.count = 0;
  }
}

const helpers = {
  describe(c) {
    return "count=" + c.count;
  },
};

function total(counters) {
  let result = 0;
  for (const c of counters) {
    result += c.count;
  }
  return result;
}
""", "Counter.add", "total"),
    "typescript": ("""import { log } from "./log";

export class Counter {
  private count: number;
  private history: number[] = [];

  constructor(start: number) {
    this.count = start;
  }

  add(n: number): number {
    this.count += n;
    this.history.push(n);
    return this.count;
  }

  reset(): void {
    this.history.length = 0;
    this.count = 0;
  }
}

export const helpers = {
  describe(c: Counter): string {
    return "count=" + c.count;
  },
};

export function total(counters: Counter[]): number {
  let result = 0;
  for (const c of counters) {
    result += c.count;
  }
  return result;
}
""", "Counter.add", "total"),
    "tsx": ("""import React from "react";

export class Counter {
  private count: number = 0;
  private history: number[] = [];

  add(n: number): number {
    this.count += n;
    this.history.push(n);
    return this.count;
  }

  reset(): void {
    this.history.length = 0;
    this.count = 0;
  }
}

export const helpers = {
  describe(c: Counter): string {
    return "count=" + c.count;
  },
};

export function total(counters: Counter[]): number {
  let result = 0;
  for (const c of counters) {
    result += c.count;
  }
  return result;
}

export function View(props: { counters: Counter[] }) {
  const sum = total(props.counters);
  return <div className="total">{sum}</div>;
}
""", "Counter.add", "total"),
    "go": ("""package main

import "fmt"

type Counter struct {
	count   int
	history []int
}

func (c *Counter) Add(n int) int {
	c.count += n
	c.history = append(c.history, n)
	return c.count
}

func (c *Counter) Reset() {
	c.history = nil
	c.count = 0
}

func Total(counters []*Counter) int {
	result := 0
	for _, c := range counters {
		result += c.count
	}
	return result
}
""", "Counter.Add", "Total"),
    "rust": ("""use std::fmt;

pub struct Counter {
    count: i32,
    history: Vec<i32>,
}

impl Counter {
    pub fn add(&mut self, n: i32) -> i32 {
        self.count += n;
        self.history.push(n);
        self.count
    }

    pub fn reset(&mut self) {
        self.history.clear();
        self.count = 0;
    }
}

fn total(counters: &[Counter]) -> i32 {
    let mut result = 0;
    for c in counters {
        result += c.count;
    }
    result
}
""", "Counter.add", "total"),
    "java": ("""package demo;

import java.util.ArrayList;

class Counter {
    private int count;
    private final ArrayList<Integer> history = new ArrayList<>();

    int add(int n) {
        count += n;
        history.add(n);
        return count;
    }

    void reset() {
        history.clear();
        count = 0;
    }

    static int total(Counter[] counters) {
        int result = 0;
        for (Counter c : counters) {
            result += c.count;
        }
        return result;
    }
}
""", "Counter.add", "Counter.total"),
}

# the statement inside the method body, the innermost statement inside the loop
METHOD_STMT = {
    "python": "self.history.append(n)", "javascript": "this.history.push(n);",
    "typescript": "this.history.push(n);", "tsx": "this.history.push(n);",
    "go": "c.history = append(c.history, n)", "rust": "self.history.push(n);", "java": "history.add(n);",
}
LOOP_STMT = {
    "python": "result += c.count", "javascript": "result += c.count;", "typescript": "result += c.count;",
    "tsx": "result += c.count;", "go": "result += c.count", "rust": "result += c.count;",
    "java": "result += c.count;",
}
# the method's header, renamed by substituting the name there (and nowhere else)
METHOD_HEADER = {
    "python": ("def add(self, n):", "def increment(self, n):", "Counter.increment"),
    "javascript": ("  add(n) {", "  increment(n) {", "Counter.increment"),
    "typescript": ("  add(n: number): number {", "  increment(n: number): number {", "Counter.increment"),
    "tsx": ("  add(n: number): number {", "  increment(n: number): number {", "Counter.increment"),
    "go": ("func (c *Counter) Add(n int) int {", "func (c *Counter) Increment(n int) int {",
           "Counter.Increment"),
    "rust": ("pub fn add(&mut self, n: i32) -> i32 {", "pub fn increment(&mut self, n: i32) -> i32 {",
             "Counter.increment"),
    "java": ("int add(int n) {", "int increment(int n) {", "Counter.increment"),
}


def snippet_params():
    return [pytest.param(n, id=n) for n in LANGS]


# =========================================================================================
# 0. the registry
# =========================================================================================

@pytest.mark.parametrize("name", LANGS)
def test_languages_load_by_name_and_path(name):
    lang = by_name(name)
    assert lang is not None and lang.name == name
    assert for_path("src/demo" + GENS[name].ext) is lang
    assert for_path("notes.txt") is None and for_path("README.md") is None
    assert by_name(None) is None and by_name("cobol") is None


# =========================================================================================
# 1. recording
# =========================================================================================

@pytest.mark.parametrize("name", snippet_params())
def test_record_symbol_picks_innermost_definition(name):
    text, method, free = SNIPPETS[name]
    src = SourceFile(text, by_name(name))
    a = sym(src, GENS[name], METHOD_STMT[name], inside=3)
    assert a.type == A.SYMBOL and a.name == method and a.lang == name
    assert a.path == "demo" + GENS[name].ext
    assert a.hash and a.sketch
    header = METHOD_HEADER[name][0]
    hl = line_of(text, header)
    assert (a.range.sl, a.range.sc) == (hl, u16(text.splitlines()[hl]) - u16(text.splitlines()[hl].lstrip()))
    # deeper inside a loop of the free function: still the function
    b = sym(src, GENS[name], LOOP_STMT[name], inside=2)
    assert b.name == free
    # on the method's own name: the method, not its class
    c = sym(src, GENS[name], header, inside=header.index("(") - 1)
    assert c.name == method


def test_record_symbol_on_a_go_type_line_is_the_type():
    """`type Counter struct {`: the keyword is no part of Go's type_spec, the line still names the type;
    the first line of a group of types names none of them."""
    text = SNIPPETS["go"][0] + "\ntype (\n\tA struct{}\n\tB int\n)\n"
    src = SourceFile(text, by_name("go"))
    assert A.record(src, "c.go", line_of(text, "type Counter struct {")).name == "Counter"
    assert A.record(src, "c.go", line_of(text, "\tA struct{}")).name == "A"
    with pytest.raises(A.NoDefinition):
        A.record(src, "c.go", line_of(text, "type ("))


@pytest.mark.parametrize("name", ["typescript", "tsx"])
def test_record_symbol_on_a_type_alias_is_the_alias(name):
    text = 'export type Guard = (to: Route) => boolean | string;\n\ntype Pair = {\n  a: number;\n  b: number;\n};\n'
    src = SourceFile(text, by_name(name))
    assert A.record(src, "g.ts", 0).name == "Guard"
    pair = A.record(src, "g.ts", 3)
    assert pair.name == "Pair" and (pair.range.sl, pair.range.el) == (2, 5)


@pytest.mark.parametrize("name", ["javascript", "typescript", "tsx"])
def test_record_symbol_in_object_literal_method(name):
    text, _, _ = SNIPPETS[name]
    src = SourceFile(text, by_name(name))
    a = sym(src, GENS[name], 'return "count="', inside=2)
    assert a.name == "helpers.describe"


@pytest.mark.parametrize("name", snippet_params())
def test_record_span_picks_innermost_statement(name):
    text, method, free = SNIPPETS[name]
    src = SourceFile(text, by_name(name))
    stmt = METHOD_STMT[name]
    a = span(src, GENS[name], stmt, inside=2)
    assert a.type == A.SPAN and a.name == method
    assert a.range == span_range(text, stmt)
    # inside a loop: the statement in the loop body, not the loop
    loop = LOOP_STMT[name]
    b = span(src, GENS[name], loop, inside=len(loop) - 2)
    assert b.type == A.SPAN and b.name == free
    assert b.range == span_range(text, loop)
    # a position in the indentation means the statement that starts the line
    line = line_of(text, stmt)
    c = A.record(src, "demo", line, 0, how=A.SPAN)
    assert c.range == a.range


@pytest.mark.parametrize("name", snippet_params())
def test_record_file_anchor(name):
    text, _, _ = SNIPPETS[name]
    a = A.record(SourceFile(text, by_name(name)), "src/demo" + GENS[name].ext, 3, 0, how=A.FILE)
    assert a.type == A.FILE and a.path == "src/demo" + GENS[name].ext and not a.is_code
    res = A.resolve(a, SourceFile("", by_name(name)))
    assert res.state == A.OK and res.attached


@pytest.mark.parametrize("path", ["notes.txt", "README.md"])
def test_record_span_without_grammar_gives_lines(path):
    text = "# Title\n\nSome prose here.\nA second line of prose.\n\nThe end.\n"
    lang = for_path(path)
    assert lang is None
    src = SourceFile(text, lang)
    a = A.record(src, path, 2, 5, how=A.SPAN)
    assert a.type == A.LINES and a.is_code
    assert a.range == Range(2, 0, 2, len("Some prose here."))
    sel = A.record(src, path, 2, 0, how=A.SPAN, end=(3, 4))
    assert sel.type == A.LINES and sel.range == Range(2, 0, 3, len("A second line of prose."))
    # a symbol needs a grammar
    with pytest.raises(A.AnchorError, match="no grammar"):
        A.record(src, path, 2, 0, how=A.SYMBOL)
    # lines follow their text when lines are inserted above
    after = "# Title\n\nIntro.\nMore intro.\n\nSome prose here.\nA second line of prose.\n\nThe end.\n"
    r = A.resolve(a, SourceFile(after, None), src)
    assert r.state == A.MOVED and r.range == Range(5, 0, 5, len("Some prose here."))
    assert key(LiveDocument(text, None).resolve([a])[0]) == (A.OK, a.range, "")
    doc = LiveDocument(text, None)
    doc.track(0, a.range)
    doc.apply(Range(2, 0, 2, 0), "Intro.\nMore intro.\n\n")
    assert key(doc.resolve([a])[0]) == key(r)


@pytest.mark.parametrize("name", snippet_params())
def test_record_span_outside_function_gives_lines(name):
    text, _, _ = SNIPPETS[name]
    src = SourceFile(text, by_name(name))
    a = A.record(src, "demo", 0, 2, how=A.SPAN)  # the package / import line
    assert a.type == A.LINES and a.range.sl == a.range.el == 0


def test_record_on_a_blank_line_between_definitions_is_refused():
    text = "X = 1\n\n\ndef f():\n\n    return 1\n"
    src = SourceFile(text, by_name("python"))
    for how in (A.SPAN, A.SYMBOL):
        with pytest.raises(A.AnchorError, match="the line is blank"):
            A.record(src, "b.py", 1, how=how)
    assert A.record(src, "b.py", 4).name == "f"  # a blank line inside a function: that function


def test_record_span_on_a_top_level_statement_takes_all_its_lines():
    """A note on a module constant's table covers the whole table, not its first line; a line inside it is that line."""
    text = 'import os\n\nTABLE = (\n    "a",\n    "b",\n)\n\n# a comment\nX = 1\n'
    src = SourceFile(text, by_name("python"))
    whole = A.record(src, "m.py", 2, how=A.SPAN)
    assert whole.type == A.LINES and (whole.range.sl, whole.range.el) == (2, 5)
    assert (A.record(src, "m.py", 3, how=A.SPAN).range.sl, A.record(src, "m.py", 3, how=A.SPAN).range.el) == (3, 3)
    assert A.record(src, "m.py", 7, how=A.SPAN).range.el == 7  # a comment: its own line


@pytest.mark.parametrize("name", snippet_params())
def test_record_out_of_range_line_raises(name):
    text, _, _ = SNIPPETS[name]
    src = SourceFile(text, by_name(name))
    n = len(text.split("\n"))
    for how in (A.SYMBOL, A.SPAN):
        with pytest.raises(A.AnchorError) as e:
            A.record(src, "demo.x", n + 5, 0, how=how)
        assert f"demo.x:{n + 6}" in str(e.value) and "out of range" in str(e.value)
        with pytest.raises(A.AnchorError):
            A.record(src, "demo.x", -1, 0, how=how)


@pytest.mark.parametrize("name", snippet_params())
def test_record_symbol_where_there_is_no_definition_raises(name):
    text, _, _ = SNIPPETS[name]
    src = SourceFile(text, by_name(name))
    with pytest.raises(A.AnchorError, match="no definition here"):
        A.record(src, "demo", 0, 1, how=A.SYMBOL)


def test_record_unknown_type_raises():
    src = SourceFile(SNIPPETS["python"][0], by_name("python"))
    with pytest.raises(A.AnchorError, match="unknown anchor type"):
        A.record(src, "demo.py", 9, 8, how="paragraph")


# =========================================================================================
# 2. resolution, both ways in
# =========================================================================================

@pytest.mark.parametrize("g", gen_params())
def test_lines_inserted_above_function_moves_it(g):
    F = Funcs(g)
    before = g.module([F.alpha(), F.beta(), F.gamma()])
    helper_body = [g.var("v", "a + b"), g.ret("v")]
    after = g.module([F.alpha(), g.fn("helper", helper_body), F.beta(), F.gamma()])
    src = SourceFile(before, g.lang)
    anchors = [sym(src, g, "b - a"), sym(src, g, "load(a, 10)"), span(src, g, "scale * scale")]
    res = resolve_both(g.lang, before, after, anchors)
    shift = len(helper_body) + (3 if g.braces else 2)  # its lines and a blank line
    assert shift == line_of(after, g.header("beta")) - line_of(before, g.header("beta"))

    beta, alpha, stmt = res
    assert beta.state == A.MOVED and beta.attached and beta.name == g.qual("beta")
    assert beta.range == anchors[0].range._replace(sl=anchors[0].range.sl + shift,
                                                   el=anchors[0].range.el + shift)
    assert beta.hash == anchors[0].hash
    assert alpha.state == A.OK and alpha.range == anchors[1].range and alpha.name == g.qual("alpha")
    assert stmt.state == A.MOVED and stmt.name == g.qual("beta")
    assert stmt.range == span_range(after, g.var("out", "scale * scale"))


@pytest.mark.parametrize("g", gen_params())
def test_statement_added_to_body_is_changed(g):
    F = Funcs(g)
    before = g.module([F.alpha(), F.beta(), F.gamma()])
    body = F.beta_body()
    body2 = body[:2] + [g.call("audit", "scale, a")] + body[2:]
    after = g.module([F.alpha(), F.beta(body=body2), F.gamma()])
    src = SourceFile(before, g.lang)
    anchors = [sym(src, g, "b - a"), sym(src, g, '"gamma"')]
    beta, gamma = resolve_both(g.lang, before, after, anchors)
    assert beta.state == A.CHANGED and beta.name == g.qual("beta")
    assert lines_of(beta.range) == g.fn_lines(after, "beta", body2)
    assert beta.range.sl == anchors[0].range.sl and beta.range.el == anchors[0].range.el + 1
    assert beta.hash != anchors[0].hash
    assert gamma.state == A.MOVED and gamma.name == g.qual("gamma")
    assert lines_of(gamma.range) == g.fn_lines(after, "gamma", F.gamma_body())


@pytest.mark.parametrize("g", gen_params())
def test_function_renamed_everywhere_is_renamed(g):
    F = Funcs(g)
    before = g.module([F.alpha(), F.beta(), F.gamma()])
    after = g.module([F.alpha("accumulate"), F.beta(), F.gamma(alpha="accumulate")])
    src = SourceFile(before, g.lang)
    anchors = [sym(src, g, "load(a, 10)"), span(src, g, "load(a, 10)"), sym(src, g, '"gamma"')]
    alpha, stmt, gamma = resolve_both(g.lang, before, after, anchors)
    assert alpha.state == A.RENAMED and alpha.attached
    assert alpha.name == g.qual("accumulate")
    assert lines_of(alpha.range) == g.fn_lines(after, "accumulate", F.alpha_body())
    assert alpha.range.sc == anchors[0].range.sc and alpha.range.ec == anchors[0].range.ec
    # a statement of the renamed function follows it
    assert stmt.attached and stmt.name == g.qual("accumulate")
    assert stmt.range == span_range(after, g.var("total", "load(a, 10)"))
    # the caller only changed
    assert gamma.state == A.CHANGED and gamma.name == g.qual("gamma")


@pytest.mark.parametrize("g", gen_params())
def test_function_moved_below_another_is_found_there(g):
    F = Funcs(g)
    before = g.module([F.alpha(), F.beta(), F.gamma()])
    after = g.module([F.beta(), F.gamma(), F.alpha()])
    src = SourceFile(before, g.lang)
    anchors = [sym(src, g, "load(a, 10)"), span(src, g, "check("), sym(src, g, "b - a")]
    alpha, stmt, beta = resolve_both(g.lang, before, after, anchors)
    assert alpha.state == A.MOVED and alpha.name == g.qual("alpha")
    assert lines_of(alpha.range) == g.fn_lines(after, "alpha", F.alpha_body())
    assert alpha.hash == anchors[0].hash
    assert stmt.state == A.MOVED and stmt.name == g.qual("alpha")
    assert stmt.range == span_range(after, g.call("check", 'total, "total"'))
    assert beta.state == A.MOVED and lines_of(beta.range) == g.fn_lines(after, "beta", F.beta_body())


@pytest.mark.parametrize("g", gen_params())
def test_function_deleted_is_orphaned_not_attached_to_neighbour(g):
    F = Funcs(g)
    before = g.module([F.alpha(), F.beta(), F.gamma()])
    after = g.module([F.alpha(), F.gamma()])
    src = SourceFile(before, g.lang)
    anchors = [sym(src, g, "b - a"), span(src, g, "scale * scale"), sym(src, g, "load(a, 10)")]
    beta, stmt, alpha = resolve_both(g.lang, before, after, anchors)
    assert beta.state == A.ORPHANED and not beta.attached and beta.range is None
    assert stmt.state == A.ORPHANED and not stmt.attached and stmt.range is None
    assert alpha.state == A.OK and alpha.range == anchors[2].range


@pytest.mark.parametrize("g", gen_params())
def test_deleted_function_never_attaches_to_near_copy_below(g):
    F = Funcs(g)
    body_f = [g.var("rows", "query(a, \"rows\")"), g.call("validate", "rows, b"), g.ret("rows.size")]
    body_g = [g.var("rows", "query(a, \"cols\")"), g.call("validate", "rows, b"), g.ret("rows.size")]
    before = g.module([F.alpha(), g.fn("fetch_rows", body_f), g.fn("fetch_cols", body_g), F.gamma()])
    after = g.module([F.alpha(), g.fn("fetch_cols", body_g), F.gamma()])
    src = SourceFile(before, g.lang)
    anchors = [sym(src, g, '"rows"'), span(src, g, '"rows"'), sym(src, g, '"cols"')]
    f, f_stmt, g_res = resolve_both(g.lang, before, after, anchors)
    assert f.state == A.ORPHANED and not f.attached and f.range is None
    assert f_stmt.state == A.ORPHANED and not f_stmt.attached
    assert g_res.state == A.MOVED and g_res.name == g.qual("fetch_cols")
    assert lines_of(g_res.range) == g.fn_lines(after, "fetch_cols", body_g)


@pytest.mark.parametrize("g", gen_params())
def test_identical_bodies_follow_their_own_names_when_swapped(g):
    F = Funcs(g)
    body = [g.var("n", "a * b"), g.call("trace", "n"), g.ret("n - 1")]
    f, h = g.fn("first_copy", body), g.fn("second_copy", body)
    before = g.module([F.alpha(), f, h, F.gamma()])
    after = g.module([F.alpha(), h, f, F.gamma()])
    src = SourceFile(before, g.lang)
    anchors = [sym(src, g, "first_copy("), sym(src, g, "second_copy(")]
    rf, rg = resolve_both(g.lang, before, after, anchors)
    assert rf.state == A.MOVED and rf.name == g.qual("first_copy")
    assert lines_of(rf.range) == g.fn_lines(after, "first_copy", body)
    assert rg.state == A.MOVED and rg.name == g.qual("second_copy")
    assert lines_of(rg.range) == g.fn_lines(after, "second_copy", body)


@pytest.mark.parametrize("g", gen_params())
def test_span_on_statement_edited_in_place_stays_on_it(g):
    F = Funcs(g)
    before = g.module([F.alpha(), F.beta(), F.gamma()])
    after = g.module([F.alpha(), F.beta(body=F.beta_body('"beta", scale, a')), F.gamma()])
    src = SourceFile(before, g.lang)
    anchors = [span(src, g, '"beta", scale'), span(src, g, "scale * scale"), span(src, g, "b - a")]
    edited, after_it, before_it = resolve_both(g.lang, before, after, anchors)
    assert edited.state == A.CHANGED and edited.attached and edited.name == g.qual("beta")
    assert edited.range == span_range(after, g.call("emit", '"beta", scale, a'))
    assert after_it.state == A.OK and after_it.range == anchors[1].range
    assert before_it.state == A.OK and before_it.range == anchors[2].range


@pytest.mark.parametrize("g", gen_params())
def test_span_on_deleted_statement_is_orphaned(g):
    F = Funcs(g)
    before = g.module([F.alpha(), F.beta(), F.gamma()])
    body = F.beta_body()
    body2 = body[:1] + body[2:]  # the emit(...) call is gone
    after = g.module([F.alpha(), F.beta(body=body2), F.gamma()])
    src = SourceFile(before, g.lang)
    anchors = [span(src, g, '"beta", scale'), span(src, g, "scale * scale"), sym(src, g, "b - a")]
    gone, kept, beta = resolve_both(g.lang, before, after, anchors)
    assert gone.state == A.ORPHANED and not gone.attached and gone.range is None
    assert kept.state == A.MOVED and kept.range == span_range(after, g.var("out", "scale * scale"))
    assert beta.state == A.CHANGED and beta.name == g.qual("beta")


# methods of a class / struct / impl (the snippets)

@pytest.mark.parametrize("name", snippet_params())
def test_method_follows_lines_inserted_above_class(name):
    text, method, _ = SNIPPETS[name]
    lang, g = by_name(name), GENS[name]
    first = text.index("\n\n") + 2  # after the first (package/import) line
    comment = "# " if name == "python" else "// "
    inserted = f"{comment}Counting utilities.\n{comment}See the design notes.\n\n"
    after = text[:first] + inserted + text[first:]
    src = SourceFile(text, lang)
    anchors = [sym(src, g, METHOD_STMT[name], 2), span(src, g, METHOD_STMT[name], 2)]
    m, s = resolve_both(lang, text, after, anchors)
    assert m.state == A.MOVED and m.name == method
    assert m.range == anchors[0].range._replace(sl=anchors[0].range.sl + 3, el=anchors[0].range.el + 3)
    assert s.state == A.MOVED and s.range == span_range(after, METHOD_STMT[name])


@pytest.mark.parametrize("name", snippet_params())
def test_method_renamed_keeps_its_class(name):
    text, method, free = SNIPPETS[name]
    lang, g = by_name(name), GENS[name]
    old_header, new_header, new_qual = METHOD_HEADER[name]
    after = text.replace(old_header, new_header)
    src = SourceFile(text, lang)
    anchors = [sym(src, g, METHOD_STMT[name], 2), sym(src, g, LOOP_STMT[name], 2)]
    m, f = resolve_both(lang, text, after, anchors)
    assert m.state == A.RENAMED and m.name == new_qual
    assert lines_of(m.range) == lines_of(anchors[0].range)
    assert f.state == A.OK and f.name == free


RENAMED_CLASS = {  # two classes whose short methods are alike; the first class is renamed
    "python": ("class DraftMap:\n    def has(self, key):\n        return key in self.items\n\n"
               "    def get(self, key):\n        return self.items.get(key)\n\n\n"
               "class DraftSet:\n    def has(self, key):\n        return key in self.values\n",
               "DraftMap", "DraftMapImpl"),
    "typescript": ("class DraftMap {\n  has(key: string) {\n    return this.items.has(key)\n  }\n\n"
                   "  get(key: string) {\n    return this.items.get(key)\n  }\n}\n\n"
                   "class DraftSet {\n  has(key: string) {\n    return this.values.has(key)\n  }\n}\n",
                   "DraftMap", "DraftMapImpl"),
}


@pytest.mark.parametrize("name", list(RENAMED_CLASS))
def test_methods_follow_their_class_renamed(name):
    """A class renamed (its call sites too): each method is the one of the same name in the
    renamed class, though its sibling methods are as like it as the method itself."""
    text, old, new = RENAMED_CLASS[name]
    lang = by_name(name)
    src = SourceFile(text, lang)
    anchors = [A.symbol_anchor(src, "x", d) for d in src.defs if d.qualname.startswith(old + ".")]
    assert [a.name for a in anchors] == [f"{old}.has", f"{old}.get"]
    has, get = resolve_both(lang, text, text.replace(old, new), anchors)
    assert (has.state, has.name, has.range) == (A.RENAMED, f"{new}.has", anchors[0].range)
    assert (get.state, get.name, get.range) == (A.RENAMED, f"{new}.get", anchors[1].range)


TWINS = {  # near twins, told apart by one word, both renamed in one change (call sites too) and edited alike
    "python": ("def read_users(db, limit):\n    rows = db.query('users', limit=limit)\n"
               "    return [to_record(r) for r in rows if r.active]\n\n\n"
               "def read_groups(db, limit):\n    rows = db.query('groups', limit=limit)\n"
               "    return [to_record(r) for r in rows if r.active]\n\n\n"
               "def report(db):\n    return read_users(db, 10) + read_groups(db, 10)\n",
               [("read_users", "fetch_users"), ("read_groups", "fetch_groups")],
               [("if r.active]", "if r.active and not r.deleted]")]),
    "go": ("package store\n\nfunc loadUsers(db *DB) []Record {\n\trows := db.Query(\"users\")\n"
           "\treturn filterActive(rows)\n}\n\nfunc loadGroups(db *DB) []Record {\n\trows := db.Query(\"groups\")\n"
           "\treturn filterActive(rows)\n}\n\nfunc Report(db *DB) int {\n\treturn len(loadUsers(db)) + len(loadGroups(db))\n}\n",
           [("loadUsers", "loadUsersCached"), ("loadGroups", "loadGroupsCached")],
           [("return filterActive(rows)", "return filterActive(cache.Keep(rows))")]),
}


def _twins(name: str, renames: list[tuple[str, str]]) -> tuple:
    text, _, edits = TWINS[name]
    after = text
    for old, new in renames + edits:
        after = after.replace(old, new)
    lang = by_name(name)
    src = SourceFile(text, lang)
    olds = [old for old, _ in TWINS[name][1]]
    anchors = [A.symbol_anchor(src, "x", d) for d in src.defs if d.qualname in olds]
    return lang, text, after, anchors


@pytest.mark.parametrize("name", list(TWINS))
def test_near_twins_renamed_together_are_each_followed(name):
    """Each twin is nearly as like the other's new self as its own, so no margin tells one
    alone; together, text and names pair them one to one: each is followed to its own."""
    lang, text, after, anchors = _twins(name, TWINS[name][1])
    got = resolve_both(lang, text, after, anchors)
    for a, r, (_, new) in zip(anchors, got, TWINS[name][1]):
        assert (r.state, r.name) == (A.RENAMED, new)
        assert r.range == A.symbol_anchor(SourceFile(after, lang), "x", next(
            d for d in SourceFile(after, lang).defs if d.qualname == new)).range


@pytest.mark.parametrize("name", list(TWINS))
def test_near_twins_whose_names_say_another_pairing_than_their_text_are_offered(name):
    """A new version of the file arrives (a checkout, a pull) with the twins renamed
    crosswise (the first one's new name holds the second's code) or to names that say
    nothing of the old ones: text and names do not agree, nothing is taken. (Typed in an
    editor, the edits themselves say where each went.)"""
    (a, a2), (b, b2) = TWINS[name][1]
    for renames in ([(a, "TMP"), (b, a2), ("TMP", b2)], [(a, "alpha"), (b, "omega")]):
        lang, text, after, anchors = _twins(name, renames)
        for r in resolve_replaced(lang, text, after, anchors):
            assert r.state == A.AMBIGUOUS and not r.attached and r.candidates


def test_a_family_of_look_alike_tests_renamed_together_is_followed_one_by_one():
    """A test module's cases renamed by one pattern (Rust ``case_N`` to ``parses_case_N``),
    each as like every other as it is like itself but for its number: text and names pair
    them one to one, so every note follows its own case."""
    text = "".join(f"#[test]\nfn case_{i}() {{\n    assert_eq!(parse(\"v{i}\"), Ok({i}));\n}}\n\n" for i in range(12))
    after = text.replace("fn case_", "fn parses_case_")
    lang = by_name("rust")
    src = SourceFile(text, lang)
    anchors = [A.symbol_anchor(src, "x.rs", d) for d in src.defs]
    got = resolve_both(lang, text, after, anchors)
    assert [(r.state, r.name, r.range) for r in got] == [(A.RENAMED, f"parses_{a.name}", a.range) for a in anchors]


def test_near_twins_renamed_beside_a_third_deleted_are_offered():
    """Three twins, two renamed and the third deleted: which of the three went is not clear
    from the text, so none of them is taken."""
    text = TWINS["python"][0].replace("\n\n\ndef report", "\n\n\ndef read_roles(db, limit):\n"
                                      "    rows = db.query('roles', limit=limit)\n"
                                      "    return [to_record(r) for r in rows if r.active]\n\n\ndef report")
    after = text[:text.index("def read_roles")] + text[text.index("def report"):]
    after = after.replace("read_users", "fetch_users").replace("read_groups", "fetch_groups")
    lang = by_name("python")
    src = SourceFile(text, lang)
    anchors = [A.symbol_anchor(src, "x.py", d) for d in src.defs if d.qualname.startswith("read_")]
    for r in resolve_replaced(lang, text, after, anchors):
        assert not r.attached


def test_a_function_gone_is_not_taken_for_a_renamed_look_alike_of_another():
    """parse_requirement left the file (moved to another one) while parse_marker, much like
    it, was renamed: the renamed one is parse_marker's, never parse_requirement's."""
    before = ("def parse_marker(tokens):\n    left = tokens.take('IDENT')\n    op = tokens.take('OP')\n"
              "    right = tokens.take('STRING')\n    return (left, op, right)\n\n\n"
              "def parse_requirement(tokens):\n    name = tokens.take('IDENT')\n    op = tokens.take('OP')\n"
              "    version = tokens.take('VERSION')\n    return (name, op, version)\n")
    after = before[:before.index("\n\n\ndef parse_requirement")].replace("parse_marker", "parse_marker_impl") + "\n"
    lang = by_name("python")
    src = SourceFile(before, lang)
    marker, requirement = (A.symbol_anchor(src, "x.py", d) for d in src.defs)
    m, r = resolve_both(lang, before, after, [marker, requirement])
    assert (m.state, m.name) == (A.RENAMED, "parse_marker_impl")
    assert r.state == A.ORPHANED and not r.attached  # here; the workspace looks for it in other files


@pytest.mark.parametrize("name", snippet_params())
def test_method_deleted_is_orphaned_not_attached_to_sibling(name):
    text, method, _ = SNIPPETS[name]
    lang, g = by_name(name), GENS[name]
    # cut the method: from its header to the blank line after it
    lines = text.split("\n")
    hl = line_of(text, METHOD_HEADER[name][0])
    end = next(i for i in range(hl, len(lines)) if not lines[i].strip())
    after = "\n".join(lines[:hl] + lines[end + 1:])
    assert METHOD_HEADER[name][0] not in after
    src = SourceFile(text, lang)
    anchors = [sym(src, g, METHOD_STMT[name], 2), span(src, g, METHOD_STMT[name], 2)]
    m, s = resolve_both(lang, text, after, anchors)
    assert m.state == A.ORPHANED and not m.attached
    assert s.state == A.ORPHANED and not s.attached


# =========================================================================================
# 3. non-ASCII text: columns are UTF-16
# =========================================================================================

EMOJI = "😀é"  # 2 + 1 UTF-16 units, 4 + 2 UTF-8 bytes


@pytest.mark.parametrize("g", gen_params())
def test_non_ascii_columns_are_utf16(g):
    F = Funcs(g)
    s1, s2 = g.var("label", f'"{EMOJI}"'), g.call("show", "label, a")
    sep = " " if s1.endswith(";") else "; "  # Python and Go need a separator
    body = [s1 + sep + s2, g.ret("a + b")]
    comment = "#" if g.name == "python" else "//"
    before = g.module([F.alpha(), g.fn("labelled", body), F.gamma()])
    before = before.replace(g.header("labelled"), f"{comment} {EMOJI} {EMOJI}\n" + g.header("labelled"))
    src = SourceFile(before, g.lang)
    line = line_of(before, s1)
    indent = u16(g.indent) + (4 if g.cls else 0)
    col2 = indent + u16(s1 + sep)  # where s2 starts, in UTF-16 units
    assert col2 == indent + len(s1 + sep) + 1  # the emoji counts 2
    a = A.record(src, "demo" + g.ext, line, col2 + 1, how=A.SPAN)
    assert a.range == Range(line, col2, line, col2 + len(s2))
    assert span_range(before, s2) == a.range
    first = A.record(src, "demo" + g.ext, line, indent + u16(s1) - 1, how=A.SPAN)  # its last character
    assert first.range == Range(line, indent, line, indent + u16(s1))
    fn = A.record(src, "demo" + g.ext, line, col2 + 1, how=A.SYMBOL)
    assert fn.name == g.qual("labelled")
    assert lines_of(fn.range) == g.fn_lines(before, "labelled", body)

    # a line with emoji inserted above, and an emoji added to the first statement of the line
    s1b = g.var("label", f'"{EMOJI}😀"')
    after = before.replace(s1 + sep, s1b + sep).replace(
        g.header("labelled"), f"{comment} more {EMOJI}\n" + g.header("labelled"))
    res, fres = resolve_both(g.lang, before, after, [a, fn])
    assert res.state == A.MOVED and res.name == g.qual("labelled")
    assert res.range == Range(line + 1, col2 + 2, line + 1, col2 + 2 + len(s2))
    assert res.range == span_range(after, s2)
    assert fres.state == A.CHANGED and lines_of(fres.range) == (fn.range.sl + 1, fn.range.el + 1)

    # an in-line edit sent as one LSP change at a UTF-16 column, on the anchored line
    doc = LiveDocument(before, g.lang)
    doc.track(0, a.range)
    doc.track(1, first.range)
    quote = indent + u16(s1) - (2 if s1.endswith(";") else 1)  # before the closing quote
    doc.apply(Range(line, quote, line, quote), "😀")
    assert doc.text == before.replace(s1 + sep, s1b + sep)
    assert doc.tracked(0) == Range(line, col2 + 2, line, col2 + 2 + len(s2))
    r0, r1 = doc.resolve([a, first])
    assert r0.state == A.OK and r0.range == doc.tracked(0)
    assert r1.state == A.CHANGED and r1.range == Range(line, indent, line, indent + u16(s1b))


def test_non_ascii_definition_starting_mid_line():
    lang = by_name("javascript")
    text = f'const tag = "{EMOJI}"; function after(x) {{ return x + 1; }}\n'
    src = SourceFile(text, lang)
    col = u16(f'const tag = "{EMOJI}"; ')
    assert col == len(f'const tag = "{EMOJI}"; ') + 1
    a = A.record(src, "demo.js", 0, col + 10, how=A.SYMBOL)
    assert a.name == "after"
    assert a.range == Range(0, col, 0, u16(text.rstrip("\n")))
    after = "// header\n" + text
    r = resolve_both(lang, text, after, [a])[0]
    assert r.state == A.MOVED and r.range == Range(1, col, 1, a.range.ec)


# =========================================================================================
# 4. resolution without the old text (the fingerprint alone)
# =========================================================================================

@pytest.mark.parametrize("g", gen_params())
def test_fingerprint_only_same_name_is_found(g):
    F = Funcs(g)
    before = g.module([F.alpha(), F.beta(), F.gamma()])
    body = F.beta_body()
    body2 = body + [g.call("flush", "out")]
    after = g.module([g.fn("helper", [g.ret("a")]), F.alpha(), F.beta(body=body2), F.gamma()])
    src = SourceFile(before, g.lang)
    anchors = [sym(src, g, "load(a, 10)"), sym(src, g, "b - a"), span(src, g, "scale * scale")]
    new = SourceFile(after, g.lang)
    alpha, beta, stmt = (A.resolve(a, new) for a in anchors)
    assert alpha.state == A.MOVED and alpha.name == g.qual("alpha")
    assert lines_of(alpha.range) == g.fn_lines(after, "alpha", F.alpha_body())
    assert beta.state == A.CHANGED and beta.name == g.qual("beta")
    assert lines_of(beta.range) == g.fn_lines(after, "beta", body2)
    assert stmt.state == A.MOVED and stmt.range == span_range(after, g.var("out", "scale * scale"))


@pytest.mark.parametrize("g", gen_params())
def test_fingerprint_only_rename_is_offered_not_taken(g):
    """Without the old text a sketch cannot tell the renamed code from a near-copy: the
    renamed function is offered as a candidate (re-anchor here?), never taken."""
    F = Funcs(g)
    before = g.module([F.alpha(), F.beta(), F.gamma()])
    after = g.module([F.alpha("accumulate"), F.beta(), F.gamma(alpha="accumulate")])
    a = sym(SourceFile(before, g.lang), g, "load(a, 10)")
    r = A.resolve(a, SourceFile(after, g.lang))
    assert r.state == A.AMBIGUOUS and not r.attached and r.range is None
    assert [lines_of(c) for c in r.candidates] == [g.fn_lines(after, "accumulate", F.alpha_body())]


@pytest.mark.parametrize("g", gen_params())
def test_fingerprint_only_rename_with_changed_body_never_misattaches(g):
    F = Funcs(g)
    before = g.module([F.alpha(), F.beta(), F.gamma()])
    body2 = F.alpha_body()[:1] + [g.call("audit", "total")] + F.alpha_body()[1:]
    after = g.module([g.fn("accumulate", body2), F.beta(), F.gamma(alpha="accumulate")])
    a = sym(SourceFile(before, g.lang), g, "load(a, 10)")
    r = A.resolve(a, SourceFile(after, g.lang))
    # without the old text, a changed body is not proof enough: not attached, or attached
    # to the renamed function itself, never to another one
    assert not r.attached or (r.name == g.qual("accumulate") and
                              lines_of(r.range) == g.fn_lines(after, "accumulate", body2))
    assert r.state != A.ORPHANED or r.range is None


@pytest.mark.parametrize("g", gen_params())
def test_fingerprint_only_deleted_function_is_not_attached(g):
    F = Funcs(g)
    body_f = [g.var("rows", "query(a, \"rows\")"), g.call("validate", "rows, b"), g.ret("rows.size")]
    body_g = [g.var("rows", "query(a, \"cols\")"), g.call("validate", "rows, b"), g.ret("rows.size")]
    before = g.module([F.alpha(), F.beta(), g.fn("fetch_rows", body_f), g.fn("fetch_cols", body_g),
                       F.gamma()])
    after = g.module([F.alpha(), g.fn("fetch_cols", body_g), F.gamma()])
    src = SourceFile(before, g.lang)
    new = SourceFile(after, g.lang)
    for needle in ("b - a", '"rows"'):
        r = A.resolve(sym(src, g, needle), new)
        assert not r.attached, (needle, r)
        assert r.range is None
    rs = A.resolve(span(src, g, '"rows"'), new)
    assert not rs.attached


@pytest.mark.parametrize("g", gen_params())
def test_fingerprint_only_deleted_function_not_attached_to_longer_near_copy(g):
    """The same as above with functions of realistic length: the copy left below differs
    by one string literal, which the similarity sketch (16 hashes) may not see."""
    def body(lit):
        return [g.var("rows", f'query(a, "{lit}")'), g.call("validate", "rows, b"),
                g.var("limit", 'config("max_rows", 100)'), g.call("log_event", '"fetch", a, b, limit'),
                g.var("total", "count(rows) + offset(b, limit)"), g.call("cache_put", "a, rows, total"),
                g.var("page", "slice(rows, b, limit)"), g.call("metrics_inc", '"fetch.calls", 1'),
                g.ret("page")]
    F = Funcs(g)
    before = g.module([F.alpha(), g.fn("fetch_rows", body("rows")), g.fn("fetch_cols", body("cols")),
                       F.gamma()])
    after = g.module([F.alpha(), g.fn("fetch_cols", body("cols")), F.gamma()])
    a = sym(SourceFile(before, g.lang), g, '"rows"')
    # with the old text: orphaned (fetch_cols existed before)
    assert A.resolve(a, SourceFile(after, g.lang), SourceFile(before, g.lang)).state == A.ORPHANED
    # without it: the body differs from the fingerprint, so fetch_cols is no proof of a rename
    r = A.resolve(a, SourceFile(after, g.lang))
    assert not r.attached, f"deleted fetch_rows attached to {r.name} ({r.state})"


@pytest.mark.parametrize("g", gen_params())
def test_fingerprint_only_span_edited_in_place(g):
    F = Funcs(g)
    before = g.module([F.alpha(), F.beta(), F.gamma()])
    after = g.module([F.alpha(), F.beta(body=F.beta_body('"beta", scale, a')), F.gamma()])
    src = SourceFile(before, g.lang)
    a = span(src, g, '"beta", scale')
    r = A.resolve(a, SourceFile(after, g.lang))
    # without the old text a similar statement may be taken, but only the right one
    assert not r.attached or r.range == span_range(after, g.call("emit", '"beta", scale, a'))


# =========================================================================================
# 5. the edits path keeps its snapshot intact
# =========================================================================================

@pytest.mark.parametrize("g", gen_params())
def test_live_base_survives_edits_with_anchors_from_elsewhere(g):
    """Anchors usually come from stored notes, not from ``doc.base``: the snapshot the edits
    are resolved against must still describe the text it was made from after the edits."""
    F = Funcs(g)
    before = g.module([F.alpha(), F.beta(), F.gamma()])
    after = g.module([F.alpha("accumulate"), F.beta(), F.gamma(alpha="accumulate")])
    stored = SourceFile(before, g.lang)  # where the notes were written, long ago
    anchors = [sym(stored, g, "load(a, 10)"), span(stored, g, "load(a, 10)"), span(stored, g, "b - a")]
    doc = LiveDocument(before, g.lang)
    for slot, a in enumerate(anchors):
        doc.track(slot, a.range)
    for rng, text in line_changes(before, after):
        doc.apply(rng, text)
    expected = [A.resolve(a, SourceFile(after, g.lang), SourceFile(before, g.lang)) for a in anchors]
    assert [key(r) for r in doc.resolve(anchors)] == [key(r) for r in expected]
    assert defs_summary(doc.base) == defs_summary(SourceFile(before, g.lang))
    assert stmts_summary(doc.base) == stmts_summary(SourceFile(before, g.lang))


@pytest.mark.parametrize("g", gen_params())
def test_live_base_statements_after_symbol_only_recording(g):
    """Symbols recorded on ``doc.base`` (its definitions computed), a span from a stored note
    resolved after the edits: the base's statements, first computed then, must be those of
    its own text (here the resolutions happen to come out right; the snapshot is wrong)."""
    F = Funcs(g)
    before = g.module([F.alpha(), F.beta(), F.gamma()])
    helper = g.fn("helper", [g.var("v", "a + b"), g.ret("v")])
    after = g.module([helper, F.alpha(), F.beta(body=F.beta_body('"beta", scale, a')), F.gamma()])
    doc = LiveDocument(before, g.lang)
    base_sym = sym(doc.base, g, "b - a")
    stored_span = span(SourceFile(before, g.lang), g, '"beta", scale')
    anchors = [base_sym, stored_span]
    for slot, a in enumerate(anchors):
        doc.track(slot, a.range)
    for rng, text in line_changes(before, after):
        doc.apply(rng, text)
    res = doc.resolve(anchors)
    assert res[0].state == A.CHANGED and res[0].name == g.qual("beta")
    assert res[1].state == A.CHANGED and res[1].range == span_range(after, g.call("emit", '"beta", scale, a'))
    assert stmts_summary(doc.base) == stmts_summary(SourceFile(before, g.lang))
