"""The language registry: ``grammars/languages.toml`` plus one folder of queries per
language. Everything language-specific is data there; this module only loads it."""

from __future__ import annotations

import contextlib
import importlib
import os
import re
from functools import cache, cached_property
from pathlib import Path, PurePosixPath

from .records import dataclass, field
from .text import digest

TYPE_CHECKING = False  # (not typing's: importing it costs every hook call ~3 ms)
if TYPE_CHECKING:
    import tree_sitter as ts


class GrammarError(Exception):
    """A query or registry entry that does not load (names the file and the reason)."""


def grammars_dir() -> Path:
    """``grammars/`` of a source checkout, or the copy installed inside the package."""
    here = Path(__file__).resolve()
    for candidate in (here.parents[3] / "grammars", here.parents[1] / "grammars"):
        if (candidate / "languages.toml").is_file():
            return candidate
    raise GrammarError(f"grammars/languages.toml not found near {here}")


def tree_sitter():
    """The tree-sitter bindings, imported when a file is first parsed (a hook that the index
    answers parses nothing): the compiled module alone, as the grammars' (:func:`_binding`) —
    the package's ``__init__`` imports ``typing`` for one Protocol, ~4 ms of a hook that parses.
    An ``import tree_sitter`` later finds this very module for its names."""
    return _binding("tree_sitter")


@dataclass(eq=False)
class Language:
    """A language of ``grammars/languages.toml``: its grammar, extensions and queries."""

    name: str
    extensions: tuple[str, ...]
    loader: tuple[str, str]  # (module, function) of the grammar wheel: loaded when first parsed with
    leading: frozenset[str]
    comments: frozenset[str]
    wrappers: frozenset[str]
    skip: frozenset[str]
    family: str  # languages whose files use each other's code share one (languages.toml)
    _queries: dict[str, ts.Query] = field(default_factory=dict, repr=False)

    def query(self, name: str) -> ts.Query:
        """The compiled ``<name>.scm`` of this language (with what it inherits)."""
        q = self._queries.get(name)
        if q is None:
            src = query_source(self.name, name)
            try:
                q = tree_sitter().Query(self.grammar, src)
            except Exception as e:  # tree-sitter reports the offset in the message
                raise GrammarError(f"grammars/{self.name}/{name}.scm: {e}") from None
            self._queries[name] = q
        return q

    def parser(self) -> ts.Parser:
        return tree_sitter().Parser(self.grammar)

    @cached_property
    def grammar(self) -> ts.Language:
        """The grammar, loaded on first use: a command that parses nothing (the index has
        the answer) does not load six grammar libraries (~7 ms)."""
        module, function = self.loader
        try:
            return tree_sitter().Language(getattr(_binding(module), function)())
        except (ImportError, AttributeError) as e:
            raise GrammarError(f"grammars/languages.toml: [{self.name}] grammar cannot be loaded: {e}") from None


def _binding(module: str):
    """The grammar wheel's compiled ``_binding`` module (what ``language()`` comes from), loaded
    without the package's ``__init__``, which imports ``importlib.resources`` for queries tether
    does not use (with ``tempfile`` and ``shutil``: ~4 ms of every hook that parses a file). The
    package itself when it is laid out otherwise."""
    import sys
    from importlib.machinery import PathFinder
    name = f"{module}._binding"
    if name in sys.modules:
        return sys.modules[name]
    package = PathFinder.find_spec(module)
    spec = PathFinder.find_spec(name, package.submodule_search_locations or []) if package else None
    if spec is None or spec.loader is None:
        return importlib.import_module(module)
    binding = spec.loader.create_module(spec)
    spec.loader.exec_module(binding)
    sys.modules[name] = binding
    return binding


_INHERITS = re.compile(r"^;\s*inherits:\s*([\w,\s]+)$", re.M)


def query_source(lang: str, name: str) -> str:
    path = grammars_dir() / lang / f"{name}.scm"
    if not path.is_file():
        return ""
    src = path.read_text(encoding="utf-8")
    first = src.split("\n", 1)[0]
    m = _INHERITS.match(first)
    if not m:
        return src
    parents = [p.strip() for p in m.group(1).split(",") if p.strip()]
    # the inherited patterns come first: pattern order decides ties ("first wins")
    return "\n".join([query_source(p, name) for p in parents] + [src])


@cache
def registry() -> dict[str, Language]:
    path = grammars_dir() / "languages.toml"
    data = _read_toml(path)
    langs = {}
    for name, entry in data.items():
        try:
            loader = (entry["grammar"]["module"], entry["grammar"]["function"])
        except KeyError as e:
            raise GrammarError(f"{path}: [{name}] names no grammar: {e}") from None
        langs[name] = Language(
            name=name,
            extensions=tuple(entry["extensions"]),
            loader=loader,
            leading=frozenset(entry.get("leading", ())),
            comments=frozenset(entry.get("comments", ())),
            wrappers=frozenset(entry.get("wrappers", ())),
            skip=frozenset(entry.get("skip", ())),
            family=entry.get("family", name),
        )
    return langs


def _read_toml(path: Path) -> dict:
    """``path`` read as TOML: from its JSON twin in ``__pycache__`` beside it when the twin was
    made from this very text (tomli, with the ``datetime`` and regular expressions it loads, is
    ~5 ms of every process that looks up a language: every hook); else parsed, and the twin
    written where that folder can be (as Python keeps its bytecode, and lib2to3 its grammars)."""
    import json
    text = path.read_text(encoding="utf-8")
    twin, source = path.parent / "__pycache__" / f"{path.name}.json", digest(text)
    try:
        kept = json.loads(twin.read_text(encoding="utf-8"))
        if kept["source"] == source:
            return kept["data"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    import tomli  # as core.notes
    data = tomli.loads(text)
    part = twin.with_name(f"{twin.name}.{os.getpid()}")
    try:
        kept = json.dumps({"source": source, "data": data})
        twin.parent.mkdir(exist_ok=True)
        part.write_text(kept, encoding="utf-8")
        os.replace(part, twin)
    except (OSError, TypeError, ValueError):  # read-only, or a value JSON has no form for: parsed each time
        with contextlib.suppress(OSError):
            part.unlink(missing_ok=True)
    return data


def by_name(name: str | None) -> Language | None:
    return registry().get(name) if name else None


def for_path(path: str | PurePosixPath) -> Language | None:
    name = str(path).rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return _by_extension().get(name[dot:].lower()) if dot > 0 else None


@cache
def _by_extension() -> dict[str, Language]:
    return {ext: lang for lang in reversed(registry().values()) for ext in lang.extensions}


def family_of(path: str | PurePosixPath) -> str | None:
    """The family of the file's language (files of one family use each other's code)."""
    lang = for_path(path)
    return lang.family if lang else None
