"""`tether site` in a real browser: a git repository with notes in every state (a decision
with rejected options, a broken invariant check, an orphaned anchor, a superseded decision,
a path pattern, a candidate an agent proposed), the site written by the real command, then
opened from file:// in headless chromium — links clicked, a search typed, the page read as
a person sees it (its text through the DOM) on a wide screen and a phone. Screenshots are
kept in test-artifacts/site/ (git-ignored). A missing chromium is a failure, never a skip."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from browser import CHROMIUM, Browser, available
from samples import APP_PY, TETHER, WEB_TS, git_init

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "site"

PAY_PY = '''\
import time


def charge(amount_cents):
    """Charge a customer."""
    if amount_cents <= 0:
        raise ValueError("refused")
    time.sleep(1)
    return amount_cents
'''

TRANSCRIPT = ('{"type":"user","timestamp":"2026-12-01T10:00:00.000Z","sessionId":"s1","message":'
              '{"role":"user","content":"The config files must never be written by the service."}}\n')


def run(cwd: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("GIT_DIR", "GIT_WORK_TREE")}
    r = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == code and "Traceback" not in r.stderr, f"{args} -> {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r


def tether(cwd: Path, *args: str, code: int = 0) -> str:
    return run(cwd, TETHER, *args, code=code).stdout.strip()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("site") / "repo"
    git_init(root)
    (root / "src").mkdir()
    for name, text in (("app.py", APP_PY), ("pay.py", PAY_PY), ("web.ts", WEB_TS)):
        (root / "src" / name).write_text(text, encoding="utf-8")
    tether(root, "init")
    ids = {
        "config": tether(root, "record", "decision", "src/app.py:4", "--title", "Configuration is read once at start",
                         "--rationale", "Reading it on every request cost 40 ms a call.",
                         "--rejected", "watch the file: inotify is not available on the build hosts"),
        "sleep": tether(root, "record", "invariant", "src/pay.py:4", "--title", "Charging never blocks",
                        "--forbid-call", "time.sleep"),
        "port": tether(root, "record", "decision", "src/app.py:12", "--title", "The service binds its own port"),
        "chars": tether(root, "record", "decision", "src/web.ts:1", "--title", "Requests are measured in characters"),
        "scope": tether(root, "record", "intent", "--glob", "src/**", "--title", "src/ holds only the shipped service"),
    }
    run(root, "git", "add", "-A")
    run(root, "git", "commit", "-qm", "Record why the service is built this way")
    ids["bytes"] = tether(root, "record", "decision", "src/web.ts:1", "--title", "Requests are measured in bytes",
                          "--rationale", "Limits are on the wire, and the wire carries bytes.")
    tether(root, "supersede", ids["chars"], "--by", ids["bytes"])
    run(root, "git", "add", "-A")
    run(root, "git", "commit", "-qm", "Measure requests in bytes")
    (root / "src" / "app.py").write_text(APP_PY.split("class Service")[0], encoding="utf-8")  # start() is gone
    (root / "t.jsonl").write_text(TRANSCRIPT, encoding="utf-8")
    tether(root, "distill", "--transcript", "t.jsonl")
    out = root.parent / "public"
    said = tether(root, "site", "--out", str(out))
    assert said.startswith("wrote ") and str(out / "index.html") in said
    return {"root": root, "out": out, "ids": ids}


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    assert available(), f"chromium is missing ({CHROMIUM}): `apt-get install chromium` (tests/vscode/install.sh does)"
    b = Browser(tmp_path_factory.mktemp("chromium"))
    b.size(1280, 900)
    yield b
    b.close()


def test_home_page_says_what_needs_attention(site, browser):
    browser.open((site["out"] / "index.html").as_uri())
    main = browser.text("main")
    assert "6 notes" in main and "4 decisions" not in main  # one decision of four is superseded
    assert "3 decisions" in main and "1 invariant" in main and "1 superseded" in main
    lost = browser.text("#lost")
    assert "The service binds its own port" in lost and "orphaned" in lost
    failing = browser.text("#findings")
    assert "src/pay.py:8" in failing and "Charging never blocks" in failing and "time.sleep" in failing
    browser.screenshot(ARTIFACTS / "home.png")
    browser.click("#findings a", "src/pay.py:8")
    assert browser.url.endswith("files/src/pay.py.html#L8")
    assert browser.js("document.getElementById('L8').innerText").endswith("time.sleep(1)")
    browser.open((site["out"] / "index.html").as_uri())
    proposed = browser.text("#candidates")
    assert "The config files must never be written by the service" in proposed and "tether accept" in proposed


def test_follow_a_note_to_its_code(site, browser):
    browser.open((site["out"] / "index.html").as_uri())
    browser.click("main a", "Configuration is read once at start")
    assert browser.url.endswith(f"notes/{site['ids']['config']}.html")
    page = browser.text("main")
    assert "Reading it on every request cost 40 ms a call." in page
    assert "Rejected options" in page and "inotify is not available on the build hosts" in page
    assert "Record why the service is built this way" in browser.text(".history")  # git log of its file
    browser.screenshot(ARTIFACTS / "note.png")

    browser.click(".anchors a", "src/app.py")
    assert browser.url.endswith("files/src/app.py.html#L4")
    assert browser.js("document.getElementById('L4').innerText") == "4def load_config(path):"
    assert browser.js("document.querySelector('#L4 .fn').innerText") == "load_config"  # highlighted
    assert browser.js("document.querySelector('#L4 .kw').innerText") == "def"
    assert "Configuration is read once at start" in browser.js("document.getElementById('L4').closest('.tie').innerText")
    assert browser.js("(r => 0 <= r.top && r.top < innerHeight)(document.getElementById('L4').getBoundingClientRect())")
    assert "src/ holds only the shipped service" in browser.text("main")  # the pattern covering the file
    assert "The service binds its own port" in browser.text(".lost")
    browser.screenshot(ARTIFACTS / "file.png")


def test_search_from_any_page(site, browser):
    browser.open((site["out"] / "files" / "src" / "pay.py.html").as_uri())
    browser.type("header input[type=search]", "inotify")  # only in a rejected option's reason
    browser.enter()
    assert "search.html?q=inotify" in browser.url
    assert "1 note for “inotify”" in browser.text("#summary")
    results = browser.text("#results")
    assert "Configuration is read once at start" in results and "inotify" in results

    browser.type("#q", " hosts")  # narrowing the query as it is typed
    assert "1 note" in browser.text("#summary")
    browser.js("document.getElementById('q').value = ''")
    browser.type("#q", "measured")
    results = browser.text("#results")
    assert "Requests are measured in bytes" in results and "Requests are measured in characters" in results
    assert "(superseded)" in results
    browser.screenshot(ARTIFACTS / "search.png")
    browser.click("#results a", "in bytes")
    assert browser.url.endswith(f"notes/{site['ids']['bytes']}.html")
    assert "Supersedes Requests are measured in characters" in browser.text("main")


def test_decision_timeline(site, browser):
    browser.open((site["out"] / "index.html").as_uri())
    browser.click("header nav a", "Decisions")
    assert browser.url.endswith("timeline.html")
    items = browser.js("[...document.querySelectorAll('.timeline li li')].map(e => e.innerText)")
    assert len(items) == 4  # the three decisions of this month and the superseded one
    assert "Requests are measured in bytes" in items[0]
    old = next(i for i in items if "in characters" in i)
    assert "superseded by Requests are measured in bytes" in old
    browser.click(".timeline a", "The service binds its own port")
    assert "orphaned" in browser.text(".anchors")


def test_readable_on_a_phone(site, browser):
    browser.size(390, 844, mobile=True)
    try:
        for page in ("index.html", "files/src/pay.py.html", f"notes/{site['ids']['config']}.html"):
            browser.open((site["out"] / page).as_uri())
            width = browser.js("document.documentElement.scrollWidth")
            assert width <= 390, f"{page} is {width} px wide on a 390 px phone"
        browser.open((site["out"] / "files" / "src" / "pay.py.html").as_uri())
        code, card = browser.js("[document.querySelector('.tie pre').getBoundingClientRect().bottom,"
                                " document.querySelector('.tie .card').getBoundingClientRect().top]")
        assert card >= code  # the note under its code, not squeezed beside it
        assert "Charging never blocks" in browser.text(".tie .card")
        browser.screenshot(ARTIFACTS / "phone-file.png")
        browser.open((site["out"] / "index.html").as_uri())
        browser.screenshot(ARTIFACTS / "phone-home.png")
    finally:
        browser.size(1280, 900)


def test_nothing_is_fetched_from_elsewhere(site, browser):
    for page in ("index.html", "search.html", "timeline.html", "files/src/app.py.html"):
        browser.open((site["out"] / page).as_uri())
    assert browser.requests and all(u.startswith("file://") for u in browser.requests), browser.requests


def test_site_folder_is_replaced_and_a_foreign_one_refused(site):
    root, out = site["root"], site["out"]
    (out / "stale.html").write_text("left from an older build", encoding="utf-8")
    tether(root, "site", "--out", str(out))
    assert not (out / "stale.html").exists() and (out / "index.html").is_file()
    foreign = root.parent / "docs"
    foreign.mkdir()
    (foreign / "keep.md").write_text("mine", encoding="utf-8")
    r = run(root, TETHER, "site", "--out", str(foreign), code=2)
    assert "not a site tether wrote" in r.stderr
    assert [p.name for p in foreign.iterdir()] == ["keep.md"]


def test_hand_written_ids_and_unreadable_files_stay_inside_the_site(tmp_path):
    root = tmp_path / "repo"
    git_init(root)
    (root / "blob.bin").write_bytes(b"\x00\xffbinary\x00")
    tether(root, "init")
    tether(root, "record", "intent", "blob.bin", "--file", "--title", "The blob is vendored")
    note = next((root / ".tether" / "notes").glob("*.md"))
    note.write_text(note.read_text(encoding="utf-8").replace(note.name[:26], "../../escape", 1), encoding="utf-8")
    out = tmp_path / "out"
    assert tether(root, "site", "--out", str(out)).startswith("wrote 7 pages (1 note, 1 file)")
    assert not list(tmp_path.rglob("escape*"))  # the id named no path
    page = next((out / "notes").glob("*.html")).read_text(encoding="utf-8")
    assert "The blob is vendored" in page and "../../escape" in page
    blob = (out / "files" / "blob.bin.html").read_text(encoding="utf-8")
    assert "The code is not shown: blob.bin: a binary file" in blob and "The blob is vendored" in blob
    assert "lost here" not in blob  # a note on the whole file has no lines to lose


def test_a_rebuild_stopped_while_the_old_site_goes_leaves_a_site(site, monkeypatch):
    """Killed while the old site is being removed (here: stopped once its marker and a page
    are gone), the folder still holds a whole site that the next run replaces: never a
    half-deleted one that `site` then refuses as not its own."""
    import shutil

    from tether.core.workspace import Workspace
    from tether.site import pages

    root, out = site["root"], site["out"]
    real = shutil.rmtree

    def stopped(path, *a, **kw):
        for name in (pages.MARKER, "index.html"):
            next(Path(path).rglob(name)).unlink()
        monkeypatch.setattr(shutil, "rmtree", real)
        raise KeyboardInterrupt

    monkeypatch.setattr(shutil, "rmtree", stopped)
    ws = Workspace.find(root)
    try:
        with pytest.raises(KeyboardInterrupt):
            pages.build(ws, out, [], [])
    finally:
        ws.close()
    assert (out / pages.MARKER).is_file() and (out / "index.html").is_file()
    tether(root, "site", "--out", str(out))
    assert (out / "index.html").is_file()
