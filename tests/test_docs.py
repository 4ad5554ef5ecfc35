"""The README and every page under docs/ say only what runs.

Every shell block (```sh, ```bash or ```shell) a user would run is run here, with this checkout's
`tether`. The rules, for whoever writes a page:

- A page's blocks run in order, as a reader follows it, starting in a fresh copy of the bundled
  example (`examples/shop/`, a git repository with one commit). Each block is its own
  `bash -e -o pipefail`; its last working folder carries over to the next block (variables do not).
- A command that exits non-zero fails its block: write `tether check || echo "findings: exit $?"`
  where a finding is the point.
- ```sh norun marks a block that must not run here (it installs the machine, needs a real agent or
  the benchmark corpora, takes minutes); the text beside it says why. Keep them few.
- Synopses with placeholders (`tether check [PATH…]`) belong in tables or ```text, not ```sh.

A failing block is named by its file and line, with what it printed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHELLS = {"sh", "bash", "shell"}
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([^\s`]*)(.*)$")


@dataclass
class Block:
    page: Path
    line: int        # 1-based line of the opening fence
    lang: str
    flags: set[str]
    text: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """Every fenced block of a Markdown page, with its info string."""
    out, lines, i = [], page.read_text(encoding="utf-8").splitlines(), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang, rest = m.groups()
        body, j = [], i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j])
            j += 1
        out.append(Block(page, i + 1, lang.lower(), set(rest.split()), "\n".join(body) + "\n"))
        i = j + 1
    return out


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def shell_blocks(page: Path) -> list[Block]:
    return [b for b in blocks(page) if b.lang in SHELLS]


def example_copy(tmp: Path) -> Path:
    """The bundled example as a reader's copy of it: a git repository, nothing cached."""
    repo = tmp / "shop"
    shutil.copytree(ROOT / "examples" / "shop", repo, ignore=shutil.ignore_patterns("cache"))
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "the shop"]):
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=reader_env(tmp))
    return repo


def reader_env(tmp: Path) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("VISUAL", "EDITOR", "GIT_DIR", "GIT_WORK_TREE", "XDG_RUNTIME_DIR")}
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    env.update(HOME=str(home), GIT_CONFIG_NOSYSTEM="1", PYTHONIOENCODING="utf-8",
               GIT_AUTHOR_NAME="Ada Lovelace", GIT_AUTHOR_EMAIL="ada@example.com",
               GIT_COMMITTER_NAME="Ada Lovelace", GIT_COMMITTER_EMAIL="ada@example.com",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "server"), env.get("PYTHONPATH")])),
               TETHER_CHECKOUT=str(ROOT))
    return env


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shell_block_runs(page: Path, tmp_path: Path):
    todo = [b for b in shell_blocks(page) if "norun" not in b.flags]
    if not todo:
        pytest.skip(f"{page.name}: no shell block to run")
    env = reader_env(tmp_path)
    cwd = example_copy(tmp_path)
    state = tmp_path / "cwd"
    for b in todo:
        script = f"trap 'pwd > {state}' EXIT\nset -e -o pipefail\n{b.text}"
        try:
            r = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True,
                               timeout=180)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{b.where}: the block ran past 180 s\n{b.text}")
        assert r.returncode == 0 and "Traceback" not in r.stderr, (
            f"{b.where}: the block exited {r.returncode}\n--- block\n{b.text}--- stdout\n{r.stdout}"
            f"--- stderr\n{r.stderr}")
        cwd = Path(state.read_text().strip())


def test_blocks_say_whether_they_run():
    """Only the marks the runner knows: a typo in `norun` would quietly run (or skip) a block."""
    for page in pages():
        for b in shell_blocks(page):
            assert b.flags <= {"norun"}, f"{b.where}: unknown mark {sorted(b.flags - {'norun'})}"


def test_readme_is_short_and_its_two_setup_commands_are_what_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    lines = readme.splitlines()
    start = lines.index("## Set up on a fresh machine") + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("## ")) + 1
    setup = [b.text.strip() for b in blocks(ROOT / "README.md") if b.lang in SHELLS and start < b.line < end]
    assert setup == ["python3 -m pip install -e . && bash examples/demo.sh",
                     "bash tests/install.sh && python3 -m pip install -q -e '.[test]' && python3 -m pytest -q"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert setup[1] in ci, ".ci/run must run the README's test command verbatim"
    # the first command's demo: it runs, and shows the notes following the code
    r = subprocess.run(["bash", str(ROOT / "examples" / "demo.sh")], capture_output=True, text=True,
                       env=reader_env(Path(os.environ.get("TMPDIR", "/tmp"))), timeout=300)
    assert r.returncode == 0, r.stderr
    for state in ("[renamed]", "[orphaned]", "[moved]"):
        assert state in r.stdout, r.stdout


def test_docs_links_point_at_pages_and_sections_that_exist():
    link = re.compile(r"\]\(([^)\s]+)\)")
    for page in pages():
        text = page.read_text(encoding="utf-8")
        for target in link.findall(text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            assert dest.exists(), f"{page.relative_to(ROOT)}: link to {target}: no such file"
            if anchor and dest.suffix == ".md":
                assert anchor in slugs(dest), f"{page.relative_to(ROOT)}: link to {target}: no such section"


def slugs(page: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens."""
    out, in_code = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return out
