"""Writes the heldout6 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``bookshelf`` (Python, a personal library catalogue)
and ``chatwidget`` (TypeScript, an embeddable support chat widget). Sessions are written with the
``Session`` builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py`` after
changing a scenario (outputs are committed). ``python3 build.py --check`` also replays every
scenario on a copy of its repository (every edit must apply), checks that the replayed end state
equals the builder's, that every expected anchor names a definition of the final state (tether's
own parser), and that every key phrase and rejected phrase occurs in the sessions' text.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
TESTS = HERE.parents[2] / "tests"
sys.path.insert(0, str(TESTS / "fixtures" / "transcripts"))
from build import Session  # noqa: E402

SET = "heldout6"
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


def pytest_ok(n: int, secs: str = "0.06", where: str = "/home/nuria/code/bookshelf") -> str:
    dots = "." * n
    return ("============================= test session starts ==============================\n"
            "platform linux -- Python 3.12.3, pytest-8.3.4, pluggy-1.5.0\n"
            f"rootdir: {where}\nconfigfile: pyproject.toml\ntestpaths: tests\ncollected {n} items\n\n"
            f"tests/test_bookshelf.py {dots:<49}[100%]\n\n"
            + f" {n} passed in {secs}s ".center(80, "=") + "\n")


def vitest_ok(files: list[tuple[str, int, int]], start: str = "10:14:02") -> str:
    lines = [" RUN  v2.1.8 /home/dev/work/chatwidget", ""]
    total = 0
    for name, n, ms in files:
        lines.append(f" ✓ {name} ({n} tests) {ms}ms")
        total += n
    lines += ["", f" Test Files  {len(files)} passed ({len(files)})",
              f"      Tests  {total} passed ({total})",
              f"   Start at  {start}",
              "   Duration  438ms (transform 64ms, setup 0ms, collect 51ms, tests 7ms, environment 0ms, prepare 88ms)"]
    return "\n".join(lines) + "\n"


# -- bookshelf (Python) ----------------------------------------------------------------------------------

BS = "bookshelf"


@scenario("isbn-lowercase-x", BS, "non-native English; a bug told in words; the agent reproduces it (traceback), "
          "finds the cause (an ISBN-10 check digit written as a lowercase x, rejected by the regex before the "
          "checksum) and fixes it in normalize",
          [exp("gotcha", "bookshelf/isbn.py:normalize", "lowercase x")])
def _isbn_x(files):
    s = Session("isbn-lowercase-x", "2026-03-02T18:40:00.000Z", files)
    s.user("hola! I have a problem. My friend Lucía give me a list of her books for adding them and one is "
           "failing, the ISBN is 0-8044-2957-x and bookshelf say \"not an ISBN\". But the book exist, I check it "
           "in the web of the national library and is the same number. Can you look what happens?")
    s.read("bookshelf/isbn.py")
    s.bash("python3 -c \"from bookshelf.isbn import parse_isbn; print(parse_isbn('0-8044-2957-x'))\"",
           "Traceback (most recent call last):\n"
           "  File \"<string>\", line 1, in <module>\n"
           "  File \"/home/carmen/proyectos/bookshelf/bookshelf/isbn.py\", line 55, in parse_isbn\n"
           "    code = normalize(raw)\n"
           "           ^^^^^^^^^^^^^^\n"
           "  File \"/home/carmen/proyectos/bookshelf/bookshelf/isbn.py\", line 18, in normalize\n"
           "    raise InvalidISBN(f\"not an ISBN: {raw!r}\")\n"
           "bookshelf.isbn.InvalidISBN: not an ISBN: '0-8044-2957-x'", fail=True,
           description="Reproduce with the ISBN from the list")
    s.bash("python3 -c \"from bookshelf.isbn import parse_isbn; print(parse_isbn('0-8044-2957-X'))\"",
           "080442957X", description="Same ISBN with an uppercase X")
    s.say("Reproduced, and found it. An ISBN-10's last character is a check digit from 0 to 10, and 10 is "
          "written as **X**. Lucía's list has it as a lowercase x (`…2957-x`). `normalize` only lets `[0-9X]` "
          "through, so the lowercase x fails the regex and you get \"not an ISBN\" before the checksum is even "
          "computed. With an uppercase X the same number parses, and its checksum is correct, so the book is fine.\n\n"
          "The fix belongs in `normalize`: upper-case the string there, so everything after it (the regex, and "
          "`is_valid_isbn10` comparing the check digit with `\"X\"`) sees one form. I'll add a test with your ISBN.")
    s.edit("bookshelf/isbn.py",
           "    \"\"\"Strip spaces and hyphens: '0-306-40615-2' -> '0306406152'.\"\"\"\n"
           "    cleaned = raw.strip().replace(\"-\", \"\").replace(\" \", \"\")\n",
           "    \"\"\"Strip spaces and hyphens, upper-case the X check digit: '0-306-40615-2' -> '0306406152'.\"\"\"\n"
           "    cleaned = raw.strip().replace(\"-\", \"\").replace(\" \", \"\").upper()\n")
    s.edit("tests/test_bookshelf.py",
           "def test_parse_rejects_garbage():\n",
           "def test_parse_lowercase_x_check_digit():\n"
           "    assert parse_isbn(\"0-8044-2957-x\") == \"080442957X\"\n\n\n"
           "def test_parse_rejects_garbage():\n")
    s.bash("python3 -m pytest -q", "...........                                                              [100%]\n"
           "11 passed in 0.05s", description="Run the tests")
    s.say("Fixed: `normalize` now upper-cases, so `0-8044-2957-x` parses as `080442957X`. 11 tests pass, including "
          "the new one with Lucía's book. You can run the import of her list again.")
    s.user("ahh, the x in minúscula! I never think of this. perfect, gracias 🙏")
    return [s]


@scenario("loan-due-dates", BS, "solo developer thinking out loud; numbered options; the choice is made over three "
          "turns (fixed period, not 14 days, then 21 days as a constructor argument)",
          [exp("decision", "bookshelf/loans.py:LoanBook.lend", "21 days", ["per-friend", "no due date by default"])])
def _loans(files):
    s = Session("loan-due-dates", "2026-03-04T21:12:00.000Z", files)
    s.user("ok next thing. loans have a `due` field but nothing ever sets it, the cli doesnt even have a flag, so "
           "`overdue()` is basically dead code lol. i want lend() to pick a due date on its own. thoughts?")
    s.read("bookshelf/loans.py")
    s.grep("\\.lend\\(", ["bookshelf/cli.py", "tests/test_bookshelf.py"])
    s.say("Right — `lend()` only sets `due` when a caller passes one, and the only callers are the CLI (never passes "
          "it) and one test. A few ways to give it a default:\n\n"
          "1. **Fixed default period** — e.g. 14 days from `lent_on`, still overridable per call with `due=`.\n"
          "2. **Per-friend period** — remember a default per borrower (Marta gets two months, Pau two weeks). "
          "Needs a small friends file and a way to edit it.\n"
          "3. **No due date by default**, as now — only when passed, and we add a `--due` flag to the CLI.\n\n"
          "I'd go with 1: the least code, and `due=` keeps the escape hatch for special cases.")
    s.user("hmm. per-friend is kinda cute tbh, marta literally keeps books for half a year. but then i need a friends "
           "file and a cli for editing it and ugh, thats a whole feature. thinking out loud here: no due date by "
           "default is what we have now and i never remember to pass one, so thats out. so fixed period yes. but "
           "not 14, 14 is nothing for a 600 page brick")
    s.say("Makes sense. What number — 21 or 30 are the usual ones? And do you want the period as a module constant, "
          "or as a `LoanBook(default_days=...)` argument so the CLI could take it from a flag or a config later?")
    s.user("21 days. three weeks = three weekends, thats the logic, most reading happens on weekends. and yeah "
           "constructor arg with 21 as the default")
    s.edit("bookshelf/loans.py", "from datetime import date\n", "from datetime import date, timedelta\n")
    s.edit("bookshelf/loans.py",
           "    def __init__(self, loans: list[Loan] | None = None):\n        self.loans: list[Loan] = loans or []\n",
           "    def __init__(self, loans: list[Loan] | None = None, default_days: int = 21):\n"
           "        self.loans: list[Loan] = loans or []\n"
           "        # three weeks: three weekends of reading\n"
           "        self.default_days = default_days\n")
    s.edit("bookshelf/loans.py",
           "        loan = Loan(isbn=isbn, borrower=borrower.strip(), lent_on=on or date.today(), due=due)\n",
           "        lent_on = on or date.today()\n"
           "        if due is None:\n"
           "            due = lent_on + timedelta(days=self.default_days)\n"
           "        loan = Loan(isbn=isbn, borrower=borrower.strip(), lent_on=lent_on, due=due)\n")
    s.edit("tests/test_bookshelf.py",
           "def test_fold():\n",
           "def test_default_due_is_three_weeks():\n"
           "    loan = LoanBook().lend(\"9780306406157\", \"Marta\", on=date(2026, 3, 1))\n"
           "    assert loan.due == date(2026, 3, 22)\n\n\n"
           "def test_fold():\n")
    s.bash("python3 -m pytest -q", "...........                                                              [100%]\n"
           "11 passed in 0.05s", description="Run the tests")
    s.say("Done. `LoanBook(default_days=21)`; `lend()` sets `due = lent_on + 21 days` unless a `due` is passed. The "
          "CLI already prints the due date when there is one, so `bookshelf lend` now shows it. 11 tests pass.")
    s.user("sweet. marta's gonna be overdue on day 22 and i'm gonna enjoy telling her")
    return [s]


@scenario("metadata-no-network", BS, "contractor quoting the client's rules: one adopted (no network requests, the "
          "stub adapter removed), one deferred to the client (dataclasses everywhere), one moot (requests)",
          [exp("invariant", "bookshelf/**/*.py", "network requests")])
def _metadata(files):
    s = Session("metadata-no-network", "2026-03-05T09:20:00.000Z", files)
    s.user("Morning. Picking up the metadata part. The client sent their engineering rules doc, the relevant bits:\n\n"
           "> 1. The library must never make network requests. Metadata comes from adapters the host app injects; "
           "tests use fixture files.\n"
           "> 2. Public functions return dataclasses, never dicts.\n"
           "> 3. HTTP goes through `requests` with a 5 s timeout.\n\n"
           "1 we're doing, it's their app and their network policy and honestly it's the right call for a library. "
           "That means the OpenLibraryAdapter stub goes — it's an open invitation for someone to wire urllib into it. "
           "3 is moot then. 2 I'm not doing now: the loans JSON helpers return dicts and I'm not rewriting them for a "
           "style rule, I'll bring it up with them on Thursday. Also add a test that goes through the fixture adapter, "
           "we have none.")
    s.read("bookshelf/metadata.py")
    s.grep("urllib|requests|http\\.client|socket", [])
    s.say("Nothing in the package does network I/O today; the only thing pointing that way is the "
          "`OpenLibraryAdapter` stub. Removing it and writing the rule into the module docstring, so the next "
          "person looking for where to add an HTTP adapter reads it there.")
    s.edit("bookshelf/metadata.py",
           "Adapters are tried in order; the first that knows the ISBN wins.\n\"\"\"\n",
           "Adapters are tried in order; the first that knows the ISBN wins.\n\n"
           "The library never makes network requests. An adapter that talks to a service belongs to the host\n"
           "application, which passes it in; tests and offline use go through FixtureAdapter.\n\"\"\"\n")
    s.edit("bookshelf/metadata.py",
           "class OpenLibraryAdapter:\n"
           "    \"\"\"Placeholder for the Open Library API.\"\"\"\n\n"
           "    name = \"openlibrary\"\n\n"
           "    def lookup(self, isbn13: str) -> Metadata | None:\n"
           "        raise NotImplementedError(\"openlibrary lookups are not wired up yet\")\n\n\n", "")
    s.grep("OpenLibraryAdapter", [])
    s.edit("tests/test_bookshelf.py",
           "from bookshelf.loans import LoanBook, LoanError\n",
           "from bookshelf.loans import LoanBook, LoanError\nfrom bookshelf.metadata import FixtureAdapter, lookup\n")
    s.edit("tests/test_bookshelf.py",
           "def test_lend_and_return():\n",
           "def test_lookup_through_fixtures(tmp_path):\n"
           "    path = tmp_path / \"meta.json\"\n"
           "    path.write_text('{\"9780306406157\": {\"title\": \"Tiny\", \"authors\": [\"A. Author\"], \"year\": 1999}}')\n"
           "    found = lookup(\"0-306-40615-2\", [FixtureAdapter(path)])\n"
           "    assert found.title == \"Tiny\" and found.source == \"fixtures\"\n"
           "    assert lookup(\"9780441013593\", [FixtureAdapter(path)]) is None\n\n\n"
           "def test_lend_and_return():\n")
    s.bash("python3 -m pytest", pytest_ok(11, where="/home/jt/clients/llibres/bookshelf"), description="Run the tests")
    s.say("Done:\n- `OpenLibraryAdapter` removed (nothing referenced it); the no-network rule is in `metadata.py`'s "
          "docstring.\n- New test looks an ISBN-10 up through `FixtureAdapter` (it's converted to 13 on the way) and "
          "checks a miss returns `None`. 11 pass.\n- Left rule 2 alone as you said.")
    s.user("perfect, thanks")
    return [s]


@scenario("goodreads-export", BS, "contractor; the agent reads a sample export, explains and writes a deliberate "
          "oddity (ISBNs wrapped as Excel formulas), asks about to-read rows with bullet options; the contractor "
          "picks one quoting the client",
          [exp("workaround", "bookshelf/goodreads.py:_unwrap_isbn", "excel"),
           exp("decision", "bookshelf/goodreads.py:import_rows", "skip to-read", ["import everything", "wishlist"])])
def _goodreads(files):
    s = Session("goodreads-export", "2026-03-09T14:02:00.000Z", files)
    s.user("The client forwarded a real Goodreads export from one of their book-club members, it's at "
           "~/Downloads/goodreads_library_export.csv (412 rows). Members will be importing these from next week, so "
           "have a look at the format and make sure the importer copes before anyone tries it.")
    s.bash("head -c 900 ~/Downloads/goodreads_library_export.csv",
           "Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,"
           "Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,Bookshelves with "
           "positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies\n"
           "234225,\"Dune (Dune, #1)\",Frank Herbert,\"Herbert, Frank\",,\"=\"\"0441013597\"\"\",\"=\"\"9780441013593\"\"\","
           "5,4.27,Ace,Paperback,688,2005,1965,2023/08/14,2023/07/01,,,read,,,,1,0\n"
           "40961427,\"1984\",George Orwell,\"Orwell, George\",,\"=\"\"\"\"\",\"=\"\"\"\"\",0,4.19,,Kindle Edition,,2021,"
           "1949,,2024/01/03,to-read,to-read (#88),to-read,,,,0,0\n"
           "18144590,The Name of the Wind,Patrick Rothfuss,\"Rothfuss, Patrick\",,\"=\"\"075640741X\"\"\","
           "\"=\"\"9780756404741\"\"\",4,4.52,DAW,Paperback,662,2007,2007,,2024/02/11,currently-reading,",
           description="Look at the export's header and first rows")
    s.bash("python3 -c \"import csv,collections,pathlib; rows=list(csv.DictReader(open(pathlib.Path.home()/"
           "'Downloads/goodreads_library_export.csv', encoding='utf-8-sig'))); "
           "print(collections.Counter(r['Exclusive Shelf'] for r in rows)); print(repr(rows[0]['ISBN13']))\"",
           "Counter({'to-read': 230, 'read': 161, 'currently-reading': 21})\n'=\"9780441013593\"'",
           description="Count shelves and show a parsed ISBN cell")
    s.read("bookshelf/goodreads.py")
    s.say("Two things in this export the importer doesn't handle:\n\n"
          "**1. ISBNs are Excel formulas.** Goodreads writes every ISBN cell as `=\"0441013597\"` (in the raw CSV "
          "`\"=\"\"0441013597\"\"\"`), so that Excel shows it as text and keeps the leading zero. After `csv` parses "
          "it we get the string `=\"9780441013593\"`, which `parse_isbn` rejects — every row would land in "
          "`skipped`. Editions without an ISBN (Kindle) have an empty formula `=\"\"`. I'll unwrap that explicitly in "
          "a small helper; stripping `=` and quotes looks like a typo to anyone reading it later, so it gets a comment "
          "saying why.\n\n"
          "**2. Shelves.** `Exclusive Shelf` is `read` (161), `currently-reading` (21) or `to-read` (230). More than "
          "half of this member's rows are books they *want*, not books they have. Options:\n"
          "- **import everything**, shelf kept as-is (what the code does now);\n"
          "- **skip to-read** rows and count them in the report;\n"
          "- **import to-read as a wishlist** — a separate list outside the catalogue.\n\n"
          "Which one does the client want?")
    s.user("The client's line is \"the catalogue is what's physically on your shelves\", so to-read doesn't belong "
           "in it. Skip to-read, but count them in the report so the member sees why 230 books didn't come in. The "
           "wishlist is a nice idea but it isn't in the contract and I'm not building features they haven't paid "
           "for. currently-reading stays, they own those.")
    s.edit("bookshelf/goodreads.py",
           "    skipped: list[str] = field(default_factory=list)\n",
           "    not_owned: int = 0\n"
           "    skipped: list[str] = field(default_factory=list)\n")
    s.edit("bookshelf/goodreads.py",
           "def row_to_book(row: dict[str, str]) -> Book | None:\n"
           "    isbn = row.get(\"ISBN13\", \"\").strip() or row.get(\"ISBN\", \"\").strip()\n",
           "def _unwrap_isbn(value: str) -> str:\n"
           "    # Goodreads writes ISBNs as Excel formulas, =\"0441013597\", so that Excel keeps the leading zero.\n"
           "    # Stripping the = and the quotes looks like a typo but is deliberate. An empty formula (=\"\") means\n"
           "    # the edition has no ISBN (Kindle editions, mostly).\n"
           "    value = value.strip()\n"
           "    if value.startswith('=\"') and value.endswith('\"'):\n"
           "        value = value[2:-1]\n"
           "    return value.strip()\n\n\n"
           "def row_to_book(row: dict[str, str]) -> Book | None:\n"
           "    isbn = _unwrap_isbn(row.get(\"ISBN13\", \"\")) or _unwrap_isbn(row.get(\"ISBN\", \"\"))\n")
    s.edit("bookshelf/goodreads.py",
           "    for row in rows:\n        book = row_to_book(row)\n",
           "    for row in rows:\n"
           "        if row.get(\"Exclusive Shelf\") == \"to-read\":\n"
           "            # wanted, not owned: the catalogue is what is physically on the shelves\n"
           "            report.not_owned += 1\n"
           "            continue\n"
           "        book = row_to_book(row)\n")
    s.edit("bookshelf/cli.py",
           "        print(f\"{report.added} added, {report.duplicates} duplicates, {len(report.skipped)} skipped\")\n",
           "        print(f\"{report.added} added, {report.duplicates} duplicates, \"\n"
           "              f\"{report.not_owned} to-read not imported, {len(report.skipped)} skipped\")\n")
    s.edit("tests/test_bookshelf.py",
           "    assert c.get(\"9780441013593\").year == 1965\n",
           "    assert c.get(\"9780441013593\").year == 1965\n\n\n"
           "def test_import_goodreads_formulas_and_to_read():\n"
           "    c = Catalog()\n"
           "    rows = [{\"Title\": \"Dune\", \"Author\": \"Frank Herbert\", \"ISBN\": '=\"0441013597\"',\n"
           "             \"ISBN13\": '=\"9780441013593\"', \"Exclusive Shelf\": \"read\"},\n"
           "            {\"Title\": \"1984\", \"Author\": \"George Orwell\", \"ISBN\": '=\"\"', \"ISBN13\": '=\"\"',\n"
           "             \"Exclusive Shelf\": \"to-read\"}]\n"
           "    report = import_rows(rows, c)\n"
           "    assert (report.added, report.not_owned, report.skipped) == (1, 1, [])\n")
    s.bash("python3 -m pytest -q", "...........                                                              [100%]\n"
           "11 passed in 0.06s", description="Run the tests")
    s.bash("python3 -c \"from pathlib import Path; from bookshelf.catalog import Catalog; from bookshelf.goodreads "
           "import import_csv; r = import_csv(Path.home()/'Downloads/goodreads_library_export.csv', Catalog()); "
           "print(r.added, r.duplicates, r.not_owned); print(*r.skipped, sep='\\n')\"",
           "176 0 230\n"
           "The Hobbit (Kindle): no ISBN\nPiranesi: no ISBN\nKlara and the Sun: no ISBN\n"
           "Station Eleven (Audible Audio): no ISBN\nThe Overstory: no ISBN\nLa casa de los espíritus: no ISBN",
           description="Import the real export into an empty catalogue")
    s.say("On the real export: 176 imported, 230 to-read counted as not imported, 6 skipped — all six are editions "
          "with no ISBN at all (Kindle/Audible), which the catalogue can't key. The CLI line now reads e.g. "
          "`176 added, 0 duplicates, 230 to-read not imported, 6 skipped`. 11 tests pass.")
    s.user("Good. The no-ISBN ones are fine to skip, I'll mention it in the member FAQ.")
    return [s]


@scenario("fuzzy-search", BS, "solo developer; options as a table with a recommendation; picks one, turns the "
          "other two down with reasons and adds a requirement (prefixes)",
          [exp("decision", "bookshelf/search.py:score", "difflib", ["rapidfuzz", "trigram index"])])
def _fuzzy(files):
    s = Session("fuzzy-search", "2026-03-11T22:05:00.000Z", files)
    s.user("search is dumb rn. 'dun' doesnt find dune, 'garcia marques' (typo, z) finds nothing. score() is just "
           "word overlap. what are my options for actual fuzzy matching")
    s.read("bookshelf/search.py")
    s.say("Yes — `score` is the share of query words that appear exactly, so any typo or half word scores 0. "
          "Options:\n\n"
          "| option | how | dependency | fit for a few thousand books |\n"
          "|---|---|---|---|\n"
          "| **difflib** `SequenceMatcher` per word | best-matching title word for each query word, averaged | stdlib | "
          "fine: ~1 ms per book |\n"
          "| **rapidfuzz** `token_set_ratio` | C-accelerated edit distance over word sets | +1 package (binary wheels) | "
          "very fast |\n"
          "| **trigram index** | 3-grams per book precomputed, Jaccard overlap | stdlib, more code | fast, but the "
          "index must be kept in sync on add/remove |\n\n"
          "For a personal catalogue I'd take difflib: no dependency, and it's fast enough at this size.")
    s.user("i have like 600 books, so yeah. i really dont want a dependency for this, the whole point is pip install "
           "and go. trigram is overkill for 600 rows. difflib. BUT prefixes need to score high — 'dun' should hit "
           "'dune' strongly, typing half a word is literally how i search")
    s.edit("bookshelf/search.py", "import unicodedata\n", "import unicodedata\nfrom difflib import SequenceMatcher\n")
    s.edit("bookshelf/search.py",
           "def score(query: str, text: str) -> float:\n"
           "    \"\"\"How well ``query`` matches ``text``, 0..1. For now: word overlap.\"\"\"\n"
           "    q, t = set(fold(query).split()), set(fold(text).split())\n"
           "    if not q or not t:\n"
           "        return 0.0\n"
           "    return len(q & t) / len(q)\n",
           "def _word_score(word: str, candidates: list[str]) -> float:\n"
           "    best = 0.0\n"
           "    for cand in candidates:\n"
           "        if cand.startswith(word):\n"
           "            return 1.0 if cand == word else 0.9  # half a word typed: still a strong hit\n"
           "        best = max(best, SequenceMatcher(None, word, cand).ratio())\n"
           "    return best\n\n\n"
           "def score(query: str, text: str) -> float:\n"
           "    \"\"\"How well ``query`` matches ``text``, 0..1: for each query word the best similarity\n"
           "    (difflib) to a word of ``text``, a prefix counting 0.9, averaged over the query words.\"\"\"\n"
           "    q, t = fold(query).split(), fold(text).split()\n"
           "    if not q or not t:\n"
           "        return 0.0\n"
           "    return sum(_word_score(w, t) for w in q) / len(q)\n")
    s.edit("bookshelf/search.py",
           "limit: int = 10, threshold: float = 0.5)", "limit: int = 10, threshold: float = 0.7)")
    s.edit("tests/test_bookshelf.py",
           "def test_import_rows():\n",
           "def test_search_prefix_and_typo():\n"
           "    c = Catalog()\n"
           "    c.add(Book(isbn=\"9780441013593\", title=\"Dune\", authors=[\"Frank Herbert\"]))\n"
           "    c.add(Book(isbn=\"9780306406157\", title=\"Cien años de soledad\", authors=[\"Gabriel García Márquez\"]))\n"
           "    assert [b.title for _, b in search(c, \"dun\")] == [\"Dune\"]\n"
           "    assert [b.title for _, b in search(c, \"garcia marques\")] == [\"Cien años de soledad\"]\n\n\n"
           "def test_import_rows():\n")
    s.bash("python3 -m pytest -q", "...........                                                              [100%]\n"
           "11 passed in 0.07s", description="Run the tests")
    s.say("`score` now uses difflib per word: an exact word is 1.0, a prefix 0.9, otherwise the `SequenceMatcher` "
          "ratio, averaged over the query words. I raised the default threshold from 0.5 to 0.7, since fuzzy ratios "
          "give almost every word some score, and at 0.5 unrelated titles started coming through. 'dun' finds Dune, 'garcia "
          "marques' finds Cien años. 11 pass.")
    s.user("nice, tried it on my real catalog, 'pratchet' finds all 41 discworlds. ship it")
    return [s]


@scenario("isbn13-everywhere", BS, "terse reviewer states a rule (store ISBN-13 only) on the catalogue, answers the "
          "agent's follow-up with two words; a week later restates it in other words for the loans",
          [exp("invariant", "bookshelf/**/*.py", "isbn-13")])
def _isbn13(files):
    s = Session("isbn13-everywhere-1", "2026-03-16T08:31:00.000Z", files)
    s.user("catalog has 0306406152 and 9780306406157 as two books. same book. store isbn-13 only. convert in add().")
    s.read("bookshelf/catalog.py")
    s.edit("bookshelf/catalog.py",
           "from .isbn import parse_isbn\n",
           "from .isbn import parse_isbn, to_isbn13\n\n\n"
           "def _key(isbn: str) -> str:\n"
           "    \"\"\"The catalogue's key for any ISBN as typed: validated, as ISBN-13.\"\"\"\n"
           "    return to_isbn13(parse_isbn(isbn))\n")
    s.edit("bookshelf/catalog.py",
           "        book.isbn = parse_isbn(book.isbn)\n", "        book.isbn = _key(book.isbn)\n")
    s.edit("bookshelf/catalog.py",
           "        return self.books.get(parse_isbn(isbn))\n", "        return self.books.get(_key(isbn))\n")
    s.edit("bookshelf/catalog.py",
           "        return self.books.pop(parse_isbn(isbn))\n", "        return self.books.pop(_key(isbn))\n")
    s.say("`add`, `get` and `remove` all go through `_key` now (validate, then ISBN-10 → 13), so looking a book up "
          "by its 10-digit ISBN still works. Existing `catalog.json` files can hold 10-digit keys, though: convert "
          "them in `load()`, or leave that to a one-off migration script?")
    s.user("in load.")
    s.edit("bookshelf/catalog.py",
           "    return Catalog({b[\"isbn\"]: Book(**b) for b in data.get(\"books\", [])})\n",
           "    books = [Book(**{**b, \"isbn\": _key(b[\"isbn\"])}) for b in data.get(\"books\", [])]\n"
           "    return Catalog({b.isbn: b for b in books})\n")
    s.edit("tests/test_bookshelf.py",
           "def test_lend_and_return():\n",
           "def test_catalog_keys_are_isbn13():\n"
           "    c = Catalog()\n"
           "    c.add(Book(isbn=\"0-306-40615-2\", title=\"Tiny\"))\n"
           "    assert list(c.books) == [\"9780306406157\"]\n"
           "    assert c.get(\"0306406152\").title == \"Tiny\"\n"
           "    with pytest.raises(KeyError):\n"
           "        c.add(Book(isbn=\"9780306406157\", title=\"Tiny again\"))\n\n\n"
           "def test_lend_and_return():\n")
    s.bash("python3 -m pytest -q", "...........                                                              [100%]\n"
           "11 passed in 0.05s", description="Run the tests")
    s.say("Done — `load()` converts old keys too (two entries for the same book would collapse to the last one; "
          "there are none in your file, I checked the shape only). 11 pass.")
    s.user("ok")

    t = Session("isbn13-everywhere-2", "2026-03-23T08:05:00.000Z", files)
    t.user("loans. lent 0306406152, returned as 978-0-306-40615-7 → 'not lent out'. 13 digits only, same as "
           "catalog — anything we store or compare.")
    t.read("bookshelf/loans.py")
    t.say("`LoanBook` compares the ISBN strings exactly as typed, so the 10-digit and hyphenated 13-digit forms of "
          "the same book never match. I'll normalize every ISBN that comes into `LoanBook` to ISBN-13, the way "
          "`catalog._key` does.")
    t.edit("bookshelf/loans.py",
           "from pathlib import Path\n",
           "from pathlib import Path\n\nfrom .isbn import parse_isbn, to_isbn13\n")
    t.edit("bookshelf/loans.py",
           "    def current(self, isbn: str) -> Loan | None:\n",
           "    def current(self, isbn: str) -> Loan | None:\n        isbn = to_isbn13(parse_isbn(isbn))\n")
    t.edit("bookshelf/loans.py",
           "    def lend(self, isbn: str, borrower: str, on: date | None = None, due: date | None = None) -> Loan:\n",
           "    def lend(self, isbn: str, borrower: str, on: date | None = None, due: date | None = None) -> Loan:\n"
           "        isbn = to_isbn13(parse_isbn(isbn))\n")
    t.edit("bookshelf/loans.py",
           "    def return_book(self, isbn: str, on: date | None = None) -> Loan:\n",
           "    def return_book(self, isbn: str, on: date | None = None) -> Loan:\n"
           "        isbn = to_isbn13(parse_isbn(isbn))\n")
    t.edit("bookshelf/loans.py",
           "    return Loan(isbn=d[\"isbn\"], borrower=d[\"borrower\"],",
           "    return Loan(isbn=to_isbn13(parse_isbn(d[\"isbn\"])), borrower=d[\"borrower\"],")
    t.edit("tests/test_bookshelf.py",
           "def test_fold():\n",
           "def test_loans_match_any_isbn_form():\n"
           "    loans = LoanBook()\n"
           "    loans.lend(\"0306406152\", \"Pau\", on=date(2026, 3, 1))\n"
           "    assert loans.current(\"978-0-306-40615-7\").borrower == \"Pau\"\n"
           "    assert loans.return_book(\"978-0-306-40615-7\", on=date(2026, 3, 9)).isbn == \"9780306406157\"\n\n\n"
           "def test_fold():\n")
    t.bash("python3 -m pytest -q", "............                                                             [100%]\n"
           "12 passed in 0.06s", description="Run the tests")
    t.say("`current`, `lend`, `return_book` and loading `loans.json` all normalize to ISBN-13 now; your example is "
          "the new test. 12 pass.")
    t.user("👍")
    return [s, t]


@scenario("explore-save-and-lend", BS, "questions about how the CLI saves, a 'what happens if' and a hypothetical web "
          "version; explanations only, nothing decided, no edits",
          [])
def _explore(files):
    s = Session("explore-save-and-lend", "2026-03-18T23:10:00.000Z", files)
    s.user("random q while i'm procrastinating: walk me through what actually happens on disk when i run "
           "`bookshelf lend 9780441013593 marta`. like which files get touched and when")
    s.read("bookshelf/cli.py")
    s.read("bookshelf/catalog.py", offset=54)
    s.read("bookshelf/loans.py", offset=65)
    s.say("Every command, not just `lend`, does the same round trip:\n\n"
          "1. `main` loads **both** files up front: `~/.bookshelf/catalog.json` via `catalog.load` and "
          "`~/.bookshelf/loans.json` via `load_loans` (missing files give empty objects).\n"
          "2. `lend` appends a `Loan` in memory — it doesn't check the ISBN is in the catalogue, by the way; you can "
          "lend a book you don't have.\n"
          "3. At the end `main` writes **both** files back, even though `lend` changed only the loans.\n\n"
          "The two saves differ: `catalog.save` writes `catalog.tmp` and renames it over `catalog.json`, so a crash "
          "mid-write leaves the old file intact. `save_loans` writes `loans.json` in place, so a crash mid-write can "
          "leave it truncated.")
    s.user("huh. and if i ran two at once? like a lend in one terminal and an import in another")
    s.say("Last writer wins, for both files. Each process holds the whole state it loaded at its start; whichever "
          "finishes second writes its copy over the other's. So a long `import` started before a `lend` that "
          "finishes in between would write back the catalogue *and* the loans as they were when the import "
          "started — the loan would be gone. There's no locking anywhere.")
    s.user("lol ok. and hypothetically if this ever became a little web thing for me and my sister, that whole "
           "model falls apart right? would it have to be sqlite at that point")
    s.say("Pretty much. With more than one writer you'd want either a lock around load→change→save, or a store that "
          "does it for you — SQLite would be the natural step, one file, stdlib `sqlite3`, transactions. The "
          "dataclasses could stay; only `load`/`save` and the loans helpers would change. For a single person "
          "running one command at a time the JSON files are fine.")
    s.user("ok cool. that's all i wanted, brain's fried. night")
    return [s]


@scenario("rename-lent-to", BS, "terse rename in one file plus a process instruction (run ruff); no decision", [])
def _rename(files):
    s = Session("rename-lent-to", "2026-03-25T12:40:00.000Z", files)
    s.user("rename LoanBook.by_borrower -> lent_to. ruff after.")
    s.grep("by_borrower", ["bookshelf/loans.py"])
    s.edit("bookshelf/loans.py", "    def by_borrower(self, borrower: str) -> list[Loan]:\n",
           "    def lent_to(self, borrower: str) -> list[Loan]:\n")
    s.bash("ruff check bookshelf tests", "All checks passed!", description="Lint")
    s.bash("python3 -m pytest -q", "..........                                                               [100%]\n"
           "10 passed in 0.05s", description="Run the tests")
    s.say("Renamed; it had no callers outside `loans.py`. ruff clean, 10 tests pass.")
    s.user("ty")
    return [s]


# -- chatwidget (TypeScript) -----------------------------------------------------------------------------

CW = "chatwidget"
TSC = "npx tsc --noEmit -p ."


@scenario("reconnect-backoff", CW, "terse reviewer; lettered options (a/b/c) plus a question about giving up; "
          "answered in one line: a pick, a limit and a never-rule",
          [exp("decision", "src/socket.ts:ChatSocket.scheduleReconnect", "jitter", ["fixed 5s", "linear"]),
           exp("boundary", "src/socket.ts:ChatSocket.scheduleReconnect", "10 attempts"),
           exp("invariant", "src/socket.ts:ChatSocket.connect", "4401")])
def _backoff(files):
    s = Session("reconnect-backoff", "2026-03-03T10:02:00.000Z", files)
    s.user("socket reconnects every 1s forever. backend: 3k widgets hammer them after every deploy. fix.")
    s.read("src/socket.ts")
    s.say("Confirmed: `onclose` always calls `scheduleReconnect()`, which always waits a flat 1000 ms, with no limit "
          "and no look at why the socket closed. After a deploy every open widget drops at the same moment and they "
          "all come back in lockstep, once a second. Options:\n\n"
          "**(a)** fixed 5s delay — one-line change, but clients still reconnect in lockstep, just less often.\n"
          "**(b)** exponential backoff with full jitter — wait `random(0, min(30s, 1s · 2^attempt))`; spreads the "
          "herd over the window and backs off quickly.\n"
          "**(c)** linear — 1s, 2s, 3s… capped; gentler than (a), still synchronized.\n\n"
          "Separately: should it ever give up? Today it retries forever, including when the server closes with "
          "4401 (token rejected), which can never succeed with the same token.")
    s.user("b. give up after 10 attempts → offline state, widget shows it. 4401: never retry.")
    s.edit("src/socket.ts",
           "export type SocketState = \"connecting\" | \"open\" | \"reconnecting\" | \"closed\";\n",
           "export type SocketState = \"connecting\" | \"open\" | \"reconnecting\" | \"offline\" | \"closed\";\n\n"
           "const BASE_DELAY_MS = 1000;\n"
           "const MAX_DELAY_MS = 30_000;\n"
           "const MAX_ATTEMPTS = 10;\n"
           "// the server closes with this code when the token is rejected; retrying with it cannot succeed\n"
           "const TOKEN_REJECTED = 4401;\n")
    s.edit("src/socket.ts",
           "    ws.onclose = () => {\n      this.ws = null;\n      this.scheduleReconnect();\n    };\n",
           "    ws.onclose = (ev) => {\n"
           "      this.ws = null;\n"
           "      if (ev.code === TOKEN_REJECTED) {\n"
           "        this.setState(\"closed\");\n"
           "        return;\n"
           "      }\n"
           "      this.scheduleReconnect();\n"
           "    };\n")
    s.edit("src/socket.ts",
           "  scheduleReconnect(): void {\n"
           "    this.attempts += 1;\n"
           "    this.setState(\"reconnecting\");\n"
           "    this.timer = setTimeout(() => this.connect(), 1000);\n"
           "  }\n",
           "  scheduleReconnect(): void {\n"
           "    if (this.attempts >= MAX_ATTEMPTS) {\n"
           "      this.setState(\"offline\");\n"
           "      return;\n"
           "    }\n"
           "    // full jitter: a random wait up to the exponential bound, so clients dropped together spread out\n"
           "    const bound = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** this.attempts);\n"
           "    this.attempts += 1;\n"
           "    this.setState(\"reconnecting\");\n"
           "    this.timer = setTimeout(() => this.connect(), Math.random() * bound);\n"
           "  }\n")
    s.read("src/widget.ts", offset=40, limit=12)
    s.edit("src/widget.ts",
           "  const socket = new ChatSocket({ url: config.url, token: config.token, onFrame });\n",
           "  const onState = (state: SocketState) => root.classList.toggle(\"cw-offline\", state === \"offline\");\n"
           "  const socket = new ChatSocket({ url: config.url, token: config.token, onFrame, onState });\n")
    s.edit("src/widget.ts",
           "import { ChatSocket, type Frame } from \"./socket\";\n",
           "import { ChatSocket, type Frame, type SocketState } from \"./socket\";\n")
    s.bash(f"{TSC} && npx vitest run", vitest_ok([("test/format.test.ts", 6, 5)]), description="Type-check and test")
    s.say("Done:\n- (b): delay is `random(0, min(30s, 1s·2^attempt))`; `attempts` resets on a successful open.\n"
          "- After 10 failed attempts the state goes to `offline` and the widget root gets `cw-offline` (the host "
          "CSS can show a banner from that).\n- Close code 4401 goes straight to `closed`, no retry.\n"
          "tsc clean, tests pass (nothing covers the socket yet).")
    s.user("ok")
    return [s]


@scenario("escape-first", CW, "contractor adopts one of the client's security rules (escape before formatting) and "
          "parks another (DOM APIs everywhere); a week later the agent writes unescaped HTML in other code and the "
          "contractor restates the rule in other words",
          [exp("invariant", "src/*.ts", "escaped before")])
def _escape(files):
    s = Session("escape-first-1", "2026-03-10T11:15:00.000Z", files)
    s.user("The client's security review came back. The one finding that matters for us, quoting: \"Any text "
           "originating from the server or the visitor MUST be HTML-escaped before any markup is applied; the "
           "formatter may only add tags, never pass through the user's.\" Fair — right now formatMessage lets "
           "`<img src=x onerror=alert(1)>` straight through. We're adopting that. They also say \"prefer DOM APIs "
           "over innerHTML everywhere\", which would mean rewriting MessageList; I'll discuss that one with them, "
           "park it.")
    s.read("src/format.ts")
    s.say("`formatMessage` starts from the raw text and only adds tags, so any markup in the message survives. The "
          "fix is to escape first and format the escaped text. The markdown markers (`**`, `_`, backticks) aren't "
          "touched by escaping, and URLs still match — a `&` in a URL becomes `&amp;`, which is what belongs in an "
          "`href` anyway.")
    s.edit("src/format.ts",
           "export function formatMessage(text: string): string {\n  let html = text;\n",
           "// Escape first, then format: the formatter may only add its own tags, never pass the message's through.\n"
           "export function formatMessage(text: string): string {\n  let html = escapeHtml(text);\n")
    s.edit("test/format.test.ts",
           "  it(\"keeps line breaks\", () => {\n",
           "  it(\"escapes before formatting\", () => {\n"
           "    expect(formatMessage(\"<img src=x onerror=alert(1)> **hi**\")).toBe(\n"
           "      \"&lt;img src=x onerror=alert(1)&gt; <strong>hi</strong>\",\n"
           "    );\n"
           "  });\n\n"
           "  it(\"keeps line breaks\", () => {\n")
    s.bash(f"{TSC} && npx vitest run", vitest_ok([("test/format.test.ts", 7, 6)], "11:19:40"),
           description="Type-check and test")
    s.say("Done: `formatMessage` escapes first; new test with the `onerror` payload. 7 tests pass. I left "
          "`MessageList` on innerHTML as you said.")
    s.user("thanks")

    t = Session("escape-first-2", "2026-03-18T15:40:00.000Z", files)
    t.user("New one from the client: they want the agent's initials in a little avatar circle next to the agent's "
           "name in each bubble. Visitor's own messages don't get one.")
    t.read("src/messages.ts")
    t.edit("src/messages.ts",
           "export class MessageList {\n",
           "export function initials(name: string): string {\n"
           "  const parts = name.trim().split(/\\s+/).filter(Boolean);\n"
           "  const first = parts[0]?.[0] ?? \"?\";\n"
           "  const last = parts.length > 1 ? parts[parts.length - 1][0] : \"\";\n"
           "  return (first + last).toUpperCase();\n"
           "}\n\n"
           "export class MessageList {\n")
    t.edit("src/messages.ts",
           "        parts.push(\n          `<li class=\"${cls}\" data-id=\"${escapeHtml(m.id)}\">` +\n",
           "        const avatar = m.fromVisitor ? \"\" : `<span class=\"cw-avatar\" aria-hidden=\"true\">${initials(m.author)}</span>`;\n"
           "        parts.push(\n          `<li class=\"${cls}\" data-id=\"${escapeHtml(m.id)}\">` +\n"
           "            avatar +\n")
    t.bash(f"{TSC} && npx vitest run", vitest_ok([("test/format.test.ts", 7, 6)], "15:43:12"),
           description="Type-check and test")
    t.say("Added `initials()` (first letter of the first and last word, upper-cased) and an `aria-hidden` avatar "
          "span before the name for agent messages; the name is still read out, so the avatar stays decorative. "
          "You'll want a `.cw-avatar` rule in the stylesheet for the circle.")
    t.user("Escape it. Same rule as the security review last week: anything that comes from the server gets run "
           "through escapeHtml before it goes anywhere near innerHTML, no exceptions — an agent display name of "
           "`<img src=x onerror=alert(1)>` is literally the client's pentest case. And looking at that template, "
           "`cw-author` puts the name in raw too. That one predates us but fix it while you're there.")
    t.edit("src/messages.ts",
           "aria-hidden=\"true\">${initials(m.author)}</span>`;\n",
           "aria-hidden=\"true\">${escapeHtml(initials(m.author))}</span>`;\n")
    t.edit("src/messages.ts",
           "            `<span class=\"cw-author\">${m.author}</span>` +\n",
           "            `<span class=\"cw-author\">${escapeHtml(m.author)}</span>` +\n")
    t.grep("\\$\\{m\\.", ["src/messages.ts"])
    t.bash(f"{TSC} && npx vitest run", vitest_ok([("test/format.test.ts", 7, 6)], "15:47:55"),
           description="Type-check and test")
    t.say("Both escaped now. I went through every `${…}` in the template: `m.id` was already escaped, the body goes "
          "through `formatMessage` (escapes first), and `cls` is built only from our own class names. tsc clean, 7 "
          "pass.")
    t.user("good, thanks")
    return [s, t]


@scenario("typing-throttle", CW, "non-native English; the agent proposes two shapes and asks an interval; the "
          "choice and its parameters are settled over three turns, with the person reasoning aloud",
          [exp("decision", "src/typing.ts:TypingIndicator.onInput", "3 seconds", ["transitions only"])])
def _typing(files):
    s = Session("typing-throttle", "2026-03-12T16:20:00.000Z", files)
    s.user("Hi. The agents of the support team complain: the typing frames arrive like a storm, one for every "
           "letter the visitor write, and in the dashboard the indicator is blinking all the time. We need to send "
           "less frames. What you recommend?")
    s.read("src/typing.ts")
    s.read("src/widget.ts", offset=51, limit=14)
    s.say("Yes — `onInput` sends a frame on every input event, so a 40-character message is 40 frames. Two "
          "shapes that fix it:\n\n"
          "- **Throttle**: while the visitor types, send `active: true` at most once every N seconds (a heartbeat), "
          "and a stop frame when they stop.\n"
          "- **Transitions only**: send `active: true` once when typing starts and `active: false` once when it "
          "stops. Fewest frames, but if that one start frame is lost the agent sees nothing until the next start.\n\n"
          "The dashboard hides the indicator after 8 s without a frame (same as our `REMOTE_TIMEOUT_MS`), so a "
          "heartbeat under 8 s keeps it steady. Which shape, and what N?")
    s.user("The second sound more clean, but you are right about the lost frames — in the mobile networks of our "
           "clients this happen a lot. So the first one, throttle. One each 3 seconds.")
    s.say("And the stop frame: only when the input becomes empty (sent or deleted), or also after some time without "
          "typing?")
    s.user("Also after some time. If somebody write half a message and go for a coffee, with only the empty case the "
           "agent see \"typing\"... no wait, the heartbeat stop, so in the dashboard it dies after 8 seconds anyway. "
           "Hmm. But 8 seconds is long. Put 5 seconds without writing → we send the stop. And after send a message "
           "also the stop, of course.")
    s.edit("src/typing.ts",
           "const REMOTE_TIMEOUT_MS = 8000;\n",
           "const REMOTE_TIMEOUT_MS = 8000;\n"
           "// while typing: at most one \"active\" frame every 3 s (a heartbeat, so one lost frame doesn't matter)\n"
           "const HEARTBEAT_MS = 3000;\n"
           "// no input for 5 s: send the stop frame\n"
           "const IDLE_MS = 5000;\n")
    s.edit("src/typing.ts",
           "  private remoteTimer: ReturnType<typeof setTimeout> | null = null;\n",
           "  private remoteTimer: ReturnType<typeof setTimeout> | null = null;\n"
           "  private idleTimer: ReturnType<typeof setTimeout> | null = null;\n"
           "  private active = false;\n"
           "  private lastSent = 0;\n")
    s.edit("src/typing.ts",
           "  // called on every input event of the composer\n"
           "  onInput(value: string): void {\n"
           "    this.socket.send({ type: \"typing\", author: this.author, active: value.length > 0 });\n"
           "  }\n",
           "  // called on every input event of the composer\n"
           "  onInput(value: string): void {\n"
           "    if (value.length === 0) {\n"
           "      this.stop();\n"
           "      return;\n"
           "    }\n"
           "    const now = Date.now();\n"
           "    if (!this.active || now - this.lastSent >= HEARTBEAT_MS) {\n"
           "      this.socket.send({ type: \"typing\", author: this.author, active: true });\n"
           "      this.active = true;\n"
           "      this.lastSent = now;\n"
           "    }\n"
           "    if (this.idleTimer) clearTimeout(this.idleTimer);\n"
           "    this.idleTimer = setTimeout(() => this.stop(), IDLE_MS);\n"
           "  }\n\n"
           "  // the visitor stopped: emptied the input, sent the message, or was idle for IDLE_MS\n"
           "  stop(): void {\n"
           "    if (this.idleTimer) clearTimeout(this.idleTimer);\n"
           "    this.idleTimer = null;\n"
           "    if (!this.active) return;\n"
           "    this.active = false;\n"
           "    this.socket.send({ type: \"typing\", author: this.author, active: false });\n"
           "  }\n")
    s.edit("src/widget.ts", "    drafts.clear();\n", "    drafts.clear();\n    typing.stop();\n")
    s.bash(f"{TSC} && npx vitest run", vitest_ok([("test/format.test.ts", 6, 5)], "16:31:07"),
           description="Type-check and test")
    s.say("Done:\n- first keystroke sends `active: true`, then at most one more every 3 seconds while typing;\n"
          "- `stop()` sends `active: false` when the input is emptied, when a message is sent, or after 5 seconds "
          "without input — and only if we had said `active` before, so no stray stop frames.\n"
          "A 40-character message typed in 10 s is now 4 frames + 1 stop instead of 40. tsc clean, tests pass.")
    s.user("Perfect, muchas gracias! I tell the support team.")
    return [s]


@scenario("drafts-expiry", CW, "solo developer picks sessionStorage, the agent does it and points out a consequence; "
          "the developer thinks aloud and reverts to localStorage with an expiry (7 days considered, 24 hours chosen)",
          [exp("decision", "src/drafts.ts:DraftStore", "24 hours", ["sessionStorage", "7 days"])])
def _drafts(files):
    s = Session("drafts-expiry", "2026-03-14T20:45:00.000Z", files)
    s.user("privacy thing thats been bugging me. drafts live in localStorage forever. someone on a library computer "
           "types 'my order 4411 is for my divorce lawyer', closes the tab, next person opens the widget on that "
           "site and boom there it is. drafts should be sessionStorage, die with the tab. do it")
    s.read("src/drafts.ts")
    s.edit("src/drafts.ts",
           "// Unsent text per conversation, so a reload doesn't lose what the visitor was typing.\n",
           "// Unsent text per conversation, so a reload doesn't lose what the visitor was typing.\n"
           "// sessionStorage: a draft dies with the tab, so it never shows up for the next person on a shared computer.\n")
    s.edit("src/drafts.ts", "      window.localStorage.setItem(this.key, JSON.stringify(draft));\n",
           "      window.sessionStorage.setItem(this.key, JSON.stringify(draft));\n")
    s.edit("src/drafts.ts", "    const raw = window.localStorage.getItem(this.key);\n",
           "    const raw = window.sessionStorage.getItem(this.key);\n")
    s.edit("src/drafts.ts", "    window.localStorage.removeItem(this.key);\n",
           "    window.sessionStorage.removeItem(this.key);\n")
    s.bash(f"{TSC} && npx vitest run", vitest_ok([("test/format.test.ts", 6, 4)], "20:47:30"),
           description="Type-check and test")
    s.say("Switched: save/load/clear use `sessionStorage`. A reload keeps the draft; closing the tab drops it.\n\n"
          "One consequence worth knowing: a visitor who closes the tab and comes back later loses the draft too — "
          "and with support chats that's common (\"let me find my order number and come back\"). Drafts written "
          "before this change stay in localStorage until someone clears them; I can add a one-time cleanup if you "
          "want.")
    s.user("hm. yeah that's… actually the main case isn't it. people leave to go dig out the order number. ok "
           "thinking out loud: sessionStorage kills that case. localStorage forever is the privacy thing. what if "
           "localStorage but drafts expire. 7 days? nah, shorter, a library computer gets reused the same day. 24 "
           "hours. yeah. go back to localStorage, drop drafts older than 24 hours when loading. then the old drafts "
           "question goes away too")
    s.edit("src/drafts.ts",
           "// sessionStorage: a draft dies with the tab, so it never shows up for the next person on a shared computer.\n",
           "// localStorage, so a draft survives closing the tab (visitors leave to find an order number and come back),\n"
           "// but a draft older than 24 hours is dropped: on a shared computer it must not greet the next person.\n")
    s.edit("src/drafts.ts", "const PREFIX = \"chatwidget:draft:\";\n",
           "const PREFIX = \"chatwidget:draft:\";\nconst MAX_AGE_MS = 24 * 60 * 60 * 1000;\n")
    s.edit("src/drafts.ts", "      window.sessionStorage.setItem(this.key, JSON.stringify(draft));\n",
           "      window.localStorage.setItem(this.key, JSON.stringify(draft));\n")
    s.edit("src/drafts.ts", "    window.sessionStorage.removeItem(this.key);\n",
           "    window.localStorage.removeItem(this.key);\n")
    s.edit("src/drafts.ts",
           "    const raw = window.sessionStorage.getItem(this.key);\n"
           "    if (!raw) return \"\";\n"
           "    try {\n"
           "      const draft = JSON.parse(raw) as Draft;\n"
           "      return typeof draft.text === \"string\" ? draft.text : \"\";\n",
           "    const raw = window.localStorage.getItem(this.key);\n"
           "    if (!raw) return \"\";\n"
           "    try {\n"
           "      const draft = JSON.parse(raw) as Draft;\n"
           "      if (typeof draft.text !== \"string\" || !(Date.now() - draft.savedAt <= MAX_AGE_MS)) {\n"
           "        this.clear();\n"
           "        return \"\";\n"
           "      }\n"
           "      return draft.text;\n")
    s.bash(f"{TSC} && npx vitest run", vitest_ok([("test/format.test.ts", 6, 4)], "20:53:12"),
           description="Type-check and test")
    s.say("Back on `localStorage`; `load()` drops (and deletes) a draft older than 24 hours, or one without a valid "
          "`savedAt` — which also covers the drafts written before this change that have no usable timestamp. "
          "tsc clean, tests pass.")
    s.user("perfect. that's the one")
    return [s]


@scenario("announcer-polite", CW, "contractor's long message: brand colour, the auditor's findings, the client's "
          "wish turned down (assertive), an invoice remark; a pick mid-paragraph and a scope left out for now",
          [exp("decision", "src/a11y.ts:Announcer", "polite", ["assertive"]),
           exp("boundary", "src/typing.ts:TypingIndicator.showRemote", "typing announcements")])
def _announcer(files):
    s = Session("announcer-polite", "2026-03-19T09:05:00.000Z", files)
    s.user("Morning! A few things from yesterday's call with the client, in no particular order. Their brand guide "
           "says the launcher should be #0B5FFF, but that lives in their CSS overrides, not in the widget, so ignore "
           "it. Their accessibility auditor (it's a bank, of course they have one) flagged that new messages are "
           "sometimes read twice by VoiceOver and sometimes not at all, and pointed at our live region. The client "
           "says use aria-live=\"assertive\" so nothing is ever missed; I pushed back on the call and I'm sticking "
           "with it: assertive cuts off whatever the visitor is listening to, and the auditor's own report "
           "recommends polite, so polite it is. The auditor also asked whether \"Ana is typing\" should be announced; "
           "no typing announcements for now, it's noise — a voice saying \"Ana is typing\" every few seconds would "
           "drive anyone mad. Oh and the March invoice went out yesterday, if an email from their accounts people "
           "lands in the shared inbox that's why. Can you sort out the announcer?")
    s.read("src/a11y.ts")
    s.grep("announce\\(", ["src/widget.ts", "src/a11y.ts"])
    s.say("The region is a `div` with `role=\"log\"` and no explicit `aria-live`. A log is implicitly polite, but "
          "also `aria-relevant=\"additions text\"` and non-atomic, and `announce()` replaces the text each time — "
          "VoiceOver treats the replacement as a removal plus an addition, which matches \"sometimes twice, "
          "sometimes not\". I'll make it a plain status region: explicit `aria-live=\"polite\"`, `aria-atomic=\"true\"`, "
          "so each new message is read once, in full, after whatever is being read now. `announce` is only called "
          "for incoming agent messages in `widget.ts`; the typing indicator has no live region, so nothing to change "
          "there beyond writing down that it's on purpose.")
    s.edit("src/a11y.ts",
           "    this.region.setAttribute(\"role\", \"log\");\n",
           "    // polite, not assertive: a new message waits until the current speech ends instead of cutting it off\n"
           "    this.region.setAttribute(\"aria-live\", \"polite\");\n"
           "    this.region.setAttribute(\"aria-atomic\", \"true\");\n")
    s.edit("src/typing.ts",
           "    this.el.textContent = `${author} is typing…`;\n",
           "    // not a live region, on purpose: typing is not announced to screen readers for now (too noisy)\n"
           "    this.el.textContent = `${author} is typing…`;\n")
    s.bash(f"{TSC} && npx vitest run", vitest_ok([("test/format.test.ts", 6, 5)], "09:12:44"),
           description="Type-check and test")
    s.say("Done: the announcer is `aria-live=\"polite\"` + `aria-atomic=\"true\"` (no more `role=\"log\"`), with a "
          "comment on why not assertive; the typing line has a comment that it's deliberately not announced. tsc "
          "clean, tests pass. Worth asking the auditor to re-test with VoiceOver on iOS and macOS — I can't run a "
          "screen reader here.")
    s.user("Will do, they're re-testing Friday. Thanks!")
    return [s]


@scenario("close-reconnects", CW, "terse reviewer reports a bug in words; the agent writes a failing test, finds the "
          "cause (the close event arrives after close() returned and the onclose handler reconnects) and fixes it",
          [exp("gotcha", "src/socket.ts:ChatSocket.close", "onclose")])
def _close(files):
    s = Session("close-reconnects", "2026-03-26T13:30:00.000Z", files)
    s.user("unmount() → widget comes back ~1s later. new ws in devtools. fix.")
    s.read("src/socket.ts")
    s.write("test/socket.test.ts",
            "import { afterEach, beforeEach, describe, expect, it, vi } from \"vitest\";\n"
            "import { ChatSocket } from \"../src/socket\";\n\n"
            "class FakeWebSocket {\n"
            "  static OPEN = 1;\n"
            "  static instances: FakeWebSocket[] = [];\n"
            "  readyState = 0;\n"
            "  onopen: (() => void) | null = null;\n"
            "  onmessage: ((ev: { data: string }) => void) | null = null;\n"
            "  onclose: ((ev: { code: number }) => void) | null = null;\n"
            "  constructor(public url: string) {\n"
            "    FakeWebSocket.instances.push(this);\n"
            "  }\n"
            "  send(): void {}\n"
            "  close(): void {\n"
            "    // like a browser: the close event fires later, after the closing handshake\n"
            "    setTimeout(() => this.onclose?.({ code: 1000 }), 10);\n"
            "  }\n"
            "}\n\n"
            "describe(\"ChatSocket\", () => {\n"
            "  beforeEach(() => {\n"
            "    vi.useFakeTimers();\n"
            "    FakeWebSocket.instances = [];\n"
            "    vi.stubGlobal(\"WebSocket\", FakeWebSocket);\n"
            "  });\n\n"
            "  afterEach(() => {\n"
            "    vi.useRealTimers();\n"
            "    vi.unstubAllGlobals();\n"
            "  });\n\n"
            "  it(\"stays closed after close()\", () => {\n"
            "    const socket = new ChatSocket({ url: \"wss://x\", token: \"t\", onFrame: () => {} });\n"
            "    socket.connect();\n"
            "    socket.close();\n"
            "    vi.advanceTimersByTime(5000);\n"
            "    expect(FakeWebSocket.instances).toHaveLength(1);\n"
            "    expect(socket.state).toBe(\"closed\");\n"
            "  });\n"
            "});\n")
    s.bash("npx vitest run test/socket.test.ts",
           " RUN  v2.1.8 /home/dev/work/chatwidget\n\n"
           " ❯ test/socket.test.ts (1 test | 1 failed) 9ms\n"
           "   × ChatSocket > stays closed after close() 7ms\n"
           "     → expected [ FakeWebSocket{ …(5) }, …(1) ] to have a length of 1 but got 2\n\n"
           "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n"
           " FAIL  test/socket.test.ts > ChatSocket > stays closed after close()\n"
           "AssertionError: expected [ FakeWebSocket{ …(5) }, …(1) ] to have a length of 1 but got 2\n\n"
           "- Expected\n+ Received\n\n- 1\n+ 2\n\n"
           " ❯ test/socket.test.ts:38:37\n"
           "     36|     socket.close();\n"
           "     37|     vi.advanceTimersByTime(5000);\n"
           "     38|     expect(FakeWebSocket.instances).toHaveLength(1);\n"
           "       |                                     ^\n"
           "     39|     expect(socket.state).toBe(\"closed\");\n\n"
           "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯\n\n"
           " Test Files  1 failed (1)\n      Tests  1 failed (1)\n   Start at  13:33:51\n"
           "   Duration  402ms", fail=True, description="Run the new socket test")
    s.say("Reproduced: a second socket is opened after `close()`. The cause: `ws.close()` doesn't fire `onclose` "
          "synchronously — the browser fires the close event later, once the closing handshake is done. By then our "
          "`close()` has already cleared the reconnect timer and returned, so the `onclose` handler runs "
          "`scheduleReconnect()` as if the line had dropped, and a second later `connect()` opens a new socket. "
          "Clearing the timer in `close()` can't help, since the timer doesn't exist yet; the handler has to know "
          "the close was ours.")
    s.edit("src/socket.ts",
           "  private queue: string[] = [];\n",
           "  private queue: string[] = [];\n"
           "  // set by close(): the close event of our own ws.close() arrives after close() returned\n"
           "  private closedByUs = false;\n")
    s.edit("src/socket.ts",
           "  connect(): void {\n",
           "  connect(): void {\n    this.closedByUs = false;\n")
    s.edit("src/socket.ts",
           "    ws.onclose = () => {\n      this.ws = null;\n      this.scheduleReconnect();\n",
           "    ws.onclose = () => {\n      this.ws = null;\n      if (this.closedByUs) return;\n"
           "      this.scheduleReconnect();\n")
    s.edit("src/socket.ts",
           "  close(): void {\n    if (this.timer) clearTimeout(this.timer);\n",
           "  close(): void {\n    this.closedByUs = true;\n    if (this.timer) clearTimeout(this.timer);\n")
    s.bash(f"{TSC} && npx vitest run", vitest_ok([("test/format.test.ts", 6, 5), ("test/socket.test.ts", 1, 3)],
                                                 "13:36:20"), description="Type-check and test")
    s.say("Fixed: `close()` sets `closedByUs`, the `onclose` handler returns early when it's set, and `connect()` "
          "clears it so a later reconnect works again. The new test covers it; 7 pass, tsc clean.")
    s.user("ship")
    return [s]


@scenario("review-message-list", CW, "contractor asks for lint then a review; suggestions in a numbered list, none "
          "taken up in the session; the client's IE11 wish reported and not adopted",
          [])
def _review(files):
    s = Session("review-message-list", "2026-03-27T10:00:00.000Z", files)
    s.user("Before I open the PR on the client's repo: run eslint, then review src/messages.ts please. Their lead "
           "reads every line of what we send.")
    s.bash("npx eslint src", "", description="Lint src")
    s.read("src/messages.ts")
    s.say("eslint is clean. Review of `messages.ts`:\n\n"
          "1. **`render()` rebuilds the whole list** with `innerHTML` on every `add` and every `ack`. For a long "
          "conversation that's O(n) per message, and it throws away the visitor's text selection and any focus "
          "inside the list. Appending the new `<li>` (and toggling `cw-pending` on ack) would avoid both.\n"
          "2. **`cw-author` is interpolated unescaped** — `${m.author}` goes into the HTML raw. The author comes "
          "from the server, so an agent display name with markup would be injected.\n"
          "3. **`dayKey` uses the visitor's local time zone.** Right for display, but two messages a minute apart "
          "around midnight can land in different groups for visitor and agent; a comment would save someone a "
          "bug hunt.\n"
          "4. **`scrollToBottom` always scrolls**, even when the visitor has scrolled up to reread something; the "
          "usual pattern is to stick to the bottom only when already within ~40px of it.\n"
          "5. **`groupByDay` sorts a copy on every render**; keeping `messages` sorted on insert would make it a "
          "single pass.")
    s.user("Good list. 2 is already fixed on the avatar branch, which goes in first. The client also says "
           "everything has to work in IE11 \"for the branch computers\" — I'll argue that one with them, it's 2026. "
           "The rest I'll paste into the PR description as follow-ups for them to prioritise; they pay for the "
           "hours, they pick.")
    s.say("Makes sense. If it helps the PR description, 1 and 4 are the ones visitors would notice; 3 and 5 are "
          "code-health.")
    s.user("👍")
    return [s]


@scenario("scroll-two-frames", CW, "solo developer reports a Safari bug; the agent's first fix is not enough, the "
          "second is a deliberately odd double requestAnimationFrame, explained and commented",
          [exp("workaround", "src/messages.ts:MessageList.scrollToBottom", "double requestanimationframe")])
def _scroll(files):
    s = Session("scroll-two-frames", "2026-04-01T19:25:00.000Z", files)
    s.user("bug in safari: when a long message comes in (one that wraps to like 4-5 lines) the list scrolls to "
           "*almost* the bottom, the last bubble is half cut off. chrome and firefox are fine. short messages fine.")
    s.read("src/messages.ts", offset=50)
    s.say("`render()` sets `innerHTML` and immediately reads `scrollHeight` in `scrollToBottom`. Chrome and Firefox "
          "force a synchronous layout there, so the height already includes the wrapped lines; Safari can hand back "
          "a height from before the new bubble's text is fully laid out, so we scroll to a bottom that's a few lines "
          "short. Deferring the scroll to the next animation frame should let layout finish first.")
    s.edit("src/messages.ts",
           "  scrollToBottom(): void {\n    this.container.scrollTop = this.container.scrollHeight;\n  }\n",
           "  scrollToBottom(): void {\n"
           "    requestAnimationFrame(() => {\n"
           "      this.container.scrollTop = this.container.scrollHeight;\n"
           "    });\n"
           "  }\n")
    s.bash(f"{TSC} && npx vitest run", vitest_ok([("test/format.test.ts", 6, 5)], "19:29:03"),
           description="Type-check and test")
    s.say("Can you try it in Safari? I can't run Safari here.")
    s.user("better but not fixed. the really long ones (8+ lines) still end up cut off, maybe 1 in 3 times")
    s.say("Then Safari is finishing that layout one frame later still — the first frame runs before the wrapped "
          "text's final layout, the second after it. The standard, if ugly, fix is a double requestAnimationFrame: "
          "schedule the scroll inside a second `requestAnimationFrame`. It reads like a mistake, so I'll put a "
          "comment on it saying it's on purpose and why, or the next cleanup will collapse it back to one.")
    s.edit("src/messages.ts",
           "  scrollToBottom(): void {\n"
           "    requestAnimationFrame(() => {\n"
           "      this.container.scrollTop = this.container.scrollHeight;\n"
           "    });\n"
           "  }\n",
           "  scrollToBottom(): void {\n"
           "    // Two nested frames on purpose, not a typo: Safari lays out a long wrapped bubble a frame late, so a\n"
           "    // scrollHeight read in the first frame is still short and the last message ends up half hidden.\n"
           "    requestAnimationFrame(() =>\n"
           "      requestAnimationFrame(() => {\n"
           "        this.container.scrollTop = this.container.scrollHeight;\n"
           "      }),\n"
           "    );\n"
           "  }\n")
    s.bash(f"{TSC} && npx vitest run", vitest_ok([("test/format.test.ts", 6, 5)], "19:36:41"),
           description="Type-check and test")
    s.user("ok tried it 10 times with a wall-of-text message, perfect every time. ugly but fine. keep that comment "
           "exactly, future me WILL try to 'clean it up'")
    s.say("It stays. 👍")
    return [s]


@scenario("offline-queue-plan", CW, "non-native English; questions about what happens offline, an agent's plan, a "
          "colleague's rule reported second-hand; the person wants to talk to others first; nothing decided",
          [])
def _offline(files):
    s = Session("offline-queue-plan", "2026-04-02T15:10:00.000Z", files)
    s.user("Hola. I am thinking about a thing: when the visitor lose the connection (in the metro, a tunnel...) and "
           "he write messages, these messages are lost? Can you explain me what happen now, and how we could do "
           "an offline queue?")
    s.read("src/socket.ts")
    s.read("src/widget.ts", offset=54, limit=14)
    s.say("What happens now:\n\n"
          "- `ChatSocket.send` sends right away when the socket is open; otherwise it pushes the frame into an "
          "in-memory `queue`, and `onopen` flushes the queue after a reconnect. So a message written in a tunnel "
          "**is** sent when the connection comes back — as long as the page stays open.\n"
          "- The queue lives only in memory: if the visitor reloads or closes the tab while offline, the queued "
          "messages are gone. The bubble was shown as pending (`cw-pending`) and simply disappears after the reload.\n"
          "- If the connection drops *after* `ws.send` but before the server got it, the frame is lost and the bubble "
          "stays pending forever: nothing retries un-acked messages.\n\n"
          "A possible plan for a real offline queue:\n"
          "1. Persist un-acked messages (id, text, sentAt) in storage, remove them on `ack`.\n"
          "2. After every (re)connect, re-send everything un-acked with the **same id**, so the server can drop "
          "duplicates — this needs the backend to dedupe by message id; I don't know if it does.\n"
          "3. After ~30 s without an ack, show the bubble as \"not sent · retry\".\n"
          "4. On mount, render the persisted un-acked messages as pending.")
    s.user("Ok, I understand better now, thanks. My colleague Joaquín say we must use IndexedDB for everything "
           "offline, never localStorage, but for so small thing I am not sure. And the point 2 depends on the "
           "backend people. Let me talk with Joaquín and with them if the server dedupe the ids, and we see next "
           "week.")
    s.say("Sounds good. For the backend question, the thing to ask is whether receiving the same `message` frame "
          "id twice creates two messages or one.")
    s.user("👍 gracias")
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
    (HERE / "expected.json").write_text(json.dumps({"set": SET, "scenarios": out}, indent=2,
                                                   ensure_ascii=False) + "\n", encoding="utf-8")


def repo_files_at(base: Path) -> dict[str, str]:
    return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8") for p in sorted(base.rglob("*"))
            if p.is_file() and ".git" not in p.parts}


def check() -> None:
    """Replays each scenario on a copy of its repository; every expected anchor must name a definition
    (tether's parser) of the final state, or a file, or a glob matching some file; every phrase must occur."""
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
            final = repo_files_at(root)
            files = repo_files(sc["repo"])
            fn = next(x["fn"] for x in SCENARIOS if x["name"] == sc["name"])
            fn(files)
            assert final == files, (sc["name"], [k for k in files if files[k] != final.get(k)])
        print(f"ok  {sc['name']}: {len(sc['sessions'])} session(s), {edits} edits, {len(sc['expected'])} expected")


if __name__ == "__main__":
    build()
    if "--check" in sys.argv:
        check()
