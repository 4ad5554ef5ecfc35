"""What the code at a line calls, resolved to definitions elsewhere in the workspace, and
the notes on those definitions: the callee tier of context.

A call is resolved only when the code says where it goes; a note on the wrong function is
worse than none. In order:

- ``self.m()`` / ``cls.m()`` / ``this.m()``: the method ``m`` of the enclosing class or, in
  order, of its bases (found through imports, the file, or a unique class name); else a
  unique ``m`` defined in a class derived from it; never a same-named method elsewhere;
- a name bound by an import of a workspace module (aliases, ``mod.f()``, re-exports);
  a name or module object imported from outside the workspace resolves to nothing;
- a bare name: the one top-level definition of that name in the file, else the one
  definition of that name in the workspace; parameters and locals shadow it;
- ``x.m()`` otherwise: the one method of that name in the workspace, if there is one.

The symbol table (what every source file defines, imports and re-exports) is kept per file
in the store, keyed by the file's stamp, so a new process re-parses only changed files.
Per process it is re-checked against the files at most once a second; the touched file
itself is always read as it is now.
"""

from __future__ import annotations

import time
import weakref
from collections import namedtuple
from dataclasses import dataclass
from posixpath import dirname, join, normpath

import tree_sitter as ts

from ..core import anchors as A
from ..core.languages import family_of, for_path
from ..core.notes import Note
from ..core.syntax import Definition, SourceFile, imports_in, kept, parsed
from ..core.text import digest
from ..core.workspace import Workspace, WorkspaceError

_RECHECK_S = 1.0
PARSE_PER_CALL = 100  # source files a call parses for the table at most (~55 ms here; all 10,000 of a fresh clone: 5.5 s)
_SELF = {"self", "cls", "this"}
_ECMA_EXTS = (".ts", ".tsx", ".js", ".mjs", ".cjs", ".jsx", ".mts", ".cts", ".d.ts")
_MEMBER_FIELDS = (("object", "attribute"), ("object", "property"), ("operand", "field"), ("value", "field"),
                  ("path", "name"))


class Target(namedtuple("Target", "path qualname name kind parent method")):
    """A definition in the workspace: ``path``, ``qualname``, ``name`` (simple), ``kind``,
    ``parent`` (qualname of the enclosing definition, or None), ``method`` (reached as x.name:
    defined in a class, an object literal, or assigned to a member). A tuple, not a frozen
    dataclass: a process with no server makes one for every definition in the workspace when it
    loads the call graph, and a tuple is made in a third of the time."""

    __slots__ = ()


def callee_notes(ws: Workspace, rel: str, line: int, text: str | None = None) -> list[tuple[Note, str, str]]:
    """Notes anchored on what the definition at ``line`` (0-based) calls, each with why and,
    said short, what it calls (the note's tag under its heading)."""
    lang = for_path(rel)
    if lang is None:
        return []
    index = _index_of(ws)
    try:
        src, syms = index.touched(rel, text)
    except WorkspaceError:
        return []
    if src.tree is None or not 0 <= line < len(src.pos.byte_starts):
        return []
    touched = _innermost(src, _code_start(src, line))
    if touched is None:
        return []
    index.refresh()
    out: list[tuple[Note, str, str]] = []
    seen: set[str] = set()
    by_file: dict[str, list] = {}
    for target, spelled in Resolver(index, rel, src, syms).callees(touched):
        if target.path not in by_file:
            by_file[target.path] = ws.locate(target.path)
        for loc in by_file[target.path]:
            a = loc.anchor
            if a.type != A.SYMBOL or not loc.resolution.attached or loc.note.id in seen or loc.path != target.path:
                continue
            if (loc.resolution.name or a.name) == target.qualname:
                seen.add(loc.note.id)
                where = "" if target.path == rel else f" in {target.path}"
                via = f" as `{spelled}`" if spelled not in (target.qualname, target.name) else ""
                out.append((loc.note, f"on `{target.qualname}`{where}, called here{via}", f"`{target.qualname}`{where}"))
    return out


def declared_line(ws: Workspace, rel: str, line: int, text: str | None = None) -> int:
    """``line`` (0-based), or on a line of a Python ``@overload`` stub the first line of the
    implementation it declares: touching a signature is touching what it declares, as
    recording there anchors the implementation."""
    if for_path(rel) is None:
        return line
    try:
        src, _ = _index_of(ws).touched(rel, text)
    except WorkspaceError:
        return line
    if src.tree is None or not 0 <= line < len(src.pos.byte_starts):
        return line
    impl = src.implementation_of_stub(_code_start(src, line))
    return line if impl is None else src.def_range(impl).sl


def _code_start(src: SourceFile, line: int) -> int:
    """The byte where the code of ``line`` starts (after its indentation)."""
    row = src.pos.lines[line]
    return src.pos.byte_starts[line] + len(row[:len(row) - len(row.lstrip())].encode("utf-8", "surrogatepass"))


def _innermost(src: SourceFile, byte: int) -> Definition | None:
    """The innermost definition at ``byte`` from the full list (its node is needed)."""
    best = None
    for d in src.defs:
        if d.node.start_byte <= byte < d.node.end_byte and (best is None or d.node.start_byte >= best.node.start_byte):
            best = d
    return best


class Resolver:
    def __init__(self, index: SymbolIndex, rel: str, src: SourceFile, syms: FileSymbols):
        self.index, self.rel, self.src, self.syms = index, rel, src, syms
        self.lang = src.lang
        self.fam = src.lang.family

    def _syms(self, rel: str) -> FileSymbols:
        return self.syms if rel == self.rel else self.index.symbols(rel)

    def callees(self, d: Definition) -> list[tuple[Target, str]]:
        """Definitions ``d`` calls directly (not from definitions nested in it), in call order; not
        itself (a wrapper calling the same name in another module calls that one)."""
        nested = [(x.node.start_byte, x.node.end_byte) for x in self.src.defs
                  if x is not d and d.node.start_byte <= x.node.start_byte and x.node.end_byte <= d.node.end_byte]
        shadowed = self._locals(d)
        out, seen = [], set()
        cursor = ts.QueryCursor(self.lang.query("calls"))
        cursor.set_byte_range(d.node.start_byte, d.node.end_byte)
        for _, caps in cursor.matches(self.src.tree.root_node):
            fn = (caps.get("call.name") or caps.get("call.method") or [None])[0]
            if fn is None or any(a <= fn.start_byte < b for a, b in nested):
                continue
            name, recv = self._split(fn, caps)
            if not name or (name.startswith("__") and name.endswith("__")):
                continue
            if recv == "this" and self._this_rebound(fn, d):
                recv = None
            target = self.resolve(name, recv, d, shadowed)
            if target is not None and (target.path, target.qualname) != (self.rel, d.qualname) and target not in seen:
                seen.add(target)
                out.append((target, f"{recv}.{name}" if isinstance(recv, str) and recv not in _SELF else name))
        return out

    def _split(self, fn: ts.Node, caps: dict) -> tuple[str, str | None | bool]:
        """-> (called name, receiver): receiver True for a bare call, a name, or None
        when the receiver is an expression."""
        text = self.src.slice_node
        if "call.method" in caps:  # Java: object.method(...)
            obj = (caps.get("call.object") or [None])[0]
            return text(fn), True if obj is None else (text(obj) if obj.type in ("identifier", "this") else None)
        if fn.type in ("identifier", "type_identifier"):
            return text(fn), True
        for obj_f, prop_f in _MEMBER_FIELDS:
            obj, prop = fn.child_by_field_name(obj_f), fn.child_by_field_name(prop_f)
            if obj is not None and prop is not None:
                recv = text(obj) if obj.type in ("identifier", "this", "self") else None
                return text(prop), recv
        return "", None

    def _this_rebound(self, node: ts.Node, d: Definition) -> bool:
        """``this`` inside a plain function expression is not the class instance."""
        n = node.parent
        while n is not None and n.id != d.node.id:
            if n.type in ("function_expression", "function", "generator_function"):
                return True
            n = n.parent
        return False

    def _scope(self, d: Definition) -> tuple[list[Definition], list[tuple[int, int]]]:
        """``d`` and the functions around it (a class body's names are not visible in its
        methods), outermost last; and the byte ranges of the definitions nested in them, not on
        that chain (a name bound inside one of those is that one's)."""
        chain, x = [], d
        while x is not None and (x is d or x.kind not in ("class", "impl")):
            chain.append(x)
            x = self.src.defs[x.parent] if x.parent is not None else None
        top, ids = chain[-1], {x.index for x in chain}
        others = [(x.node.start_byte, x.node.end_byte) for x in self.src.defs if x.index not in ids
                  and top.node.start_byte <= x.node.start_byte and x.node.end_byte <= top.node.end_byte]
        return chain, others

    def _imported_in(self, d: Definition) -> dict[str, tuple]:
        """What the imports inside ``d`` and the functions around it bind (Python's import
        inside a function, to put off its cost)."""
        chain, others = self._scope(d)
        return imports_in(self.src, chain[-1].node.start_byte, chain[-1].node.end_byte, others).bindings

    def _locals(self, d: Definition) -> set[str]:
        """Names bound by ``d`` and the functions around it (not by ones nested in it; a
        class body's names are not visible in its methods)."""
        chain, others = self._scope(d)
        top, ids = chain[-1], {x.index for x in chain}
        own_names = {x.node.child_by_field_name("name").id for x in chain if x.node.child_by_field_name("name")}
        cursor = ts.QueryCursor(self.lang.query("locals"))
        cursor.set_byte_range(top.node.start_byte, top.node.end_byte)
        names = {x.name for x in self.src.defs if x.parent in ids and x.index not in ids}  # nested definitions
        for _, caps in cursor.matches(self.src.tree.root_node):
            for node in caps.get("local", ()):
                if node.id not in own_names and not any(a <= node.start_byte < b for a, b in others):
                    names.add(self.src.slice_node(node))
        return names

    # -- resolution ----------------------------------------------------------------------
    def resolve(self, name: str, recv, d: Definition, shadowed: set[str]) -> Target | None:
        ix, syms = self.index, self.syms
        if recv is True:
            if name in shadowed:  # a local: a function nested in the ones around the call, an import, a variable
                found = self._nested(name, d)
                bound = self._imported_in(d).get(name) if found is None else None
                return self._through(self.rel, bound) if bound is not None else found
            bound = syms.bindings.get(name)
            here = [t for t in syms.defs if t.parent is None and t.name == name]
            if bound is not None:
                return None if here else self._through(self.rel, bound)
            if len(here) == 1:
                return here[0]
            return self._unique(name, method=False)
        if recv in _SELF:
            cls = self._class_of(d)
            if cls is None:
                return None
            for k in self._mro(cls):
                found = [t for t in self._syms(k.path).defs if t.parent == k.qualname and t.name == name]
                if found:
                    return found[0] if len(found) == 1 else None
            t = self._unique(name, method=True)
            return t if t is not None and self._derives(t, cls) else None
        if recv is not None:
            bound = syms.bindings.get(recv)
            if bound is not None:
                target = ix.bound(self.rel, bound)
                if target is None or target[0] == "sym" and ix.module(self.rel, bound[1]) is None:
                    return None  # an object imported from outside the workspace
                if target[0] == "mod":
                    return self._top(target[1], name)
        return self._unique(name, method=True)

    def _nested(self, name: str, d: Definition) -> Target | None:
        """The function named ``name`` nested in ``d`` or the nearest function around it
        (JavaScript closures, Python inner functions), as scoping finds it."""
        x = d
        while x is not None and (x is d or x.kind not in ("class", "impl")):
            qual = f"{x.qualname}.{name}"
            for t in self.syms.defs:
                if t.qualname == qual and not t.method:
                    return t
            if name in self._bound_by(x):  # a variable of this function: not a function around it
                return None
            x = self.src.defs[x.parent] if x.parent is not None else None
        return None

    def _bound_by(self, x: Definition) -> set[str]:
        """Names bound in ``x``'s own body (not in definitions nested in it), its name aside."""
        inner = [(y.node.start_byte, y.node.end_byte) for y in self.src.defs if y is not x
                 and x.node.start_byte <= y.node.start_byte and y.node.end_byte <= x.node.end_byte]
        own = x.node.child_by_field_name("name")
        cursor = ts.QueryCursor(self.lang.query("locals"))
        cursor.set_byte_range(x.node.start_byte, x.node.end_byte)
        return {self.src.slice_node(n) for _, caps in cursor.matches(self.src.tree.root_node) for n in caps.get("local", ())
                if (own is None or n.id != own.id) and not any(a <= n.start_byte < b for a, b in inner)}

    def _unique(self, name: str, method: bool) -> Target | None:
        cands = self.index.named(name)
        if len(cands) != 1:
            return None
        t = cands[0]
        if t.method != method or family_of(t.path) != self.fam:
            return None
        return t

    def _through(self, rel: str, bound: tuple) -> Target | None:
        """A name bound by an import in ``rel`` -> the definition it names."""
        target = self.index.bound(rel, bound)
        return self._top(target[1], target[2]) if target is not None and target[0] == "sym" else None

    def _top(self, rel: str, name: str, seen: frozenset = frozenset()) -> Target | None:
        """The top-level definition ``name`` of module ``rel``, through re-exports and imports."""
        if (rel, name) in seen or len(seen) > 8:
            return None
        seen = seen | {(rel, name)}
        syms = self._syms(rel)
        here = [t for t in syms.defs if t.parent is None and (t.name == name or t.qualname in (
            f"exports.{name}", f"module.exports.{name}"))]
        if len(here) == 1:
            return here[0]
        if here:
            return None
        bound = syms.bindings.get(name)
        if bound is not None:  # imported into that module (a package's __init__ re-exporting)
            target = self.index.bound(rel, bound)
            return self._top(target[1], target[2], seen) if target is not None and target[0] == "sym" else None
        for ename, spec, orig in syms.exports:
            if ename == name or ename == "*":
                sub = self.index.module(rel, spec)
                t = self._top(sub, orig if ename == name else name, seen) if sub else None
                if t is not None:
                    return t
        return None

    def _class_of(self, d: Definition) -> Target | None:
        x = d
        while x is not None and x.kind != "class":
            x = self.src.defs[x.parent] if x.parent is not None else None
        if x is None:
            return None
        return next((t for t in self.syms.defs if t.qualname == x.qualname and t.kind == "class"), None)

    def _mro(self, cls: Target) -> list[Target]:
        out, todo = [], [cls]
        while todo and len(out) < 32:
            k = todo.pop(0)
            if k in out:
                continue
            out.append(k)
            todo += [b for b in (self._base(k, spelled) for spelled in self._syms(k.path).bases.get(k.qualname, ()))
                     if b is not None]
        return out

    def _base(self, k: Target, spelled: str) -> Target | None:
        syms = self._syms(k.path)
        if "." in spelled:
            mod, _, name = spelled.rpartition(".")
            bound = syms.bindings.get(mod)
            target = self.index.bound(k.path, bound) if bound is not None else None
            return self._top(target[1], name) if target is not None and target[0] == "mod" else None
        bound = syms.bindings.get(spelled)
        if bound is not None:
            return self._through(k.path, bound)
        here = [t for t in syms.defs if t.parent is None and t.name == spelled and t.kind == "class"]
        if len(here) == 1:
            return here[0]
        cands = [t for t in self.index.named(spelled) if t.kind == "class"]
        return cands[0] if len(cands) == 1 else None

    def _derives(self, t: Target, cls: Target) -> bool:
        """``t`` is a method of a class that derives from ``cls``."""
        owner = next((x for x in self._syms(t.path).defs if x.qualname == t.parent and x.kind == "class"), None)
        return owner is not None and owner != cls and cls in self._mro(owner)


# -- the symbol table ----------------------------------------------------------------------

@dataclass
class FileSymbols:
    defs: list[Target]
    bindings: dict[str, tuple]  # name -> ("mod", spec) | ("sym", spec, name)
    exports: list[tuple[str, str, str]]  # (name or "*", spec, name there)
    bases: dict[str, list[str]]  # class qualname -> bases as written

    def to_json(self) -> dict:
        return {"defs": [[t.qualname, t.name, t.kind, t.parent, t.method] for t in self.defs],
                "bindings": self.bindings, "exports": self.exports, "bases": self.bases}

    @classmethod
    def from_json(cls, rel: str, d: dict) -> FileSymbols:
        return cls([Target(rel, *t) for t in d["defs"]], {k: tuple(v) for k, v in d["bindings"].items()},
                   [tuple(e) for e in d["exports"]], d["bases"])


_SYMBOLS: weakref.WeakKeyDictionary[SourceFile, FileSymbols] = weakref.WeakKeyDictionary()


def symbols_of(rel: str, src: SourceFile) -> FileSymbols:
    """``file_symbols``, once a parse (a file just edited is read for the table and as the
    touched file: one parse, one reading)."""
    syms = _SYMBOLS.get(src)
    if syms is None:
        syms = _SYMBOLS[src] = file_symbols(rel, src)
    return syms


def file_symbols(rel: str, src: SourceFile) -> FileSymbols:
    if src.tree is None:
        return FileSymbols([], {}, [], {})
    defs = src.defs
    defs_out = []
    for d in defs:
        parent = defs[d.parent] if d.parent is not None else None
        name = d.name.rsplit(".", 1)[-1]
        method = d.kind == "method" or (parent is not None and parent.kind == "class") or "." in d.name \
            or (parent is None and d.qualname != d.name)
        defs_out.append(Target(rel, d.qualname, name, d.kind, parent.qualname if parent else None, method))
    text = src.slice_node
    bases: dict[str, list[str]] = {}
    cursor = ts.QueryCursor(src.lang.query("bases"))
    by_node = {d.node.id: d for d in defs}
    for _, caps in cursor.matches(src.tree.root_node):
        for node in caps.get("base", ()):
            n = node.parent
            while n is not None and n.id not in by_node:
                n = n.parent
            if n is not None:
                bases.setdefault(by_node[n.id].qualname, []).append(text(node))
    return FileSymbols(defs_out, src.imports.bindings, src.imports.exports, bases)


class SymbolIndex:
    """Every source file's symbols, and the workspace-wide name table built from them.

    A file's symbols come from the store while its stamp holds; files never parsed (a fresh
    clone) are parsed at most ``PARSE_PER_CALL`` a call (a file an import leads to, at once).
    The name table follows every file kept or dropped, but is read only once every file is
    known: before that, a call that only a unique name in the whole workspace would resolve
    resolves to nothing — late, never wrong."""

    def __init__(self, ws: Workspace):
        self.ws = ws
        self.stamps: dict[str, list] = {}  # every source file -> [mtime_ns, size]
        self.files: dict[str, tuple[list, FileSymbols]] = {}  # rel -> (stamp, symbols), known so far
        self._names: dict[str, list[Target]] = {}  # simple name -> the definitions in self.files
        self.py_modules: dict[str, str] = {}  # dotted name -> rel
        self._tails: dict[str, str | None] = {}  # a module named by the end of its dotted name (src/ layouts) -> rel
        self.checked = 0.0
        self.warming = False  # a long-lived process parses what is unknown between requests (warm())
        self._unknown: list[str] | None = None  # the files left to parse, last first (_parse_unknown)
        self._touched: dict[str, tuple[str, SourceFile, FileSymbols]] = {}  # the 32 files touched last

    @property
    def complete(self) -> bool:
        return len(self.files) == len(self.stamps)

    def named(self, name: str) -> list[Target]:
        """Every definition of ``name`` in the workspace; none until every file is known."""
        return self._names.get(name, []) if self.complete else []

    def touched(self, rel: str, text: str | None) -> tuple[SourceFile, FileSymbols]:
        """The touched file parsed as it is now (maybe unsaved), kept while its text is the same."""
        if text is None:
            text = self.ws.read_source(rel)
        h = digest(text)
        hit = self._touched.pop(rel, None)  # and put back last: the least recently touched goes first
        if hit is None or hit[0] != h:
            src = parsed(rel, text, for_path(rel))  # kept: an edit of it next is parsed from this one
            if len(self._touched) >= 32:
                self._touched.pop(next(iter(self._touched)))
            hit = (h, src, symbols_of(rel, src))
        self._touched[rel] = hit
        return hit[1], hit[2]

    def symbols(self, rel: str) -> FileSymbols:
        hit = self.files.get(rel)
        if hit is None and rel in self.stamps:  # not parsed yet: this one is needed now
            self._parse([rel])
            hit = self.files.get(rel)
        return hit[1] if hit is not None else FileSymbols([], {}, [], {})

    def refresh(self, budget: int | None = None) -> None:
        """Bring the table up to date with the source files, parsing at most ``budget``
        (``PARSE_PER_CALL``) of the files the store does not know. Under a watch of the tree
        only the files it saw change are looked at; else every file is."""
        budget = PARSE_PER_CALL if budget is None else budget
        tree = self.ws.tree
        if self.stamps and tree.unchanged_since(self.checked, _RECHECK_S):
            if not (self.complete or self.warming):  # nobody parses the rest between calls
                self._parse_unknown(budget)
            return
        changed = tree.changed_since(self.checked) if self.stamps else None
        self.checked = time.monotonic()
        if changed is None:
            stamps = {rel: [st.st_mtime_ns, st.st_size] for rel, st in self.ws.walk() if for_path(rel) is not None}
            looked = list(stamps) + [rel for rel in self.files if rel not in stamps]  # the walk's order, then the gone
        else:
            stamps, looked = dict(self.stamps), sorted(changed)
            for rel in changed:
                st = tree.stamp(rel) if for_path(rel) is not None else None
                if st is None:
                    stamps.pop(rel, None)
                else:
                    stamps[rel] = [st.st_mtime_ns, st.st_size]
        stale = [rel for rel in looked if rel in stamps and (rel not in self.files or self.files[rel][0] != stamps[rel])]
        gone = [rel for rel in looked if rel in self.files and rel not in stamps]
        if stamps.keys() != self.stamps.keys():
            self.py_modules, self._tails = {}, {}
            for rel in stamps:
                if rel.endswith(".py"):
                    mod = rel[:-3].replace("/", ".")
                    self.py_modules[mod[:-len(".__init__")] if mod.endswith(".__init__") else mod] = rel
        self.stamps, self._unknown = stamps, None
        for rel in gone + stale:
            self._drop(rel)
        if gone:
            self.ws.store.write(lambda txn: [self.ws.store.delete(txn, "symbols", rel) for rel in gone])
        if stale:
            with self.ws.store.read() as txn:
                cached = {rel: self.ws.store.get(txn, "symbols", rel) for rel in stale}
            unknown = []
            for rel in stale:
                rec = cached.get(rel)
                if rec is not None and rec.get("stamp") == stamps[rel]:
                    self._keep(rel, FileSymbols.from_json(rel, rec["symbols"]))
                else:
                    unknown.append(rel)
            self._parse(unknown[:budget])

    def _keep(self, rel: str, syms: FileSymbols) -> None:
        self._drop(rel)
        self.files[rel] = (self.stamps[rel], syms)
        for t in syms.defs:
            self._names.setdefault(t.name, []).append(t)

    def _drop(self, rel: str) -> None:
        hit = self.files.pop(rel, None)
        for t in hit[1].defs if hit is not None else ():  # (only a unique name counts: order within one does not)
            same = self._names[t.name]
            same.remove(t)
            if not same:
                del self._names[t.name]

    def _parse(self, rels: list[str]) -> None:
        """Parse ``rels`` and keep their symbols, here and in the store."""
        fresh = {}
        for rel in rels:
            try:
                text, lang = self.ws.read_source(rel), for_path(rel)  # a file being worked on: parsed from
                syms = symbols_of(rel, parsed(rel, text, lang) if kept(rel) else SourceFile(text, lang))  # its last parse
            except WorkspaceError:  # unreadable (binary, huge): defines nothing we can see
                syms = FileSymbols([], {}, [], {})
            self._keep(rel, syms)
            fresh[rel] = {"stamp": self.stamps[rel], "symbols": syms.to_json()}
        if fresh:
            store = self.ws.store
            store.write(lambda txn: [store.put(txn, "symbols", rel, rec) for rel, rec in fresh.items()])

    def warm(self, batch: int) -> bool:
        """Parse the next ``batch`` of files not known yet (a long-lived process, between
        requests, which then parse none); False once every file is known."""
        self.warming = True
        if not self.stamps:
            self.refresh(0)
        self._parse_unknown(batch)
        return not self.complete

    def _parse_unknown(self, batch: int) -> None:
        """The next ``batch`` of files not known yet, in the walk's order (the folders are
        not walked again; the files left are listed once a walk, not on every batch)."""
        if self._unknown is None:
            self._unknown = [rel for rel in reversed(self.stamps) if rel not in self.files]
        todo = []
        while self._unknown and len(todo) < batch:
            rel = self._unknown.pop()
            if rel in self.stamps and rel not in self.files:  # (not parsed meanwhile, nor gone)
                todo.append(rel)
        self._parse(todo)

    def bound(self, rel: str, binding: tuple) -> tuple | None:
        """What an import binding in ``rel`` names: ("mod", file), ("sym", file, name), or
        None when it comes from outside the workspace. ``from pkg import mod`` names a module."""
        target = self.module(rel, binding[1])
        if binding[0] == "sym" and rel.endswith((".py", ".pyi")):
            spec = binding[1] + ("" if binding[1].endswith(".") else ".") + binding[2]
            sub = self.module(rel, spec)
            if sub is not None:
                return ("mod", sub)
        if target is None:
            return None
        return ("mod", target) if binding[0] == "mod" else ("sym", target, binding[2])

    def module(self, rel: str, spec: str) -> str | None:
        """The workspace file an import in ``rel`` names, or None (outside the workspace)."""
        if rel.endswith((".py", ".pyi")):
            return self._py_module(rel, spec)
        if not spec.startswith("."):
            return None  # a package from node_modules
        base = normpath(join(dirname(rel), spec))
        for cand in [base] + [base + e for e in _ECMA_EXTS] + [f"{base}/index{e}" for e in _ECMA_EXTS]:
            if cand in self.stamps:
                return cand
        if base.endswith(".js"):  # TypeScript imports name the compiled file
            return self.module(rel, spec[:-3])
        return None

    def _py_module(self, rel: str, spec: str) -> str | None:
        if spec.startswith("."):
            dots = len(spec) - len(spec.lstrip("."))
            pkg = rel.rsplit("/", 1)[0].split("/") if "/" in rel else []
            pkg = pkg[:len(pkg) - (dots - 1)] if dots > 1 else pkg
            rest = spec[dots:]
            dotted = ".".join(pkg + ([rest] if rest else []))
            return self.py_modules.get(dotted)
        hit = self.py_modules.get(spec)
        if hit is not None:
            return hit
        if spec not in self._tails:  # (a look through every module, once a name: `import os` is none of them)
            tails = [m for m in self.py_modules if m.endswith("." + spec)]  # src/ layouts
            self._tails[spec] = self.py_modules[tails[0]] if len(tails) == 1 else None
        return self._tails[spec]


_INDEXES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def warm(ws: Workspace, batch: int = 25) -> bool:
    """Parse the next ``batch`` of the workspace's unknown source files into the symbol
    table (~15 ms: what a request arriving meanwhile waits for at most); False once every
    file is known."""
    return _index_of(ws).warm(batch)


def _index_of(ws: Workspace) -> SymbolIndex:
    index = _INDEXES.get(ws)
    if index is None:
        index = _INDEXES[ws] = SymbolIndex(ws)
    return index
