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
    assert "Rejected options:\n- watch the file: inotify is not available on the build hosts" in notes
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
