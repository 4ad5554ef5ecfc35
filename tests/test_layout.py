"""The package's layering, as the README's "How it is built" draws it: no import circles;
core imports nothing of tether above it; a subsystem imports core (and only the subsystems
its docstring names); no subsystem or core imports a face."""

import ast
from pathlib import Path

import tether

PACKAGE = Path(tether.__file__).parent
CORE, SUBSYSTEMS, FACES = "core", ("checks", "context", "capture", "site"), ("cli", "lsp", "mcp", "agents", "proxy")
ALLOWED = {"core": set(), "checks": {"core"}, "context": {"core"}, "capture": {"core"}, "site": {"core"}}


def imports() -> dict[str, set[str]]:
    """Module -> the tether modules it imports (at any depth of the file, lazy imports too)."""
    graph = {}
    for path in PACKAGE.rglob("*.py"):
        mod = ".".join(("tether", *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
        pkg = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
        out = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1] if node.level else []
                target = ".".join([*base, *([node.module] if node.module else [])])
                names = [f"{target}.{a.name}" for a in node.names]
                out |= {n for n in names if _module(n)} or {target}
            elif isinstance(node, ast.Import):
                out |= {a.name for a in node.names}
        graph[mod] = {m for m in out if m.startswith("tether.") and m != mod}
    return graph


def _module(name: str) -> bool:
    rel = name.removeprefix("tether.").replace(".", "/")
    return (PACKAGE / f"{rel}.py").is_file() or (PACKAGE / rel / "__init__.py").is_file()


def _group(mod: str) -> str:
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_no_import_circles():
    graph = imports()
    state: dict[str, int] = {}

    def visit(m, path):
        state[m] = 1
        for n in graph.get(m, ()):
            assert state.get(n) != 1, "import circle: " + " -> ".join([*path, m, n])
            if n not in state:
                visit(n, [*path, m])
        state[m] = 2
    for m in graph:
        if m not in state:
            visit(m, [])


def test_layers():
    for mod, targets in imports().items():
        group = _group(mod)
        if group not in ALLOWED:
            continue
        above = {_group(t) for t in targets} - {group, ""} - ALLOWED[group]
        assert not above, f"{mod} imports {sorted(above)}, above it"


def test_core_holds_at_most_thirteen_modules():
    modules = [p for p in (PACKAGE / CORE).glob("*.py") if p.name != "__init__.py"]
    assert len(modules) <= 13, sorted(p.name for p in modules)


def test_every_subsystem_says_what_it_owns():
    for name in (CORE, *SUBSYSTEMS):
        doc = ast.get_docstring(ast.parse((PACKAGE / name / "__init__.py").read_text(encoding="utf-8")))
        assert doc and "Owns" in doc or name == CORE and "imports nothing" in doc, name
