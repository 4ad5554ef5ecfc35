"""Record on every line of every function body of real code, as a user would, and resolve
what was recorded in the same, unchanged file: every line must give a definition, and every
anchor must resolve ``ok`` there (never "matches several places" right after recording).

    python bench/record_everywhere.py SOURCE [SOURCE ...] [--examples N]

A SOURCE is a folder, or a package as the benchmark corpora download it (a wheel or zip, a
tarball, a Debian .deb), read in memory: ``bash ../shared/bench/anchors/make_corpus.sh
/tmp/anchors`` leaves them in /tmp/anchors/downloads.

A function body is any function node of the grammar (named or not: a callback's lines belong
to the definition around it). Prints, per language, the lines tried, the misses ("no
definition here") and the anchors that did not resolve ``ok``, with examples. A file that
cannot be read or parsed is reported and skipped."""

from __future__ import annotations

import argparse
import io
import os
import sys
import tarfile
import zipfile
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from tether.core import anchors as A  # noqa: E402
from tether.core.languages import for_path  # noqa: E402
from tether.core.syntax import SourceFile  # noqa: E402

# what a function is, per grammar: the node types whose body lines must be recordable
FUNCTIONS = {
    "python": {"function_definition", "lambda"},
    "javascript": {"function_declaration", "function_expression", "arrow_function", "method_definition",
                   "generator_function_declaration", "generator_function"},
    "go": {"function_declaration", "method_declaration", "func_literal"},
    "rust": {"function_item", "closure_expression"},
    "java": {"method_declaration", "constructor_declaration", "lambda_expression"},
}
FUNCTIONS["typescript"] = FUNCTIONS["tsx"] = FUNCTIONS["javascript"]
SKIP_DIRS = {"node_modules", ".git", "__pycache__", "dist", "build"}


def body_lines(src: SourceFile) -> set[int]:
    """0-based lines inside function nodes (not their first line), that hold code."""
    kinds = FUNCTIONS.get(src.lang.name, set())
    out, stack = set(), [src.tree.root_node]
    while stack:
        n = stack.pop()
        if n.type in kinds and n.end_point[0] > n.start_point[0]:
            out.update(range(n.start_point[0] + 1, n.end_point[0] + 1))
        stack.extend(n.children)
    lines = src.pos.lines
    return {i for i in out if i < len(lines) and lines[i].strip()}


def sources(root: Path):
    """(path, bytes) of every file in a folder or a package archive (recursively)."""
    if root.is_dir():
        for d, dirs, names in os.walk(root):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
            for n in sorted(names):
                p = Path(d, n)
                yield from sources(p) if _archive(n) else [(p.relative_to(root).as_posix(), p.read_bytes)]
    else:
        yield from _members(root.name, root.read_bytes())


def _archive(name: str) -> bool:
    return name.endswith((".whl", ".zip", ".tgz", ".tar.gz", ".tar.xz", ".deb"))


def _members(name: str, data: bytes):
    if name.endswith((".whl", ".zip")):
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            for m in sorted(z.namelist()):
                yield f"{name}/{m}", lambda m=m: z.read(m)
    elif name.endswith(".deb"):  # an ar archive holding data.tar.*
        pos = 8
        while pos + 60 <= len(data):
            member, size = data[pos:pos + 16].decode().strip().rstrip("/"), int(data[pos + 48:pos + 58])
            if member.startswith("data.tar"):
                yield from _members(f"{name}/{member}", data[pos + 60:pos + 60 + size])
            pos += 60 + size + size % 2
    else:
        with tarfile.open(fileobj=io.BytesIO(data)) as t:
            for m in sorted((m for m in t.getmembers() if m.isfile()), key=lambda m: m.name):
                yield f"{name}/{m.name}", (lambda b: lambda: b)(t.extractfile(m).read())


def scan(read, rel: str, stats: dict, examples: dict, limit: int) -> None:
    lang = for_path(rel)
    try:
        src = SourceFile(read().decode("utf-8"), lang)
    except (OSError, UnicodeDecodeError) as e:
        print(f"record_everywhere: {rel}: skipped ({e})", file=sys.stderr)
        return
    if src.tree is None:
        return
    s = stats[lang.name]
    resolved: dict[tuple, str] = {}
    resolver = A.Resolver(src, src)
    for line in sorted(body_lines(src)):
        s["lines"] += 1
        text = src.pos.lines[line]
        try:
            a = A.record(src, rel, line, len(text) - len(text.lstrip()))
        except A.AnchorError:
            s["no definition"] += 1
            if len(examples[lang.name, "no definition"]) < limit:
                examples[lang.name, "no definition"].append(f"{rel}:{line + 1}: {text.strip()[:90]}")
            continue
        key = (a.name, a.params, tuple(a.range))
        if key not in resolved:
            resolved[key] = resolver.resolve(a).state
            s["anchors"] += 1
            if resolved[key] != A.OK:
                s[f"not ok: {resolved[key]}"] += 1
                if len(examples[lang.name, resolved[key]]) < limit:
                    examples[lang.name, resolved[key]].append(f"{rel}:{a.range.sl + 1}: `{a.name}` {resolved[key]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sources", nargs="+", type=Path)
    ap.add_argument("--examples", type=int, default=5)
    args = ap.parse_args()
    stats: dict[str, Counter] = defaultdict(Counter)
    examples: dict[tuple, list] = defaultdict(list)
    for root in args.sources:
        for rel, read in sources(root):
            if for_path(rel) is not None and not rel.endswith((".min.js", ".d.ts")) \
                    and not any(f"/{d}/" in f"/{rel}" for d in SKIP_DIRS):
                scan(read, rel, stats, examples, args.examples)
    print(f"{'language':<12}{'body lines':>12}{'no definition':>15}{'anchors':>10}{'not ok':>8}")
    total = Counter()
    for lang, s in sorted(stats.items()):
        bad = sum(v for k, v in s.items() if k.startswith("not ok"))
        print(f"{lang:<12}{s['lines']:>12}{s['no definition']:>15}{s['anchors']:>10}{bad:>8}")
        total.update(s)
        total["bad"] += bad
    print(f"{'all':<12}{total['lines']:>12}{total['no definition']:>15}{total['anchors']:>10}{total['bad']:>8}")
    for (lang, what), ex in sorted(examples.items()):
        print(f"\n{lang}, {what}:")
        for e in ex:
            print(f"  {e}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
