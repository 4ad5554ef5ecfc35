"""What a new user met on a first day with tether on a real repository (issue 33), through the
real command in real git repositories: ids to type, several paths, what `sync` says."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tether.core.workspace import Workspace

from samples import APP_PY, WEB_TS, git_init
from test_cli import env_for, fails, ok, ok_json, tether

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def repo(tmp_path) -> Path:
    root = tmp_path / "repo"
    git_init(root)
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text(APP_PY, encoding="utf-8")
    (root / "src" / "web.ts").write_text(WEB_TS, encoding="utf-8")
    ok(root, "init")
    return root


def listed_ids(out: str) -> list[str]:
    return [line.split()[0] for line in out.splitlines() if line and not line.startswith(" ")]


# -- (4) ids: a short form unique in the repository, printed and accepted ---------------------

def test_list_prints_short_ids_that_every_command_takes(repo):
    """Notes made in one session (one process: an agent's MCP server, `tether serve`) share their
    first 8 or 9 characters; `list` prints each id as short as it can be and still be unique."""
    ws = Workspace.find(repo)
    made = [ws.record("decision", "src/app.py", 3, title=f"load_config, take {i}").id for i in range(4)]
    made.append(ws.record("invariant", "src/web.ts", 0, title="handle is pure").id)
    ws.close()

    shown = listed_ids(ok(repo, "list").stdout)
    assert len(shown) == 5 and len(set(shown)) == 5
    assert all(8 <= len(s) < 26 for s in shown), shown
    full = set(made)
    for s in shown:
        assert sum(m.startswith(s) for m in full) == 1
        assert ok_json(repo, "show", s, "--json")["id"].startswith(s)
    # the short form works wherever an id is taken
    invariant = next(s for s in shown if ok_json(repo, "show", s, "--json")["kind"] == "invariant")
    ok(repo, "confirm", invariant)
    first, second = shown[0], shown[1]
    ok(repo, "supersede", first, "--by", second)
    ok(repo, "retire", second)
    # JSON keeps the full ids
    assert {n["id"] for n in ok_json(repo, "list", "--json")["notes"]} == full


def test_an_ambiguous_prefix_names_the_notes_it_matches(repo):
    ws = Workspace.find(repo)
    a = ws.record("decision", "src/app.py", 3, title="Config is read once")
    b = ws.record("decision", "src/web.ts", 0, title="handle doubles")
    ws.close()
    common = next(i for i in range(26) if a.id[i] != b.id[i])
    err = fails(repo, "show", a.id[:max(common, 4)])
    assert "Config is read once" in err and "handle doubles" in err and "give more of the id" in err


# -- (5) several paths, and what sync says ---------------------------------------------------

def test_list_takes_several_paths_as_check_does(repo):
    ok(repo, "record", "decision", "src/app.py:4", "--title", "Config is read once")
    ok(repo, "record", "decision", "src/web.ts:1", "--title", "handle doubles")
    ok(repo, "record", "intent", "--glob", "src/**", "--title", "src is the product")
    both = ok(repo, "list", "src/app.py", "src/web.ts").stdout
    assert "Config is read once" in both and "handle doubles" in both and "src is the product" in both
    one = ok(repo, "list", "src/web.ts").stdout
    assert "handle doubles" in one and "Config is read once" not in one
    assert ok(repo, "check", "src/app.py", "src/web.ts").returncode == 0


def test_sync_says_what_moved_where_once(repo):
    import subprocess
    ok(repo, "record", "decision", "src/app.py:4", "--title", "Config is read once")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "app"], cwd=repo, check=True)
    subprocess.run(["git", "mv", "src/app.py", "src/config.py"], cwd=repo, check=True)
    out = ok(repo, "sync").stdout
    assert "src/config.py at src/config.py" not in out, out
    line = next(l for l in out.splitlines() if "config.py" in l)
    assert "src/app.py" in line and "src/config.py" in line, out


# -- (2) doctor names the candidate and the exact command ------------------------------------

def commands_in(text: str) -> list[str]:
    return re.findall(r"`(tether [^`]+)`", text)


def test_doctor_on_a_rename_in_a_fresh_clone_names_the_new_name_and_the_command(repo, tmp_path):
    import subprocess
    nid = ok(repo, "record", "decision", "src/app.py:4", "--title", "Config is read once").stdout.strip()
    clone = tmp_path / "clone"  # a teammate's clone: the note files, no cache
    shutil.copytree(repo, clone, ignore=shutil.ignore_patterns("cache"))
    app = clone / "src" / "app.py"
    app.write_text(app.read_text(encoding="utf-8").replace("load_config", "read_settings"), encoding="utf-8")

    d = tether(clone, "doctor")
    assert d.returncode == 1
    (line,) = [l for l in d.stdout.splitlines() if "Config is read once" in l]
    assert "several places" not in line and "`read_settings`" in line and "`load_config`" in line, line
    fix, retire = commands_in(line)
    assert fix.startswith("tether reanchor ") and fix.endswith(" src/app.py:4") and retire.startswith("tether retire ")
    assert nid.startswith(fix.split()[2])
    ok(clone, *fix.split()[1:])  # the command as printed does it
    assert ok_json(clone, "show", nid, "--json")["anchors"][0]["name"] == "read_settings"
    assert tether(clone, "doctor").returncode == 0


def test_orphan_messages_name_the_commands_to_run(repo):
    ok(repo, "record", "decision", "src/app.py:4", "--title", "Config is read once")
    ok(repo, "record", "decision", "src/web.ts:1", "--title", "handle doubles")
    app = repo / "src" / "app.py"
    app.write_text(app.read_text(encoding="utf-8").split("def load_config")[0], encoding="utf-8")
    for cmd in ("doctor", "check"):
        r = tether(repo, cmd)
        assert r.returncode == 1
        (line,) = [l for l in r.stdout.splitlines() if "Config is read once" in l]
        assert "orphaned" in line, line
        fix, retire = commands_in(line)
        assert fix.startswith("tether reanchor ") and fix.endswith(" PATH:LINE"), line
        assert retire.startswith("tether retire "), line
    ok(repo, *retire.split()[1:])
    assert tether(repo, "doctor").returncode == 0


# -- (1) the team page counts in English ------------------------------------------------------

def test_site_home_says_boundaries_not_boundarys(repo, tmp_path):
    for title in ("No refunds here", "No currencies here", "No taxes here"):
        ok(repo, "record", "boundary", "src/app.py:4", "--title", title)
    ok(repo, "record", "decision", "src/web.ts:1", "--title", "handle doubles")
    ok(repo, "site", "--out", str(tmp_path / "site"))
    home = re.sub(r"<[^>]+>", "", (tmp_path / "site" / "index.html").read_text(encoding="utf-8"))
    assert "3 boundaries" in home and "1 decision" in home and "4 notes" in home, home
    assert "boundarys" not in home and "1 decisions" not in home


# -- (6) hook commands that start where the agent starts ------------------------------------

def login_home(tmp_path: Path, path_line: str = "") -> Path:
    """A HOME whose login shell starts with the system's PATH (plus ``path_line``)."""
    home = tmp_path / "home"
    home.mkdir(parents=True, exist_ok=True)
    (home / ".profile").write_text(path_line, encoding="utf-8")
    return home


def hook_commands(root: Path) -> set[str]:
    settings = json.loads((root / ".claude" / "settings.json").read_text(encoding="utf-8"))
    return {h["command"] for groups in settings["hooks"].values() for g in groups for h in g["hooks"]}


def test_init_agents_writes_commands_that_start_where_the_agent_starts(repo, tmp_path):
    """A venv's tether, run with the venv on this terminal's PATH: an agent started from the
    desktop gets the login shell's PATH, which has no such tether. The MCP server names the
    absolute path of the tether that ran `init`, the hooks its interpreter and tether's own
    files; once a login shell finds that very tether, both name it plainly (the same on every
    machine of the team)."""
    import os, shlex, subprocess, sys
    import tether as package
    script = Path(sys.executable).parent / "tether"  # as a venv's bin/tether, its folder on PATH
    python = script.read_text(encoding="utf-8").split("\n", 1)[0][2:].strip()  # its #! line
    hook = shlex.join([python, "-P", "-S", str(Path(package.__file__).resolve().parent / "__main__.py"),
                       "hook", "claude-code", "--serve"])
    env = {**os.environ, "PATH": f"{script.parent}:/usr/bin:/bin", "HOME": str(login_home(tmp_path)), "SHELL": "/bin/sh"}
    r = subprocess.run([str(script), "init", "--agents", "claude"], cwd=repo, env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert hook_commands(repo) == {hook}
    assert json.loads((repo / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]["tether"]["command"] == str(script)

    # once the login shell finds this very tether, the plain name is kept short
    env["HOME"] = str(login_home(tmp_path / "2", f'PATH="{script.parent}:$PATH"\n'))
    r = subprocess.run([str(script), "init", "--agents", "claude"], cwd=repo, env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert hook_commands(repo) == {"tether hook claude-code --serve"}
    assert json.loads((repo / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]["tether"]["command"] == "tether"


def test_the_hook_command_runs_site_only_when_the_server_does_not_answer(repo, tmp_path, monkeypatch):
    """The hook command starts the interpreter without `site` (~5 ms of each served hook): what
    the resident server answers needs nothing from site-packages, nor `os` (~1.5 ms more). Alone
    (no server), the same process then runs site as a plain start would — its `sitecustomize`
    (and `.pth` files, user site) included — and answers from tether's full code."""
    import os, subprocess, sys, time
    from tether.cli.client import listening, socket_path
    ok(repo, "record", "decision", "src/app.py:4", "--title", "Config is read once", "--rationale", "startup only")
    ok(repo, "init", "--agents", "claude", env={**os.environ, "HOME": str(login_home(tmp_path)), "SHELL": "/bin/sh"})
    (command,) = hook_commands(repo)  # (no tether on a login shell's PATH: the interpreter and tether's files)
    custom = tmp_path / "custom"
    custom.mkdir()
    marker = tmp_path / "site-ran"
    (custom / "sitecustomize.py").write_text(
        f"open({str(marker)!r}, 'a').write('site\\n')\n", encoding="utf-8")
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))  # where the server listens, for this test and its processes
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(custom), os.environ.get("PYTHONPATH", "")])}

    imported: set[str] = set()

    def hook(session: str) -> str:
        event = {"session_id": session, "transcript_path": "", "cwd": str(repo), "hook_event_name": "PreToolUse",
                 "tool_name": "Read", "tool_input": {"file_path": str(repo / "src" / "app.py")}}
        timed = command.replace(" -P -S ", " -X importtime -P -S ", 1).replace(" --serve", "")
        r = subprocess.run(timed, shell=True, cwd=repo, env=env, input=json.dumps(event), capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        imported.clear()
        imported.update(line.rsplit("|", 1)[1].strip() for line in r.stderr.splitlines() if line.startswith("import time:"))
        return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]

    assert "Config is read once" in hook("alone")
    assert marker.read_text(encoding="utf-8") == "site\n"  # the alone hook ran site, once
    assert {"site", "lmdb"} <= imported

    server = subprocess.Popen([sys.executable, "-m", "tether", "serve", str(repo)], cwd=repo, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 60
        while not listening(socket_path(repo)):
            assert time.monotonic() < end and server.poll() is None, "no server listening"
            time.sleep(0.05)
        marker.unlink()
        assert "Config is read once" in hook("served")
        assert not marker.exists()  # answered by the server: site never ran in the hook's process
        assert "tether.cli.client" in imported and not imported & {"site", "os", "json", "re", "socket", "zlib"}, \
            sorted(imported)
    finally:
        server.kill()
        server.wait()


def test_doctor_runs_each_hook_command_and_says_which_cannot_start(repo, tmp_path):
    import os, subprocess
    ok(repo, "init", "--agents", "claude")
    settings = repo / ".claude" / "settings.json"
    text = settings.read_text(encoding="utf-8")
    bare = re.sub(r'"command": "[^"]*hook claude-code', '"command": "tether hook claude-code', text)
    settings.write_text(bare, encoding="utf-8")
    env = {**os.environ, "HOME": str(login_home(tmp_path)), "SHELL": "/bin/sh"}  # no tether on a login PATH
    r = subprocess.run(["tether", "doctor"], cwd=repo, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1
    (line,) = [l for l in r.stdout.splitlines() if "hook-cannot-start" in l or "cannot start" in l]
    assert line.startswith(".claude/settings.json:") and "`tether hook claude-code --serve`" in line, line
    assert "not found" in line and "`tether init --agents claude`" in line, line

    settings.write_text(text, encoding="utf-8")  # as init wrote it: runs wherever the agent starts
    r = subprocess.run(["tether", "doctor"], cwd=repo, env=env, capture_output=True, text=True, timeout=120)
    assert "cannot start" not in r.stdout, r.stdout


def test_doctor_hints_at_hook_commands_an_older_init_wrote(repo, tmp_path):
    import os, shutil, subprocess
    ok(repo, "init", "--agents", "claude")
    settings = repo / ".claude" / "settings.json"
    text = settings.read_text(encoding="utf-8")
    script = shutil.which("tether")  # what init wrote before: this tether's script, which runs site
    older = re.sub(r'"command": "[^"]*hook claude-code', f'"command": "{script} hook claude-code', text)
    settings.write_text(older, encoding="utf-8")
    env = {**os.environ, "HOME": str(login_home(tmp_path)), "SHELL": "/bin/sh"}  # no tether on a login PATH
    r = subprocess.run([script, "doctor"], cwd=repo, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr  # a hint, not a problem
    (line,) = [l for l in r.stdout.splitlines() if "hint:" in l]
    assert line.startswith(".claude/settings.json:") and "`tether init --agents claude`" in line, line
    assert "-P -S" in line and "__main__.py hook claude-code --serve" in line, line

    settings.write_text(text, encoding="utf-8")  # as init writes it now
    r = subprocess.run([script, "doctor"], cwd=repo, env=env, capture_output=True, text=True, timeout=120)
    assert "hint:" not in r.stdout, r.stdout


# -- speed: a long-lived process re-parses an edited file from its last parse -----------------

@pytest.mark.parametrize("edit", [
    lambda s: s.replace("    return data\n", "    data = data.strip()\n    return data\n"),  # lines inserted
    lambda s: s.replace('    """Load the configuration."""\n', ""),  # lines deleted
    lambda s: "# é — a comment first\n" + s,  # at the very start, multi-byte
    lambda s: s + "\n\ndef tail():\n    return 'ü'\n",  # at the very end
    lambda s: s.replace("self.port = port", "self.port = int(port)  # ß"),  # inside a line
    lambda s: s.replace("class Service:", "class Service(object):").replace("import os", "import os, sys"),
])
def test_an_edited_file_parses_as_a_fresh_parse_would(edit):
    from tether.core.languages import for_path
    from tether.core.syntax import SourceFile, parsed
    lang = for_path("src/app.py")
    before = parsed("src/app.py", APP_PY, lang)
    text = edit(APP_PY)
    after = parsed("src/app.py", text, lang)
    fresh = SourceFile(text, lang)
    assert str(after.tree.root_node) == str(fresh.tree.root_node)
    assert [(d.qualname, d.start, d.end) for d in after.defs] == [(d.qualname, d.start, d.end) for d in fresh.defs]
    assert parsed("src/app.py", text, lang) is after and parsed("src/app.py", APP_PY, lang) is before


# -- a second first day (click, commander, immer, itsdangerous): what still got in the way -----

def test_a_note_has_one_short_id_in_list_and_in_context(repo):
    """`list` printed 01m96t0z, `context` and the hooks 01m96t0 for the same note."""
    ok(repo, "record", "decision", "src/app.py:4", "--title", "Config is read once")
    (short,) = listed_ids(ok(repo, "list").stdout)
    assert f"Config is read once ({short})" in ok(repo, "context", "src/app.py:5").stdout


def test_export_check_says_which_files_are_missing_and_the_command_that_writes_them(repo, tmp_path):
    """Set up for Claude Code, then a note recorded: its rule file was called "stale" though it
    had never been written, and nothing said what to run."""
    env = env_for(HOME=str(login_home(tmp_path)), SHELL="/bin/sh")
    ok(repo, "init", "--agents", "claude", env=env)
    ok(repo, "record", "decision", "src/web.ts:1", "--title", "handle doubles")
    r = tether(repo, "export", "--check")
    assert r.returncode == 1
    (line,) = r.stdout.splitlines()
    assert re.fullmatch(r"missing \.claude/rules/tether-src-web-ts-\w+\.md", line), r.stdout
    assert "`tether export`" in r.stderr
    ok(repo, "export")
    assert tether(repo, "export", "--check").returncode == 0


def test_a_title_given_without_title_is_named_as_such(repo):
    err = fails(repo, "record", "decision", "src/app.py:4", "Config is read once")
    assert 'Config is read once: no such file; a title goes in --title "Config is read once"' in err, err
    assert fails(repo, "record", "decision", "src/nope.py", "--title", "T") == "tether: src/nope.py: no such file"


def test_check_given_a_line_says_it_takes_the_file(repo):
    err = fails(repo, "check", "src/app.py:4")
    assert "`tether check src/app.py`" in err, err
    assert fails(repo, "check", "src/nope.py") == "tether: src/nope.py: no such file or folder"


def test_list_of_a_path_that_is_not_there_says_so(repo):
    """A typo was answered "no notes for …", exit 0; a file that is gone still lists its notes."""
    ok(repo, "record", "decision", "src/app.py:4", "--title", "Config is read once")
    assert "no such file or folder" in fails(repo, "list", "src/ap.py")
    (repo / "src" / "app.py").unlink()
    assert "Config is read once" in ok(repo, "list", "src/app.py").stdout


def test_the_same_note_recorded_twice_is_refused_naming_the_note(repo):
    """A command run again (it printed only an id, so did it work?) made a second file saying
    the same thing on the same code."""
    (short,) = [ok(repo, "record", "invariant", "src/app.py:4", "--title", "Config is read once").stdout.strip()[:8]]
    err = fails(repo, "record", "invariant", "src/app.py:5", "--title", "config is read  once")
    assert f"note {short}" in err and f"`tether amend {short}`" in err and "`load_config`" in err, err
    assert len(listed_ids(ok(repo, "list").stdout)) == 1
    # the same words about other code, or another kind of note, are notes of their own
    ok(repo, "record", "invariant", "src/app.py:11", "--title", "Config is read once")
    ok(repo, "record", "decision", "src/app.py:4", "--title", "Config is read once")
    assert len(listed_ids(ok(repo, "list").stdout)) == 3


def test_one_line_is_said_as_one_line(repo):
    """A note on one line of a text file read "lines 1-1" (context) and "lines at NOTES.txt:1-1" (list)."""
    (repo / "NOTES.txt").write_text("Deploys happen on Tuesdays.\nRollbacks any day.\n", encoding="utf-8")
    ok(repo, "record", "decision", "NOTES.txt:1", "--title", "Tuesday deploys")
    assert "    [ok]         line at NOTES.txt:1\n" in ok(repo, "list", "NOTES.txt").stdout
    assert "decision (line 1): Tuesday deploys" in ok(repo, "context", "NOTES.txt:1").stdout
    ok(repo, "record", "decision", "NOTES.txt:1-2", "--title", "Deploy days")
    assert "lines at NOTES.txt:1-2" in ok(repo, "list", "NOTES.txt").stdout


def test_a_hand_edit_that_breaks_the_toml_names_the_line_and_the_fix(repo):
    """`kind = decision` (quotes forgotten) was reported as "invalid TOML: Invalid value"."""
    nid = ok(repo, "record", "decision", "src/app.py:4", "--title", "Config is read once").stdout.strip()
    (note,) = (repo / ".tether" / "notes").glob(f"{nid}-*.md")
    note.write_text(note.read_text(encoding="utf-8").replace('kind = "decision"', "kind = decision"), encoding="utf-8")
    r = tether(repo, "doctor")
    assert r.returncode == 1
    assert (f'{note.relative_to(repo)}:3: error: invalid TOML: Invalid value at column 8 in `kind = decision`; '
            f'a text value needs quotes: kind = "decision"') in r.stdout, r.stdout


def test_tether_help_is_the_help(repo):
    """`tether help` was "invalid choice: 'help'"."""
    assert ok(repo, "help").stdout.startswith("usage: tether [-h]")
    assert ok(repo, "help", "record").stdout.startswith("usage: tether record")


def test_init_says_what_comes_next(tmp_path):
    """`tether init` said only "created …/.tether"; the tour never showed a first note on your own code."""
    root = tmp_path / "mine"
    git_init(root)
    r = ok(root, "init")
    assert r.stdout.strip() == f"created {root.resolve() / '.tether'}"
    assert "`tether record decision PATH:LINE --title TITLE`" in r.stderr and "`tether init --agents claude`" in r.stderr
    r = ok(root, "init", "--agents", "claude", env=env_for(HOME=str(login_home(tmp_path)), SHELL="/bin/sh"))
    assert "commit these" in r.stderr and "`tether doctor`" in r.stderr


def test_list_with_lost_anchors_points_at_doctor(repo):
    """`[orphaned]` and `[ambiguous]` in `list` said what became of the code, not what to do."""
    ok(repo, "record", "decision", "src/app.py:4", "--title", "Config is read once")
    assert "tether doctor" not in ok(repo, "list").stderr
    app = repo / "src" / "app.py"
    app.write_text(app.read_text(encoding="utf-8").split("def load_config")[0], encoding="utf-8")
    r = ok(repo, "list")
    assert "[orphaned]" in r.stdout
    assert "1 anchor(s) lost: `tether doctor` names the candidates and the command for each" in r.stderr, r.stderr
