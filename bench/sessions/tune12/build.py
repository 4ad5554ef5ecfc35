"""Writes the tune12 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``pdfstamp`` (Python, a PDF post-processing CLI) and
``kanbanlite`` (TypeScript, a kanban board state library). Sessions are written with the
``Session`` builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py`` after
changing a scenario (outputs are committed). ``python3 build.py --check`` also replays every
scenario on a copy of its repository (every edit must apply) and checks, with tether's own
parser, that every expected anchor names a definition of the final state.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
TESTS = HERE.parents[2] / "tests"
sys.path.insert(0, str(TESTS / "fixtures" / "transcripts"))
from build import Session  # noqa: E402

SCENARIOS: list[dict] = []


def repo_files(repo: str) -> dict[str, str]:
    base = HERE / "repos" / repo
    return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8") for p in sorted(base.rglob("*")) if p.is_file()}


def scenario(name: str, repo: str, note: str, expected: list[dict]):
    def register(fn):
        SCENARIOS.append({"name": name, "repo": repo, "note": note, "expected": expected, "fn": fn})
        return fn
    return register


def exp(kind: str, anchor: str, phrase: str, rejected: list[str] | None = None) -> dict:
    return {"kind": kind, "anchor": anchor, "phrase": phrase, "rejected": rejected or []}


def pytest_ok(n: int, secs: str = "0.41") -> str:
    return ("============================= test session starts ==============================\n"
            "platform linux -- Python 3.11.9, pytest-8.3.2, pluggy-1.5.0\n"
            "rootdir: {{ROOT}}\nconfigfile: pyproject.toml\n"
            f"collected {n} items\n\ntests/test_pdfstamp.py " + "." * n + " " * max(1, 53 - n) + "[100%]\n\n"
            f"============================== {n} passed in {secs}s ==============================")


def vitest_ok(n: int, ms: int = 9) -> str:
    return (f" RUN  v2.1.1 {{{{ROOT}}}}\n\n ✓ test/board.test.ts ({n} tests) {ms}ms\n\n"
            f" Test Files  1 passed (1)\n      Tests  {n} passed ({n})\n   Start at  10:14:02\n"
            f"   Duration  412ms (transform 61ms, setup 0ms, collect 58ms, tests {ms}ms)")


# -- pdfstamp (Python) -----------------------------------------------------------------------------------

PDF = "pdfstamp"


@scenario("page-range-bounds", PDF, "an intern asks many small questions; the agent asks 'clamp or raise?'; the intern "
          "leans to clamping, then the lead steps in mid-session ('lead here: raise. don't clamp') with a reason",
          [exp("decision", "pdfstamp/pages.py:PageRange.resolve", "out-of-range", ["clamp"])])
def _page_bounds(files):
    s = Session("tune12-page-range-bounds", "2025-03-04T09:12:00Z", files)
    s.user("hi! I picked up PS-41: `pdfstamp in.pdf --text DRAFT --pages 8-12` on a 10 page pdf crashes. "
           "couple of questions before I touch anything:\n"
           "1. are pages 1-based in --pages?\n2. is `-2` allowed (start to page 2)?\n"
           "3. what actually happens with 8-12 right now?")
    s.read("pdfstamp/pages.py")
    s.grep("parse_ranges", ["pdfstamp/jobs.py", "pdfstamp/pages.py", "tests/test_pdfstamp.py"])
    s.read("pdfstamp/jobs.py", offset=40, limit=14)
    s.say("1. Yes — 1-based in the expression (what people see in a viewer), 0-based indexes out, because pypdf "
          "wants those.\n2. Yes, `-2` is pages 1–2 (`PageRange(None, 2)`), and `9-` is page 9 to the end.\n"
          "3. `PageRange(8, 12).resolve(10)` returns `range(7, 12)`, so `parse_ranges` hands indexes 10 and 11 to "
          "`stamp()`, and `pages[10]` raises an `IndexError` from deep inside pypdf — after pages 8–10 were "
          "already stamped in memory, so the traceback is all the user sees.\n\n"
          "The fix belongs in `PageRange.resolve`, which is the only place that knows the page count. Two ways "
          "to go: clamp the range to the document (8-12 becomes 8-10, maybe with a warning), or raise "
          "`PageRangeError` with the page count in the message. Clamp or raise?")
    s.user("hmm not sure. what does the cli do with PageRangeError? traceback or a message? and with clamping, "
           "would 8-12 just silently become 8-10?")
    s.read("pdfstamp/cli.py", offset=33, limit=12)
    s.say("`cli.main` catches `PageRangeError`, prints `pdfstamp: <message>` to stderr and exits with 2 — no "
          "traceback. And yes, clamping would be silent unless we log it; with `-v` we could print the range we "
          "actually used.")
    s.user("ok I think clamping is friendlier? users really hate errors. let me ping my lead to be sure")
    s.user("lead here: raise. don't clamp. if someone asks for page 12 of a 10 page file they almost always "
           "grabbed the wrong file, and a stamped wrong file then goes out to a customer. out-of-range pages are "
           "an error, with the page count in the message. same for a range that starts past the end (`12-` on "
           "10 pages).", seconds=240)
    s.say("Got it — raising, no clamping.")
    s.edit("pdfstamp/pages.py",
           "        last = total if self.end is None else self.end\n"
           "        if first > last:\n",
           "        last = total if self.end is None else self.end\n"
           "        if first < 1 or first > total or last > total:\n"
           "            raise PageRangeError(\n"
           "                f\"pages {first}-{last} are out of range: the document has {total} page(s)\"\n"
           "            )\n"
           "        if first > last:\n")
    s.edit("tests/test_pdfstamp.py",
           "def test_garbage_is_an_error():\n",
           "def test_out_of_range_is_an_error():\n"
           "    with pytest.raises(PageRangeError, match=\"has 10 page\"):\n"
           "        parse_ranges(\"8-12\", total=10)\n"
           "    with pytest.raises(PageRangeError):\n"
           "        parse_ranges(\"12-\", total=10)\n"
           "    with pytest.raises(PageRangeError):\n"
           "        parse_ranges(\"0-2\", total=10)\n\n\n"
           "def test_garbage_is_an_error():\n")
    s.bash("python -m pytest -q", pytest_ok(13))
    s.bash("python -m pdfstamp.cli samples/ten-pages.pdf --text DRAFT --pages 8-12 -o /tmp/ps41; echo exit=$?",
           "pdfstamp: pages 8-12 are out of range: the document has 10 page(s)\nexit=2")
    s.say("Done. `PageRange.resolve` now raises `PageRangeError` when a range starts before page 1, starts past "
          "the end or ends past the end, e.g. `pages 8-12 are out of range: the document has 10 page(s)`; the CLI "
          "prints that and exits 2. `12-` on a 10-page file is caught too (first > total). Added "
          "`test_out_of_range_is_an_error`; 13 passed.")
    s.user("thanks!! last small q: do I need to add a changelog entry somewhere?")
    s.say("There is no CHANGELOG file in this repo; release notes seem to go in the GitHub release. Mentioning "
          "PS-41 in the commit message is enough here.")
    s.user("cool ty")
    return [s]


@scenario("watermark-underlay", PDF, "a product designer describes what users feel with a text 'screenshot'; the agent "
          "offers three numbered options; the designer answers by describing the behaviour wanted (the agent maps "
          "it to the underlay); scanned PDFs left as they are for now",
          [exp("decision", "pdfstamp/watermark.py:stamp_page", "underlay",
               ["lower the default opacity", "outlined text"]),
           exp("boundary", "pdfstamp/watermark.py:stamp_page", "scanned")])
def _underlay(files):
    s = Session("tune12-watermark-underlay", "2025-03-11T13:40:00Z", files)
    s.user("Hey! Feedback from the pilot with the finance team 🙈 People feel like the CONFIDENTIAL stamp is "
           "'vandalising' their invoices — one person literally said it looks like someone spilled coffee on it. "
           "Here's what they see:\n\n"
           "[screenshot: invoice-2231.pdf, page 1, 100%]\n"
           "┌──────────────────────────────────────┐\n"
           "│ ACME GmbH              INVOICE #2231 │\n"
           "│                                      │\n"
           "│  Item              Qty      Amount   │\n"
           "│  Consulting         12   ▓▓▓▓▓▓▓▓▓   │\n"
           "│  Travel              1   ▓▓NTIAL▓▓   │\n"
           "│              CONFI▓▓▓                │\n"
           "│  Total             ▓▓▓▓▓▓▓▓▓ EUR     │\n"
           "└──────────────────────────────────────┘\n"
           "(the grey letters sit right on the amounts — you can't read the total at all)\n\n"
           "Can we make this feel less aggressive? I don't mind what it technically is.")
    s.read("pdfstamp/watermark.py")
    s.say("The stamp is drawn *on top*: `stamp_page` renders the text into a one-page overlay and "
          "`page.merge_page(overlay)` paints it after the page's own content, so at 35% grey it covers whatever "
          "is under it. A few ways to soften it:\n\n"
          "1. **Lower the default opacity** (0.35 → 0.12). One-line change, but the word gets hard to see on "
          "light pages, and it still sits over the numbers, just fainter.\n"
          "2. **Underlay** — merge the stamp *beneath* the page content instead of over it (`merge_page(..., "
          "over=False)`). Text and numbers paint over the stamp, so they stay crisp. Caveat: on scanned PDFs "
          "the page is one full-page image, which would cover the stamp completely.\n"
          "3. **Outlined text** — draw only the letter outlines (stroke, no fill). Less ink, but the outlines "
          "still cross the digits and it looks a bit 'draft-y'.\n\n"
          "Which of these fits what you're after?")
    s.user("Ok so thinking about what people actually do with these: they open the invoice, their eye goes "
           "straight to the total, and they need to read it instantly. The stamp should feel like it was on the "
           "paper before the invoice was printed on it — the numbers always crisp and on top, the word just "
           "there in the background. I still want it to be obvious at a glance that it's confidential, so not "
           "ghost-faint.\n\nFor the scanned ones: honestly the finance folks only send generated invoices, so "
           "whatever happens with scanned PDFs is fine for now, we don't need to handle them.")
    s.say("That's option 2, the underlay: the stamp goes under the page content, and the invoice paints over "
          "it. I'll keep the opacity at 0.35 — underneath the text it reads as a clear light grey, and lowering "
          "it too would make it ghost-faint, which you don't want. Scanned PDFs stay as they are.")
    s.edit("pdfstamp/watermark.py",
           "    overlay = render(wm, float(box.width), float(box.height), fonts)\n"
           "    page.merge_page(overlay)\n",
           "    overlay = render(wm, float(box.width), float(box.height), fonts)\n"
           "    # underlay: the stamp goes beneath the page content, so text and numbers paint over it.\n"
           "    # On scanned PDFs (one full-page image) this hides the stamp; accepted for now.\n"
           "    page.merge_page(overlay, over=False)\n")
    s.edit("pdfstamp/watermark.py", '    """Draws ``wm`` on ``page`` in place."""\n',
           '    """Draws ``wm`` under the content of ``page``, in place."""\n')
    s.bash("python -m pytest -q", pytest_ok(12))
    s.bash("python -m pdfstamp.cli samples/invoice-2231.pdf --text CONFIDENTIAL -o /tmp/wm && "
           "pdftoppm -r 50 -png -f 1 -l 1 /tmp/wm/invoice-2231-stamped.pdf /tmp/wm/p",
           "samples/invoice-2231.pdf -> /tmp/wm/invoice-2231-stamped.pdf  stamped 1 page(s)")
    s.say("Done — `stamp_page` now merges the stamp under the page content. Rendered the sample invoice to "
          "`/tmp/wm/p-1.png`: the amounts and the total are drawn over the grey word and read cleanly. Tests "
          "pass (12).")
    s.user("[screenshot: invoice-2231-stamped.pdf, page 1]\n"
           "┌──────────────────────────────────────┐\n"
           "│ ACME GmbH              INVOICE #2231 │\n"
           "│  Consulting    ░░   12    9.600,00   │\n"
           "│  Travel       ░░░░░  1      412,50   │\n"
           "│  Total     ░░░░░░░░░    10.012,50 EUR│\n"
           "└──────────────────────────────────────┘\n"
           "(CONFIDENTIAL is a light grey band behind everything, the numbers are black on top of it)\n"
           "yesss, that's the feeling. the total just reads. thank you!!")
    return [s]


@scenario("scrub-everything", PDF, "a long message with four numbered matters (a release date, the fix, a request "
          "declined for this change, a README badge); the rule and the scope cut sit in the middle",
          [exp("invariant", "pdfstamp/scrub.py:scrub_info", "drop every key", ["allowlist"]),
           exp("boundary", "pdfstamp/scrub.py:scrub_document", "page-level")])
def _scrub(files):
    s = Session("tune12-scrub-everything", "2025-03-17T07:55:00Z", files)
    s.user("Morning. A few things, sorry this is long.\n\n"
           "First, the release: I'd like to get 0.5 out before the 14th because legal's tooling pins us and they "
           "want the scrub fix; I'll handle the PyPI side and the version bump, you don't need to touch "
           "pyproject.\n\n"
           "Second, the actual fix. A customer found their internal file server path in /Producer of a scrubbed "
           "file (\"Microsoft Word for Microsoft 365; \\\\corp-fs02\\legal\\drafts\"), which is embarrassing since "
           "we tell people scrub removes everything. The HARMLESS set was my idea and it was wrong: scrub should "
           "drop every key in the Info dict, no allowlist of 'harmless' keys, because we can't predict what "
           "producers stuff in there. /Title survives only with --keep-title, that's the one exception.\n\n"
           "Third, somebody on the tracker asked about page-level /PieceInfo too (Illustrator private data on "
           "each page) — not doing that here, it means walking every page and it's a different change. Leave the "
           "document-level /PieceInfo removal as it is.\n\n"
           "Fourth, unrelated: the README badge still says Python 3.9. Ignore it, I'll fix it in the release PR.\n\n"
           "Thanks!")
    s.read("pdfstamp/scrub.py")
    s.grep("HARMLESS", ["pdfstamp/scrub.py"])
    s.say("`HARMLESS` is only used by `scrub_info`. I'll make `scrub_info` return nothing but `/Title` (and "
          "only with `keep_title`), remove the set, and add a test with a `/Producer` carrying a path.")
    s.edit("pdfstamp/scrub.py",
           "# Info keys that say nothing about who made the file or where.\n"
           "HARMLESS = {\"/Title\", \"/Producer\", \"/Creator\", \"/Trapped\"}\n\n", "")
    s.edit("pdfstamp/scrub.py",
           "    \"\"\"The Info entries to write back after scrubbing.\"\"\"\n"
           "    out = {}\n"
           "    for key, value in info.items():\n"
           "        if key in HARMLESS:\n"
           "            if key == \"/Title\" and not keep_title:\n"
           "                continue\n"
           "            out[key] = value\n"
           "    return out\n",
           "    \"\"\"The Info entries to write back after scrubbing: none, except /Title with ``keep_title``.\n\n"
           "    Every other key is dropped, whatever it is: producers put paths and user names in any of them.\n"
           "    \"\"\"\n"
           "    if keep_title and \"/Title\" in info:\n"
           "        return {\"/Title\": info[\"/Title\"]}\n"
           "    return {}\n")
    s.edit("tests/test_pdfstamp.py",
           "    assert \"/Author\" not in scrub_info(info, keep_title=True)\n",
           "    assert \"/Author\" not in scrub_info(info, keep_title=True)\n\n\n"
           "def test_scrub_drops_producer_and_unknown_keys():\n"
           "    info = {\"/Producer\": \"Word; \\\\\\\\corp-fs02\\\\legal\", \"/Creator\": \"x\", \"/AAPL:Keywords\": \"y\"}\n"
           "    assert scrub_info(info) == {}\n"
           "    assert scrub_info(info, keep_title=True) == {}\n")
    s.bash("python -m pytest -q", pytest_ok(13, "0.38"))
    s.bash("ruff check pdfstamp tests", "All checks passed!")
    s.say("Done:\n- `scrub_info` now drops every Info key; only `/Title` is written back, and only with "
          "`--keep-title`. `HARMLESS` is gone.\n- New test `test_scrub_drops_producer_and_unknown_keys`; 13 "
          "passed, ruff clean.\n\nLeft alone as asked: page-level `/PieceInfo` (the document-level removal in "
          "`scrub_document` is unchanged), `pyproject.toml`, and the README badge.")
    s.user("perfect, thanks")
    return [s]


@scenario("font-cache-style", PDF, "a one-line terse report; the agent writes a failing test, finds the cause "
          "(bold and regular share one cache key) and fixes it; '👍'",
          [exp("gotcha", "pdfstamp/fonts.py:FontCache", "cache key")])
def _fonts(files):
    s = Session("tune12-font-cache-style", "2025-03-19T16:20:00Z", files)
    s.user("--font Inter-Bold comes out regular weight. fix")
    s.read("pdfstamp/fonts.py")
    s.say("Let me reproduce it in a test first.")
    s.edit("tests/test_pdfstamp.py",
           "def test_scrub_keeps_title_only_when_asked():\n",
           "def test_font_cache_keeps_styles_apart(tmp_path):\n"
           "    for n in (\"Inter-Bold.ttf\", \"Inter-Regular.ttf\", \"Inter-Italic.ttf\"):\n"
           "        (tmp_path / n).write_bytes(b\"\")\n"
           "    cache = FontCache([str(tmp_path)])\n"
           "    assert cache.get(\"Inter-Bold\").path.name == \"Inter-Bold.ttf\"\n"
           "    assert cache.get(\"Inter\").path.name == \"Inter-Regular.ttf\"\n"
           "    assert cache.get(\"Inter-Italic\").path.name == \"Inter-Italic.ttf\"\n\n\n"
           "def test_scrub_keeps_title_only_when_asked():\n")
    s.bash("python -m pytest -q tests/test_pdfstamp.py -k styles_apart",
           "F                                                                        [100%]\n"
           "=================================== FAILURES ===================================\n"
           "_____________________ test_font_cache_keeps_styles_apart ______________________\n\n"
           "tmp_path = PosixPath('/tmp/pytest-of-dev/pytest-31/test_font_cache_keeps_styles_0')\n\n"
           "    def test_font_cache_keeps_styles_apart(tmp_path):\n"
           "        for n in (\"Inter-Bold.ttf\", \"Inter-Regular.ttf\", \"Inter-Italic.ttf\"):\n"
           "            (tmp_path / n).write_bytes(b\"\")\n"
           "        cache = FontCache([str(tmp_path)])\n"
           ">       assert cache.get(\"Inter-Bold\").path.name == \"Inter-Bold.ttf\"\n"
           "E       AssertionError: assert 'Inter-Regular.ttf' == 'Inter-Bold.ttf'\n"
           "E         \n"
           "E         - Inter-Bold.ttf\n"
           "E         + Inter-Regular.ttf\n\n"
           "tests/test_pdfstamp.py:52: AssertionError\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_pdfstamp.py::test_font_cache_keeps_styles_apart - AssertionError: assert 'Inter-Regul...\n"
           "1 failed, 12 deselected in 0.09s", fail=True)
    s.say("Reproduced. The cause is in `scan()`: it stores every file under `family.lower()` alone, so "
          "`Inter-Bold.ttf`, `Inter-Italic.ttf` and `Inter-Regular.ttf` all share one cache key, `\"inter\"`. "
          "`rglob` is sorted, so whichever comes last (Regular) overwrites the others. `get()` even computes the "
          "style from the name and then ignores it. Keying by `(family, style)` fixes it; `get()` falls back to "
          "the regular face when the style asked for isn't installed, which is what people expect from `--font "
          "Lato-Bold` on a machine that only has Lato-Regular.")
    s.edit("pdfstamp/fonts.py",
           "        self._files: dict[str, FontFile] = {}\n",
           "        self._files: dict[tuple[str, str], FontFile] = {}  # (family lower-cased, style)\n")
    s.edit("pdfstamp/fonts.py",
           "                self._files[family.lower()] = FontFile(family, style, p)\n",
           "                self._files[(family.lower(), style)] = FontFile(family, style, p)\n")
    s.edit("pdfstamp/fonts.py",
           "        family, style = style_of(name)\n"
           "        return self._files.get(family.lower())\n",
           "        family, style = style_of(name)\n"
           "        key = family.lower()\n"
           "        return self._files.get((key, style)) or self._files.get((key, \"regular\"))\n")
    s.bash("python -m pytest -q", pytest_ok(13, "0.44"))
    s.say("Fixed: the cache is keyed by family and style, so `Inter-Bold` gets `Inter-Bold.ttf` (falling back "
          "to the regular face only when that style isn't installed). New test included; 13 passed.")
    s.user("👍")
    return [s]


@scenario("never-overwrite-source", PDF, "non-native English; a 'never' rule set on output naming; a week later the "
          "agent offers in-place options for a full disk and the person restates the rule in other words about "
          "the batch runner, turning both options down",
          [exp("invariant", "pdfstamp/*.py", "never overwrite", ["in-place", "delete-source"])])
def _never_overwrite(files):
    s = Session("tune12-never-overwrite-1", "2025-04-02T08:30:00Z", files)
    s.user("Hello. We have problem from a customer: they run `pdfstamp contract.pdf --name {stem}` and the output "
           "get the same name like the input, so the file is writed over the original and the original is lost. "
           "This must not happen, never. We never overwrite the input pdf — always a new file, also when user "
           "give a template that make the same name. Please make output_path take care of it.")
    s.read("pdfstamp/naming.py")
    s.say("Right — with `--name {stem}` and no `--out-dir`, `output_path` returns `contract.pdf` in the same "
          "folder, i.e. the source itself, and `run_job` opens it with `\"wb\"`.\n\n"
          "I'll make `output_path` check whether the target resolves to the source and, if so, pick a free name "
          "with the existing `unique()` helper (`contract (2).pdf`). Should it also tell the user?")
    s.user("yes good, and a warning in the log, so the user know why the name is different.")
    s.edit("pdfstamp/naming.py", "import datetime as _dt\nimport string\n",
           "import datetime as _dt\nimport logging\nimport string\n")
    s.edit("pdfstamp/naming.py", "DEFAULT_TEMPLATE = \"{stem}-stamped\"\n",
           "log = logging.getLogger(\"pdfstamp.naming\")\n\nDEFAULT_TEMPLATE = \"{stem}-stamped\"\n")
    s.edit("pdfstamp/naming.py",
           "    folder = out_dir if out_dir is not None else src.parent\n"
           "    return folder / _mk_name(src, template, n)\n",
           "    folder = out_dir if out_dir is not None else src.parent\n"
           "    out = folder / _mk_name(src, template, n)\n"
           "    if out.resolve() == src.resolve():\n"
           "        # never overwrite the input, whatever the template says\n"
           "        out = unique(out)\n"
           "        log.warning(\"%s: output name equals the input; writing %s instead\", src, out.name)\n"
           "    return out\n")
    s.edit("tests/test_pdfstamp.py", "def test_unknown_template_field():\n",
           "def test_output_never_the_input(tmp_path):\n"
           "    src = tmp_path / \"contract.pdf\"\n"
           "    src.write_bytes(b\"%PDF-1.7\")\n"
           "    assert output_path(src, None, \"{stem}\") == tmp_path / \"contract (2).pdf\"\n"
           "    assert output_path(src, tmp_path, \"{stem}\") == tmp_path / \"contract (2).pdf\"\n\n\n"
           "def test_unknown_template_field():\n")
    s.bash("python -m pytest -q", pytest_ok(13))
    s.say("Done: `output_path` never returns the input file any more — when the template and folder would give "
          "the source's own path, it picks `name (2).pdf` (or the next free number) and logs a warning. Test "
          "added, 13 passed.")
    s.user("Thank you!")

    t = Session("tune12-never-overwrite-2", "2025-04-09T10:05:00Z", files)
    t.user("Hello again. Customer with 40 000 PDFs on a nearly full disk ask if pdfstamp can scrub \"in place\", "
           "because they have no space for copies. What are the options?")
    t.read("pdfstamp/jobs.py")
    t.say("A few ways this could go:\n\n"
          "1. `--in-place`: write each result to a temp file in the same folder, then `os.replace()` it over the "
          "source. Needs space for one extra file at a time, not a full copy of the batch.\n"
          "2. `--delete-source`: keep writing new files as today, and delete each input once its output is "
          "written and re-opens cleanly.\n"
          "3. Nothing in pdfstamp: they run in chunks and free space between runs with their own script.\n\n"
          "1 is the most convenient for them; 2 keeps the write path unchanged.")
    t.user("Not 1 and not 2. It's the same like with the names last week: the file we got from the user is never "
           "changed or deleted by pdfstamp, we only make new files. The customer can delete with their own "
           "script, that is their decision, not ours. Please put a check in run_job that refuse when the output "
           "path is the source, so nobody add something like this later by mistake.")
    t.say("Understood — no in-place mode, no deleting inputs. I'll add a guard in `run_job` right before it "
          "opens the output for writing.")
    t.edit("pdfstamp/jobs.py",
           "    out = output_path(job.src, job.out_dir, job.template)\n"
           "    out.parent.mkdir(parents=True, exist_ok=True)\n",
           "    out = output_path(job.src, job.out_dir, job.template)\n"
           "    if out.resolve() == job.src.resolve():\n"
           "        # pdfstamp only ever writes new files; the input is never changed or deleted\n"
           "        raise RuntimeError(f\"refusing to write over the input file {job.src}\")\n"
           "    out.parent.mkdir(parents=True, exist_ok=True)\n")
    t.bash("python -m pytest -q", pytest_ok(13, "0.39"))
    t.say("Added the guard: `run_job` raises before opening anything if the output path resolves to the input. "
          "`output_path` already avoids that case, so this only fires if someone changes the naming later. "
          "Tests pass. For the customer, option 3 is what's left: run in chunks and clean up with their script.")
    t.user("ok, I write them. thanks")
    return [s, t]


@scenario("batch-keep-going", PDF, "lowercase with typos, asks for fail-fast; the agent pushes back with a reason "
          "and convinces the person ('ok fair'), who adds one condition (non-zero exit)",
          [exp("decision", "pdfstamp/jobs.py:run_batch", "collect errors", ["stop on the first error"])])
def _keep_going(files):
    s = Session("tune12-batch-keep-going", "2025-04-14T15:10:00Z", files)
    s.user("run_batch shoud stop on the first error. right now if one file is broken we get a traceback from "
           "fut.result() but the other threads keep going and finsh their files, and then the summary never "
           "prints. make it fail fast: first exception -> cancel the rest and exit 1")
    s.read("pdfstamp/jobs.py", offset=55)
    s.read("pdfstamp/cli.py", offset=33, limit=20)
    s.say("Before I do that, I'd push back a bit on fail-fast. The archive runs are ~2,000 files; if file 1,400 "
          "is a corrupt PDF, stopping on the first error throws away the run's progress report, you fix or remove "
          "the file and restart — and the next corrupt file stops it again. Batch tools usually do the opposite: "
          "**collect errors and continue** — each failed job gets `Result.error` set, the other jobs finish, the "
          "CLI prints every failure at the end with the file name, and the exit code is non-zero if anything "
          "failed. You get the complete list of broken files from one run instead of discovering them one at a "
          "time.\n\nIf you still want fail-fast I'll do that instead — it's your call.")
    s.user("hm ok fair, the archive runs are exactly where it hurts. collect errors and keep going. but exit code "
           "must be non zero if anything failed, our cron job checks it")
    s.edit("pdfstamp/jobs.py",
           "        for fut in as_completed(futures):\n"
           "            results.append(fut.result())\n"
           "            log.info(\"done %s\", futures[fut].src.name)\n",
           "        for fut in as_completed(futures):\n"
           "            job = futures[fut]\n"
           "            try:\n"
           "                results.append(fut.result())\n"
           "                log.info(\"done %s\", job.src.name)\n"
           "            except Exception as e:  # one broken file must not stop the batch\n"
           "                results.append(Result(job, error=f\"{type(e).__name__}: {e}\"))\n"
           "                log.warning(\"failed %s: %s\", job.src.name, e)\n")
    s.edit("pdfstamp/cli.py",
           "    for r in results:\n"
           "        line = f\"{r.job.src} -> {r.out}\"\n",
           "    failed = [r for r in results if r.error]\n"
           "    for r in results:\n"
           "        if r.error:\n"
           "            continue\n"
           "        line = f\"{r.job.src} -> {r.out}\"\n")
    s.edit("pdfstamp/cli.py",
           "        print(line)\n"
           "    return 0\n",
           "        print(line)\n"
           "    for r in failed:\n"
           "        print(f\"pdfstamp: FAILED {r.job.src}: {r.error}\", file=sys.stderr)\n"
           "    return 1 if failed else 0\n")
    s.bash("python -m pytest -q", pytest_ok(12))
    s.bash("python -m pdfstamp.cli samples/*.pdf --scrub -o /tmp/batch; echo exit=$?",
           "samples/invoice-2231.pdf -> /tmp/batch/invoice-2231-stamped.pdf\n"
           "samples/ten-pages.pdf -> /tmp/batch/ten-pages-stamped.pdf\n"
           "pdfstamp: FAILED samples/truncated.pdf: PdfReadError: EOF marker not found\nexit=1")
    s.say("Done. `run_batch` catches each job's exception into `Result.error` and carries on; the CLI prints the "
          "successful outputs, then every failure on stderr, and exits 1 if any job failed (0 otherwise). "
          "Checked on the samples folder, which has one truncated PDF. Tests pass (12).")
    s.user("nice")
    return [s]


@scenario("pages-keep-order", PDF, "a person who answers in code snippets plus one line: the wanted output of "
          "parse_ranges (typed order, no sorting), then a second snippet that must keep working (a trailing comma "
          "pasted from Acrobat) — tolerated on purpose",
          [exp("decision", "pdfstamp/pages.py:parse_ranges", "order they typed", ["sorted"]),
           exp("workaround", "pdfstamp/pages.py:parse_ranges", "trailing comma")])
def _keep_order(files):
    s = Session("tune12-pages-keep-order", "2025-04-22T11:00:00Z", files)
    s.user("```python\n>>> parse_ranges(\"5,1-3,2\", total=10)\n[4, 0, 1, 2]\n"
           ">>> parse_ranges(\"3-1\", total=10)\nPageRangeError: range 3-1 runs backwards\n```\n"
           "want this: the order they typed, repeats dropped. today it's sorted.")
    s.read("pdfstamp/pages.py", offset=45, limit=12)
    s.say("Today `parse_ranges` collects into a set and returns `sorted(pages)`, so you get `[0, 1, 2, 4]`. "
          "For stamping the order doesn't matter (each page is stamped once either way) — is this for something "
          "that uses the order?")
    s.user("```\n$ pdfstamp extract in.pdf --pages 5,1-3 -o out/\n# out/in-extract.pdf = pages 5,1,2,3\n```\n"
           "extract lands next week, needs it.")
    s.edit("pdfstamp/pages.py",
           "    pages: set[int] = set()\n"
           "    for part in expr.split(\",\"):\n"
           "        pages.update(parse_part(part).resolve(total))\n"
           "    return sorted(pages)\n",
           "    # in the order they typed, repeats dropped (extract builds the output in this order)\n"
           "    pages: dict[int, None] = {}\n"
           "    for part in expr.split(\",\"):\n"
           "        for i in parse_part(part).resolve(total):\n"
           "            pages.setdefault(i)\n"
           "    return list(pages)\n")
    s.edit("tests/test_pdfstamp.py", "def test_empty_expression_is_every_page():\n",
           "def test_typed_order_is_kept():\n"
           "    assert parse_ranges(\"5,1-3,2\", total=10) == [4, 0, 1, 2]\n\n\n"
           "def test_empty_expression_is_every_page():\n")
    s.bash("python -m pytest -q", pytest_ok(13))
    s.say("`parse_ranges` now keeps the typed order and drops repeats (`5,1-3,2` → `[4, 0, 1, 2]`); backwards "
          "ranges still raise. `describe()` assumes sorted input to build runs, but it only formats log lines, "
          "so an unsorted list just prints as more pieces. 13 passed.")
    s.user("```python\n>>> parse_ranges(\"1-3,\", total=10)\n[0, 1, 2]\n```\n"
           "this must work too — acrobat's print dialog copies ranges with a trailing comma and ppl paste them. "
           "don't make it strict.")
    s.bash("python -c 'from pdfstamp.pages import parse_ranges; print(parse_ranges(\"1-3,\", 10))'",
           "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
           "  File \"{{ROOT}}/pdfstamp/pages.py\", line 53, in parse_ranges\n"
           "    for i in parse_part(part).resolve(total):\n"
           "  File \"{{ROOT}}/pdfstamp/pages.py\", line 37, in parse_part\n"
           "    raise PageRangeError(f\"not a page range: {part!r}\")\n"
           "pdfstamp.pages.PageRangeError: not a page range: ''", fail=True)
    s.say("Right, the empty piece after the comma is rejected today. I'll skip empty pieces, with a comment so "
          "nobody 'fixes' it back into an error.")
    s.edit("pdfstamp/pages.py",
           "    for part in expr.split(\",\"):\n"
           "        for i in parse_part(part).resolve(total):\n",
           "    for part in expr.split(\",\"):\n"
           "        if not part.strip():\n"
           "            # lenient on purpose: Acrobat's print dialog copies ranges with a trailing comma\n"
           "            continue\n"
           "        for i in parse_part(part).resolve(total):\n")
    s.edit("tests/test_pdfstamp.py",
           "    assert parse_ranges(\"5,1-3,2\", total=10) == [4, 0, 1, 2]\n",
           "    assert parse_ranges(\"5,1-3,2\", total=10) == [4, 0, 1, 2]\n\n\n"
           "def test_trailing_comma_from_acrobat():\n"
           "    assert parse_ranges(\"1-3,\", total=10) == [0, 1, 2]\n"
           "    assert parse_ranges(\"1-3, ,5\", total=10) == [0, 1, 2, 4]\n")
    s.bash("python -m pytest -q", pytest_ok(14))
    s.say("Empty pieces are skipped now (`1-3,` → `[0, 1, 2]`), with a comment saying why; `1-3,x` is still an "
          "error. 14 passed.")
    s.user("```\nship it\n```")
    return [s]


@scenario("naming-questions", PDF, "exploration: questions about output naming, a colleague's rule reported "
          "second-hand ('Marek says always slugify') and not adopted, a hypothetical about S3; no edits", [])
def _naming_questions(files):
    s = Session("tune12-naming-questions", "2025-04-24T14:30:00Z", files)
    s.user("I'm new on this codebase and have to answer a support question about output names. How does "
           "naming work end to end? e.g. what does {n} mean, and what happens with non-ASCII file names like "
           "`Überweisung März.pdf`?")
    s.read("pdfstamp/naming.py")
    s.grep("output_path|_mk_name", ["pdfstamp/jobs.py", "pdfstamp/naming.py", "tests/test_pdfstamp.py"])
    s.say("End to end:\n\n- `cli.py` passes `--name` (default `{stem}-stamped`) and `--out-dir` into each `Job`.\n"
          "- `run_job` calls `output_path(src, out_dir, template)`.\n"
          "- `output_path` validates the template (`check_template` allows only `{stem}`, `{n}`, `{date}`, "
          "`{ext}`), picks the folder (the out dir, or the input's folder) and formats the name in `_mk_name`, "
          "appending `.pdf` if the template didn't end with it.\n\n"
          "`{n}` is a counter argument, but nothing passes anything other than the default `1` today, so in "
          "practice it's always 1. `{date}` is today's date in ISO form.\n\n"
          "Non-ASCII names go through untouched: `Überweisung März.pdf` becomes `Überweisung März-stamped.pdf`. "
          "Python handles them as `str`, and on Linux/macOS they're written as UTF-8 bytes.")
    s.user("ok. my colleague Marek says we should always slugify output names (ascii, no spaces) because some "
           "of our customers' SFTP scripts break on spaces. is he right?")
    s.say("It would avoid that class of problem, but it's a trade-off: slugifying changes names people "
          "recognise (`Überweisung März` → `uberweisung-marz`), and two inputs can slugify to the same output. "
          "Nothing in the code does it today. If it's wanted, a `{slug}` template field would let the SFTP "
          "customers opt in without changing everyone's names.")
    s.user("and hypothetically, if we ever wrote outputs to S3 instead of disk, what would have to change?")
    s.say("Mostly `run_job` (it opens a local file for writing) and `unique()`, which checks `exists()` on the "
          "local filesystem — with S3 you'd need a HEAD request per candidate name, or a different collision "
          "strategy. `output_path` itself is pure path arithmetic and would carry over.")
    s.user("great, that's enough for the support answer. thanks!")
    return [s]


@scenario("rename-mk-name", PDF, "a diff pasted as the request plus one line; a plain rename and 'run ruff'; "
          "no decision", [])
def _rename(files):
    s = Session("tune12-rename-mk-name", "2025-04-28T09:45:00Z", files)
    s.user("```diff\n--- a/pdfstamp/naming.py\n+++ b/pdfstamp/naming.py\n"
           "-def _mk_name(src: Path, template: str, n: int, today: _dt.date | None = None) -> str:\n"
           "+def render_name(src: Path, template: str, n: int, today: _dt.date | None = None) -> str:\n"
           "```\n+ callers. then ruff + tests.")
    s.grep("_mk_name", ["pdfstamp/naming.py"])
    s.edit("pdfstamp/naming.py",
           "def _mk_name(src: Path, template: str, n: int, today: _dt.date | None = None) -> str:\n",
           "def render_name(src: Path, template: str, n: int, today: _dt.date | None = None) -> str:\n")
    s.edit("pdfstamp/naming.py", "    return folder / _mk_name(src, template, n)\n",
           "    return folder / render_name(src, template, n)\n")
    s.bash("ruff check pdfstamp tests && python -m pytest -q", "All checks passed!\n" + pytest_ok(12, "0.37"))
    s.say("Renamed `_mk_name` → `render_name`; its only caller is `output_path` in the same file. ruff clean, "
          "12 passed.")
    s.user("ty")
    return [s]


# -- kanbanlite (TypeScript) ---------------------------------------------------------------------------------

KB = "kanbanlite"


@scenario("fractional-rules", KB, "a very senior engineer's one dense paragraph of constraints and asides (one "
          "write per move, never localeCompare, no rebalancing here); the agent answers with 'Plan:' steps and "
          "waits; 'yes, go' plus one more request",
          [exp("invariant", "src/fractional.ts:compareKeys", "localecompare"),
           exp("invariant", "src/board.ts:moveCard", "one write per move"),
           exp("boundary", "src/fractional.ts:keyBetween", "rebalancing")])
def _fractional(files):
    s = Session("tune12-fractional-rules", "2025-05-06T08:10:00Z", files)
    s.user("Context for today, since you don't have it: the sync service (separate repo, don't go looking) ships "
           "card moves as single-field patches {id, columnId, rank} and merges concurrent ones last-writer-wins "
           "per card, which is the entire reason we use fractional keys — so moveCard must never rewrite any "
           "card's rank except the moved one, one write per move, no 'tidy up the neighbours' (someone did that "
           "in the old board and we had two clients fighting over the same five cards for a week); KB-212 — "
           "columns that swap places after a reload — is orderedColumns sorting ranks with localeCompare instead "
           "of compareKeys, and ICU puts 'k' before 'V' while we mint keys in ASCII order, so keys compare by "
           "plain code units through compareKeys, never localeCompare, anywhere; keys growing long under "
           "repeated inserts at the same spot is known and fine, the server rebalances anything past 48 chars "
           "in its nightly compaction, so no rebalancing in this library and no length checks either (the "
           "mobile app imports keyBetween directly, so its signature and behaviour stay exactly as they are); I "
           "want a test with mixed-case keys, and ideally one that pins the one-write property so the next "
           "person can't 'improve' it.")
    s.read("src/fractional.ts")
    s.read("src/board.ts")
    s.grep("localeCompare", ["src/board.ts"])
    s.say("Plan:\n"
          "1. `orderedColumns`: sort with `compareKeys` instead of `x.rank.localeCompare(y.rank)` — the only "
          "`localeCompare` in `src/`. With ICU order, `addColumn` picks the wrong \"last\" column once there are "
          "two, so the third column gets a duplicate rank; that's the swap after reload.\n"
          "2. `compareKeys`: already a plain code-unit comparison (the order `DIGITS` is minted in); add a doc "
          "comment saying never `localeCompare`.\n"
          "2. `moveCard`: no change. It already computes one new key from the two neighbours and assigns "
          "`card.rank` only; I'll add a comment stating the one-write rule.\n"
          "3. `keyBetween` / `midpoint`: no change — no rebalancing, no length checks, same signature.\n"
          "4. Tests: four columns stay in the order they were added (mints `V`, `k`, `s`, `w`), mixed-case "
          "ordering (`\"Z\"` < `\"a\"`, `keyBetween(\"Z\", \"a\")`), and a move test that asserts every other "
          "card's rank is unchanged.\n"
          "5. Run vitest and `tsc --noEmit`.\n\n"
          "OK to go ahead?")
    s.user("yes, go. and put a comment on keyBetween pointing at the server compaction, so nobody adds a "
           "rebalancing pass here later.")
    s.edit("src/board.ts",
           "  return Object.values(board.columns).sort((x, y) => x.rank.localeCompare(y.rank));\n",
           "  return Object.values(board.columns).sort((x, y) => compareKeys(x.rank, y.rank));\n")
    s.edit("src/fractional.ts",
           "export function compareKeys(a: string, b: string): number {\n",
           "/**\n * The one comparison for keys: plain code-unit order, the order keys are minted in. Never\n"
           " * localeCompare — ICU puts \"k\" before \"V\" (KB-212).\n */\n"
           "export function compareKeys(a: string, b: string): number {\n")
    s.edit("src/fractional.ts",
           "/** A key between ``before`` and ``after``; either may be null for the start or end of the list. */\n",
           "// No rebalancing and no length checks here: keys may grow under repeated inserts at one spot; the\n"
           "// sync server rebalances keys longer than 48 chars in its nightly compaction.\n"
           "/** A key between ``before`` and ``after``; either may be null for the start or end of the list. */\n")
    s.edit("src/board.ts",
           "/** Moves ``cardId`` into ``toColumn`` at position ``index`` (0 = top). */\n",
           "/**\n * Moves ``cardId`` into ``toColumn`` at position ``index`` (0 = top).\n *\n"
           " * One write per move: only the moved card's rank changes. The sync layer merges moves per card\n"
           " * (last writer wins), so touching neighbours' ranks would make concurrent moves fight.\n */\n")
    s.edit("test/board.test.ts",
           "    expect([...keys].sort(compareKeys)).toEqual(keys);\n  });\n",
           "    expect([...keys].sort(compareKeys)).toEqual(keys);\n  });\n"
           "  it(\"orders by code unit, not by locale\", () => {\n"
           "    expect(compareKeys(\"Z\", \"a\")).toBeLessThan(0);\n"
           "    expect(compareKeys(\"aZ\", \"b\")).toBeLessThan(0);\n"
           "    const k = keyBetween(\"Z\", \"a\");\n"
           "    expect(compareKeys(\"Z\", k)).toBeLessThan(0);\n"
           "    expect(compareKeys(k, \"a\")).toBeLessThan(0);\n"
           "  });\n"
           "  it(\"keeps columns in the order they were added\", () => {\n"
           "    const board = createBoard(\"x\");\n"
           "    const names = [\"a\", \"b\", \"c\", \"d\"].map((n) => addColumn(board, n).name);\n"
           "    expect(orderedColumns(board).map((c) => c.name)).toEqual(names);\n"
           "  });\n")
    s.edit("test/board.test.ts",
           "import { addCard, addColumn, cardsIn, createBoard, moveCard } from \"../src/board\";\n",
           "import { addCard, addColumn, cardsIn, createBoard, moveCard, orderedColumns } from \"../src/board\";\n")
    s.edit("test/board.test.ts",
           "    expect(cardsIn(board, todo.id).map((x) => x.title)).toEqual([\"c\", \"a\", \"b\"]);\n  });\n",
           "    expect(cardsIn(board, todo.id).map((x) => x.title)).toEqual([\"c\", \"a\", \"b\"]);\n  });\n"
           "  it(\"rewrites only the moved card's rank\", () => {\n"
           "    const { board, todo, a, b, c } = sample();\n"
           "    const before = [a.rank, b.rank];\n"
           "    moveCard(board, c.id, todo.id, 1);\n"
           "    expect([a.rank, b.rank]).toEqual(before);\n"
           "  });\n")
    s.bash("npx vitest run && npx tsc --noEmit -p .", vitest_ok(11))
    s.say("Done:\n- `orderedColumns` sorts with `compareKeys`; no `localeCompare` left in `src/`. `compareKeys` "
          "has a comment saying why (KB-212).\n"
          "- `keyBetween`: untouched apart from the comment pointing at the server's nightly compaction.\n"
          "- `moveCard`: doc comment stating the one-write rule; code unchanged.\n"
          "- Three new tests (column order, mixed-case keys, only the moved card's rank changes). 11 passed, tsc "
          "clean.")
    s.user("good.")
    return [s]


@scenario("wip-over-limit", KB, "a product designer with before/after 'screenshots' in text; the agent writes "
          "'### Option A/B/C' headings; the designer describes the behaviour (the card lands, the column goes "
          "red) and the agent maps it to B",
          [exp("decision", "src/wip.ts:canDrop", "allow the drop", ["block with an explanation", "ask to confirm"])])
def _wip_over(files):
    s = Session("tune12-wip-over-limit", "2025-05-13T12:30:00Z", files)
    s.user("Hi! Beta feedback, and it's the top complaint this week: cards 'bounce back' when people drag them "
           "into Doing. From a screen recording:\n\n"
           "[screenshot 1 — drag in progress]\n"
           " To do (4)         Doing (3/3)        Done (12)\n"
           " ┌────────┐        ┌────────┐\n"
           " │ KB-88  │ ─────▶ │ KB-71  │\n"
           " └────────┘        │ KB-74  │\n"
           "                   │ KB-80  │\n"
           "                   └────────┘\n"
           "[screenshot 2 — after letting go]\n"
           " KB-88 is back in To do. No message, no colour, nothing.\n\n"
           "Three people filed it as 'drag and drop is broken'. It feels broken. What can we do?")
    s.read("src/wip.ts")
    s.grep("canDrop", ["src/wip.ts", "test/board.test.ts"])
    s.say("The bounce is `canDrop`: the app asks it before committing the move, and it returns `false` as soon "
          "as the column is at its limit, so the app silently reverts. The library can support a few "
          "behaviours:\n\n"
          "### Option A — Block with an explanation\n"
          "Keep refusing the drop, but return a reason (`{ ok: false, reason: \"Doing is at its WIP limit (3/3)\" "
          "}`) so the app can show a toast. Limits stay hard.\n\n"
          "### Option B — Allow the drop, flag the column\n"
          "`canDrop` no longer looks at the limit; the card always lands. `wipStatus` already reports "
          "`count`, `limit` and `over`, so the app can colour the column header while it's over. I'd add "
          "`wouldExceed()` so the app can preview that during the drag.\n\n"
          "### Option C — Ask to confirm\n"
          "When the drop would exceed the limit, the app shows a dialog ('Doing is over its limit — move "
          "anyway?'); the library returns a `\"confirm\"` state instead of a boolean.\n\n"
          "A is the smallest change; B changes what a WIP limit means (advisory instead of enforced).")
    s.user("Picture someone pulling a card over during standup while the whole team watches the screen. I want "
           "the card to land exactly where they dropped it, every time — no surprises, no popups in the middle "
           "of a drag (people click those away without reading anyway). Then the column should tell the truth: "
           "the header goes red and says 4/3, and it stays red until someone pulls a card out. That's the nudge; "
           "the team talks about it at standup.")
    s.say("That's Option B: allow the drop and flag the column. `canDrop` will only check that the column "
          "exists; `wipStatus(...).over` drives the red header (4/3), and `wouldExceed` lets the app tint the "
          "header while the card is hovering.")
    s.edit("src/wip.ts",
           "/** Whether a card may be dropped into ``columnId`` (the card is not in it yet). */\n"
           "export function canDrop(board: Board, columnId: ColumnId): boolean {\n"
           "  const { count, limit } = wipStatus(board, columnId);\n"
           "  return limit === undefined || count + 1 <= limit;\n}\n",
           "/**\n * Whether a card may be dropped into ``columnId``: always, if the column exists. A WIP limit never\n"
           " * blocks a drop; the column is reported as over its limit instead (``wipStatus(...).over``).\n */\n"
           "export function canDrop(board: Board, columnId: ColumnId): boolean {\n"
           "  return board.columns[columnId] !== undefined;\n}\n\n"
           "/** Whether one more card in ``columnId`` would put it over its limit (to tint the header mid-drag). */\n"
           "export function wouldExceed(board: Board, columnId: ColumnId): boolean {\n"
           "  const { count, limit } = wipStatus(board, columnId);\n"
           "  return limit !== undefined && count + 1 > limit;\n}\n")
    s.edit("test/board.test.ts", "import { canDrop, wipStatus } from \"../src/wip\";\n",
           "import { canDrop, wipStatus, wouldExceed } from \"../src/wip\";\n")
    s.edit("test/board.test.ts", "    expect(canDrop(board, doing.id)).toBe(false);\n",
           "    expect(canDrop(board, doing.id)).toBe(true);\n"
           "    expect(wouldExceed(board, doing.id)).toBe(true);\n")
    s.bash("npx vitest run", vitest_ok(8))
    s.say("Done. The card always lands; the limit is reported, not enforced. For the app: render "
          "`count/limit` in the header and colour it when `wipStatus(board, id).over`; use `wouldExceed` for "
          "the hover state. Tests updated, 8 passed.")
    s.user("[screenshot — after the change, in the staging build]\n"
           " To do (3)         Doing (4/3) 🔴      Done (12)\n"
           "                   │ KB-88  │\n"
           "                   │ KB-71  │ ...\n"
           "That's it. It feels calm now. Thank you!")
    return [s]


@scenario("undo-one-drag", KB, "a person thinking aloud picks a 500ms time window, the agent implements it, then "
          "the person changes their mind in the same session: revert it, group by a transaction id instead",
          [exp("decision", "src/history.ts:History.record", "transaction id", ["time window"])])
def _undo(files):
    s = Session("tune12-undo-one-drag", "2025-05-20T16:45:00Z", files)
    s.user("undo is annoying right now: if I drag a card across three columns and drop it, then hit ctrl-z, "
           "hmm, wait — the library doesn't see hovers, right? oh no, it does, the app calls moveCard on every "
           "hover to show the preview, and records history each time. so undo takes 4 presses to get the card "
           "back. I think we should merge entries that come quickly one after another... like within 500ms? "
           "yeah, let's do that, a time window.")
    s.read("src/history.ts")
    s.edit("src/history.ts",
           "  record(board: Board, label: string): void {\n"
           "    this.undoStack.push({ label, before: JSON.stringify(board), at: this.now() });\n",
           "  record(board: Board, label: string): void {\n"
           "    const last = this.undoStack[this.undoStack.length - 1];\n"
           "    // coalesce: same label within 500ms keeps the older snapshot\n"
           "    if (last && last.label === label && this.now() - last.at < 500) return;\n"
           "    this.undoStack.push({ label, before: JSON.stringify(board), at: this.now() });\n")
    s.bash("npx vitest run", vitest_ok(8))
    s.say("Added a 500ms window to `History.record`: an entry with the same label as the previous one, recorded "
          "less than 500ms later, is skipped, so the first snapshot of a quick drag is the one undo goes back to. "
          "Tests pass.")
    s.user("hmm. thinking about it more, that's going to feel random. a slow drag that takes 2 seconds becomes "
           "4 undo steps again, and two quick *separate* edits with the same label get glued together. revert "
           "the time window. the app knows exactly when a drag starts and ends, so let it pass a transaction id: "
           "record() skips the snapshot if the last entry has the same transaction. one drag = one undo step, "
           "however long it takes.", seconds=90)
    s.say("Makes sense — reverting the time window and grouping by transaction id instead. `record(board, "
          "label, txn?)`: when `txn` is given and equals the last entry's, nothing is recorded; without `txn` "
          "every call is its own step, as before.")
    s.edit("src/history.ts",
           "  at: number;\n}\n",
           "  at: number;\n  txn?: string; // entries of one transaction (e.g. a drag) are one undo step\n}\n")
    s.edit("src/history.ts",
           "  /** Call before mutating ``board``; ``label`` is shown in the undo menu. */\n"
           "  record(board: Board, label: string): void {\n"
           "    const last = this.undoStack[this.undoStack.length - 1];\n"
           "    // coalesce: same label within 500ms keeps the older snapshot\n"
           "    if (last && last.label === label && this.now() - last.at < 500) return;\n"
           "    this.undoStack.push({ label, before: JSON.stringify(board), at: this.now() });\n",
           "  /**\n   * Call before mutating ``board``; ``label`` is shown in the undo menu. Calls that pass the same\n"
           "   * ``txn`` as the last entry (every hover of one drag) record nothing: one transaction, one undo step.\n"
           "   */\n"
           "  record(board: Board, label: string, txn?: string): void {\n"
           "    const last = this.undoStack[this.undoStack.length - 1];\n"
           "    if (txn !== undefined && last?.txn === txn) return;\n"
           "    this.undoStack.push({ label, before: JSON.stringify(board), at: this.now(), txn });\n")
    s.edit("test/board.test.ts",
           "    expect(Object.keys(back.cards)).toHaveLength(3);\n  });\n",
           "    expect(Object.keys(back.cards)).toHaveLength(3);\n  });\n"
           "  it(\"undoes a whole drag in one step\", () => {\n"
           "    const { board, todo, doing, a } = sample();\n"
           "    const h = new History();\n"
           "    for (const [col, i] of [[doing.id, 0], [todo.id, 2], [doing.id, 0]] as const) {\n"
           "      h.record(board, \"move a\", \"drag-1\");\n"
           "      moveCard(board, a.id, col, i);\n"
           "    }\n"
           "    expect(h.undo(board)!.cards[a.id]!.columnId).toBe(todo.id);\n"
           "    expect(h.canUndo()).toBe(false);\n"
           "  });\n")
    s.bash("npx vitest run && npx tsc --noEmit -p .", vitest_ok(9))
    s.say("Reverted the 500ms window; `record` now takes an optional `txn` and skips the snapshot when it "
          "matches the last entry's. The app should pass the same id for every `record` call of one drag "
          "(e.g. `drag-${pointerId}-${startTime}`). New test: three hovers + drop undo in one step. 9 passed.")
    s.user("yes. much better")
    return [s]


@scenario("serialize-forward-compat", KB, "the agent pushes back (read-only or keep throwing for newer boards) and "
          "is overruled with a reason; then a deliberate oddity explained by the person (version written as a "
          "string for an old Android client)",
          [exp("decision", "src/serialize.ts:fromJSON", "unknown fields", ["read-only", "keep throwing"]),
           exp("workaround", "src/serialize.ts:toJSON", "as a string")])
def _serialize(files):
    s = Session("tune12-serialize-forward-compat", "2025-05-27T10:20:00Z", files)
    s.user("fromJSON throws 'too-new' when the mobile app (format 3) saves a board and the web app (format 2) "
           "opens it. Older clients have to open newer boards: ignore unknown fields, don't throw on "
           "version > FORMAT_VERSION.")
    s.read("src/serialize.ts")
    s.say("I can do that, but I want to flag the risk first. Ignoring unknown fields is only safe if a newer "
          "format never changes the *meaning* of an existing field — if format 3 ever changed how `rank` is "
          "encoded, a format-2 client would read it wrong and, worse, save it back. It also means fields only "
          "format 3 knows (say a due date) are lost when the web app saves the board.\n\n"
          "Two safer alternatives: keep throwing for a newer format (what we do now), or open newer boards "
          "read-only so nothing gets written back. I'd lean to read-only.")
    s.user("no. I get the risk, but we own both formats and the rule for format changes is additive only — new "
           "fields, never a changed meaning. open it, drop the unknown fields, full editing. we tried read-only "
           "in the desktop app last year and users just got stuck with a board they couldn't touch and no idea "
           "why.")
    s.say("OK — your call, and the additive-only rule covers the main risk. `fromJSON` will accept any "
          "version and keep only the fields it knows; `checkCard` and `checkColumn` already copy known fields "
          "only, so the change is removing the `too-new` check.")
    s.edit("src/serialize.ts",
           "  if (version > FORMAT_VERSION) {\n"
           "    throw new BoardError(`board was saved by a newer version (${version})`, \"too-new\");\n"
           "  }\n",
           "  // Boards saved by newer clients open normally, fully editable: formats only ever change by adding\n"
           "  // fields, and fields this version doesn't know are dropped (checkCard/checkColumn copy known ones).\n")
    s.edit("test/board.test.ts",
           "    expect(fromJSON(toJSON(board))).toEqual(board);\n  });\n",
           "    expect(fromJSON(toJSON(board))).toEqual(board);\n  });\n"
           "  it(\"opens a board from a newer format, dropping unknown fields\", () => {\n"
           "    const { board } = sample();\n"
           "    const saved = JSON.parse(toJSON(board));\n"
           "    saved.version = 3;\n"
           "    (Object.values(saved.board.cards)[0] as Record<string, unknown>).dueDate = \"2025-06-01\";\n"
           "    expect(fromJSON(JSON.stringify(saved))).toEqual(board);\n"
           "  });\n")
    s.bash("npx vitest run", vitest_ok(9))
    s.user("good. one more, and yes it's silly: toJSON has to write the version as a string, \"2\", not 2. the "
           "2022 android client (still ~8% of active users) finds the version with a regex on the raw text, "
           "`\"version\":\"(\\d+)\"`, and crashes on a bare number. leave a comment so nobody 'fixes' it.")
    s.edit("src/serialize.ts",
           "export interface SavedBoard {\n  version: number;\n",
           "export interface SavedBoard {\n  version: string; // a string on purpose, see toJSON\n")
    s.edit("src/serialize.ts",
           "  const saved: SavedBoard = { version: FORMAT_VERSION, board };\n",
           "  // The version is written as a string (\"2\"), not a number: the 2022 Android client finds it with a\n"
           "  // regex on the raw text, \"version\":\"(\\d+)\", and crashes on a bare number. fromJSON reads both.\n"
           "  const saved: SavedBoard = { version: String(FORMAT_VERSION), board };\n")
    s.edit("test/board.test.ts",
           "    saved.version = 3;\n",
           "    expect(saved.version).toBe(\"2\");\n    saved.version = 3;\n")
    s.bash("npx vitest run && npx tsc --noEmit -p .", vitest_ok(9))
    s.say("Done: `toJSON` writes `\"version\":\"2\"` with a comment on why; `fromJSON` already uses "
          "`Number(saved.version)`, so it reads strings and numbers alike. 9 passed, tsc clean.")
    return [s]


@scenario("deny-by-default", KB, "a rule set while fixing can() ('deny by default'); days later the agent writes a "
          "permission check in board.ts that lets unknown roles through and is corrected with the rule in other "
          "words",
          [exp("invariant", "src/*.ts", "deny by default")])
def _deny(files):
    s = Session("tune12-deny-by-default-1", "2025-06-03T09:00:00Z", files)
    s.user("permissions bug. can() returns true for 'view' when the user has no role on the board at all, and "
           "when a role comes in that we don't know (the server started sending 'guest' last week) GRANTS[role] "
           "is undefined and we return TRUE, for everything. Fix it. And the rule for permission checks from "
           "now on: deny by default. no role, unknown role, unknown action -> false.")
    s.read("src/permissions.ts")
    s.edit("src/permissions.ts",
           "  const role = roleOn(user, board);\n"
           "  if (role === undefined) return action === \"view\";\n"
           "  const grants = GRANTS[role];\n"
           "  if (grants === undefined) return true;\n"
           "  return grants.includes(action);\n",
           "  // deny by default: no role, a role we don't know, or an action not granted -> false\n"
           "  const role = roleOn(user, board);\n"
           "  if (role === undefined) return false;\n"
           "  const grants = Object.hasOwn(GRANTS, role) ? GRANTS[role] : undefined;\n"
           "  if (grants === undefined) return false;\n"
           "  return grants.includes(action);\n")
    s.edit("test/board.test.ts",
           "    expect(can(user, \"moveCard\", board)).toBe(false);\n  });\n",
           "    expect(can(user, \"moveCard\", board)).toBe(false);\n  });\n"
           "  it(\"denies users without a role, and roles it doesn't know\", () => {\n"
           "    const { board } = sample();\n"
           "    expect(can({ id: \"u2\", roles: {} }, \"view\", board)).toBe(false);\n"
           "    const guest = { id: \"u3\", roles: { [board.id]: \"guest\" } } as unknown as User;\n"
           "    expect(can(guest, \"view\", board)).toBe(false);\n"
           "  });\n")
    s.edit("test/board.test.ts", "import { can } from \"../src/permissions\";\n",
           "import { can } from \"../src/permissions\";\nimport type { User } from \"../src/types\";\n")
    s.bash("npx vitest run && npx tsc --noEmit -p .", vitest_ok(9))
    s.say("Fixed: `can()` returns false with no role on the board, for a role not in `GRANTS` (checked with "
          "`Object.hasOwn`, so `\"constructor\"` and friends can't slip through either), and for any action the "
          "role isn't granted. Test added; 9 passed.")
    s.user("thx")

    t = Session("tune12-deny-by-default-2", "2025-06-06T14:15:00Z", files)
    t.user("need canArchiveColumn(user, board, columnId) in board.ts: owners can always, editors only if the "
           "column has no cards left, viewers and commenters no.")
    t.read("src/board.ts", offset=60)
    t.edit("src/board.ts",
           "import { Board, BoardError, Card, CardId, Column, ColumnId } from \"./types\";\n",
           "import { Board, BoardError, Card, CardId, Column, ColumnId, User } from \"./types\";\n")
    t.edit("src/board.ts",
           "  return n;\n}\n",
           "  return n;\n}\n\n"
           "/** Whether ``user`` may archive ``columnId``: owners always, editors only when it has no cards. */\n"
           "export function canArchiveColumn(user: User, board: Board, columnId: ColumnId): boolean {\n"
           "  const role = user.roles[board.id];\n"
           "  if (role === \"owner\") return true;\n"
           "  if (role === \"editor\") return cardsIn(board, columnId).length === 0;\n"
           "  return role !== \"viewer\" && role !== \"commenter\";\n}\n")
    t.say("Added `canArchiveColumn` after `archiveColumn`: owner → true, editor → only when `cardsIn` is "
          "empty, viewer/commenter → false.")
    t.user("the last line is backwards. anything that isn't explicitly allowed is a no — same as in "
           "permissions.ts. a role we've never heard of (or no role) must not be able to archive a column. "
           "return false there.")
    t.edit("src/board.ts",
           "  return role !== \"viewer\" && role !== \"commenter\";\n",
           "  return false; // not explicitly allowed: no (unknown roles and no role included)\n")
    t.bash("npx vitest run && npx tsc --noEmit -p .", vitest_ok(9))
    t.say("Right — it let `guest` and users without a role through. It now returns false for everything but "
          "owner and (empty column) editor. tsc clean, 9 passed.")
    return [s, t]


@scenario("wip-counts-archived", KB, "a support ticket; the agent writes a failing test, finds the cause (archived "
          "cards counted) and fixes it; the person cuts per-swimlane limits out of scope",
          [exp("gotcha", "src/wip.ts:countActive", "archived"),
           exp("boundary", "src/wip.ts", "per-swimlane")])
def _wip_archived(files):
    s = Session("tune12-wip-counts-archived", "2025-06-10T11:30:00Z", files)
    s.user("Support ticket KB-240, pasted:\n\n> Our 'Doing' column says 5/3 and is red but there are only 2 cards "
           "in it. We archived a few last sprint. Also, while you're at it, could limits be per swimlane? Our "
           "frontend and backend people share the board.\n\nCan you find out what's going on with the count?")
    s.read("src/wip.ts", offset=1, limit=25)
    s.say("Suspicious: `countActive` loops over every card on the board and counts those whose `columnId` "
          "matches, while `cardsIn` (what the UI renders) also filters out archived ones. Let me confirm with a "
          "test.")
    s.edit("test/board.test.ts",
           "    expect(canDrop(board, doing.id)).toBe(false);\n  });\n",
           "    expect(canDrop(board, doing.id)).toBe(false);\n  });\n"
           "  it(\"does not count archived cards\", () => {\n"
           "    const { board, doing, a, b, c } = sample();\n"
           "    for (const card of [a, b, c]) moveCard(board, card.id, doing.id, 0);\n"
           "    archiveCard(board, a.id);\n"
           "    archiveCard(board, b.id);\n"
           "    expect(wipStatus(board, doing.id)).toMatchObject({ count: 1, over: false });\n"
           "  });\n")
    s.edit("test/board.test.ts",
           "import { addCard, addColumn, cardsIn, createBoard, moveCard } from \"../src/board\";\n",
           "import { addCard, addColumn, archiveCard, cardsIn, createBoard, moveCard } from \"../src/board\";\n")
    s.bash("npx vitest run",
           " RUN  v2.1.1 {{ROOT}}\n\n ❯ test/board.test.ts (9 tests | 1 failed) 14ms\n"
           "   × wip > does not count archived cards 6ms\n"
           "     → expected { columnId: 'col_m3x9k2', count: 3, …(2) } to match object { count: 1, over: false }\n\n"
           "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n"
           " FAIL  test/board.test.ts > wip > does not count archived cards\n"
           "AssertionError: expected { columnId: 'col_m3x9k2', count: 3, …(2) } to match object { count: 1, over: false }\n\n"
           "- Expected\n+ Received\n\n  Object {\n-   \"count\": 1,\n-   \"over\": false,\n+   \"count\": 3,\n"
           "+   \"over\": true,\n  }\n\n ❯ test/board.test.ts:58:39\n\n"
           " Test Files  1 failed (1)\n      Tests  1 failed | 8 passed (9)", fail=True)
    s.say("Confirmed: archived cards are counted against the limit. `archiveCard` keeps the card's `columnId` "
          "(so it can be restored into its column), and `countActive` never checks `archived` — so every card "
          "ever archived from Doing still counts. That's the customer's 5/3 with 2 visible cards. Fix: skip "
          "archived cards in `countActive`, matching what `cardsIn` shows.")
    s.edit("src/wip.ts",
           "    if (card.columnId === columnId) n += 1;\n",
           "    // archived cards keep their columnId (for restore) but don't count against the limit\n"
           "    if (card.columnId === columnId && !card.archived) n += 1;\n")
    s.bash("npx vitest run", vitest_ok(9))
    s.say("Fixed; 9 passed. About the second part of the ticket — per-swimlane limits: the board has no "
          "swimlane concept yet (cards only have a `columnId`), so that would mean a new field on `Card`, a "
          "limit map on `Column`, and changes to `wipStatus`. Want me to sketch it?")
    s.user("no — per-swimlane limits aren't something this library does, not for now anyway. WIP limits are "
           "per column, full stop. it's a product decision for later and the ticket guy will get an answer "
           "from product. just the count fix.")
    s.say("Understood — just the count fix. Suggested reply for KB-240: archived cards were being counted "
          "towards the column limit; fixed in the next release.")
    return [s]


@scenario("review-history", KB, "a review of history.ts with should/must suggestions; nobody takes them up in the "
          "session", [])
def _review(files):
    s = Session("tune12-review-history", "2025-06-12T15:00:00Z", files)
    s.user("can you review src/history.ts? don't change anything, just tell me what you'd flag in a PR review.")
    s.read("src/history.ts")
    s.grep("new History", ["test/board.test.ts"])
    s.say("Review of `src/history.ts`:\n\n"
          "1. **Snapshot size.** Every `record` stores `JSON.stringify(board)`. At 100 entries and a 2,000-card "
          "board that's easily 30–40 MB. It should probably cap by bytes, not only by count.\n"
          "2. **`undo` returns a new object.** Callers must swap their board reference; anything holding the "
          "old `Board` (a selector cache, say) keeps stale data. Worth a doc comment at least.\n"
          "3. **`revision` goes backwards on undo.** The restored snapshot carries the old `revision`, and the "
          "sync layer uses it to detect stale writes — an undo must bump it rather than restore it, or the "
          "server could reject the next write.\n"
          "4. **`at` is only informational** today; if nothing reads it, it could go.\n"
          "5. **`labels()`** reverses the stack on every call; fine at 100 entries.\n\n"
          "3 is the one I'd want fixed before anything ships; the rest are nice-to-haves.")
    s.user("thanks, useful. I'll take these to thursday's sync with the sync-service folks, esp. 3.")
    return [s]


@scenario("intern-fractional-questions", KB, "an intern's questions about fractional keys, a hypothetical, an agent "
          "'Plan:' nobody adopts, and the lead stepping in with a process instruction", [])
def _intern_questions(files):
    s = Session("tune12-intern-fractional-questions", "2025-06-16T10:00:00Z", files)
    s.user("hi, intern here, 2nd week 👋 I'm trying to understand fractional.ts. some questions:\n"
           "- why are keys strings and not numbers?\n- what does midpoint do when the digits are next to each "
           "other?\n- what happens if two people insert a card at the same spot at the same time?")
    s.read("src/fractional.ts")
    s.say("Good questions:\n\n"
          "- **Strings, not numbers:** with floats you run out of precision after ~50 inserts at the same spot "
          "(halving a double that many times). Strings can always get one digit longer, so there's always a key "
          "between two others.\n"
          "- **Adjacent digits:** if `a` and `b` differ by one digit at position `i` (say `\"B\"` and `\"C\"`), "
          "there's no digit strictly between, so `midpoint` keeps `a`'s digit and goes one level deeper: "
          "`\"B\"` + midpoint of the rest and the open end → `\"BV\"`. That's how keys grow.\n"
          "- **Concurrent inserts at the same spot:** both clients compute `keyBetween(x, y)` from the same "
          "neighbours and get the *same* key. The two cards then tie; `compareKeys` returns 0 and the order "
          "between them depends on object iteration order, so two clients could show them in different orders.")
    s.user("oh, so that's a bug? could we fix it?")
    s.say("It's a known limitation of plain fractional indexing. One way to handle it:\n\n"
          "Plan:\n1. Add a short random suffix (2 base-62 digits of jitter) to every key `keyBetween` mints.\n"
          "2. Break remaining ties in `cardsIn` by card id.\n3. Add a test with two simulated clients inserting "
          "at the same spot.\n\nThis would change key lengths and `keyBetween`'s output, so it's worth checking "
          "with whoever owns the mobile app first.")
    s.user("hypothetically, if we did that, would old keys still sort right with new ones?")
    s.say("Yes — a suffix only makes a key longer, and a longer key sorts right after its prefix and before the "
          "next digit, so existing keys keep their relative order. The risk is elsewhere (the mobile app "
          "calling `keyBetween` itself and minting un-jittered keys).")
    s.user("lead here: no code today, this is a reading week for her. and a general thing while I'm here: "
           "always run `npm test` and `npm run lint` before you push anything, every time, no exceptions.",
           seconds=300)
    s.say("Noted — no changes made in this session.")
    s.user("ok!! thank you, this was really helpful")
    return [s]


# -- build and check ------------------------------------------------------------------------------------------


def build() -> None:
    out = []
    (HERE / "sessions").mkdir(exist_ok=True)
    for sc in SCENARIOS:
        sessions = sc["fn"](repo_files(sc["repo"]))
        for s in sessions:
            (HERE / "sessions" / f"{s.name}.jsonl").write_text(s.jsonl(), encoding="utf-8")
        out.append({"name": sc["name"], "repo": sc["repo"], "sessions": [f"{s.name}.jsonl" for s in sessions],
                    "note": sc["note"], "expected": sc["expected"]})
    (HERE / "expected.json").write_text(json.dumps({"set": "tune12", "scenarios": out}, indent=2,
                                                   ensure_ascii=False) + "\n", encoding="utf-8")


def check() -> None:
    """Replays each scenario on a copy of its repository; every expected anchor must name a definition
    (tether's parser) of the final state, or a file, or a glob matching some file."""
    import shutil
    import tempfile
    sys.path.insert(0, str(TESTS))
    sys.path.insert(0, str(HERE.parents[2] / "server"))
    from capture_fixtures import hook_events, materialize
    from tether.core.languages import for_path
    from tether.core.syntax import SourceFile
    for sc in json.loads((HERE / "expected.json").read_text(encoding="utf-8"))["scenarios"]:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "repo"
            shutil.copytree(HERE / "repos" / sc["repo"], root)
            edits = 0
            for name in sc["sessions"]:
                path = materialize(name, root, Path(tmp) / "t", HERE / "sessions" / name)
                for _event, change in hook_events(path, root):
                    if change is not None:
                        change()
                        edits += 1
            said = " ".join(json.dumps(json.loads(ln)["message"]["content"], ensure_ascii=False).lower()
                            for n in sc["sessions"] for ln in (HERE / "sessions" / n).read_text().splitlines()
                            if json.loads(ln).get("type") in ("user", "assistant"))
            for e in sc["expected"]:
                for phrase in (e["phrase"], *e["rejected"]):
                    assert phrase.lower() in said, (sc["name"], phrase)
                rel, _, name = e["anchor"].partition(":")
                if "*" in rel:
                    assert list(root.glob(rel)), (sc["name"], e["anchor"])
                    continue
                text = (root / rel).read_text(encoding="utf-8")
                if name:
                    names = {d.qualname for d in SourceFile(text, for_path(rel)).defs}
                    assert name in names, (sc["name"], e["anchor"], sorted(names))
            # the session files in the builder and the replay end in the same state
            final = repo_files_at(root)
            files = repo_files(sc["repo"])
            fn = next(x["fn"] for x in SCENARIOS if x["name"] == sc["name"])
            fn(files)
            assert final == files, (sc["name"], [k for k in files if files[k] != final.get(k)])
        print(f"ok  {sc['name']}: {len(sc['sessions'])} session(s), {edits} edits, {len(sc['expected'])} expected")


def repo_files_at(base: Path) -> dict[str, str]:
    return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8") for p in sorted(base.rglob("*"))
            if p.is_file() and ".git" not in p.parts}


if __name__ == "__main__":
    build()
    if "--check" in sys.argv:
        check()
