"""`tether export` (rule files for agents that only read files) and `tether init --agents`,
through the real command in real git repositories."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest

from tether.agents.export import Scope

from samples import APP_PY, WEB_TS, git_init, stop_server

RULE_DIRS = (".claude/rules", ".cursor/rules", ".github/instructions")
BEGIN, END = "<!-- tether:begin -->", "<!-- tether:end -->"


# a user whose login shell finds this Python's tether: `init --agents` then writes plain `tether`
LOGIN_HOME = Path(tempfile.mkdtemp(prefix="tether-home-"))
(LOGIN_HOME / ".profile").write_text(f'PATH="{Path(sys.executable).parent}:$PATH"\n', encoding="utf-8")


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("VISUAL", "EDITOR", "GIT_DIR", "GIT_WORK_TREE")}
    env.update(PYTHONIOENCODING="utf-8", GIT_CONFIG_NOSYSTEM="1", HOME=str(LOGIN_HOME), SHELL="/bin/sh")
    r = subprocess.run([sys.executable, "-m", "tether", *args], cwd=cwd, capture_output=True, text=True,
                       env=env, timeout=120)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def ok(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    r = run(cwd, *args)
    assert r.returncode == 0, f"tether {' '.join(args)} -> {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r


def listed(r: subprocess.CompletedProcess, verb: str) -> set[str]:
    """The files `export` printed ("wrote X"; with --check "missing X", "stale X", "obsolete X")."""
    out = set()
    for line in r.stdout.splitlines():
        v, _, rel = line.partition(" ")
        assert v in verb.split("|"), r.stdout
        out.add(rel)
    return out


def tree(root: Path) -> dict[str, bytes]:
    """Every file tether may write, with its bytes."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_file() and not rel.startswith((".git/", ".tether/", "src/", "tools/")):
            out[rel] = p.read_bytes()
    return out


def rule_files(root: Path) -> set[str]:
    return {f"{d}/{p.name}" for d in RULE_DIRS if (root / d).is_dir() for p in (root / d).iterdir()}


def section(text: str) -> str:
    assert text.count(BEGIN) == 1 and text.count(END) == 1, text
    return text[text.index(BEGIN):text.index(END) + len(END)]


# -- a repository with notes of every kind, copied for each test ---------------------------------

@pytest.fixture(scope="module")
def template(tmp_path_factory) -> tuple[Path, dict]:
    root = tmp_path_factory.mktemp("template") / "repo"
    git_init(root)
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text(APP_PY, encoding="utf-8")
    (root / "src" / "web.ts").write_text(WEB_TS, encoding="utf-8")
    (root / "tools").mkdir()
    (root / "tools" / "build.py").write_text("def build():\n    return 1\n", encoding="utf-8")
    ok(root, "init")

    def record(*args):
        return json.loads(ok(root, "record", *args, "--json").stdout)

    ids = {
        "decision": record("decision", "src/app.py:4", "--title", "Load config eagerly",
                           "--rationale", "Startup must fail fast", "--rejected", "lazy loading: errors show late"),
        "invariant": record("invariant", "src/app.py:13", "--span", "--title", "port is set before start returns"),
        "boundary": record("boundary", "src/web.ts:8", "--title", "route only upper-cases"),
        "intent": record("intent", "--glob", "src/**", "--title", "src stays free of I/O at import"),
        "wide": record("invariant", "--glob", "**", "--title", "Nothing logs secrets",
                       "--body", "Tokens and passwords never reach a log line.\n\nMore detail."),
        "workaround": record("workaround", "tools/build.py", "--file", "--title", "build pins the compiler",
                             "--works-around", "compiler 3.1 miscompiles", "--remove-when", "3.2 ships"),
    }
    return root, {k: v["id"] for k, v in ids.items()}


@pytest.fixture
def repo(template, tmp_path) -> tuple[Path, dict]:
    src, ids = template
    root = tmp_path / "repo"
    shutil.copytree(src, root, ignore=shutil.ignore_patterns("cache"))
    return root, ids


EXPECTED = {
    "file:src/app.py": "src-app-py", "file:src/web.ts": "src-web-ts",
    "file:tools/build.py": "tools-build-py", "glob:src/**": "src",
}


def names(kind_key: str) -> dict[str, str]:
    kind, key = kind_key.split(":", 1)
    slug = Scope(kind, key).slug()
    assert slug.startswith(EXPECTED[kind_key] + "-")
    return {"claude": f".claude/rules/tether-{slug}.md", "cursor": f".cursor/rules/tether-{slug}.mdc",
            "copilot": f".github/instructions/tether-{slug}.instructions.md"}


# -- export -------------------------------------------------------------------------------------

def test_export_writes_each_target_with_the_documented_front_matter(repo):
    root, ids = repo
    r = ok(root, "export", "all")
    files = {n for key in EXPECTED for n in names(key).values()}
    assert listed(r, "wrote") == files | {"AGENTS.md", "CLAUDE.md"}
    assert rule_files(root) == files

    app = names("file:src/app.py")
    claude = (root / app["claude"]).read_text(encoding="utf-8")
    assert claude.startswith('---\npaths:\n  - "src/app.py"\n---\n')  # Claude Code: paths, a YAML list
    cursor = (root / app["cursor"]).read_text(encoding="utf-8")
    assert cursor.startswith('---\ndescription: "tether notes (decisions, invariants, boundaries, intents, '
                             'workarounds) for src/app.py"\nglobs: src/app.py\nalwaysApply: false\n---\n')
    copilot = (root / app["copilot"]).read_text(encoding="utf-8")
    assert copilot.startswith('---\ndescription: "tether notes (decisions, invariants, boundaries, intents, '
                              'workarounds) for src/app.py"\napplyTo: "src/app.py"\n---\n')
    for text in (claude, cursor, copilot):
        body = text.split("---\n", 2)[2]
        assert body.startswith("<!-- generated by `tether export`, do not edit")
        assert "# tether notes for `src/app.py`" in body
        # highest value first: the invariant, then the decision; each with its code and its why
        lines = [ln for ln in body.splitlines() if ln.startswith("- ")]
        assert lines == [
            f"- **invariant**: port is set before start returns (on a statement in `Service.start`) "
            f"(note {ids['invariant']})",
            f"- **decision**: Load config eagerly (on `load_config`) — Startup must fail fast. "
            f"Rejected: lazy loading. (note {ids['decision']})",
        ]

    pattern = names("glob:src/**")
    assert (root / pattern["claude"]).read_text(encoding="utf-8").startswith('---\npaths:\n  - "src/**"\n---\n')
    assert "\nglobs: src/**\nalwaysApply: false\n" in (root / pattern["cursor"]).read_text(encoding="utf-8")
    text = (root / pattern["copilot"]).read_text(encoding="utf-8")
    assert '\napplyTo: "src/**"\n' in text and "src stays free of I/O at import" in text
    assert "Nothing logs secrets" not in text and "Load config eagerly" not in text

    web = (root / names("file:src/web.ts")["claude"]).read_text(encoding="utf-8")
    assert f"- **boundary**: route only upper-cases (on `Router.route`) (note {ids['boundary']})" in web
    build = (root / names("file:tools/build.py")["cursor"]).read_text(encoding="utf-8")
    assert ("- **workaround**: build pins the compiler (on the whole file) — Works around: compiler 3.1 "
            "miscompiles. Can go when: 3.2 ships. (note " + ids["workaround"] + ")") in build

    # AGENTS.md and CLAUDE.md: the same short section, repository-wide notes only
    agents = (root / "AGENTS.md").read_text(encoding="utf-8")
    assert (root / "CLAUDE.md").read_text(encoding="utf-8") == agents
    assert agents.startswith(BEGIN + "\n<!-- generated by `tether export`, do not edit") and agents.endswith(END + "\n")
    assert (f"- **invariant**: Nothing logs secrets — Tokens and passwords never reach a log line. "
            f"(note {ids['wide']})") in agents
    for title in ("Load config eagerly", "src stays free", "route only", "build pins"):
        assert title not in agents


def test_one_target_writes_only_its_files(repo):
    root, _ = repo
    r = ok(root, "export", "cursor")
    assert listed(r, "wrote") == {names(key)["cursor"] for key in EXPECTED}
    assert not (root / "AGENTS.md").exists() and not (root / ".claude").exists() and not (root / ".github").exists()
    r = ok(root, "export", "agents", "--write")
    assert listed(r, "wrote") == {"AGENTS.md"}
    assert not (root / "CLAUDE.md").exists()


def test_same_notes_same_bytes_and_a_second_write_writes_nothing(repo, tmp_path):
    root, _ = repo
    other = tmp_path / "elsewhere" / "clone"
    shutil.copytree(root, other)
    ok(root, "export", "all")
    first = tree(root)
    assert ok(root, "export", "all").stdout == ""
    assert ok(root, "export", "all", "--write").stdout == ""
    assert tree(root) == first
    ok(other, "export", "all")
    assert tree(other) == first  # no absolute paths, no timestamps


def test_user_text_around_the_markers_is_kept_byte_for_byte(repo):
    root, ids = repo
    before = "# Agents\r\n\r\nRun `make test` before pushing.\r\n\r\n"
    after = "\r\n## Style\r\n\r\nTabs, never spaces.  \r\nNo trailing newline here"
    (root / "AGENTS.md").write_bytes((before + BEGIN + "\r\nold tether text\r\n" + END + after).encode())
    claude = "# Claude\n\nUser notes, no markers, no final newline ✓"
    (root / "CLAUDE.md").write_bytes(claude.encode())

    ok(root, "export", "all")
    agents = (root / "AGENTS.md").read_bytes().decode()
    assert agents.startswith(before) and agents.endswith(after)
    managed = agents[len(before):len(agents) - len(after)]
    assert managed == section(agents) and "old tether text" not in managed
    assert "\r\n" in managed and "\n" not in managed.replace("\r\n", "")  # the file's own line endings
    assert "Nothing logs secrets" in managed and ids["wide"] in managed

    text = (root / "CLAUDE.md").read_bytes().decode()
    assert text.startswith(claude + "\n\n" + BEGIN) and text.endswith(END + "\n")  # appended
    assert section(text) == section(agents).replace("\r\n", "\n")

    # an edit by the user outside the markers survives the next export untouched
    (root / "CLAUDE.md").write_bytes(text.replace("User notes", "User notes, edited").encode() + b"\nMore.\n")
    edited = (root / "CLAUDE.md").read_bytes()
    assert ok(root, "export", "all").stdout == ""
    assert (root / "CLAUDE.md").read_bytes() == edited


def test_check_reports_stale_files_and_changes_nothing(repo):
    root, ids = repo
    r = run(root, "export", "all", "--check")
    assert r.returncode == 1 and "AGENTS.md" in listed(r, "missing") and not (root / "AGENTS.md").exists()
    assert "`tether export` writes them" in r.stderr
    ok(root, "export", "all")
    assert ok(root, "export", "--check").stdout == ""

    # a note changes (a hand edit, or a pull): its files are stale
    note = next((root / ".tether" / "notes").glob(f"{ids['decision']}-*.md"))
    note.write_text(note.read_text(encoding="utf-8").replace("Startup must fail fast", "Fail before serving"),
                    encoding="utf-8")
    snapshot = tree(root)
    r = run(root, "export", "--check")
    assert r.returncode == 1 and listed(r, "stale") == set(names("file:src/app.py").values())
    assert tree(root) == snapshot  # --check wrote nothing
    assert listed(ok(root, "export", "all"), "wrote") == set(names("file:src/app.py").values())
    assert "Fail before serving" in (root / names("file:src/app.py")["claude"]).read_text(encoding="utf-8")

    # a note is added: its file's rules are stale; a repository-wide one changes the section
    ok(root, "record", "decision", "src/web.ts:1", "--title", "handle doubles the length")
    ok(root, "record", "boundary", "--glob", "**/*", "--title", "No network calls in tests")
    r = run(root, "export", "--check")
    assert r.returncode == 1
    assert listed(r, "stale") == set(names("file:src/web.ts").values()) | {"AGENTS.md", "CLAUDE.md"}
    ok(root, "export", "all")
    assert "No network calls in tests" in (root / "AGENTS.md").read_text(encoding="utf-8")

    # the only note on a file is retired: its rule files are obsolete, then deleted
    ok(root, "retire", ids["workaround"])
    r = run(root, "export", "--check")
    assert r.returncode == 1 and listed(r, "obsolete") == set(names("file:tools/build.py").values())
    assert all((root / rel).exists() for rel in names("file:tools/build.py").values())
    assert listed(ok(root, "export", "all"), "wrote") == set(names("file:tools/build.py").values())
    assert not any((root / rel).exists() for rel in names("file:tools/build.py").values())
    assert ok(root, "export", "--check").stdout == ""


def test_check_covers_only_what_init_agents_set_up(repo):
    """A team that never set up agents is not told that 35 rule files are missing; one that set up
    Claude Code is told about Claude's files, not Cursor's or Copilot's."""
    root, ids = repo
    r = run(root, "export", "--check")
    assert r.returncode == 0 and r.stdout == "" and "tether init --agents" in r.stderr
    assert tree(root) == {}

    ok(root, "init", "--agents", "claude")
    assert ok(root, "export", "--check").stdout == ""
    ok(root, "record", "decision", "src/web.ts:1", "--title", "handle doubles the length")
    r = run(root, "export", "--check")
    assert r.returncode == 1 and listed(r, "stale") == {names("file:src/web.ts")["claude"]}
    assert listed(ok(root, "export"), "wrote") == {names("file:src/web.ts")["claude"]}
    assert not (root / ".cursor").exists() and not (root / "AGENTS.md").exists()
    # every agent's files, when asked for by name
    assert "AGENTS.md" in listed(run(root, "export", "all", "--check"), "missing|stale")


def test_superseded_and_retired_notes_are_not_exported(repo):
    root, ids = repo
    new = json.loads(ok(root, "record", "decision", "src/app.py:4", "--title", "Load config lazily after all",
                        "--json").stdout)["id"]
    ok(root, "supersede", ids["decision"], "--by", new)
    ok(root, "retire", ids["wide"])
    ok(root, "export", "all")
    text = (root / names("file:src/app.py")["copilot"]).read_text(encoding="utf-8")
    assert "Load config lazily after all" in text and "Load config eagerly" not in text
    agents = (root / "AGENTS.md").read_text(encoding="utf-8")
    assert "Nothing logs secrets" not in agents and "No note applies to the whole repository." in agents


def test_only_tether_files_in_the_rule_folders_are_touched(repo):
    root, _ = repo
    mine = {".cursor/rules/python-style.mdc": "---\nglobs: **/*.py\n---\nfour spaces\n",
            ".claude/rules/testing.md": "Run pytest.\n",
            ".github/instructions/docs.instructions.md": '---\napplyTo: "docs/**"\n---\nShort sentences.\n'}
    for rel, text in mine.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    old = root / ".claude/rules/tether-src-gone-py-0123abcd.md"
    old.write_text("from an earlier export\n", encoding="utf-8")

    r = run(root, "export", "claude", "--check")
    assert r.returncode == 1 and ".claude/rules/tether-src-gone-py-0123abcd.md" in listed(r, "missing|obsolete")
    ok(root, "export", "all")
    assert not old.exists()
    for rel, text in mine.items():
        assert (root / rel).read_text(encoding="utf-8") == text


def test_markers_out_of_pairs_are_refused_and_nothing_is_written(repo):
    root, _ = repo
    (root / "AGENTS.md").write_text(f"# Agents\n\n{BEGIN}\nhalf a section\n", encoding="utf-8")
    r = run(root, "export", "all")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("tether: AGENTS.md:3: ") and "tether:end" in r.stderr
    assert rule_files(root) == set() and not (root / "CLAUDE.md").exists()
    assert (root / "AGENTS.md").read_text(encoding="utf-8") == f"# Agents\n\n{BEGIN}\nhalf a section\n"


def test_a_broken_note_file_is_refused_rather_than_left_out(repo):
    root, _ = repo
    (root / ".tether/notes/01m8vhmgfegz98tfxwnzccy4qy-half-written.md").write_text(
        '+++\nid = "01m8vhmgfegz98tfxwnzccy4qy"\nkind = "decision"\n', encoding="utf-8")
    r = run(root, "export", "all")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("tether: .tether/notes/01m8vhmgfegz98tfxwnzccy4qy-half-written.md:")
    assert "tether doctor" in r.stderr and tree(root) == {}


def test_slugs_are_stable_readable_and_distinct():
    a, b, c = Scope("file", "src/a-b.py"), Scope("file", "src/a_b.py"), Scope("file", "src/A-b.py")
    assert a.slug() == Scope("file", "src/a-b.py").slug() and a.slug().startswith("src-a-b-py-")
    assert len({a.slug(), b.slug(), c.slug(), Scope("glob", "src/a-b.py").slug()}) == 4
    assert Scope("glob", "**/*.py").slug().startswith("py-")
    # file names with glob characters stay literal; a pattern also covers what is below it
    assert Scope("file", "app/[id]/page.tsx").globs == ["app/[[]id[]]/page.tsx"]
    assert Scope("glob", "src/auth").globs == ["src/auth", "src/auth/**"]
    assert Scope("glob", "src/**").globs == ["src/**"]


# -- init --agents ------------------------------------------------------------------------------

SERVER = {"type": "stdio", "command": "tether", "args": ["mcp"]}
CLAUDE_HOOK = {"type": "command", "command": "tether hook claude-code --serve", "timeout": 15}
COPILOT_HOOK = {"type": "command", "command": "tether hook copilot --serve", "timeout": 15}


def load(root: Path, rel: str):
    return json.loads((root / rel).read_text(encoding="utf-8"))


def test_init_agents_writes_every_config_and_a_second_run_changes_nothing(repo):
    root, _ = repo
    r = ok(root, "init", "--agents", "--json")
    changed = set(json.loads(r.stdout)["agent_files"])
    configs = {".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json", ".claude/settings.json", ".github/hooks/tether.json",
               ".cursor/hooks.json"}
    assert changed == configs | {".tether/agents.toml", "AGENTS.md", "CLAUDE.md"} | rule_files(root)
    assert "\nask_at_stop = true\n" in (root / ".tether/agents.toml").read_text(encoding="utf-8")
    assert len(rule_files(root)) == 3 * len(EXPECTED)

    assert load(root, ".mcp.json") == {"mcpServers": {"tether": SERVER}}
    assert load(root, ".vscode/mcp.json") == {"servers": {"tether": SERVER}}
    assert load(root, ".cursor/mcp.json") == {"mcpServers": {"tether": SERVER}}
    assert load(root, ".claude/settings.json") == {"hooks": {
        "SessionStart": [{"hooks": [CLAUDE_HOOK]}],
        "UserPromptSubmit": [{"hooks": [CLAUDE_HOOK]}],
        "PreToolUse": [{"matcher": "Read|Edit|Write|MultiEdit|NotebookEdit", "hooks": [CLAUDE_HOOK]}],
        "PostToolUse": [{"matcher": "Read|Edit|Write|MultiEdit|NotebookEdit|Bash", "hooks": [CLAUDE_HOOK]}],
        "PostToolUseFailure": [{"hooks": [CLAUDE_HOOK]}],
        "Stop": [{"hooks": [CLAUDE_HOOK]}],
        "PreCompact": [{"hooks": [CLAUDE_HOOK]}],
        "SessionEnd": [{"hooks": [CLAUDE_HOOK]}],
    }}
    assert load(root, ".github/hooks/tether.json") == {"hooks": {
        "SessionStart": [COPILOT_HOOK], "PreToolUse": [COPILOT_HOOK], "PostToolUse": [COPILOT_HOOK],
        "PreCompact": [COPILOT_HOOK], "Stop": [COPILOT_HOOK]}}
    cursor = {"command": "tether hook cursor --serve", "timeout": 15}
    assert load(root, ".cursor/hooks.json") == {"version": 1, "hooks": {
        "sessionStart": [cursor], "beforeSubmitPrompt": [cursor],
        "postToolUse": [{**cursor, "matcher": "Read|Write|Shell"}], "postToolUseFailure": [cursor],
        "preCompact": [cursor], "stop": [cursor], "sessionEnd": [cursor]}}

    before = tree(root)
    assert json.loads(ok(root, "init", "--agents", "--json").stdout)["agent_files"] == []
    r = ok(root, "init", "--agents")
    assert r.stdout.startswith("already set up:") and "wrote" not in r.stdout
    assert tree(root) == before
    assert ok(root, "export", "--check").stdout == ""


def test_init_agents_merges_with_the_users_configs(repo):
    root, _ = repo
    settings = {
        "permissions": {"allow": ["Bash(make test)"]},
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}],
            "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hello"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
        },
        "model": "opus",
    }
    (root / ".claude").mkdir()
    (root / ".claude/settings.json").write_text(json.dumps(settings, indent=4) + "\n", encoding="utf-8")
    mcp = {"mcpServers": {"github": {"command": "gh-mcp", "args": ["--stdio"], "env": {"TOKEN": "x"}}},
           "other": True}
    (root / ".mcp.json").write_text(json.dumps(mcp, indent=2) + "\n", encoding="utf-8")

    ok(root, "init", "--agents")
    got = load(root, ".claude/settings.json")
    assert list(got) == ["permissions", "hooks", "model"] and got["permissions"] == settings["permissions"]
    assert list(got["hooks"]) == ["PreToolUse", "SessionStart", "Stop", "UserPromptSubmit", "PostToolUse",
                                  "PostToolUseFailure", "PreCompact", "SessionEnd"]
    assert got["hooks"]["PreToolUse"] == [
        settings["hooks"]["PreToolUse"][0],
        {"matcher": "Read|Edit|Write|MultiEdit|NotebookEdit", "hooks": [CLAUDE_HOOK]}]
    assert got["hooks"]["SessionStart"] == [settings["hooks"]["SessionStart"][0], {"hooks": [CLAUDE_HOOK]}]
    assert got["hooks"]["Stop"] == [settings["hooks"]["Stop"][0], {"hooks": [CLAUDE_HOOK]}]
    assert (root / ".claude/settings.json").read_text(encoding="utf-8").startswith('{\n    "permissions"')  # 4 spaces

    got = load(root, ".mcp.json")
    assert list(got) == ["mcpServers", "other"] and got["other"] is True
    assert got["mcpServers"] == {**mcp["mcpServers"], "tether": SERVER}

    before = tree(root)
    assert json.loads(ok(root, "init", "--agents", "--json").stdout)["agent_files"] == []
    assert tree(root) == before


def test_init_agents_refuses_a_broken_json_config_and_writes_nothing(repo):
    root, _ = repo
    broken = '{\n  servers: {}\n}\n'  # a key not in quotes (comments are fine in this file: JSONC)
    (root / ".vscode").mkdir()
    (root / ".vscode/mcp.json").write_text(broken, encoding="utf-8")
    r = run(root, "init", "--agents")
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tether: .vscode/mcp.json:2:3: not valid JSON"), r.stderr
    assert "nothing was changed" in lines[0]
    assert (root / ".vscode/mcp.json").read_text(encoding="utf-8") == broken
    assert tree(root) == {".vscode/mcp.json": broken.encode()}  # no other config, no rule file


def test_init_agents_sets_up_only_the_agents_named(repo):
    root, _ = repo
    r = ok(root, "init", "--agents", "claude,codex", "--json")
    claude_rules = {f for f in rule_files(root) if f.startswith(".claude/")}
    assert set(json.loads(r.stdout)["agent_files"]) == \
        {".mcp.json", ".claude/settings.json", ".codex/config.toml", ".tether/agents.toml", "AGENTS.md",
         "CLAUDE.md"} | claude_rules
    assert rule_files(root) == claude_rules and len(claude_rules) == len(EXPECTED)
    assert not any((root / d).exists() for d in (".cursor", ".vscode", ".github", ".gemini"))
    assert tomllib.loads((root / ".codex/config.toml").read_text(encoding="utf-8")) == \
        {"mcp_servers": {"tether": {"command": "tether", "args": ["mcp"]}}}
    # Codex has no hooks: AGENTS.md names the MCP tool that gives the notes for a place
    assert "the tool `get_context(path, line)` gives the notes for a place" in \
        section((root / "AGENTS.md").read_text(encoding="utf-8"))

    r = ok(root, "init", "--agents", "gemini", "--json")
    assert json.loads(r.stdout)["agent_files"] == [".gemini/settings.json"]
    gemini = {"type": "command", "command": "tether hook gemini --serve", "name": "tether", "timeout": 15000}
    assert load(root, ".gemini/settings.json") == {
        "mcpServers": {"tether": {"command": "tether", "args": ["mcp"]}},
        "hooks": {"SessionStart": [{"hooks": [gemini]}], "BeforeAgent": [{"hooks": [gemini]}],
                  "AfterTool": [{"matcher": "read_file|write_file|replace|run_shell_command", "hooks": [gemini]}],
                  "PreCompress": [{"hooks": [gemini]}], "AfterAgent": [{"hooks": [gemini]}],
                  "SessionEnd": [{"hooks": [gemini]}]}}

    r = ok(root, "init", "--agents", "ALL", "--json")  # names are not case-sensitive
    assert {".cursor/hooks.json", ".vscode/mcp.json", ".github/hooks/tether.json"} <= \
        set(json.loads(r.stdout)["agent_files"])
    before = tree(root)
    assert json.loads(ok(root, "init", "--agents", "all", "--json").stdout)["agent_files"] == []
    assert tree(root) == before


def test_init_agents_refuses_an_unknown_agent_before_writing_anything(tmp_path):
    git_init(tmp_path)
    for spec in ("claude,cursr", "nope", ","):
        r = run(tmp_path, "init", "--agents", spec)
        assert r.returncode == 2 and r.stdout == ""
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1, r.stderr
        assert lines[0].startswith("tether: --agents: unknown agent '")
        assert lines[0].endswith("the agents are claude, codex, cursor, gemini, vscode (comma-separated), or all")
    assert "claude, codex, cursor, gemini, vscode" in ok(tmp_path, "init", "--help").stdout.replace("\n", " ")
    assert [p.name for p in tmp_path.iterdir()] == [".git"]  # not even .tether/


def test_init_agents_names_the_tether_that_ran_it_when_path_does_not_find_it(repo, monkeypatch):
    root, _ = repo
    script = Path(sys.executable).parent / "tether"  # the console script pip installed beside this Python
    bare = {k: v for k, v in os.environ.items() if k not in ("GIT_DIR", "GIT_WORK_TREE")}
    bare.update(PATH="/usr/bin:/bin", PYTHONIOENCODING="utf-8", GIT_CONFIG_NOSYSTEM="1",
                XDG_RUNTIME_DIR=str(root.parent / "run"))  # where the server the --serve hook starts listens
    assert shutil.which("tether", path=bare["PATH"]) is None
    (root / ".cursor").mkdir()
    (root / ".cursor/hooks.json").write_text(json.dumps({"version": 1, "hooks": {
        "postToolUse": [{"command": "./hooks/format.sh"}]}}), encoding="utf-8")

    r = subprocess.run([str(script), "init", "--agents", "all"], cwd=root, env=bare, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    exe = str(script)
    # the hooks: its interpreter (the script's #! line) without site, on its package's __main__.py
    python = script.read_text(encoding="utf-8").split("\n", 1)[0][2:].strip()
    main = Path(__import__("tether").__file__).resolve().parent / "__main__.py"
    hook = lambda agent: f"{python} -P -S {main} hook {agent} --serve"  # noqa: E731
    assert load(root, ".mcp.json")["mcpServers"]["tether"] == {"type": "stdio", "command": exe, "args": ["mcp"]}
    assert load(root, ".gemini/settings.json")["mcpServers"]["tether"] == {"command": exe, "args": ["mcp"]}
    assert tomllib.loads((root / ".codex/config.toml").read_text(encoding="utf-8"))["mcp_servers"]["tether"] == \
        {"command": exe, "args": ["mcp"]}
    assert load(root, ".claude/settings.json")["hooks"]["SessionStart"] == \
        [{"hooks": [{**CLAUDE_HOOK, "command": hook("claude-code")}]}]
    cursor = load(root, ".cursor/hooks.json")["hooks"]
    assert cursor["postToolUse"] == [{"command": "./hooks/format.sh"},  # the user's own hook stays
                                     {"command": hook("cursor"), "timeout": 15, "matcher": "Read|Write|Shell"}]

    # the command written runs where PATH has no tether, as an agent would run it
    start = {"conversation_id": "c", "hook_event_name": "sessionStart", "workspace_roots": [str(root)]}
    r = subprocess.run(cursor["sessionStart"][0]["command"], shell=True, cwd=root, env=bare, capture_output=True,
                       text=True, input=json.dumps(start), timeout=60)
    assert r.returncode == 0 and "Nothing logs secrets" in json.loads(r.stdout)["additional_context"]
    monkeypatch.setenv("XDG_RUNTIME_DIR", bare["XDG_RUNTIME_DIR"])
    stop_server(root)  # started by that hook; it would wait 30 minutes for the next

    # run again where PATH finds tether: tether's entries name it plainly, nothing is added twice
    ok(root, "init", "--agents", "all")
    assert load(root, ".mcp.json")["mcpServers"]["tether"] == SERVER
    assert load(root, ".claude/settings.json")["hooks"]["PreToolUse"] == \
        [{"matcher": "Read|Edit|Write|MultiEdit|NotebookEdit", "hooks": [CLAUDE_HOOK]}]
    cursor = load(root, ".cursor/hooks.json")["hooks"]
    assert [h["command"] for h in cursor["postToolUse"]] == ["./hooks/format.sh", "tether hook cursor --serve"]
    assert load(root, ".github/hooks/tether.json")["hooks"]["PreCompact"] == [COPILOT_HOOK]

    # started as `python -m tether` where PATH has no tether: that same interpreter
    r = subprocess.run([sys.executable, "-m", "tether", "init", "--agents", "codex"], cwd=root, env=bare,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert tomllib.loads((root / ".codex/config.toml").read_text(encoding="utf-8"))["mcp_servers"]["tether"] == \
        {"command": sys.executable, "args": ["-P", "-m", "tether", "mcp"]}


CODEX = """\
# my Codex settings
model = "o3"

[mcp_servers.github]
command = "gh-mcp"  # the GitHub server
args = ["--stdio"]

[mcp_servers.tether]
command = "old/bin/tether"
startup_timeout_sec = 20
args = ["mcp"]

[profiles.fast]
model = "o4-mini"
"""


def test_init_agents_merges_the_codex_config_and_refuses_broken_toml(repo):
    root, _ = repo
    (root / ".codex").mkdir()
    (root / ".codex/config.toml").write_text(CODEX, encoding="utf-8")
    ok(root, "init", "--agents", "codex")
    got = (root / ".codex/config.toml").read_text(encoding="utf-8")
    assert got == CODEX.replace('command = "old/bin/tether"\nstartup_timeout_sec = 20\nargs = ["mcp"]',
                                'command = "tether"\nargs = ["mcp"]\nstartup_timeout_sec = 20')
    assert tomllib.loads(got)["mcp_servers"]["tether"] == {"command": "tether", "args": ["mcp"],
                                                           "startup_timeout_sec": 20}
    assert json.loads(ok(root, "init", "--agents", "codex", "--json").stdout)["agent_files"] == []

    broken = 'model = "o3"\n[mcp_servers\ncommand = "x"\n'
    (root / ".codex/config.toml").write_text(broken, encoding="utf-8")
    before = tree(root)
    r = run(root, "init", "--agents", "codex,claude")
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tether: .codex/config.toml:2:"), r.stderr
    assert "not valid TOML" in lines[0] and "nothing was changed" in lines[0]
    assert tree(root) == before


# -- init --agents: all or nothing, markers in examples, JSONC -------------------------------------

@contextlib.contextmanager
def read_only(folder: Path):
    """``folder`` where nothing can be created or replaced: its mode, or, for root (whom modes
    do not stop), immutable (``chattr +i``)."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    r = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"no read-only folder can be made here: {r.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_init_agents_with_a_folder_it_cannot_write_changes_nothing_and_says_so(tmp_path):
    git_init(tmp_path)
    (tmp_path / ".vscode").mkdir()
    (tmp_path / "AGENTS.md").write_text("# How we work\n", encoding="utf-8")
    before = tree(tmp_path)
    with read_only(tmp_path / ".vscode"):
        r = run(tmp_path, "init", "--agents", "all")
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tether: .vscode/mcp.json: cannot write"), r.stderr
    assert lines[0].endswith("nothing was changed")
    assert tree(tmp_path) == before and not (tmp_path / ".tether").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".git", ".vscode", "AGENTS.md"]
    ok(tmp_path, "init", "--agents", "all")  # once it can be written: everything
    assert {".vscode/mcp.json", ".mcp.json", ".gemini/settings.json", ".codex/config.toml"} <= set(tree(tmp_path))


def test_a_refused_init_leaves_no_tether_folder_behind(tmp_path):
    git_init(tmp_path)
    (tmp_path / ".mcp.json").write_text('{\n  // Claude reads plain JSON\n  "mcpServers": {}\n}\n', encoding="utf-8")
    r = run(tmp_path, "init", "--agents", "claude")
    assert r.returncode == 2 and "nothing was changed" in r.stderr
    assert r.stderr.startswith("tether: .mcp.json:2:3: not valid JSON"), r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [".git", ".mcp.json"]


def test_markers_shown_in_a_code_block_are_the_users_example(tmp_path):
    git_init(tmp_path)
    example = ("# Agents\n\ntether keeps its notes between two markers, like this:\n\n```markdown\n"
               f"{BEGIN}\n(the notes)\n{END}\n```\n\nKeep your own text outside them.\n")
    (tmp_path / "AGENTS.md").write_text(example, encoding="utf-8")
    ok(tmp_path, "init", "--agents", "cursor")
    text = (tmp_path / "AGENTS.md").read_text(encoding="utf-8")
    assert text.startswith(example)  # the example as it was, tether's section after it
    assert text.count(BEGIN) == 2 and "## tether notes" in text[len(example):]
    before = tree(tmp_path)
    ok(tmp_path, "init", "--agents", "cursor")
    assert tree(tmp_path) == before


VSCODE_JSONC = """\
{
    // servers this team runs
    "servers": {
        "docs": {"type": "http", "url": "https://docs.example/mcp"}, // read-only
    },
    /* inputs come later */
}
"""
GEMINI_JSONC = """\
// Gemini CLI strips comments before reading
{
  "theme": "GitHub", // the team's
  "mcpServers": {}
}
"""


def test_init_agents_merges_jsonc_configs_keeping_their_comments(tmp_path):
    git_init(tmp_path)
    for rel, text in ((".vscode/mcp.json", VSCODE_JSONC), (".gemini/settings.json", GEMINI_JSONC)):
        (tmp_path / rel).parent.mkdir()
        (tmp_path / rel).write_text(text, encoding="utf-8")
    ok(tmp_path, "init", "--agents", "vscode,gemini")
    vscode = (tmp_path / ".vscode/mcp.json").read_text(encoding="utf-8")
    gemini = (tmp_path / ".gemini/settings.json").read_text(encoding="utf-8")
    for comment in ("// servers this team runs", "// read-only", "/* inputs come later */"):
        assert comment in vscode
    for comment in ("// Gemini CLI strips comments before reading", "// the team's"):
        assert comment in gemini
    from tether.agents.jsonc import parse
    servers = parse(vscode)[0]["servers"]
    assert servers["docs"] == {"type": "http", "url": "https://docs.example/mcp"}
    assert servers["tether"] == {"type": "stdio", "command": "tether", "args": ["mcp"]}
    settings = parse(gemini)[0]
    assert settings["theme"] == "GitHub" and settings["mcpServers"]["tether"] == {"command": "tether", "args": ["mcp"]}
    assert "tether hook gemini --serve" in json.dumps(settings["hooks"])
    before = tree(tmp_path)
    assert json.loads(ok(tmp_path, "init", "--agents", "vscode,gemini", "--json").stdout)["agent_files"] == []
    assert tree(tmp_path) == before
