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
in the store, keyed by the file's stamp, with the names each file defines beside it. A
long-lived process holds the whole table (:class:`SymbolIndex`); a process with no server
reads only what one touch needs (:class:`StoredTable`): the answer is the same. Per process
the table is re-checked against the files at most once a second; the touched file itself is
always read as it is now.
"""

from __future__ import annotations

import contextlib
import os
import time
import weakref
from collections import namedtuple
from itertools import islice
from posixpath import dirname, join, normpath

from ..core import anchors as A
from ..core.languages import family_of, for_path, tree_sitter
from ..core.notes import Note
from ..core.records import dataclass, field
from ..core.syntax import Definition, SourceFile, imports_in, kept, parsed
from ..core.text import digest
from ..core.workspace import Workspace, WorkspaceError

TYPE_CHECKING = False  # (not typing's: see core.languages)
if TYPE_CHECKING:
    import tree_sitter as ts

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
        src, syms = index.touched(rel, text, line)
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
        src, _ = _index_of(ws).touched(rel, text, line)
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
    def __init__(self, index: _Table, rel: str, src: SourceFile, syms: FileSymbols):
        self.index, self.rel, self.src, self.syms = index, rel, src, syms
        self.lang = src.lang
        self.fam = src.lang.family
        self._shadowing: dict[int, set[str]] = {}  # definition index -> _locals(it), read when first needed

    def _syms(self, rel: str) -> FileSymbols:
        return self.syms if rel == self.rel else self.index.symbols(rel)

    def callees(self, d: Definition) -> list[tuple[Target, str]]:
        """Definitions ``d`` calls directly (not from definitions nested in it), in call order; not
        itself (a wrapper calling the same name in another module calls that one)."""
        nested = [(x.node.start_byte, x.node.end_byte) for x in self.src.defs
                  if x is not d and d.node.start_byte <= x.node.start_byte and x.node.end_byte <= d.node.end_byte]
        out, seen = [], set()
        cursor = tree_sitter().QueryCursor(self.lang.query("calls"))
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
            target = self.resolve(name, recv, d)
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
        """``this`` inside a plain function expression is not the class instance — unless
        that function is ``d``'s own, assigned to a member (``F.prototype.m = function``)."""
        n = node.parent
        while n is not None and n.id != d.node.id:
            if n.type in ("function_expression", "function", "generator_function") and not self._own_function(n, d):
                return True
            n = n.parent
        return False

    @staticmethod
    def _own_function(fn: ts.Node, d: Definition) -> bool:
        assign = fn.parent
        return (d.node.type == "expression_statement" and assign is not None and assign.type == "assignment_expression"
                and assign.parent is not None and assign.parent.id == d.node.id
                and (right := assign.child_by_field_name("right")) is not None and right.id == fn.id)

    def _on_prototype(self, name: str, d: Definition) -> Target | None:
        """``this.name()`` outside a class (JavaScript before classes): in a method assigned
        to ``F.prototype.m`` or ``obj.m``, the ``name`` assigned beside it in the file
        (``F.prototype.name``, ``obj.name``); in a constructor ``function F``,
        ``F.prototype.name``. Else, in such a method, the one method of that name in the
        workspace, as for a receiver tether cannot name."""
        if self.fam != "ecma" or d.parent is not None:
            return None
        if d.node.type == "function_declaration":
            qual = f"{d.qualname}.prototype.{name}"
        elif d.node.type == "expression_statement" and "." in d.qualname:
            qual = f"{d.qualname.rsplit('.', 1)[0]}.{name}"
        else:
            return None
        found = [t for t in self.syms.defs if t.qualname == qual]
        if len(found) == 1:
            return found[0]
        return None if found or d.node.type == "function_declaration" else self._unique(name, method=True)

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
        cursor = tree_sitter().QueryCursor(self.lang.query("locals"))
        cursor.set_byte_range(top.node.start_byte, top.node.end_byte)
        names = {x.name for x in self.src.defs if x.parent in ids and x.index not in ids}  # nested definitions
        for _, caps in cursor.matches(self.src.tree.root_node):
            for node in caps.get("local", ()):
                if node.id not in own_names and not any(a <= node.start_byte < b for a, b in others):
                    names.add(self.src.slice_node(node))
        return names

    # -- resolution ----------------------------------------------------------------------
    def resolve(self, name: str, recv, d: Definition) -> Target | None:
        ix, syms = self.index, self.syms
        if recv is True:
            bound = syms.bindings.get(name)
            local = bound is not None or self._nested_named(name, d)  # a local of that name may resolve to something
            if local and name in self._shadowed(d):  # a function nested in the ones around the call, an import
                found = self._nested(name, d)
                bound = self._imported_in(d).get(name) if found is None else None
                return self._through(self.rel, bound) if bound is not None else found
            here = [t for t in syms.defs if t.parent is None and t.name == name]
            if bound is not None:
                return None if here else self._through(self.rel, bound)
            found = here[0] if len(here) == 1 else self._unique(name, method=False)
            # else a local (a variable) resolves to nothing: the locals are read only when the name resolves
            # elsewhere (compiling the language's locals query is ~9 ms of a process with no server)
            return None if found is None or not local and name in self._shadowed(d) else found
        if recv in _SELF:
            cls = self._class_of(d)
            if cls is None:
                return self._on_prototype(name, d)
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

    def _shadowed(self, d: Definition) -> set[str]:
        if d.index not in self._shadowing:
            self._shadowing[d.index] = self._locals(d)
        return self._shadowing[d.index]

    def _nested_named(self, name: str, d: Definition) -> bool:
        """A function named ``name`` is nested in ``d`` or a function around it (what
        :meth:`_nested` may find)."""
        quals, x = set(), d
        while x is not None and (x is d or x.kind not in ("class", "impl")):
            quals.add(f"{x.qualname}.{name}")
            x = self.src.defs[x.parent] if x.parent is not None else None
        return any(t.qualname in quals and not t.method for t in self.syms.defs)

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
        cursor = tree_sitter().QueryCursor(self.lang.query("locals"))
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
        cands = self.index.named(spelled, "class")
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
    # where the definitions are, to parse one of them alone (StoredTable.touched): the byte
    # ranges of the top-level statements that hold one, parsed without error, and the text's digest
    spans: list[tuple[int, int]] = field(default_factory=list)
    digest: str = ""

    def to_json(self) -> dict:
        return {"defs": [[t.qualname, t.name, t.kind, t.parent, t.method] for t in self.defs],
                "bindings": self.bindings, "exports": self.exports, "bases": self.bases, "spans": self.spans,
                "digest": self.digest}

    @classmethod
    def from_json(cls, rel: str, d: dict) -> FileSymbols:
        return cls([Target(rel, *t) for t in d["defs"]], {k: tuple(v) for k, v in d["bindings"].items()},
                   [tuple(e) for e in d["exports"]], d["bases"], [tuple(s) for s in d["spans"]], d["digest"])


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
    cursor = tree_sitter().QueryCursor(src.lang.query("bases"))
    by_node = {d.node.id: d for d in defs}
    for _, caps in cursor.matches(src.tree.root_node):
        for node in caps.get("base", ()):
            n = node.parent
            while n is not None and n.id not in by_node:
                n = n.parent
            if n is not None:
                bases.setdefault(by_node[n.id].qualname, []).append(text(node))
    root, spans = src.tree.root_node, set()
    for d in defs:
        if d.parent is None:
            n = d.node
            while n.parent is not None and n.parent != root:
                n = n.parent
            if not n.has_error:  # (a statement with an error may parse differently alone)
                spans.add((n.start_byte, n.end_byte))
    return FileSymbols(defs_out, src.imports.bindings, src.imports.exports, bases, sorted(spans), src.text_digest)


class _Table:
    """What the resolver asks of a symbol table — the touched file, a file's symbols, the
    definitions of a name, the file an import names — and the import rules both tables share.
    :class:`SymbolIndex` holds the whole table (a long-lived process); :class:`StoredTable`
    reads from the store what one touch needs (a process with no server)."""

    def __init__(self, ws: Workspace):
        self.ws = ws
        self._touched: dict[str, tuple[str, SourceFile, FileSymbols]] = {}  # the 32 files touched last

    def touched(self, rel: str, text: str | None, line: int | None = None) -> tuple[SourceFile, FileSymbols]:
        """The touched file parsed as it is now (maybe unsaved), kept while its text is the
        same; and its symbols. (:class:`StoredTable` parses the definition at ``line`` only.)"""
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
            if self.exists(cand):
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
            return self.py_module(".".join(pkg + ([rest] if rest else [])))
        return self.py_module(spec) or self.py_tail(spec)

    # what each table answers its own way
    def exists(self, rel: str) -> bool:
        """``rel`` is one of the workspace's source files."""
        raise NotImplementedError

    def py_module(self, dotted: str) -> str | None:
        """The file of the Python module named ``dotted`` (the last in the walk's order of the
        files that name it: ``pkg/__init__.py`` before ``pkg.py``)."""
        raise NotImplementedError

    def py_tail(self, spec: str) -> str | None:
        """The one module whose dotted name ends with ``.spec`` (src/ layouts), or None."""
        raise NotImplementedError


def _parse_file(ws: Workspace, rel: str) -> FileSymbols:
    """``rel``'s symbols as its text is now (a file being worked on: from its last parse)."""
    try:
        text, lang = ws.read_source(rel), for_path(rel)
        return symbols_of(rel, parsed(rel, text, lang) if kept(rel) else SourceFile(text, lang))
    except WorkspaceError:  # unreadable (binary, huge): defines nothing we can see
        return FileSymbols([], {}, [], {})


class SymbolIndex(_Table):
    """Every source file's symbols, and the workspace-wide name table built from them, held
    by a long-lived process (one that warms it: :func:`warm`).

    A file's symbols come from the store while its stamp holds; files never parsed (a fresh
    clone) are parsed at most ``PARSE_PER_CALL`` a call (a file an import leads to, at once).
    The name table follows every file kept or dropped, but is read only once every file is
    known: before that, a call that only a unique name in the whole workspace would resolve
    resolves to nothing — late, never wrong. What it parses or sees gone it writes to the
    store (symbols and the names they define) for the processes that read it there."""

    def __init__(self, ws: Workspace):
        super().__init__(ws)
        self.stamps: dict[str, list] = {}  # every source file -> [mtime_ns, size]
        self.files: dict[str, tuple[list, FileSymbols]] = {}  # rel -> (stamp, symbols), known so far
        self._names: dict[str, list[Target]] = {}  # simple name -> the definitions in self.files
        self.py_modules: dict[str, str] = {}  # dotted name -> rel
        self._tails: dict[str, str | None] = {}  # a module named by the end of its dotted name (src/ layouts) -> rel
        self.checked = 0.0
        self.warming = False  # a long-lived process parses what is unknown between requests (warm())
        self._unknown: list[str] | None = None  # the files left to parse, last first (_parse_unknown)

    @property
    def complete(self) -> bool:
        return len(self.files) == len(self.stamps)

    def named(self, name: str, kind: str | None = None) -> list[Target]:
        """Definitions of ``name`` (of that ``kind``) in the workspace, two at most (enough to
        tell one from many); none until every file is known."""
        if not self.complete:
            return []
        return [t for t in self._names.get(name, ()) if kind is None or t.kind == kind][:2]

    def symbols(self, rel: str) -> FileSymbols:
        hit = self.files.get(rel)
        if hit is None and rel in self.stamps:  # not parsed yet: this one is needed now
            self._parse([rel])
            hit = self.files.get(rel)
        return hit[1] if hit is not None else FileSymbols([], {}, [], {})

    def exists(self, rel: str) -> bool:
        return rel in self.stamps

    def py_module(self, dotted: str) -> str | None:
        return self.py_modules.get(dotted)

    def py_tail(self, spec: str) -> str | None:
        if spec not in self._tails:  # (a look through every module, once a name: `import os` is none of them)
            tails = [m for m in self.py_modules if m.endswith("." + spec)]
            self._tails[spec] = self.py_modules[tails[0]] if len(tails) == 1 else None
        return self._tails[spec]

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
                    self.py_modules[_dotted(rel)] = rel
        self.stamps, self._unknown = stamps, None
        for rel in gone + stale:
            self._drop(rel)
        if gone:
            store = self.ws.store
            store.write(lambda txn: [_forget(store, txn, rel) for rel in gone])
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
            syms = _parse_file(self.ws, rel)
            self._keep(rel, syms)
            fresh[rel] = (self.stamps[rel], syms)
        if fresh:
            store = self.ws.store
            store.write(lambda txn: [_put(store, txn, rel, stamp, syms) for rel, (stamp, syms) in fresh.items()])

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


class StoredTable(_Table):
    """The symbol table as a process with no server reads it: from the store, only what one
    touch needs — the files that define the names the touched code calls, the modules its
    imports name, the touched definition — each checked against its file's stamp as it is read.

    Beside each file's symbols the store keeps the names it defines (``defined``: "name\\0file"
    -> its definitions of that name) and the source tree as last listed: each folder's source
    files with their stamps and its sub-folders (``folders``, by "/" + folder), each folder's
    mtime (meta ``source_tree``), the files listed but not parsed yet (``unparsed``) and the
    Python modules by the last part of their name (``modules``). A call stats every listed
    folder — a file added, removed or renamed changes its folder's mtime — and lists again
    only the folders that changed (a walk of every file: ~50 ms at 10,000 files, the most of
    what this saves). A name is unique only when no listed file is left unparsed — late,
    never wrong — and its defining files are read as they are now (one that changed is parsed
    again). What no folder shows is a file edited in place that no tether process has read
    since: until it is read (touched, or named by an answer), its folder changes or the next
    turn of the agent begins (:func:`recheck`), a name it newly defines is not seen — the one
    way this table can answer otherwise than the whole one, which looks at every file's stamp
    once a second."""

    def __init__(self, ws: Workspace):
        super().__init__(ws)
        self.checked = 0.0
        self.complete = False
        self._budget = 0  # files this call may still parse to answer
        self._syms: dict[str, FileSymbols] = {}  # read (and checked) since the last listing
        self._folders: dict[str, dict | None] = {}  # folder -> its stored listing, read since then
        self._defined: dict[tuple[str, str | None], list[Target]] = {}  # (name, kind) -> named()
        # the 32 files touched last -> (their text's digest, its lines, its stored symbols if of this text,
        # span -> the definitions there parsed alone)
        self._texts: dict[str, tuple[str, SourceFile, FileSymbols | None, dict]] = {}

    def refresh(self, budget: int | None = None) -> None:
        """Look for folders that changed (at most once a second, as :class:`SymbolIndex`
        does) and list them again, then parse at most ``budget`` (``PARSE_PER_CALL``) of the
        files the store does not know; what is left of the budget goes to parsing again the
        defining files that changed (:meth:`named`)."""
        self._budget = PARSE_PER_CALL if budget is None else budget
        if not (self.checked and self.ws.tree.unchanged_since(self.checked, _RECHECK_S)):
            self.checked = time.monotonic()
            self._syms, self._folders, self._defined = {}, {}, {}
            self._relist()
            self.complete = False
        if self.complete:
            return
        store = self.ws.store
        with store.read() as txn:
            todo = list(islice(store.items(txn, "unparsed"), self._budget))
            left = store.count(txn, "unparsed") - len(todo)
        self._budget -= len(todo)
        self._parse(todo)
        self.complete = left == 0

    def _relist(self, every: bool = False) -> None:
        """List again the folders whose mtime changed (every folder, the first time, or when
        ``every``: each listed file's stamp looked at, a file edited in place included), and the
        folders new under them; write what changed: the files gone forgotten, the files new or
        changed left to parse."""
        store, tree = self.ws.store, self.ws.tree
        with store.read() as txn:
            marks = store.get(txn, "meta", "source_tree") or {}
        if every and not marks:
            return  # nothing listed yet: the first call lists every folder anyway
        todo = (list(marks) if every else [folder for folder, mtime in marks.items() if _mtime(tree, folder) != mtime]
                ) if marks else [""]
        if not todo:
            return
        with store.read() as txn:
            before = {folder: store.get(txn, "folders", "/" + folder) for folder in todo}
        listed: dict[str, tuple[int, dict, list[str]]] = {}
        gone: list[str] = []
        while todo:
            folder = todo.pop()
            mtime = _mtime(tree, folder)  # before the listing: a change during it is seen next time
            if mtime is None:
                gone.append(folder)
                continue
            files, folders = tree.listing(folder)
            at = folder + "/" if folder else ""
            source = {name: [st.st_mtime_ns, st.st_size] for name, st in files if for_path(name) is not None}
            listed[folder] = (mtime, source, folders)
            was = before.get(folder)
            known = set(was["dirs"]) if was else set()
            gone += [at + name for name in known - set(folders)]
            todo += [at + name for name in folders if name not in known and at + name not in marks]

        def write(txn) -> None:
            marks = store.get(txn, "meta", "source_tree") or {}  # as it is now: another process may have listed
            for top in gone:
                for folder in [f for f in marks if f == top or f.startswith(top + "/")]:
                    rec = store.get(txn, "folders", "/" + folder) or {"files": {}}
                    for name in rec["files"]:
                        _forget(store, txn, f"{folder}/{name}")
                    store.delete(txn, "folders", "/" + folder)
                    del marks[folder]
            for folder, (mtime, source, folders) in listed.items():
                at = folder + "/" if folder else ""
                was = (store.get(txn, "folders", "/" + folder) or {"files": {}})["files"]
                for name in was.keys() - source.keys():
                    _forget(store, txn, at + name)
                for name, stamp in source.items():
                    if was.get(name) == stamp:
                        continue  # as it was listed: its symbols (or its place in the queue) hold
                    rel = at + name
                    rec = store.get(txn, "symbols", rel)
                    if rec is None or rec["stamp"] != stamp:
                        _forget(store, txn, rel)
                        store.put(txn, "unparsed", rel, stamp)
                    if rel.endswith(".py"):
                        store.put(txn, "modules", _module_key(rel), _dotted(rel))
                store.put(txn, "folders", "/" + folder, {"files": source, "dirs": folders})
                marks[folder] = mtime
            store.put(txn, "meta", "source_tree", marks)
        store.write(write)

    def _parse(self, todo: list[tuple[str, list]]) -> dict[str, FileSymbols]:
        """Parse each (file, stamp) and keep its symbols in the store (the stamp taken before
        the file was read: an edit meanwhile is seen as a change next time)."""
        out = {rel: _parse_file(self.ws, rel) for rel, _ in todo}
        if out:
            stamps, store = dict(todo), self.ws.store
            store.write(lambda txn: [_put(store, txn, rel, stamps[rel], syms) for rel, syms in out.items()])
            self._syms.update(out)
            self._defined = {}  # the names they define, as they are now
        return out

    def _stamp(self, rel: str) -> list | None:
        st = self.ws.tree.stamp(rel)
        return None if st is None else [st.st_mtime_ns, st.st_size]

    def touched(self, rel: str, text: str | None, line: int | None = None) -> tuple[SourceFile, FileSymbols]:
        """As :meth:`_Table.touched`, but where the store has the symbols of this very text,
        only the top-level statement holding ``line`` is parsed (a 5,000-line file: ~40 ms of
        parsing and reading its symbols, not paid); else the whole file, and the store learns
        its symbols when the text is the file's on disk (an edit in place no folder shows)."""
        stamp = self._stamp(rel) if self.exists(rel) else None  # before the read: an edit meanwhile is seen next time
        on_disk = text is None
        if on_disk:
            text = self.ws.read_source(rel)
        h = digest(text)
        known = self._texts.get(rel)
        if known is None or known[0] != h:
            store = self.ws.store
            with store.read() as txn:
                rec = store.get(txn, "symbols", rel)
            syms = FileSymbols.from_json(rel, rec["symbols"]) if rec is not None else None
            if len(self._texts) >= 32:  # (the first read goes first)
                self._texts.pop(next(iter(self._texts)))
            known = self._texts[rel] = (h, SourceFile(text, None), syms if syms and syms.digest == h else None, {})
        _, bare, syms, parts = known  # the text's lines (not parsed); its stored symbols; definitions parsed alone
        if syms is not None and line is not None:
            byte = _code_start(bare, line) if 0 <= line < len(bare.pos.byte_starts) else -1
            span = next((sp for sp in syms.spans if sp[0] <= byte < sp[1]), None)
            if span is not None:
                if span not in parts:
                    parts[span] = SourceFile(text, for_path(rel), _parse_span(for_path(rel), bare, span), bare.pos)
                return parts[span], syms
        src, syms = super().touched(rel, text)
        if stamp is not None and (on_disk or self.ws.read_source(rel) == text):  # the file as it is on disk
            store = self.ws.store
            with store.read() as txn:
                rec = store.get(txn, "symbols", rel)
            if rec is None or rec["stamp"] != stamp or rec["symbols"]["digest"] != h:
                store.write(lambda txn: _put(store, txn, rel, stamp, syms))
            self._syms[rel], self._defined = syms, {}
        return src, syms

    def symbols(self, rel: str) -> FileSymbols:
        hit = self._syms.get(rel)
        if hit is None:
            stamp = self._stamp(rel) if self.exists(rel) else None
            if stamp is None:
                return FileSymbols([], {}, [], {})
            store = self.ws.store
            with store.read() as txn:
                rec = store.get(txn, "symbols", rel)
            if rec is not None and rec["stamp"] == stamp:
                hit = self._syms[rel] = FileSymbols.from_json(rel, rec["symbols"])
            else:  # not parsed yet, or changed since: this one is needed now
                hit = self._parse([(rel, stamp)])[rel]
        return hit

    def named(self, name: str, kind: str | None = None) -> list[Target]:
        """Definitions of ``name`` (of that ``kind``), two at most; none while a listed file
        is not parsed yet, or when more of the defining files changed than this call may
        parse (then it is not known)."""
        if not self.complete:
            return []
        if (name, kind) not in self._defined:
            self._defined[name, kind] = self._read_defined(name, kind)
        return self._defined[name, kind]

    def _read_defined(self, name: str, kind: str | None) -> list[Target]:
        """The first two definitions the store names, each file's as it is now: a file that
        changed since it was parsed is parsed again, and the store read once more."""
        store, at = self.ws.store, len(name) + 1
        for _ in range(2):
            out, stale = [], []
            with store.read() as txn:
                for key, (stamp, defs) in store.items(txn, "defined", name + "\0"):
                    rel = key[at:]
                    if rel in self._syms:  # read this call: as it is now
                        found = [t for t in self._syms[rel].defs if t.name == name]
                    elif self._stamp(rel) == stamp:
                        found = [Target(rel, q, name, k, parent, method) for q, k, parent, method in defs]
                    else:
                        stale.append(rel)
                        continue
                    out += [t for t in found if kind is None or t.kind == kind]
                    if len(out) >= 2:
                        return out[:2]  # many, whatever the changed files define now
            if not stale:
                break
            if len(stale) > self._budget:
                return []  # not known
            self._budget -= len(stale)
            for rel in stale:
                stamp = self._stamp(rel) if self.exists(rel) else None
                if stamp is None:  # gone: defines nothing
                    self._syms[rel] = FileSymbols([], {}, [], {})
                else:
                    self._parse([(rel, stamp)])
        return out

    def _listing(self, folder: str) -> dict | None:
        if folder not in self._folders:
            store = self.ws.store
            with store.read() as txn:
                self._folders[folder] = store.get(txn, "folders", "/" + folder)
        return self._folders[folder]

    def exists(self, rel: str) -> bool:
        folder, _, name = rel.rpartition("/")
        listing = self._listing(folder)
        return listing is not None and name in listing["files"]

    def _modules(self, last: str) -> list[tuple[str, str]]:
        """(dotted name, file) of the Python modules whose name ends with ``last``, in the
        walk's order."""
        store = self.ws.store
        with store.read() as txn:
            found = [(dotted, key.split("\0", 1)[1]) for key, dotted in store.items(txn, "modules", last + "\0")]
        return sorted(found, key=lambda m: _walk_order(m[1]))

    def py_module(self, dotted: str) -> str | None:
        found = [rel for d, rel in self._modules(dotted.rpartition(".")[2]) if d == dotted]
        return found[-1] if found else None

    def py_tail(self, spec: str) -> str | None:
        tails = {d for d, _ in self._modules(spec.rpartition(".")[2]) if d.endswith("." + spec)}
        return self.py_module(tails.pop()) if len(tails) == 1 else None


# -- the table in the store: written by both tables, read by StoredTable ---------------------

def _put(store, txn, rel: str, stamp: list, syms: FileSymbols) -> None:
    """Keep ``rel``'s symbols at ``stamp`` and the names it defines, in place of what was kept."""
    _unkeep(store, txn, rel)
    store.put(txn, "symbols", rel, {"stamp": stamp, "symbols": syms.to_json()})
    by_name: dict[str, list] = {}
    for t in syms.defs:
        by_name.setdefault(t.name, []).append([t.qualname, t.kind, t.parent, t.method])
    for name, defs in by_name.items():
        store.put(txn, "defined", f"{name}\0{rel}", [stamp, defs])
    store.delete(txn, "unparsed", rel)


def _unkeep(store, txn, rel: str) -> None:
    """Drop ``rel``'s symbols and the names it defines."""
    rec = store.get(txn, "symbols", rel)
    if rec is not None:
        for name in {d[1] for d in rec["symbols"]["defs"]}:
            store.delete(txn, "defined", f"{name}\0{rel}")
        store.delete(txn, "symbols", rel)


def _forget(store, txn, rel: str) -> None:
    """``rel`` is no source file any more (gone), or is to be parsed again."""
    _unkeep(store, txn, rel)
    store.delete(txn, "unparsed", rel)
    if rel.endswith(".py"):
        store.delete(txn, "modules", _module_key(rel))


def _parse_span(lang, bare: SourceFile, span: tuple[int, int]) -> ts.Tree:
    """The tree of ``bare``'s text with only the bytes of ``span`` parsed (offsets as in the file)."""
    def point(byte: int) -> ts.Point:
        row = bare.pos.line_of_byte(byte)
        return tree_sitter().Point(row, byte - bare.pos.byte_starts[row])
    parser = lang.parser()
    parser.included_ranges = [tree_sitter().Range(point(span[0]), point(span[1]), *span)]
    return parser.parse(bare.data)


def _dotted(rel: str) -> str:
    """The Python module a ``.py`` file is, by its path."""
    mod = rel[:-3].replace("/", ".")
    return mod[:-len(".__init__")] if mod.endswith(".__init__") else mod


def _module_key(rel: str) -> str:
    return f"{_dotted(rel).rpartition('.')[2]}\0{rel}"


def _walk_order(rel: str) -> list[tuple[int, str]]:
    """A sort key that puts files in the walk's order: a folder's files, then its sub-folders."""
    parts = rel.split("/")
    return [(1, p) for p in parts[:-1]] + [(0, parts[-1])]


def _mtime(tree, folder: str) -> int | None:
    try:
        return os.stat(os.path.join(tree.root_str, folder) if folder else tree.root_str).st_mtime_ns
    except OSError:
        return None


_INDEXES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def edited(ws: Workspace, rels: list[str]) -> None:
    """Files an agent just edited (in place: no folder shows it). One a process alone parsed as it
    is now (the check after the edit did) is kept in the store with its symbols, and the names
    it defines as seen there (:meth:`Resolutions.see`): the next hook at a line of it, alone,
    parses only the definition it touches. Any other is left to the next process that reads the
    table from the store, which parses it before it calls a name unique. One write."""
    store, listed = ws.store, {}
    with store.read() as txn:
        for rel in rels:
            folder, _, name = rel.rpartition("/")
            st = ws.tree.stamp(rel) if for_path(rel) is not None else None  # (before the file is read)
            if st is not None and name in (store.get(txn, "folders", "/" + folder) or {"files": {}})["files"]:
                listed[rel] = [st.st_mtime_ns, st.st_size]
    if not listed:
        return
    if ws.deferred is not None:  # a server: their symbols read once its answer is out, not by the next hook at a line
        ws.later(_symbols_ahead, ws, list(listed))  # of them (an agent edits a file again and again): ~40 ms at 5,000 lines
    known = {}
    for rel in listed if ws.deferred is None else ():  # (a server answering first parses them for its own table)
        if kept(rel):
            try:
                src = parsed(rel, ws.read_source(rel), for_path(rel))  # (the check's parse of this very text)
            except WorkspaceError:
                continue
            known[rel] = symbols_of(rel, src)
            ws.resolutions.see((rel, src), write=False)
    seen = ws.resolutions.sightings()

    def write(txn) -> None:
        for rel, stamp in listed.items():
            if rel in known:
                _put(store, txn, rel, stamp, known[rel])
            else:
                store.put(txn, "unparsed", rel, stamp)
        for rel, rec in seen:
            store.put(txn, "seen", rel, rec)
    store.write(write)


def _symbols_ahead(ws: Workspace, rels: list[str]) -> None:
    """The symbols of ``rels`` as they are now, from the parse the check made: in the table
    (and the store) when the process holds the whole table, else kept with the parse."""
    index = _INDEXES.get(ws)
    if isinstance(index, SymbolIndex):
        index.refresh()
    for rel in rels:
        if kept(rel):
            with contextlib.suppress(WorkspaceError):
                symbols_of(rel, parsed(rel, ws.read_source(rel), for_path(rel)))


def recheck(ws: Workspace) -> None:
    """Every listed source file's stamp looked at again (a walk: ~50–100 ms at 20,000 files),
    for a process with no server where a turn of the agent begins: a file edited in place by
    another program (a person's editor, a formatter) since is parsed before a name is called
    unique, so what it newly defines is seen from this turn on."""
    if not isinstance(_INDEXES.get(ws), SymbolIndex):
        StoredTable(ws)._relist(every=True)


def warm(ws: Workspace, batch: int = 25) -> bool:
    """Parse the next ``batch`` of the workspace's unknown source files into the symbol
    table (~15 ms: what a request arriving meanwhile waits for at most); False once every
    file is known. A process that warms holds the whole table from then on."""
    index = _INDEXES.get(ws)
    if not isinstance(index, SymbolIndex):
        index = _INDEXES[ws] = SymbolIndex(ws)
    return index.warm(batch)


def _index_of(ws: Workspace) -> _Table:
    """The process's table: the whole one once it warms (:func:`warm`), else the store's."""
    index = _INDEXES.get(ws)
    if index is None:
        index = _INDEXES[ws] = StoredTable(ws)
    return index
