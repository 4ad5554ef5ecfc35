"""A parsed source file: its definitions (symbols) and the statements of their bodies,
found with the language's queries. Generic over languages: all knowledge is in
``grammars/``."""

from __future__ import annotations

import bisect
import re
from collections import Counter, OrderedDict

from .languages import Language, tree_sitter
from .records import dataclass
from .text import Positions, Range, digest, normalize, tokens

TYPE_CHECKING = False  # (not typing's: importing it costs every hook call ~3 ms)
if TYPE_CHECKING:
    import tree_sitter as ts

MAX_PARSE_BYTES = 8 * 1024 * 1024  # larger files get file anchors only (and no parse)

_GENERICS = re.compile(r"<[^<>]*>")
_SPACE = re.compile(r"\s+")
_STRINGS = ("string", "template_string", "string_literal", "interpreted_string_literal", "raw_string_literal")


@dataclass(slots=True, eq=False)
class Definition:
    """A definition in a parsed file: its kind, qualified name, node and range."""

    index: int
    kind: str  # function | method | class | impl
    name: str  # own name (Go: Recv.Name, Rust: "impl Tr for T")
    qualname: str
    child_scope: str  # how nested definitions are named under this one
    node_type: str
    start: int  # bytes, effective range (no decorators / leading comments / trailing comments)
    end: int
    parent: int | None
    params: str
    key: str = ""  # qualname, plus the parameter list where the qualname repeats
    node: ts.Node | None = None
    outer: int = 0  # start byte of what wraps it (export, decorators): a position there means it
    _toks: list | None = None
    _range: Range | None = None
    _hash: str | None = None


@dataclass(slots=True)
class Imports:
    """What a file imports, by the names it binds."""

    bindings: dict[str, tuple]  # local name -> ("mod", spec) | ("sym", spec, name there)
    exports: list[tuple[str, str, str]]  # re-exports: (name or "*", spec, name there)

    def qualify(self, name: str) -> str | None:
        """The dotted name a name as written (``t.sleep``, ``sleep``, ``thread::sleep``) goes
        by through these imports (``time.sleep``), or None when its head is not imported."""
        head, _, rest = name.replace("::", ".").partition(".")
        bound = self.bindings.get(head)
        if bound is None:
            return None
        spec = bound[1].removeprefix("node:")
        if bound[0] == "sym" and bound[2] != "default":  # a default export is the module object
            spec = f"{spec.rstrip('.')}.{bound[2]}"
        return (spec + (f".{rest}" if rest else "")).replace("::", ".").replace("/", ".")


@dataclass(slots=True, eq=False)
class Statement:
    """A statement in a parsed file (what a span anchor is on)."""

    index: int
    owner: int  # index of the innermost enclosing function/method
    node_type: str
    start: int
    end: int
    node: ts.Node | None = None
    _norm: str | None = None
    _toks: list | None = None


class SourceFile:
    """One version of one file. ``lang`` None: a text file with no grammar."""

    def __init__(self, text: str, lang: Language | None, tree: ts.Tree | None = None, pos: Positions | None = None):
        self.text = text
        self.lang = lang
        self.pos = pos if pos is not None else Positions(text)
        self.data = text.encode("utf-8", "surrogatepass")
        self.tree = None
        if lang is not None and len(self.data) <= MAX_PARSE_BYTES:
            self.tree = tree if tree is not None else lang.parser().parse(self.data)
        self._defs: list[Definition] | None = None
        self._stmts: list[Statement] | None = None
        self._by_owner: dict[int, list[Statement]] = {}
        self._wrapping: set[int] | None = None
        self._order: list[Definition] | None = None
        self._starts: list[int] = []
        self._stubs: list[ts.Node] | None = []  # what the query marks @ignore (a Python @overload stub; None: not read)
        self._counters: dict[int, Counter] = {}
        self._imports: Imports | None = None
        self._names: Counter | None = None
        self.change: Change | None = None  # how this text differs from the one parsed before it (``edited``)
        self._base_defs: list[Definition] | None = None  # the definitions of that text, when read (``_shifted``)
        self._digest: str | None = None

    # -- text ------------------------------------------------------------------------
    @property
    def text_digest(self) -> str:
        """``digest`` of the text (kept: the change to the file's next version names it)."""
        if self._digest is None:
            self._digest = digest(self.text)
        return self._digest

    def slice(self, start: int, end: int) -> str:
        return self.data[start:end].decode("utf-8", "replace")

    def range_of(self, start: int, end: int) -> Range:
        p = self.pos
        sl, el = p.line_of_byte(start), p.line_of_byte(end)
        return Range(sl, p.point_col(sl, start - p.byte_starts[sl]), el, p.point_col(el, end - p.byte_starts[el]))

    # -- imports ---------------------------------------------------------------------
    @property
    def imports(self) -> Imports:
        """What the file's imports bind (the language's ``bindings.scm``; none without one)."""
        if self._imports is None:
            self._imports = _imports(self) if self.tree is not None else Imports({}, [])
        return self._imports

    # -- definitions -----------------------------------------------------------------
    @property
    def defs(self) -> list[Definition]:
        if self._defs is None:
            shifted = self._shifted() if self._base_defs is not None else None
            self._defs = shifted if shifted is not None else self._find_defs() if self.tree is not None else []
            self._base_defs = None
        return self._defs

    def _shifted(self) -> list[Definition] | None:
        """The definitions, from those of the text this one was edited from (``change``): one
        the change does not reach is the same code, moved by what the change added or removed,
        and is found again in this tree where it should be; those it reaches were read anew
        (``change.new_defs``). A 5,000-line file's in ~1 ms, not the ~20 ms of the whole query.
        None when one is not where it should be: the whole file is read."""
        ch = self.change
        lo, old_hi, delta = ch.lo, ch.old_hi, ch.new_hi - ch.old_hi
        reached = {d.node.id for d in ch.old_defs}
        root = self.tree.root_node
        out = []
        for d in self._base_defs:
            if d.node.id in reached:
                continue
            a, b = min(d.outer, d.node.start_byte), d.node.end_byte
            if b < lo:
                shift = 0
            elif a >= old_hi:
                shift = delta
            else:  # (around the change: it would be one of those read anew)
                return None
            start, end = d.node.start_byte + shift, b + shift
            node = root.descendant_for_byte_range(start, end)
            while node is not None and (node.type != d.node_type or node.start_byte != start or node.end_byte != end):
                node = node.parent if node.start_byte >= start and node.end_byte <= end else None
            if node is None:
                return None
            out.append(Definition(0, d.kind, d.name, d.qualname, d.child_scope, d.node_type, d.start + shift,
                                  d.end + shift, None, d.params, node=node, outer=d.outer + shift))
        out += (Definition(0, d.kind, d.name, d.qualname, d.child_scope, d.node_type, d.start, d.end, None, d.params,
                           node=d.node, outer=d.outer) for d in ch.new_defs)
        out.sort(key=lambda d: (d.node.start_byte, -d.node.end_byte))
        stack: list[Definition] = []  # enclosing definitions, as _find_defs nests them
        for i, d in enumerate(out):
            while stack and stack[-1].node.end_byte <= d.node.start_byte:
                stack.pop()
            d.index, d.parent = i, stack[-1].index if stack else None
            stack.append(d)
        _keyed(out)
        self._stubs = None  # (read with the whole query, if asked for)
        return out

    @property
    def names(self) -> Counter:
        """How many definitions go by each qualified name. Kept through an incremental parse
        (``edited``): the names around the edit are read again, not the whole file's."""
        if self._names is None:
            self._names = Counter(d.qualname for d in self.defs)
        return self._names

    def defs_around(self, byte: int) -> list[Definition]:
        """The definitions enclosing ``byte``, outermost first, found by a query over that
        point only (cheap in a big file; qualified names exact, keys without parameters)."""
        return self._find_defs((byte, byte + 1))

    def defs_in(self, start: int, end: int) -> list[Definition]:
        """The definitions overlapping bytes [start, end), those enclosing them included (a
        query over that range only; qualified names exact, keys without parameters)."""
        return self._find_defs((start, end))

    def _find_defs(self, byte_range: tuple[int, int] | None = None, scoped: list | None = None,
                   stubs: list | None = None) -> list[Definition]:
        """The definitions (over ``byte_range`` only, when given); ``scoped`` is given the
        (start, end, name) of each object literal that names what it holds (JavaScript's),
        ``stubs`` the nodes the query marks ``@ignore``."""
        lang = self.lang
        q = lang.query("definitions")
        found: dict[int, tuple[int, str, dict]] = {}  # node id -> (pattern, capture, captures)
        ignored: set[int] = set()
        scopes: dict[int, tuple[ts.Node, str]] = {}
        cursor = tree_sitter().QueryCursor(q)
        if byte_range is not None:
            cursor.set_byte_range(*byte_range)
        for pattern, caps in cursor.matches(self.tree.root_node):
            if "ignore" in caps:
                ignored.update(n.id for n in caps["ignore"])
                if stubs is not None:
                    stubs += caps["ignore"]
                elif byte_range is None and self._stubs is not None:
                    self._stubs += caps["ignore"]
                continue
            if "scope" in caps:
                node = caps["scope"][0]
                if node.id not in scopes and "name" in caps:
                    scopes[node.id] = (node, self._name_text(caps["name"][0]))
                continue
            for cap, nodes in caps.items():
                if cap.startswith("definition."):
                    node = nodes[0]
                    prev = found.get(node.id)
                    if prev is None or pattern < prev[0]:
                        found[node.id] = (pattern, cap[len("definition."):], caps)
        raw = []
        for nid, (_, kind, caps) in found.items():
            if nid in ignored:
                continue
            node = caps[f"definition.{kind}"][0]
            if kind == "impl":
                ty = _type_name(self.slice_node(caps["impl.type"][0]))
                if "impl.trait" in caps:
                    tr = _type_name(self.slice_node(caps["impl.trait"][0]))
                    name, child = f"impl {tr} for {ty}", f"<{ty} as {tr}>"
                else:
                    name, child = f"impl {ty}", ty
            else:
                if "name" not in caps:
                    continue
                name = self._name_text(caps["name"][0])
                if "receiver" in caps:
                    name = self.slice_node(caps["receiver"][0]) + "." + name
                child = name
            params = _SPACE.sub("", self.slice_node(caps["params"][0])) if "params" in caps else ""
            start = self._eff_start(node).start_byte
            end = self._eff_end(node).end_byte
            raw.append((node.start_byte, -node.end_byte, kind, name, child, node, start, end, params))
        # scopes (object literals) contribute names but are not definitions
        scope_list = sorted(((n.start_byte, n.end_byte, nm) for n, nm in scopes.values()))
        if scoped is not None:
            scoped += scope_list
        raw.sort(key=lambda r: (r[0], r[1]))
        defs: list[Definition] = []
        stack: list[Definition] = []  # enclosing definitions
        for s_start, neg_end, kind, name, child, node, start, end, params in raw:
            while stack and stack[-1].node.end_byte <= s_start:
                stack.pop()
            parent = stack[-1] if stack else None
            prefix = [d.child_scope for d in stack]
            # object-literal scopes between the parent and this definition
            lo = parent.node.start_byte if parent else -1
            extra = [nm for (a, b, nm) in scope_list if lo <= a <= s_start and -neg_end <= b
                     and not (a == s_start and b == -neg_end)]
            if kind == "function" and parent is not None and parent.kind in ("class", "impl"):
                kind = "method"
            qual = ".".join(prefix + extra + [name])
            outer = node
            while outer.parent is not None and outer.parent.type in lang.wrappers and \
                    sum(c.type == outer.type for c in outer.parent.named_children) == 1:  # not Go's `type ( A …; B … )`
                outer = outer.parent
            d = Definition(len(defs), kind, name, qual, child, node.type, start, end,
                           parent.index if parent else None, params, node=node, outer=outer.start_byte)
            d.child_scope = child if not extra else ".".join(extra + [child])
            defs.append(d)
            stack.append(d)
        _keyed(defs)
        return defs

    def slice_node(self, node: ts.Node) -> str:
        return self.slice(node.start_byte, node.end_byte)

    def _name_text(self, node: ts.Node) -> str:
        if node.type in _STRINGS:  # a name given as a string (test("parses dates", …)): its words
            return " ".join(self.slice_node(node).strip("'\"`").split())
        return _SPACE.sub("", self.slice_node(node)).strip("'\"`")

    def _eff_start(self, node: ts.Node) -> ts.Node:
        """The first token after decorators, annotations and leading comments (also inside a
        modifiers list: ``@Override public void m()`` starts at ``public``)."""
        return self._first_token(node) or node

    def _first_token(self, node: ts.Node) -> ts.Node | None:
        leading = self.lang.leading
        for c in node.children:
            if c.type in leading:
                continue
            if c.child_count and c.children[0].type in leading:
                inner = self._first_token(c)
                if inner is None:
                    continue
                return inner
            return c
        return None

    def _eff_end(self, node: ts.Node) -> ts.Node:
        comments = self.lang.comments
        while True:
            nxt = None
            for c in reversed(node.children):
                if c.type not in comments:
                    nxt = c
                    break
            if nxt is None:
                return node
            node = nxt

    def def_at(self, byte: int) -> Definition | None:
        """The innermost definition whose node contains ``byte``."""
        best = None
        for d in self.defs:
            if d.outer <= byte < d.node.end_byte or d.start <= byte < d.end:
                if best is None or d.end - d.start <= best.end - best.start:
                    best = d
        return best

    def implementation_of_stub(self, byte: int) -> Definition | None:
        """At ``byte`` inside a stub (a Python ``@overload`` signature, no definition of its
        own), the one definition of that name in the same scope: what the stub declares."""
        self.defs  # noqa: B018 — finds the stubs too
        stubs = self._stubs
        if stubs is None:  # (definitions found from another text's: the stubs at ``byte``, by the query over it
            stubs = []  # alone — over the whole file it is ~25 ms of a 5,000-line file's every served Edit)
            self._find_defs((byte, byte + 1), stubs=stubs)
        for node in stubs:
            if node.start_byte <= byte < node.end_byte and node.child_by_field_name("name") is not None:
                scope = self.def_at(node.start_byte)
                name = self.slice_node(node.child_by_field_name("name"))
                qual = f"{scope.child_scope}.{name}" if scope is not None else name
                found = [d for d in self.defs if d.qualname == qual and d.parent == (scope.index if scope else None)]
                return found[0] if len(found) == 1 else None
        return None

    # -- statements ------------------------------------------------------------------
    @property
    def stmts(self) -> list[Statement]:
        """Every statement of every function (one query over the whole tree; functions
        already read keep their Statement objects, so identities stay stable)."""
        if self._stmts is None:
            if self.tree is None:
                self._stmts = []
                return self._stmts
            fresh: dict[int, list[Statement]] = {}
            for st in self._find_stmts(None):
                fresh.setdefault(st.owner, []).append(st)
            for owner, sts in fresh.items():
                self._by_owner.setdefault(owner, sts)
            self._stmts = sorted((st for sts in self._by_owner.values() for st in sts),
                                 key=lambda st: (st.start, -st.end))
        return self._stmts

    def stmts_of(self, owner: int) -> list[Statement]:
        """The statements of one function (a query over its range only: an edit in a big
        file re-reads the functions it needs, not all of them)."""
        got = self._by_owner.get(owner)
        if got is None:
            got = [] if self._stmts is not None or self.tree is None else self._find_stmts(self.defs[owner])
            self._by_owner[owner] = got
        return got

    def _def_nodes(self) -> set[int]:
        """Node ids of definitions and of what only wraps them: not statements."""
        if self._wrapping is None:
            lang, out = self.lang, set()
            for d in self.defs:
                out.add(d.node.id)
                p = d.node.parent
                while p is not None and (p.type in lang.wrappers or p.named_child_count == 1) \
                        and p.type not in ("block", "statement_block", "statement_list"):
                    out.add(p.id)
                    p = p.parent
            self._wrapping = out
        return self._wrapping

    def _find_stmts(self, within: Definition | None) -> list[Statement]:
        lang = self.lang
        if not any(d.kind in ("function", "method") for d in self.defs):
            return []
        def_nodes = self._def_nodes()
        if self._order is None:
            self._order = sorted(self.defs, key=lambda d: d.node.start_byte)
            self._starts = [d.node.start_byte for d in self._order]
        cursor = tree_sitter().QueryCursor(lang.query("statements"))
        if within is not None:
            cursor.set_byte_range(within.node.start_byte, within.node.end_byte)
        out: list[Statement] = []
        seen = set()
        for node in cursor.captures(self.tree.root_node).get("statement", []):
            if not node.is_named or node.type in lang.skip or node.id in def_nodes or node.id in seen:
                continue
            seen.add(node.id)
            owner = self._innermost(self._order, self._starts, node.start_byte, node.end_byte)
            if owner is None or owner.kind not in ("function", "method"):
                continue
            if within is not None and owner is not within:
                continue
            end = self._eff_end(node).end_byte
            out.append(Statement(0, owner.index, node.type, node.start_byte, end, node))
        out.sort(key=lambda st: (st.start, -st.end))
        for i, st in enumerate(out):
            st.index = i
        return out

    @staticmethod
    def _innermost(order, starts, a, b):
        i = bisect.bisect_right(starts, a) - 1
        while i >= 0:
            d = order[i]
            if d.node.start_byte <= a and b <= d.node.end_byte:
                # a later-starting definition may still be nested deeper; order is by start,
                # so the first containing one scanning backwards is the innermost
                return d
            i -= 1
        return None

    def def_range(self, d: Definition) -> Range:
        if d._range is None:
            d._range = self.range_of(d.start, d.end)
        return d._range

    def def_hash(self, d: Definition) -> str:
        """Digest of the definition's whitespace-normalized text."""
        if d._hash is None:
            d._hash = digest(normalize(self.slice(d.start, d.end)))
        return d._hash

    def stmt_norm(self, s: Statement) -> str:
        if s._norm is None:
            s._norm = normalize(self.slice(s.start, s.end))
        return s._norm

    def stmt_tokens(self, s: Statement) -> list[str]:
        if s._toks is None:
            s._toks = tokens(self.slice(s.start, s.end))
        return s._toks

    def def_counter(self, d: Definition) -> Counter:
        """``def_tokens`` as a multiset, kept (a search compares it with many definitions)."""
        c = self._counters.get(d.index)
        if c is None:
            c = self._counters[d.index] = Counter(self.def_tokens(d))
        return c

    def def_tokens(self, d: Definition) -> list[str]:
        """Tokens of a definition with its own name masked (so a rename keeps them equal)."""
        if d._toks is None:
            last = d.name.split(".")[-1].split(" ")[-1]
            d._toks = ["\x00" if t == last else t for t in tokens(self.slice(d.start, d.end))]
        return d._toks



# -- one process's parses, kept -----------------------------------------------------------------

_PARSED: OrderedDict[tuple[str, str], SourceFile] = OrderedDict()  # (path, text) -> its parse, newest last
_PARSED_MAX = 16  # files; a long-lived process (the server an agent's hooks ask) keeps what it parsed last
_DROPPED: list[SourceFile] = []


def parsed(rel: str, text: str, lang: Language | None, h: str | None = None, since: str | None = None) -> SourceFile:
    """``text`` of the file ``rel`` parsed, reusing this process's recent parses: the same text
    is not parsed twice (the hook after an agent's edit logs the definitions it touched and checks
    the file: one parse), and a new version of a file parsed before is parsed incrementally from
    the last one (what the edit touched, not the whole file) — or from the one of digest ``since``
    when kept (the text the file's anchors were last resolved in: its ``change`` then tells what
    changed since, whatever else was read of the file meanwhile). ``h``: the digest of ``text``."""
    key = (rel, text)
    hit = _PARSED.get(key)
    if hit is not None and hit.lang is lang:
        _PARSED.move_to_end(key)
        hit._digest = hit._digest or h
        return hit
    mine = [s for (r, _), s in reversed(_PARSED.items()) if r == rel and s.lang is lang]  # newest first
    base = next((s for s in mine if since and s.text_digest == since), mine[0] if mine else None)
    src = edited(base, text) if base is not None and base.tree is not None else SourceFile(text, lang)
    src._digest = h
    _PARSED[key] = src
    while len(_PARSED) > _PARSED_MAX:
        _DROPPED.append(_PARSED.popitem(last=False)[1])
    del _DROPPED[:-1]  # one waits for release(): freeing a 5,000-line file's parse takes a millisecond
    return src


def release() -> None:
    """Free the parse :func:`parsed` last pushed out (a server: once its answer is out)."""
    _DROPPED.clear()


def kept(rel: str) -> bool:
    """This process keeps a parse of a version of ``rel`` (a file it was asked about lately)."""
    return any(r == rel for r, _ in _PARSED)


def edited(base: SourceFile, text: str) -> SourceFile:
    """``text`` parsed reusing ``base``'s tree: the one span where the two differ (the common
    start and end cut off) is told to tree-sitter as an edit, which then re-parses only around it.
    The result knows what changed (``change``) and, when ``base`` knew its names, its own."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) > MAX_PARSE_BYTES:
        return SourceFile(text, base.lang)
    old = base.data
    start = _common_prefix(old, data)
    keep = _common_prefix(old[start:][::-1], data[start:][::-1])  # the common end, after the start
    old_end, new_end = len(old) - keep, len(data) - keep
    tree = base.tree.copy()  # the base's own tree keeps describing the base's text
    tree.edit(start_byte=start, old_end_byte=old_end, new_end_byte=new_end, start_point=_point(old, start),
              old_end_point=_point(old, old_end), new_end_point=_point(data, new_end))
    pos = base.pos.edited(text, start, old_end, text[start:new_end]) if base.pos._ascii and len(data) == len(text) \
        else None  # (ASCII both: byte offsets are characters' offsets)
    src = SourceFile(text, base.lang, base.lang.parser().parse(data, tree), pos)
    lo, new_hi = start, new_end  # the edit, and what tree-sitter says changed structure with it
    for r in tree.changed_ranges(src.tree):
        lo, new_hi = min(lo, r.start_byte), max(new_hi, r.end_byte)
    src.change = _change(base, src, lo, new_hi - (new_end - old_end), new_hi)
    if base._defs is not None or base._base_defs is not None:  # its own are found from them (``_shifted``)
        src._base_defs = base.defs
    if base._names is not None or base._defs is not None:  # (counting them is cheap once they are read)
        names = src._names = base.names.copy()  # (not ``-`` and ``+``: each walks every name)
        for d in src.change.old_defs:
            names[d.qualname] -= 1
        for d in src.change.new_defs:
            names[d.qualname] += 1
        for q in src.change.names:
            if names[q] <= 0:
                del names[q]
    return src


@dataclass(slots=True)
class Change:
    """How a file's text differs from the one parsed before it: bytes [lo, old_hi) of the old
    text became [lo, new_hi) of the new, and outside them text, syntax and the qualified names
    of definitions are the same. ``old_defs`` / ``new_defs``: the definitions overlapping the
    span in each text (those enclosing it included, the same in both)."""

    base: str  # digest of the old text
    old_pos: Positions
    lo: int
    old_hi: int
    new_hi: int
    old_defs: list[Definition]
    new_defs: list[Definition]
    lo_line: int = 0  # the old text's lines holding lo and old_hi
    hi_line: int = 0
    lines: int = 0  # lines the change added (removed: negative)
    names: frozenset = frozenset()  # the qualified names of old_defs and new_defs

    def __post_init__(self):
        self.lo_line, self.hi_line = self.old_pos.line_of_byte(self.lo), self.old_pos.line_of_byte(self.old_hi)

    def byte(self, b: int) -> int:
        """Where byte ``b`` of the old text, outside the span, is in the new one."""
        return b if b < self.lo else b + self.new_hi - self.old_hi


def _change(base: SourceFile, src: SourceFile, lo: int, old_hi: int, new_hi: int) -> Change:
    """The span [lo, old_hi) -> [lo, new_hi) widened until every definition it reaches either
    lies inside it or encloses it under the same name in both texts: a definition cut by the
    span (a class whose header was edited) would rename what it holds outside it."""
    delta = new_hi - old_hi
    while True:
        old_scopes, new_scopes = [], []  # object literals naming what they hold, as definitions do
        olds = base._find_defs((max(lo - 1, 0), old_hi + 1), old_scopes)  # a byte more each side: what touches it
        news = src._find_defs((max(lo - 1, 0), new_hi + 1), new_scopes)
        reach_old = [(_extent(d), _sig(d)) for d in olds] + [((a, b), (nm, a)) for a, b, nm in old_scopes]
        reach_new = [(_extent(d), _sig(d)) for d in news] + [((a, b), (nm, a)) for a, b, nm in new_scopes]
        around_old = [sig for (a, b), sig in reach_old if a < lo and b > old_hi]
        around_new = [sig for (a, b), sig in reach_new if a < lo and b > new_hi]
        grow = [(a, b) for (a, b), sig in reach_old if not (lo <= a and b <= old_hi)
                and (around_old != around_new or sig not in around_old)]
        grow += [(a, b - delta) for (a, b), sig in reach_new if not (lo <= a and b <= new_hi)
                 and (around_old != around_new or sig not in around_new)]
        grow += [(a, b) for a, b in _prefixed(base, lo, old_hi) if not (lo <= a and b <= old_hi)]
        grow += [(a, b - delta) for a, b in _prefixed(src, lo, new_hi) if not (lo <= a and b <= new_hi)]
        if not grow:
            change = Change(base.text_digest, base.pos, lo, old_hi, new_hi, olds, news,
                            names=frozenset(d.qualname for d in (*olds, *news)))
            change.lines = src.pos.line_of_byte(new_hi) - change.hi_line
            return change
        lo = min(lo, *(a for a, _ in grow))
        old_hi = max(old_hi, *(b for _, b in grow))
        new_hi = old_hi + delta


def _prefixed(src: SourceFile, lo: int, hi: int) -> list[tuple[int, int]]:
    """The extents of the wrappers whose own part (decorators, ``export``: before what they wrap)
    bytes [lo, hi) touch: that part can make what they wrap a definition or not (``@overload``)."""
    out = []
    for p in {max(lo - 1, 0), lo, max(hi - 1, lo), hi}:
        node = src.tree.root_node.descendant_for_byte_range(p, p)
        while node is not None:
            if node.type in src.lang.wrappers:
                inner = next((c for c in node.named_children if c.type not in src.lang.leading), None)
                if inner is None or p <= inner.start_byte:
                    out.append((node.start_byte, node.end_byte))
            node = node.parent
    return out


def _extent(d: Definition) -> tuple[int, int]:
    return min(d.outer, d.node.start_byte), d.node.end_byte


def _sig(d: Definition) -> tuple:
    return d.qualname, d.kind, d.node_type, _extent(d)[0], d.params


def _common_prefix(a: bytes, b: bytes) -> int:
    """The length of the longest common start of ``a`` and ``b`` (a binary search of slice
    comparisons: C speed, not a loop over the bytes)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _keyed(defs: list[Definition]) -> None:
    """Each definition's key: its qualified name, with its parameters where the name repeats."""
    counts = Counter(d.qualname for d in defs)
    for d in defs:
        d.key = d.qualname if counts[d.qualname] == 1 else f"{d.qualname}{d.params}"


def _point(data: bytes, at: int) -> tuple[int, int]:
    """Row and byte column of byte offset ``at``, as tree-sitter counts them."""
    return data.count(b"\n", 0, at), at - (data.rfind(b"\n", 0, at) + 1)


def _type_name(s: str) -> str:
    """``fmt::Display<'a>`` -> ``Display``: no generic arguments, last path segment."""
    s = _SPACE.sub("", s)
    prev = None
    while prev != s:
        prev, s = s, _GENERICS.sub("", s)
    return s.split("::")[-1]


def imports_in(src: SourceFile, start: int, end: int, skip: list[tuple[int, int]] = ()) -> Imports:
    """What the imports between bytes ``start`` and ``end`` bind (a function's own ``from .m
    import f``), those starting inside a ``skip`` range aside (the functions nested in it)."""
    return _imports(src, (start, end), skip)


def _imports(src: SourceFile, within: tuple[int, int] | None = None, skip: list[tuple[int, int]] = ()) -> Imports:
    """Run the language's bindings query (its captures are described in grammars/python/bindings.scm)."""
    bindings: dict[str, tuple] = {}
    exports: list[tuple[str, str, str]] = []
    text = src.slice_node
    cursor = tree_sitter().QueryCursor(src.lang.query("bindings"))
    if within is not None:
        cursor.set_byte_range(*within)
    for _, caps in cursor.matches(src.tree.root_node):
        if skip and any(a <= min(n.start_byte for v in caps.values() for n in v) < b for a, b in skip):
            continue
        one = {k: text(v[0]) for k, v in caps.items() if not k.startswith("_")}
        if "export.star" in one:
            exports.append(("*", one["from"], "*"))
        elif "export.name" in one:
            exports.append((one.get("export.alias", one["export.name"]), one["from"], one["export.name"]))
        elif "package" in one:  # Go: import "net/http" binds http (or @alias)
            bindings[one.get("alias") or one["package"].rsplit("/", 1)[-1]] = ("mod", one["package"])
        elif "module" in one:  # import a.b [as c]
            local = one.get("alias") or one["module"].split(".")[0]
            bindings[local] = ("mod", one["module"] if "alias" in one else one["module"].split(".")[0])
        elif "name" in one:  # the name may be a path (Rust: use std::{io::Read}): its last part is bound
            local = one.get("alias") or one["name"].replace("::", ".").rsplit(".", 1)[-1]
            bindings[local] = ("sym", one["from"], one["name"])
        elif "default" in one:
            bindings[one["default"]] = ("sym", one["from"], "default")
        elif "alias" in one:
            bindings[one["alias"]] = ("mod", one["from"])
    return Imports(bindings, exports)
