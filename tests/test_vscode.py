"""The VS Code extension (client-vscode/), each layer run as a subprocess:

- the unit tests of its pure modules (node's test runner) and its type check (tsc);
- a protocol test: the real ``tether lsp`` driven over stdio by vscode-languageserver-protocol,
  the JSON-RPC stack VS Code's language client uses;
- ``npm run package``: the .vsix, built offline with @vscode/vsce;
- end to end: that .vsix installed in a real VS Code (code-server 4.x on Node 24) and driven
  through Debian's chromium with playwright-core (tests/vscode/e2e.mjs), screenshots of each
  step in client-vscode/test-artifacts/e2e/.

tests/vscode/install.sh installs what they need (the README's test command runs it first). A
missing prerequisite is a failure that says what is missing, never a skip."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "client-vscode"
INSTALL = ROOT / "tests" / "vscode" / "install.sh"
E2E = ROOT / "tests" / "vscode" / "e2e.mjs"
ARTIFACTS = CLIENT / "test-artifacts" / "e2e"
HOW = "run `bash tests/vscode/install.sh` first (the README's test command does)"


def run(cmd: list[str], timeout: float, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "TETHER_PYTHON": sys.executable, "NO_COLOR": "1", "FORCE_COLOR": "0", **kw.pop("env", {})}
    try:
        return subprocess.run(cmd, cwd=kw.pop("cwd", CLIENT), env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"{' '.join(cmd)} did not finish within {timeout} s\n{e.stdout or ''}\n{e.stderr or ''}", pytrace=False)


def report(p: subprocess.CompletedProcess) -> str:
    return f"\n--- stdout ---\n{p.stdout[-12000:]}\n--- stderr ---\n{p.stderr[-6000:]}"


def node_test_counts(p: subprocess.CompletedProcess) -> tuple[int, int]:
    """node --test's closing lines: (# pass N, # fail N)."""
    passed = re.search(r"^# pass (\d+)$", p.stdout, re.M)
    failed = re.search(r"^# fail (\d+)$", p.stdout, re.M)
    assert passed and failed, "node's test runner printed no summary" + report(p)
    return int(passed.group(1)), int(failed.group(1))


@pytest.fixture(scope="module")
def npm() -> str:
    found = shutil.which("npm")
    if not found:
        pytest.fail("npm is not on PATH (Node 20 + npm are expected on the machine)", pytrace=False)
    if not (CLIENT / "node_modules" / ".bin" / "esbuild").exists():
        pytest.fail(f"client-vscode/node_modules is missing: {HOW}", pytrace=False)
    return found


def test_unit_tests_of_the_pure_modules(npm):
    p = run([npm, "run", "--silent", "test:unit"], timeout=120)
    passed, failed = node_test_counts(p)
    assert p.returncode == 0 and failed == 0, report(p)
    assert passed >= 29, f"only {passed} unit tests ran" + report(p)


def test_type_check(npm):
    p = run([npm, "run", "--silent", "typecheck"], timeout=180)
    assert p.returncode == 0, report(p)


def test_protocol_against_the_real_server(npm):
    p = run([npm, "run", "--silent", "test:protocol"], timeout=180)
    passed, failed = node_test_counts(p)
    assert p.returncode == 0 and failed == 0, report(p)
    assert passed >= 8, report(p)


@pytest.fixture(scope="module")
def vsix(npm) -> Path:
    out = CLIENT / "tether.vsix"
    out.unlink(missing_ok=True)
    p = run([npm, "run", "--silent", "package"], timeout=180)
    assert p.returncode == 0 and out.exists(), "npm run package failed" + report(p)
    return out


def server_commands() -> set[str]:
    src = (ROOT / "server" / "tether" / "lsp" / "server.py").read_text()
    return set(re.findall(r'@_command\("([^"]+)"', src))


def test_the_vsix_holds_the_bundle_and_declares_its_commands(vsix):
    with zipfile.ZipFile(vsix) as z:
        names = set(z.namelist())
        manifest = json.loads(z.read("extension/package.json"))
    assert {"extension/dist/extension.js", "extension/package.json", "extension/LICENSE.txt"} <= names, names
    assert not any("node_modules" in n or n.startswith("extension/src/") for n in names), names
    ours = {c["command"] for c in manifest["contributes"]["commands"]}
    for cmd in ("tether.restartServer", "tether.recordDecision", "tether.recordInvariant", "tether.recordBoundary",
                "tether.recordIntent", "tether.recordWorkaround", "tether.copyAgentContext", "tether.setUpAgents"):
        assert cmd in ours
    # vscode-languageclient registers the server's commands itself: the same id twice fails
    assert server_commands(), "no @_command found in server.py"
    assert not ours & server_commands(), ours & server_commands()
    settings = manifest["contributes"]["configuration"]["properties"]
    assert {"tether.serverCommand", "tether.severity", "tether.codeLens", "tether.trace.server"} <= set(settings)
    assert all(s.get("description") or s.get("markdownDescription") for s in settings.values())


def test_end_to_end_in_a_real_vs_code(vsix):
    tools = Path(subprocess.run(["bash", str(INSTALL), "--where"], capture_output=True, text=True, check=True).stdout.strip())
    missing = [what for what, ok in (
        (f"the end-to-end tools in {tools}", (tools / ".complete").exists()),
        ("Debian's chromium (/usr/bin/chromium)", Path(os.environ.get("TETHER_CHROMIUM", "/usr/bin/chromium")).exists()),
    ) if not ok]
    if missing:
        pytest.fail(f"cannot run the end-to-end test: missing {', '.join(missing)}: {HOW}", pytrace=False)
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    p = run(["node", str(E2E)], timeout=480, cwd=ROOT, env={
        "TETHER_VSCODE_TOOLS": str(tools), "TETHER_VSIX": str(vsix), "TETHER_E2E_ARTIFACTS": str(ARTIFACTS)})
    assert p.returncode == 0 and "PASS e2e" in p.stdout, report(p)
    for shot in ("1-hover.png", "2-diagnostic.png", "3-record.png", "4-view.png"):
        assert (ARTIFACTS / shot).stat().st_size > 10_000, shot
    print(p.stdout)
