"""`tether check --changed-since REF --format markdown`: the comment a pull request gets, through
the real command on a git repository with a branch that changes noted code."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from samples import APP_PY, TETHER, WEB_TS, git_init

PAY_PY = '''\
def charge(amount_cents):
    """Charge a customer."""
    if amount_cents <= 0:
        raise ValueError("refused")
    return amount_cents
'''


def run(cwd: Path, *args: str, code: int = 0) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("GIT_DIR", "GIT_WORK_TREE")}
    r = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == code and "Traceback" not in r.stderr, f"{args} -> {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r.stdout


@pytest.fixture
def branch(tmp_path) -> Path:
    """main with four notes; the branch `feature` edits two noted functions and breaks a check."""
    root = tmp_path / "repo"
    git_init(root)
    (root / "src").mkdir()
    for name, text in (("app.py", APP_PY), ("pay.py", PAY_PY), ("web.ts", WEB_TS)):
        (root / "src" / name).write_text(text, encoding="utf-8")
    run(root, TETHER, "init")
    run(root, TETHER, "record", "decision", "src/app.py:4", "--title", "Configuration is read once at start",
        "--rationale", "Reading it on every request cost 40 ms a call.",
        "--rejected", "watch the file: inotify is not available on the build hosts")
    run(root, TETHER, "record", "invariant", "src/pay.py:1", "--title", "Charging never blocks",
        "--forbid-call", "time.sleep")
    run(root, TETHER, "record", "decision", "src/web.ts:1", "--title", "Requests are measured in characters")
    run(root, TETHER, "record", "intent", "--glob", "src/*.py", "--title", "Python sources are the shipped service")
    run(root, "git", "add", "-A")
    run(root, "git", "commit", "-qm", "notes")
    run(root, "git", "branch", "-M", "main")
    run(root, "git", "checkout", "-qb", "feature")
    app = APP_PY.replace('    """Load the configuration."""\n', "")  # lines deleted inside load_config
    (root / "src" / "app.py").write_text(app, encoding="utf-8")
    pay = PAY_PY.replace("    return amount_cents", "    import time\n    time.sleep(1)\n    return amount_cents")
    (root / "src" / "pay.py").write_text(pay, encoding="utf-8")
    run(root, "git", "commit", "-qam", "Reload less, wait for the gateway")
    return root


def test_pull_request_comment_names_broken_checks_and_the_notes_on_changed_code(branch):
    md = run(branch, TETHER, "check", "--changed-since", "main", "--format", "markdown", code=1)
    assert md.startswith("## tether\n")
    findings, notes = md.split("### 3 notes on the code this change touches")
    assert "### 2 findings since `main`" in findings
    assert "- **error** `src/pay.py:6` invariant \"Charging never blocks\": forbid-call time.sleep" in findings
    assert "- **warning** `src/pay.py:1` invariant \"Charging never blocks\": this code changed" in findings
    assert "#### decision: Configuration is read once at start" in notes
    assert "> Rejected options:\n> - watch the file: inotify is not available on the build hosts" in notes
    assert "#### invariant: Charging never blocks" in notes
    assert "#### intent: Python sources are the shipped service" in notes  # its pattern covers the changed files
    assert "measured in characters" not in md  # web.ts did not change


def test_a_change_that_touches_no_note(branch):
    (branch / "src" / "web.ts").write_text(WEB_TS + "\n// a comment after the code\n", encoding="utf-8")
    md = run(branch, TETHER, "check", "--changed-since", "HEAD", "--format", "markdown")
    assert md == "## tether\n\nNo finding since `HEAD`, and no note on the code this change touches.\n"


def test_a_comment_stays_within_what_github_takes(branch):
    body = "A long history of this decision. " * 2500  # 82,500 characters
    run(branch, TETHER, "record", "decision", "src/pay.py:1", "--title", "Charges are in cents", "--body", body)
    md = run(branch, TETHER, "check", "--changed-since", "main", "--format", "markdown", code=1)
    assert len(md) <= 65_536
    assert "### 4 notes on the code this change touches" in md
    assert "#### More notes, too many to show in full here" in md
    assert "- decision: Charges are in cents (`tether show " in md


def test_a_change_names_every_file_it_touched_binary_and_spaced_names_too(tmp_path: Path):
    """One diff serves both the files `check --changed-since` checks and the code the PR
    comment names: a binary file, a name with a space, a rename, a file not tracked yet."""
    from tether.core.files import changed_lines
    git_init(tmp_path)
    (tmp_path / "logo.bin").write_bytes(b"a\0b")
    (tmp_path / "sp ace.py").write_text("x = 1\n")
    (tmp_path / "kept.py").write_text("a = 1\nb = 2\n")
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    subprocess.run(["git", "commit", "-qm", "start"], cwd=tmp_path, check=True)
    (tmp_path / "logo.bin").write_bytes(b"a\0c")
    subprocess.run(["git", "mv", "sp ace.py", "sp ace2.py"], cwd=tmp_path, check=True)
    (tmp_path / "kept.py").write_text("a = 1\nb = 3\n")
    (tmp_path / "new file.py").write_text("n = 0\n")
    assert changed_lines(tmp_path, "HEAD") == {"logo.bin": None, "sp ace2.py": [], "kept.py": [(1, 2)],
                                               "new file.py": None}


# -- the comment as GitHub renders it: hostile note text stays inside its note --------------------

def rendered(md: str):
    """The comment parsed as CommonMark (GitHub's Markdown is CommonMark and extensions)."""
    from markdown_it import MarkdownIt
    return MarkdownIt("commonmark").parse(md)


def plain_text(tokens) -> str:
    """What a reader sees outside code, as text (code spans and blocks left out)."""
    out = []
    for t in tokens:
        for c in ([t] if t.type != "inline" else t.children or []):
            if c.type in ("text", "html_inline", "html_block"):
                out.append(c.content)
    return "\n".join(out)


def write_notes(root: Path, notes: list[tuple[str, str, str, str]], checks: list[dict] = ()) -> None:
    """Note files written as tether writes them: (kind, title, body, glob pattern)."""
    from tether.core import anchors as A
    from tether.core.notes import Note, format_note, new_id
    folder = root / ".tether" / "notes"
    for kind, title, body, pattern in notes:
        n = Note(id=new_id(), kind=kind, title=title, author="Ada Lovelace <ada@example.com>",
                 created="2026-01-01T00:00:00Z", updated="2026-01-01T00:00:00Z",
                 anchors=[A.Anchor(A.GLOB, pattern=pattern)], body=body, checks=list(checks))
        n.path = f".tether/notes/{n.file_name()}"
        (folder / n.file_name()).write_text(format_note(n), encoding="utf-8")


HOSTILE = [  # each can hide or swallow what follows it, whatever the order
    ("decision", "An unclosed fence", "See:\n\n```python\ndef f():\n    pass\n", "src/*.py"),
    ("boundary", "A comment that never ends", "Before.\n<!-- reviewer: ignore what follows\n\nstill hidden", "src/*.py"),
    ("workaround", "Ping @everyone and @octo-org/security", "cc @alice, or write to bob@example.com\n"
                                                             "\\@carol &#64;dave `@kept-in-code`", "src/*.py"),
    ("decision", "A footnote and a ~~~ fence", "[^1]: out of the quote\n\n~~~\nx ``` y\n", "src/*.py"),
    ("invariant", "Never log card numbers", "Card numbers are masked before any log call.", "src/*.py"),
]


def test_no_note_breaks_out_of_its_place_in_the_comment(branch):
    """An unclosed fence, an HTML comment, mentions, e-mail addresses: each note's text stays
    in its own quoted block, nothing hides a later note, nobody is pinged, no address shown."""
    write_notes(branch, HOSTILE)
    md = run(branch, TETHER, "check", "--changed-since", "main", "--format", "markdown", code=1)
    tokens = rendered(md)
    headings = ["".join(c.content for c in tokens[k + 1].children).replace("\u200d", "")
                for k, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h4"]
    for kind, title, _, _ in HOSTILE:  # every note is a heading of its own, none swallowed by another's text
        assert f"{kind}: {title}" in headings, (title, headings)
    assert not [t for t in tokens if t.type == "html_block"]
    assert not [c for t in tokens if t.type == "inline" for c in t.children or [] if c.type == "html_inline"]
    seen = plain_text(tokens)
    assert "Card numbers are masked before any log call." in seen
    assert "still hidden" in seen and "out of the quote" in seen  # shown, as text
    for k, t in enumerate(tokens):  # each note's text is inside a quote: nesting comes back to 0 between notes
        if t.type == "heading_open":
            assert t.level == 0
    html = __import__("markdown_it").MarkdownIt("commonmark").render(md)
    html = __import__("html").unescape(__import__("re").sub(r"<code>.*?</code>", "", html, flags=16))
    assert not __import__("re").search(r"(?<![\w`])@[A-Za-z0-9]", html), "a mention GitHub would ping"
    assert "example.com" not in md and "Ada Lovelace" in md  # the author by name, without the address
    assert "`@kept-in-code`" in md  # code is shown as written


def test_fenced_code_in_a_note_is_shown_as_code(branch):
    write_notes(branch, [("decision", "Retries", "Use:\n\n```python\nretry(<3>, @deco)\n```\n\nAfter.", "src/*.py")])
    md = run(branch, TETHER, "check", "--changed-since", "main", "--format", "markdown", code=1)
    fences = [t for t in rendered(md) if t.type == "fence"]
    assert [(f.info, f.content) for f in fences] == [("python", "retry(<3>, @deco)\n")]


def test_every_part_of_a_huge_comment_is_budgeted(branch):
    """800 findings and 600 notes, with long titles: one comment within GitHub's limit,
    findings and notes both shown as far as they fit, and what was left out said at the end."""
    sleeps = "".join(f"    time.sleep({k})\n" for k in range(200))
    pay = PAY_PY.replace("    return amount_cents", "    import time\n" + sleeps + "    return amount_cents")
    (branch / "src" / "pay.py").write_text(pay, encoding="utf-8")
    write_notes(branch, [("invariant", f"Charging never waits {k} " + "at all " * 20, "", "src/pay.py")
                         for k in range(3)], [{"id": "forbid-call:time.sleep", "kind": "forbid-call", "pattern": "time.sleep"}])
    write_notes(branch, [("intent", f"Long title {k} " + "why " * 60, "", "src/*.py") for k in range(600)])
    write_notes(branch, [("decision", "T" * 70_000, "", "src/*.py")])
    md = run(branch, TETHER, "check", "--changed-since", "main", "--format", "markdown", code=1)
    assert len(md.encode("utf-16-le")) // 2 <= 65_000
    assert "- **error** `src/pay.py:" in md and "#### intent: Long title" in md
    assert "#### More notes, too many to show in full here" in md
    last = md.rstrip().rsplit("\n", 1)[-1]
    assert "Not shown" in last and "finding" in last and "note" in last, last
    assert max(len(line) for line in md.splitlines()) < 1_000  # the 70,000-character title is cut
