"""Writes the tune8 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``pollster`` (Python, a small survey/poll service
library) and ``tinyorm`` (TypeScript, a small query builder over SQLite-like rows). Sessions are
written with the ``Session`` builder of ``tests/fixtures/transcripts/build.py``; run
``python3 build.py`` after changing a scenario (outputs are committed). ``python3 build.py --check``
also replays every scenario on a copy of its repository (every edit must apply) and checks, with
tether's own parser, that every expected anchor names a definition of the final state.
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


def pytest_ok(n: int, secs: str = "0.06s") -> str:
    dots = "." * n
    return ("============================= test session starts ==============================\n"
            "platform linux -- Python 3.11.7, pytest-8.3.3, pluggy-1.5.0\n"
            "rootdir: {{ROOT}}\nconfigfile: pyproject.toml\n"
            f"collected {n} items\n\n"
            f"tests/test_pollster.py {dots}{' ' * max(1, 50 - n)}[100%]\n\n"
            f"============================== {n} passed in {secs} ==============================")


def vitest_ok(n: int, start: str = "10:14:02", ms: int = 6) -> str:
    return (f"\n RUN  v2.1.4 {{{{ROOT}}}}\n\n ✓ test/query.test.ts ({n} tests) {ms}ms\n\n"
            f" Test Files  1 passed (1)\n      Tests  {n} passed ({n})\n   Start at  {start}\n"
            f"   Duration  41{ms}ms (transform 138ms, setup 0ms, collect 133ms, tests {ms}ms, environment 0ms, "
            f"prepare 79ms)\n")


TSC_OK = ""  # tsc --noEmit prints nothing when it passes


# -- pollster (Python) -------------------------------------------------------------------------------------

POLL = "pollster"


@scenario("rcv-tiebreak", POLL, "staff engineer asks for options before code; the agent answers at length with "
          "headers (A/B/C); the person picks B with a long justification that weighs both others, adds a fallback "
          "detail and an unrelated aside", [
              exp("decision", "pollster/tally.py:_pick_elimination", "previous-round tiebreak",
                  ["batch elimination", "seeded random"]),
          ])
def _rcv_tiebreak(files):
    s = Session("tune8-rcv-tiebreak", "2025-03-03T09:12:00Z", files)
    s.user("I'd like to sort out how `ranked_choice` handles a tie for last place. Right now it does "
           "`_lowest(counts)[0]`, i.e. it drops whichever tied candidate sorts first alphabetically, which means "
           "a choice called \"Aardvark Room\" is structurally disadvantaged in every tied round. Before you change "
           "anything, can you lay out the options with their trade-offs? No code yet.")
    s.read("pollster/tally.py")
    s.say("## How it works today\n\n"
          "`ranked_choice` runs instant-runoff: each round counts first preferences among the remaining choices, "
          "stops if someone has a strict majority of the live ballots, otherwise eliminates one candidate. "
          "`_lowest` returns the tied-for-last candidates **sorted by name**, and the loop takes `[0]`. So ties "
          "are broken alphabetically, and nothing in the `Round` records that a tie happened.\n\n"
          "## Options\n\n"
          "### A. Batch elimination\n"
          "Eliminate every candidate tied for last in the same round.\n"
          "- Simple, no arbitrary choice between the tied candidates.\n"
          "- Can knock out a candidate who would have collected transfers and won. With 3–4 choices and a dozen "
          "voters, that is not a corner case.\n\n"
          "### B. Previous-round tiebreak\n"
          "Look back at the earlier rounds (most recent first) and eliminate whichever tied candidate had fewer "
          "votes there. Only if they are tied in every earlier round do you need a final fallback.\n"
          "- Used by several real election rules; easy to explain (\"C had fewer votes in round 1\").\n"
          "- Still needs a deterministic last resort for the first round / all-equal histories.\n\n"
          "### C. Seeded random\n"
          "Draw lots with an RNG seeded from the survey id (so recomputing gives the same result).\n"
          "- Neutral between candidates.\n"
          "- Results depend on the seed and RNG staying stable across Python versions and our code.\n\n"
          "## Recommendation\n\n"
          "B, with a fallback for full ties. I'd also record on the `Round` which tiebreak was applied so the "
          "results page can say so.")
    s.user("Thanks, this is useful, and I've gone back and forth on it this morning. Batch elimination is tempting "
           "because it's the least code, but it can eliminate a candidate who would have picked up transfers and "
           "won — and with three choices tied at the bottom in a twelve-person team poll, that's exactly the case "
           "that ends up in a support ticket titled \"your tool picked the wrong winner\". Seeded random is "
           "defensible in principle (plenty of real elections draw lots), but our users are running team polls, "
           "and \"the computer flipped a coin\" is the kind of answer that erodes trust in the tool; on top of "
           "that, reproducibility hangs on the seed derivation and the RNG never changing, and I don't trust us to "
           "keep that stable over years. So: B, the previous-round tiebreak. For the case where they're tied in "
           "every earlier round as well, fall back to the order in which the survey author listed the choices — "
           "the one listed last goes — not alphabetical, for the reason I started with. And yes, record the rule "
           "used on the Round. Unrelated: I noticed `plurality` would KeyError on a ballot outside `choices`; "
           "that's validated upstream so leave it.")
    s.edit("pollster/tally.py",
           "    counts: dict[str, int]\n    eliminated: list[str] = field(default_factory=list)\n",
           "    counts: dict[str, int]\n    eliminated: list[str] = field(default_factory=list)\n"
           "    tiebreak: str | None = None  # \"previous-round\" or \"listing-order\" when a tie for last was broken\n")
    s.edit("pollster/tally.py",
           "def _lowest(counts: Counter) -> list[str]:\n"
           "    fewest = min(counts.values())\n"
           "    return sorted(c for c, n in counts.items() if n == fewest)\n",
           "def _pick_elimination(counts: Counter, rounds: list[Round],\n"
           "                      choices: tuple[str, ...]) -> tuple[str, str | None]:\n"
           "    \"\"\"The candidate to eliminate this round, and the tiebreak used (None if there was no tie).\n\n"
           "    A tie for last is broken by the earlier rounds' counts, most recent first: the tied candidate\n"
           "    with the fewest votes there goes. If they are tied in every earlier round too, the one the\n"
           "    survey author listed last goes.\"\"\"\n"
           "    fewest = min(counts.values())\n"
           "    tied = [c for c in choices if counts.get(c) == fewest]\n"
           "    if len(tied) == 1:\n"
           "        return tied[0], None\n"
           "    for earlier in reversed(rounds[:-1]):\n"
           "        low = min(earlier.counts[c] for c in tied)\n"
           "        tied = [c for c in tied if earlier.counts[c] == low]\n"
           "        if len(tied) == 1:\n"
           "            return tied[0], \"previous-round\"\n"
           "    return tied[-1], \"listing-order\"\n")
    s.edit("pollster/tally.py",
           "        out = _lowest(counts)[0]\n",
           "        out, rnd.tiebreak = _pick_elimination(counts, rounds, choices)\n")
    s.edit("tests/test_pollster.py",
           "    assert r.winner == \"c\" or r.winner == \"a\"\n",
           "    assert r.winner == \"c\" or r.winner == \"a\"\n\n\n"
           "def test_ranked_choice_tie_for_last_uses_previous_round():\n"
           "    # round 1: a 4, b 3, c 2, d 1 -> d out, its ballot goes to c; round 2: a 4, b 3, c 3 -> tie,\n"
           "    # c had fewer in round 1 so c goes (alphabetical would have dropped b)\n"
           "    ballots = [[\"a\"]] * 4 + [[\"b\"]] * 3 + [[\"c\", \"b\"]] * 2 + [[\"d\", \"c\"]]\n"
           "    r = ranked_choice(ballots, (\"a\", \"b\", \"c\", \"d\"))\n"
           "    assert r.rounds[1].eliminated == [\"c\"] and r.rounds[1].tiebreak == \"previous-round\"\n"
           "    assert r.winner == \"b\"\n\n\n"
           "def test_ranked_choice_tie_in_every_round_drops_last_listed():\n"
           "    r = ranked_choice([[\"a\"], [\"b\"], [\"c\"], [\"c\"]], (\"a\", \"b\", \"c\"))\n"
           "    assert r.rounds[0].eliminated == [\"b\"] and r.rounds[0].tiebreak == \"listing-order\"\n")
    s.bash("python -m pytest -q", "...............                                                          [100%]\n"
           "15 passed in 0.07s", description="Run the test suite")
    s.say("Done:\n\n"
          "- `_lowest` is replaced by `_pick_elimination(counts, rounds, choices)`: among the tied candidates it "
          "walks back through earlier rounds (most recent first) and drops the one with fewer votes; if they are "
          "level everywhere it drops the one listed last in the survey.\n"
          "- `Round.tiebreak` is `\"previous-round\"` / `\"listing-order\"` when a tie was broken, else `None`.\n"
          "- Two tests, one of which would have eliminated `b` under the old alphabetical rule.\n\n"
          "15 passed. `plurality` left as is.")
    return [s]


@scenario("anon-per-survey-salt", POLL, "CTO, terse, emoji; short agent asks '(1) or (2)?'; '2.' with a reason, "
          "plus a 'never … not even' rule in the same message", [
              exp("decision", "pollster/anonymize.py:pseudonymize", "per-survey salt", ["global pepper"]),
              exp("invariant", "pollster/anonymize.py:anonymize_submission", "raw email"),
          ])
def _anon(files):
    s = Session("tune8-anon-per-survey-salt", "2025-03-05T16:40:00Z", files)
    s.user("pseudonymize() is literally sha256(email)[:16] 🙈 legal flagged it, anyone w/ a list of emails can "
           "reverse it. fix pls")
    s.read("pollster/anonymize.py")
    s.say("Right — an unkeyed hash of an email is a lookup away from the email. Two ways:\n\n"
          "1. keep sha256 but mix in a global pepper from an env var\n"
          "2. HMAC-SHA256 keyed with a per-survey salt stored on the `Survey`\n\n"
          "(2) also means the same person gets unrelated ids in different surveys; (1) keeps ids linkable across "
          "surveys. Which one?")
    s.user("2. cross-survey linking is exactly what legal hates lol. also fyi: never log or store the raw email "
           "anywhere, not in meta, not in errors, not even temporarily 🙅")
    s.edit("pollster/anonymize.py", "import hashlib\nfrom typing import Any\n",
           "import hashlib\nimport hmac\nfrom typing import Any\n")
    s.edit("pollster/anonymize.py",
           "def pseudonymize(email: str) -> str:\n"
           "    \"\"\"A stable respondent id for an email address, so repeat submissions can be detected.\"\"\"\n"
           "    normalized = email.strip().lower()\n"
           "    return hashlib.sha256(normalized.encode(\"utf-8\")).hexdigest()[:16]\n",
           "def pseudonymize(email: str, salt: bytes) -> str:\n"
           "    \"\"\"A stable respondent id for an email address within one survey, so repeat submissions can\n"
           "    be detected. Keyed with the survey's own salt: the same person gets unrelated ids in two\n"
           "    surveys, and the id can't be recomputed from a list of known emails without the salt.\"\"\"\n"
           "    normalized = email.strip().lower()\n"
           "    return hmac.new(salt, normalized.encode(\"utf-8\"), hashlib.sha256).hexdigest()[:16]\n")
    s.edit("pollster/anonymize.py",
           "def anonymize_submission(email: str, meta: dict[str, Any]) -> tuple[str, dict[str, Any]]:\n"
           "    return pseudonymize(email), strip_pii(meta)\n",
           "def anonymize_submission(email: str, meta: dict[str, Any], salt: bytes) -> tuple[str, dict[str, Any]]:\n"
           "    \"\"\"The respondent id and the metadata to store. The raw email goes no further than this\n"
           "    function: it is not returned, stored or logged anywhere.\"\"\"\n"
           "    return pseudonymize(email, salt), strip_pii(meta)\n")
    s.read("pollster/questions.py", offset=46, limit=8)
    s.edit("pollster/questions.py", "from __future__ import annotations\n\nfrom dataclasses import dataclass, field\n",
           "from __future__ import annotations\n\nimport secrets\nfrom dataclasses import dataclass, field\n")
    s.edit("pollster/questions.py", "    qs: list[Question] = field(default_factory=list)\n    open: bool = True\n",
           "    qs: list[Question] = field(default_factory=list)\n    open: bool = True\n"
           "    salt: bytes = field(default_factory=lambda: secrets.token_bytes(16), repr=False)\n")
    s.edit("pollster/http.py",
           "        respondent, meta = anonymize_submission(payload.get(\"email\", \"\"), payload.get(\"meta\", {}))\n",
           "        respondent, meta = anonymize_submission(payload.get(\"email\", \"\"), payload.get(\"meta\", {}),\n"
           "                                                survey.salt)\n")
    s.grep("email", ["pollster/anonymize.py", "pollster/http.py", "tests/test_pollster.py"])
    s.edit("tests/test_pollster.py",
           "def test_pseudonymize_is_stable_and_case_insensitive():\n"
           "    assert pseudonymize(\"Ana@Example.com \") == pseudonymize(\"ana@example.com\")\n",
           "def test_pseudonymize_is_stable_and_case_insensitive():\n"
           "    assert pseudonymize(\"Ana@Example.com \", b\"s1\") == pseudonymize(\"ana@example.com\", b\"s1\")\n\n\n"
           "def test_pseudonymize_differs_between_surveys():\n"
           "    assert pseudonymize(\"ana@example.com\", b\"s1\") != pseudonymize(\"ana@example.com\", b\"s2\")\n")
    s.bash("python -m pytest -q", "..............                                                           [100%]\n"
           "14 passed in 0.06s", description="Run the test suite")
    s.say("Done. HMAC-SHA256 with a random 16-byte `Survey.salt`; `anonymize_submission` takes the salt. "
          "Checked the email paths: `strip_pii` already drops `email` from meta, the 400/422 bodies never echo "
          "the payload, and there's no logging in the package. 14 passed.")
    s.user("lgtm but… salt should prob be persisted w/ the survey in the db or ids change on restart. that's on "
           "the service side tho, not here. ship it 🚀")
    s.say("Agreed — `Survey` just carries it; whatever loads surveys has to load the salt too. 🚀")
    return [s]


@scenario("csv-for-excel", POLL, "person whose decisions come as corrections, non-native English; the agent already "
          "switched to ';' and says so in a long reply with headers; correction keeps the comma, adds a formula rule "
          "and a BOM the person admits looks wrong", [
              exp("decision", "pollster/export.py:to_csv", "comma delimiter", ["semicolon"]),
              exp("invariant", "pollster/export.py:_cell", "as formula"),
              exp("workaround", "pollster/export.py:write_csv", "utf-8-sig"),
          ])
def _csv(files):
    s = Session("tune8-csv-for-excel", "2025-03-11T08:03:00Z", files)
    s.user("The export must work good for customers who open it in Excel. Please check export.py and make it "
           "better for Excel.")
    s.read("pollster/export.py")
    s.edit("pollster/export.py", "    writer = csv.writer(buf, lineterminator=\"\\r\\n\")\n",
           "    writer = csv.writer(buf, delimiter=\";\", lineterminator=\"\\r\\n\")\n")
    s.edit("pollster/export.py", "        return \"; \".join(str(v) for v in value)\n    return str(value)\n",
           "        return \"; \".join(str(v) for v in value)\n"
           "    return str(value).replace(\"\\r\\n\", \" \").replace(\"\\n\", \" \")\n")
    s.bash("python -m pytest -q",
           "...........F.\n"
           "=================================== FAILURES ===================================\n"
           "________________________________ test_csv_export _______________________________\n\n"
           "    def test_csv_export():\n"
           "        s = make_survey()\n"
           "        store = ResponseStore()\n"
           "        store.add(\"s1\", \"r1\", {\"city\": \"faro\", \"food\": [\"veg\", \"fish\"], \"mood\": 4, \"rank\": [\"b\", \"a\"]})\n"
           "        lines = to_csv(s, store.for_survey(\"s1\")).split(\"\\r\\n\")\n"
           ">       assert lines[0] == \"respondent,submitted_at,city,food,mood,rank\"\n"
           "E       AssertionError: assert 'respondent;s...;mood;rank' == 'respondent,s...,mood,rank'\n\n"
           "tests/test_pollster.py:82: AssertionError\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_pollster.py::test_csv_export - AssertionError: assert 'respondent;s...\n"
           "1 failed, 12 passed in 0.09s", fail=True, description="Run the test suite")
    s.edit("tests/test_pollster.py",
           "    assert lines[0] == \"respondent,submitted_at,city,food,mood,rank\"\n"
           "    assert lines[1].startswith(\"r1,\") and lines[1].endswith(\",faro,veg; fish,4,b; a\")\n",
           "    assert lines[0] == \"respondent;submitted_at;city;food;mood;rank\"\n"
           "    assert lines[1].startswith(\"r1;\") and lines[1].endswith(\";faro;\\\"veg; fish\\\";4;\\\"b; a\\\"\")\n")
    s.bash("python -m pytest -q", ".............                                                            [100%]\n"
           "13 passed in 0.06s", description="Run the test suite")
    s.say("## What I changed\n\n"
          "### Delimiter\n"
          "Switched the CSV to `;`. Excel in most European locales (and in Brazil) uses the comma as decimal "
          "separator and expects `;` between fields, so a comma file opens as one column there.\n\n"
          "### Line breaks in text answers\n"
          "Newlines inside free-text answers are replaced by spaces. They're valid CSV when quoted, but Excel's "
          "import wizard and a lot of downstream scripts split rows on them.\n\n"
          "### Tests\n"
          "Updated `test_csv_export` for the new delimiter (multi-choice cells now come out quoted because they "
          "contain `;`). 13 passed.\n\n"
          "## Not changed\n"
          "- Column order and header names.\n"
          "- `write_csv` still writes plain UTF-8.")
    s.user("Hmm, no. Keep comma delimiter please — we have many customers in US also, and the semicolon is a "
           "setting of Excel locale, it is not our problem to guess it. The newline thing is ok.\n\n"
           "But two things are more important. First: a cell which begins with = or + or - or @ must always get a ' "
           "in front, otherwise Excel runs it as formula. Last month one respondent wrote =HYPERLINK(...) in a free "
           "text answer and the customer clicked it. Second: write the file as utf-8-sig. I know the BOM looks "
           "strange and wrong in a CSV, but without it Excel on Windows shows ã and ç as garbage, and half of our "
           "respondents are in Brazil.")
    s.edit("pollster/export.py", "    writer = csv.writer(buf, delimiter=\";\", lineterminator=\"\\r\\n\")\n",
           "    writer = csv.writer(buf, lineterminator=\"\\r\\n\")\n")
    s.edit("pollster/export.py",
           "def _cell(value: Any) -> str:\n"
           "    if value is None:\n"
           "        return \"\"\n"
           "    if isinstance(value, list):\n"
           "        return \"; \".join(str(v) for v in value)\n"
           "    return str(value).replace(\"\\r\\n\", \" \").replace(\"\\n\", \" \")\n",
           "# A cell starting with one of these is run as a formula by Excel and Google Sheets.\n"
           "FORMULA_PREFIXES = (\"=\", \"+\", \"-\", \"@\", \"\\t\", \"\\r\")\n\n\n"
           "def _cell(value: Any) -> str:\n"
           "    if value is None:\n"
           "        return \"\"\n"
           "    if isinstance(value, (int, float)) and not isinstance(value, bool):\n"
           "        return str(value)  # a negative scale answer is a number, not a formula\n"
           "    if isinstance(value, list):\n"
           "        text = \"; \".join(str(v) for v in value)\n"
           "    else:\n"
           "        text = str(value).replace(\"\\r\\n\", \" \").replace(\"\\n\", \" \")\n"
           "    if text.startswith(FORMULA_PREFIXES):\n"
           "        return \"'\" + text  # the leading ' makes Excel show it as text\n"
           "    return text\n")
    s.edit("pollster/export.py",
           "    path.write_text(to_csv(survey, responses), encoding=\"utf-8\")\n",
           "    # utf-8-sig (a BOM) on purpose: without it Excel on Windows reads the file as cp1252 and\n"
           "    # mangles accented answers (ã, ç). Don't \"fix\" it to plain utf-8.\n"
           "    path.write_text(to_csv(survey, responses), encoding=\"utf-8-sig\")\n")
    s.edit("tests/test_pollster.py",
           "    assert lines[0] == \"respondent;submitted_at;city;food;mood;rank\"\n"
           "    assert lines[1].startswith(\"r1;\") and lines[1].endswith(\";faro;\\\"veg; fish\\\";4;\\\"b; a\\\"\")\n",
           "    assert lines[0] == \"respondent,submitted_at,city,food,mood,rank\"\n"
           "    assert lines[1].startswith(\"r1,\") and lines[1].endswith(\",faro,veg; fish,4,b; a\")\n\n\n"
           "def test_csv_formula_cells_become_text():\n"
           "    s = Survey(\"s2\", \"t\")\n"
           "    s.add(Question(\"note\", \"?\", QuestionKind.TEXT))\n"
           "    s.add(Question(\"temp\", \"?\", QuestionKind.SCALE, scale_min=-2, scale_max=2))\n"
           "    store = ResponseStore()\n"
           "    store.add(\"s2\", \"r1\", {\"note\": \"=HYPERLINK(\\\"http://x\\\")\", \"temp\": -2})\n"
           "    row = to_csv(s, store.for_survey(\"s2\")).split(\"\\r\\n\")[1]\n"
           "    assert row.endswith(',\"\\'=HYPERLINK(\"\"http://x\"\")\",-2')\n\n\n"
           "def test_write_csv_has_bom(tmp_path):\n"
           "    path = tmp_path / \"out.csv\"\n"
           "    write_csv(path, make_survey(), [])\n"
           "    assert path.read_bytes().startswith(b\"\\xef\\xbb\\xbf\")\n")
    s.edit("tests/test_pollster.py", "from pollster.export import to_csv\n",
           "from pollster.export import to_csv, write_csv\n")
    s.bash("python -m pytest -q", "...............                                                          [100%]\n"
           "15 passed in 0.08s", description="Run the test suite")
    s.say("## Done\n\n"
          "- **Delimiter:** back to `,`; the test is back to its original expectation.\n"
          "- **Formulas:** `_cell` prefixes `'` to any text cell starting with `=`, `+`, `-`, `@` (also tab and "
          "CR, which Excel treats the same way). Numbers are left alone, so a `-2` on a scale stays a number.\n"
          "- **Encoding:** `write_csv` writes `utf-8-sig`, with a comment saying why, so nobody removes the BOM.\n"
          "- Newlines in text answers are still flattened.\n\n"
          "15 passed.")
    return [s]


@scenario("small-count-suppression", POLL, "junior dev asks a question and defers ('what would you pick?'); the agent "
          "lists 1/2/3 and recommends 1; the junior adopts it over a few turns", [
              exp("decision", "pollster/anonymize.py:suppress_small_counts", "fewer than 5",
                  ["round counts", "random noise"]),
          ])
def _suppress(files):
    s = Session("tune8-small-count-suppression", "2025-03-12T13:25:00Z", files)
    s.user("hi! I'm picking up the results page ticket. question: if only like 2 people pick an option, can't "
           "someone figure out who answered what? (like in a 6 person team) should pollster do something about "
           "that? sorry if this is obvious")
    s.read("pollster/anonymize.py")
    s.say("Not obvious at all, it's a real problem: with small groups a count of 1 or 2 can point at a person, "
          "even with pseudonymous ids. Usual approaches:\n\n"
          "1. **Hide small buckets** — any option with fewer than 5 responses (but more than 0) is published as "
          "\"fewer than 5\" instead of the number. Simple and easy to explain on the results page.\n"
          "2. **Round counts** to the nearest 5. Hides exact numbers, but totals stop adding up and a 0 vs 5 "
          "still leaks.\n"
          "3. **Add random noise** to each count (a light version of differential privacy). Strongest in theory, "
          "but results change each time you look unless you store the noise, and people get confused when a "
          "count is 7 one day and 6 the next.\n\n"
          "The threshold would live in `anonymize.py` next to `strip_pii`.")
    s.user("I don't really know which one is best tbh, what would you pick?")
    s.say("1. It's what most survey tools do, it never shows a wrong number (only no number), and it's a "
          "five-line function you can test exhaustively.")
    s.user("ok let's go with 1 then 👍 should it always be 5 or can a customer change it?")
    s.say("I'd make 5 the default with a `k` parameter, so a customer with big surveys can lower it later "
          "without a code change. Zero should stay zero — \"nobody picked this\" doesn't identify anyone.")
    s.user("sounds good!")
    s.edit("pollster/anonymize.py",
           "    return f\"{date}T{hour}:00:00Z\"\n",
           "    return f\"{date}T{hour}:00:00Z\"\n\n\n"
           "SUPPRESSION_THRESHOLD = 5\n\n\n"
           "def suppress_small_counts(counts: dict[str, int], k: int = SUPPRESSION_THRESHOLD) -> dict[str, int | None]:\n"
           "    \"\"\"Counts for publishing: a bucket with fewer than ``k`` responses (but more than none) is\n"
           "    shown as None (\"fewer than 5\" on the results page), so a small group can't be singled out.\n"
           "    Zero stays zero: it says nothing about anyone.\"\"\"\n"
           "    return {choice: (n if n == 0 or n >= k else None) for choice, n in counts.items()}\n")
    s.edit("tests/test_pollster.py", "from pollster.anonymize import coarsen_timestamp, pseudonymize, strip_pii\n",
           "from pollster.anonymize import coarsen_timestamp, pseudonymize, strip_pii, suppress_small_counts\n")
    s.edit("tests/test_pollster.py",
           "    assert coarsen_timestamp(\"2025-03-04T10:17:55Z\") == \"2025-03-04T10:00:00Z\"\n",
           "    assert coarsen_timestamp(\"2025-03-04T10:17:55Z\") == \"2025-03-04T10:00:00Z\"\n\n\n"
           "def test_suppress_small_counts():\n"
           "    assert suppress_small_counts({\"a\": 0, \"b\": 1, \"c\": 4, \"d\": 5, \"e\": 12}) == \\\n"
           "        {\"a\": 0, \"b\": None, \"c\": None, \"d\": 5, \"e\": 12}\n"
           "    assert suppress_small_counts({\"a\": 2}, k=2) == {\"a\": 2}\n")
    s.bash("python -m pytest -q", "..............                                                           [100%]\n"
           "14 passed in 0.06s", description="Run the test suite")
    s.say("Added `suppress_small_counts(counts, k=5)` in `anonymize.py` plus a test; 14 passed. On the results "
          "page, render `None` as \"fewer than 5\". Want me to wire it into a results endpoint too, or is that "
          "a separate ticket?")
    s.user("separate ticket I think, thank you!!")
    return [s]


@scenario("results-endpoint-no-auth", POLL, "CTO, lowercase, arrows and emoji; asks for an endpoint and says in "
          "passing there is no auth in this layer for now, the gateway does it", [
              exp("boundary", "pollster/http.py:App.handle_results", "no auth"),
          ])
def _results(files):
    s = Session("tune8-results-endpoint-no-auth", "2025-03-13T18:02:00Z", files)
    s.user("need GET /surveys/<id>/results → plurality for single qs, rcv for ranked ones. no auth in this "
           "layer for now, gateway handles it — dont add tokens or api keys or anything 🙏")
    s.read("pollster/http.py")
    s.read("pollster/tally.py", offset=1, limit=30)
    s.edit("pollster/http.py",
           "from pollster.questions import Survey\nfrom pollster.store import ResponseStore\n",
           "from pollster.questions import QuestionKind, Survey\nfrom pollster.store import ResponseStore\n"
           "from pollster.tally import plurality, ranked_choice\n")
    s.edit("pollster/http.py",
           "            (\"POST\", \"responses\"): self.handle_submit,\n",
           "            (\"POST\", \"responses\"): self.handle_submit,\n"
           "            (\"GET\", \"results\"): self.handle_results,\n")
    s.edit("pollster/http.py",
           "        self.store.add(survey_id, respondent, answers, meta)\n        return Response(201, {\"ok\": True})\n",
           "        self.store.add(survey_id, respondent, answers, meta)\n        return Response(201, {\"ok\": True})\n\n"
           "    def handle_results(self, req: Request, survey_id: str) -> Response:\n"
           "        # No authentication in this layer: the API gateway in front of the service checks the caller.\n"
           "        survey = self.surveys.get(survey_id)\n"
           "        if survey is None:\n"
           "            return Response(404, {\"error\": \"no such survey\"})\n"
           "        responses = self.store.for_survey(survey_id)\n"
           "        results: dict[str, Any] = {}\n"
           "        for q in survey.qs:\n"
           "            answers = [r.answers.get(q.id) for r in responses]\n"
           "            if q.kind is QuestionKind.SINGLE:\n"
           "                results[q.id] = {\"counts\": plurality(answers, q.choices)}\n"
           "            elif q.kind is QuestionKind.RANKED:\n"
           "                rcv = ranked_choice([a for a in answers if a], q.choices)\n"
           "                results[q.id] = {\"winner\": rcv.winner, \"rounds\": [r.counts for r in rcv.rounds],\n"
           "                                 \"exhausted\": rcv.exhausted}\n"
           "        return Response(200, {\"survey\": survey_id, \"responses\": len(responses), \"results\": results})\n")
    s.edit("tests/test_pollster.py",
           "    assert resp.status == 422 and \"city\" in resp.body[\"errors\"]\n",
           "    assert resp.status == 422 and \"city\" in resp.body[\"errors\"]\n\n\n"
           "def test_results():\n"
           "    app = App({\"s1\": make_survey()}, ResponseStore())\n"
           "    for email, city, rank in ((\"a@x.io\", \"faro\", [\"a\", \"b\"]), (\"b@x.io\", \"faro\", [\"b\"]),\n"
           "                              (\"c@x.io\", \"porto\", [\"a\"])):\n"
           "        body = json.dumps({\"email\": email, \"answers\": {\"city\": city, \"mood\": 3, \"rank\": rank}})\n"
           "        app(Request(\"POST\", \"/surveys/s1/responses\", {\"content-type\": \"application/json\"}, body.encode()))\n"
           "    resp = app(Request(\"GET\", \"/surveys/s1/results\"))\n"
           "    assert resp.status == 200 and resp.body[\"responses\"] == 3\n"
           "    assert resp.body[\"results\"][\"city\"][\"counts\"] == {\"lisbon\": 0, \"porto\": 1, \"faro\": 2}\n"
           "    assert resp.body[\"results\"][\"rank\"][\"winner\"] == \"a\"\n"
           "    assert \"mood\" not in resp.body[\"results\"]\n")
    s.bash("python -m pytest -q", "..............                                                           [100%]\n"
           "14 passed in 0.07s", description="Run the test suite")
    s.say("Added `GET /surveys/<id>/results` (`App.handle_results`): plurality counts for single-choice, winner + "
          "per-round counts for ranked, other kinds skipped. No auth check, with a comment pointing at the "
          "gateway. 14 passed.")
    s.user("👍")
    return [s]


@scenario("scale-accepts-true", POLL, "junior pastes a failing test; the agent finds the cause (bool is a subclass "
          "of int) and fixes it", [
              exp("gotcha", "pollster/validation.py:_check_scale", "subclass of int"),
          ])
def _scale_bool(files):
    s = Session("tune8-scale-accepts-true", "2025-03-17T10:47:00Z", files)
    s.user("Hi, the Android client sent `true` for a 1-5 scale question by mistake (a checkbox bug) and the "
           "server accepted it?? I wrote this test locally and it fails, but there is an isinstance check in "
           "_check_scale so I don't get it. Could you add the test and look?\n\n"
           "```\n"
           "def test_scale_rejects_bool():\n"
           "    q = Question(\"mood\", \"?\", QuestionKind.SCALE)\n"
           "    assert validate_answer(q, True) == [\"must be a whole number\"]\n"
           "```")
    s.edit("tests/test_pollster.py",
           "    assert validate_answer(s.get(\"mood\"), 9) == [\"must be between 1 and 5\"]\n",
           "    assert validate_answer(s.get(\"mood\"), 9) == [\"must be between 1 and 5\"]\n\n\n"
           "def test_scale_rejects_bool():\n"
           "    q = Question(\"mood\", \"?\", QuestionKind.SCALE)\n"
           "    assert validate_answer(q, True) == [\"must be a whole number\"]\n")
    s.bash("python -m pytest -q -k scale_rejects_bool",
           "F                                                                        [100%]\n"
           "=================================== FAILURES ===================================\n"
           "___________________________ test_scale_rejects_bool ____________________________\n\n"
           "    def test_scale_rejects_bool():\n"
           "        q = Question(\"mood\", \"?\", QuestionKind.SCALE)\n"
           ">       assert validate_answer(q, True) == [\"must be a whole number\"]\n"
           "E       AssertionError: assert [] == ['must be a whole number']\n"
           "E         \n"
           "E         Right contains one more item: 'must be a whole number'\n"
           "E         Use -v to get more diff\n\n"
           "tests/test_pollster.py:44: AssertionError\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_pollster.py::test_scale_rejects_bool - AssertionError: assert [] == ['must be a who...\n"
           "1 failed, 13 deselected in 0.08s", fail=True, description="Run the new test")
    s.read("pollster/validation.py", offset=42, limit=8)
    s.bash("python -c 'print(isinstance(True, int), True == 1, 1 <= True <= 5)'", "True True True",
           description="Check how bool behaves")
    s.say("Found it. In Python `bool` is a subclass of int, so `isinstance(True, int)` is `True`, and `True` "
          "compares equal to `1`, so it also passes the `1 <= value <= 5` range check. The validator saw a valid "
          "answer of 1. The fix is to reject bools explicitly before the int check.")
    s.edit("pollster/validation.py",
           "def _check_scale(q: Question, value: Any) -> list[str]:\n    if not isinstance(value, int):\n",
           "def _check_scale(q: Question, value: Any) -> list[str]:\n"
           "    # bool is a subclass of int: without the first test True/False pass as 1/0\n"
           "    if isinstance(value, bool) or not isinstance(value, int):\n")
    s.bash("python -m pytest -q", "..............                                                           [100%]\n"
           "14 passed in 0.06s", description="Run the test suite")
    s.say("Fixed in `_check_scale`; your test passes and the rest still do (14 passed). `_check_text` and the "
          "choice checks are fine since they test for `str`/`list`, which bool isn't.")
    s.user("wow, TIL. thank you!")
    return [s]


@scenario("store-append-only", POLL, "rule stated mid-paragraph in a long message among unrelated matters (append-only "
          "store); restated weeks later by the CTO as a correction of a delete the agent wrote, about other code", [
              exp("invariant", "pollster/store.py:ResponseStore", "append-only"),
          ])
def _append_only(files):
    s = Session("tune8-store-append-only-1", "2025-03-18T09:30:00Z", files)
    s.user("Morning. Three things, only one of which is for you. The onboarding doc still says Python 3.9, I'll "
           "fix that myself. Marta asked whether we can move the weekly sync, ignore that. The actual task: "
           "respondents should be able to edit their answers while a survey is open. Please look at "
           "`ResponseStore.update` — it overwrites the row in place, and that has to change: responses are "
           "append-only. An edit appends a new StoredResponse with the next version number and readers take the "
           "latest version per respondent; we never mutate or overwrite a stored row, because the audit export "
           "the Hartwell account asked for depends on being able to show the full history. Also, I'm out on "
           "Thursday, so if anything needs a decision before Friday ask today.")
    s.read("pollster/store.py")
    s.edit("pollster/store.py", "    submitted_at: str\n", "    submitted_at: str\n    version: int = 1\n")
    s.edit("pollster/store.py", "@dataclass\nclass ResponseStore:\n",
           "def _now() -> str:\n    return datetime.now(timezone.utc).strftime(\"%Y-%m-%dT%H:%M:%SZ\")\n\n\n"
           "@dataclass\nclass ResponseStore:\n")
    s.edit("pollster/store.py",
           "        row = StoredResponse(survey_id, respondent, answers, meta or {},\n"
           "                             datetime.now(timezone.utc).strftime(\"%Y-%m-%dT%H:%M:%SZ\"))\n",
           "        row = StoredResponse(survey_id, respondent, answers, meta or {}, _now())\n")
    s.edit("pollster/store.py",
           "    def for_survey(self, survey_id: str) -> list[StoredResponse]:\n"
           "        return [r for r in self.rows if r.survey_id == survey_id]\n",
           "    def for_survey(self, survey_id: str) -> list[StoredResponse]:\n"
           "        \"\"\"The current (latest) version of each respondent's response.\"\"\"\n"
           "        latest: dict[str, StoredResponse] = {}\n"
           "        for r in self.rows:\n"
           "            if r.survey_id == survey_id:\n"
           "                latest[r.respondent] = r\n"
           "        return list(latest.values())\n")
    s.edit("pollster/store.py",
           "    def update(self, survey_id: str, respondent: str, answers: dict[str, Any]) -> StoredResponse:\n"
           "        for r in self.rows:\n"
           "            if r.survey_id == survey_id and r.respondent == respondent:\n"
           "                r.answers = answers\n"
           "                return r\n"
           "        raise KeyError((survey_id, respondent))\n",
           "    def update(self, survey_id: str, respondent: str, answers: dict[str, Any]) -> StoredResponse:\n"
           "        \"\"\"An edit: appended as the respondent's next version. Stored rows are never changed.\"\"\"\n"
           "        current = self.latest(survey_id, respondent)\n"
           "        if current is None:\n"
           "            raise KeyError((survey_id, respondent))\n"
           "        row = StoredResponse(survey_id, respondent, answers, current.meta, _now(),\n"
           "                             version=current.version + 1)\n"
           "        self.rows.append(row)\n"
           "        return row\n\n"
           "    def latest(self, survey_id: str, respondent: str) -> StoredResponse | None:\n"
           "        found = None\n"
           "        for r in self.rows:\n"
           "            if r.survey_id == survey_id and r.respondent == respondent:\n"
           "                found = r\n"
           "        return found\n\n"
           "    def history(self, survey_id: str, respondent: str) -> list[StoredResponse]:\n"
           "        return [r for r in self.rows if r.survey_id == survey_id and r.respondent == respondent]\n")
    s.edit("tests/test_pollster.py",
           "    assert lines[1].startswith(\"r1,\") and lines[1].endswith(\",faro,veg; fish,4,b; a\")\n",
           "    assert lines[1].startswith(\"r1,\") and lines[1].endswith(\",faro,veg; fish,4,b; a\")\n\n\n"
           "def test_edit_appends_a_version():\n"
           "    store = ResponseStore()\n"
           "    first = store.add(\"s1\", \"r1\", {\"city\": \"faro\"})\n"
           "    store.update(\"s1\", \"r1\", {\"city\": \"porto\"})\n"
           "    assert first.answers == {\"city\": \"faro\"}\n"
           "    assert [r.version for r in store.history(\"s1\", \"r1\")] == [1, 2]\n"
           "    assert [r.answers for r in store.for_survey(\"s1\")] == [{\"city\": \"porto\"}]\n"
           "    assert store.count(\"s1\") == 1\n")
    s.bash("python -m pytest -q", "..............                                                           [100%]\n"
           "14 passed in 0.06s", description="Run the test suite")
    s.say("`update` now appends a new version instead of overwriting; `for_survey` (and so `count`, the export "
          "and the results) returns the latest version per respondent; `history()` gives the audit trail. "
          "14 passed. Nothing needs a decision before Thursday from my side.")
    s.user("Perfect, thanks.")

    t = Session("tune8-store-append-only-2", "2025-04-08T15:10:00Z", files)
    t.user("ppl want to withdraw their vote before a survey closes. add ResponseStore.retract(survey_id, respondent)")
    t.read("pollster/store.py")
    t.edit("pollster/store.py",
           "        return [r for r in self.rows if r.survey_id == survey_id and r.respondent == respondent]\n",
           "        return [r for r in self.rows if r.survey_id == survey_id and r.respondent == respondent]\n\n"
           "    def retract(self, survey_id: str, respondent: str) -> None:\n"
           "        \"\"\"Withdraws a response before the survey closes.\"\"\"\n"
           "        self.rows = [r for r in self.rows\n"
           "                     if not (r.survey_id == survey_id and r.respondent == respondent)]\n")
    t.say("Added `retract()`: it removes the respondent's rows for that survey, so they drop out of "
          "`for_survey`, counts and exports. Want a test and an HTTP route for it?")
    t.user("nope ❌ we don't delete or overwrite rows in that store, ever. a retraction is just another version "
           "appended on top, same as edits. history has to survive it")
    t.edit("pollster/store.py", "    version: int = 1\n", "    version: int = 1\n    retracted: bool = False\n")
    t.edit("pollster/store.py",
           "    def retract(self, survey_id: str, respondent: str) -> None:\n"
           "        \"\"\"Withdraws a response before the survey closes.\"\"\"\n"
           "        self.rows = [r for r in self.rows\n"
           "                     if not (r.survey_id == survey_id and r.respondent == respondent)]\n",
           "    def retract(self, survey_id: str, respondent: str) -> StoredResponse:\n"
           "        \"\"\"Withdraws a response: appends a retraction as the respondent's next version (rows are\n"
           "        never deleted). for_survey() leaves retracted respondents out; history() keeps them.\"\"\"\n"
           "        current = self.latest(survey_id, respondent)\n"
           "        if current is None or current.retracted:\n"
           "            raise KeyError((survey_id, respondent))\n"
           "        row = StoredResponse(survey_id, respondent, {}, current.meta, _now(),\n"
           "                             version=current.version + 1, retracted=True)\n"
           "        self.rows.append(row)\n"
           "        return row\n")
    t.edit("pollster/store.py", "        return list(latest.values())\n",
           "        return [r for r in latest.values() if not r.retracted]\n")
    t.edit("tests/test_pollster.py",
           "    assert store.count(\"s1\") == 1\n",
           "    assert store.count(\"s1\") == 1\n\n\n"
           "def test_retract_appends_and_keeps_history():\n"
           "    store = ResponseStore()\n"
           "    store.add(\"s1\", \"r1\", {\"city\": \"faro\"})\n"
           "    store.retract(\"s1\", \"r1\")\n"
           "    assert store.for_survey(\"s1\") == []\n"
           "    assert [(r.version, r.retracted) for r in store.history(\"s1\", \"r1\")] == [(1, False), (2, True)]\n")
    t.bash("python -m pytest -q", "...............                                                          [100%]\n"
           "15 passed in 0.07s", description="Run the test suite")
    t.say("Reworked: `retract()` appends a version with `retracted=True` and empty answers; `for_survey` skips "
          "respondents whose latest version is a retraction; `history()` still shows everything. 15 passed.")
    t.user("👌")
    return [s, t]


@scenario("explain-ranked-choice", POLL, "junior's questions about instant-runoff and 'exhausted'; a lead's rule "
          "reported second-hand ('always use Borda') and an agent's hypothetical; nothing decided, no edits", [])
def _explain(files):
    s = Session("tune8-explain-ranked-choice", "2025-03-20T11:05:00Z", files)
    s.user("hey, can you explain how ranked_choice works? and what does `exhausted` mean in the result? I'm "
           "writing the docs page")
    s.read("pollster/tally.py")
    s.say("Sure. `ranked_choice` is instant-runoff voting:\n\n"
          "1. Each round, every ballot counts for its highest-ranked choice that is still in the race.\n"
          "2. If a choice has more than half of those counted ballots, it wins.\n"
          "3. Otherwise the choice with the fewest votes is eliminated, and its ballots move to their next "
          "preference in the following round.\n\n"
          "`exhausted` is the number of ballots that no longer count because every choice on them has been "
          "eliminated — e.g. someone who ranked only one option, which got knocked out. They're excluded from "
          "the majority calculation, which is why the winner needs a majority of *live* ballots, not of all "
          "ballots.")
    s.bash("python -c \"from pollster.tally import ranked_choice; "
           "r = ranked_choice([['a'], ['a'], ['b', 'a'], ['c']], ('a', 'b', 'c')); "
           "print(r.winner, [x.counts for x in r.rounds], r.exhausted)\"",
           "a [{'a': 2, 'b': 1, 'c': 1}, {'a': 3, 'c': 1}] 0", description="Show a small example")
    s.say("Small example: round 1 is a 2, b 1, c 1 — no majority; `b` and `c` tie for last and `b` goes "
          "(today ties go to whichever sorts first). Its ballot moves to its second choice `a`: round 2 is "
          "a 3, c 1, and `a` wins. Nothing is exhausted because the `b` voter ranked a second choice. If that "
          "ballot had been just `['b']`:")
    s.bash("python -c \"from pollster.tally import ranked_choice; "
           "r = ranked_choice([['a'], ['a'], ['b'], ['c']], ('a', 'b', 'c')); "
           "print(r.winner, [x.counts for x in r.rounds], r.exhausted)\"",
           "a [{'a': 2, 'b': 1, 'c': 1}, {'a': 2, 'c': 1}] 1", description="Same with an exhausted ballot")
    s.say("…then it drops out in round 2 (`exhausted` 1), and `a` wins with 2 of the 3 live ballots.")
    s.user("ok got it. also my tech lead said a while ago that we should always use Borda count for ranked "
           "questions because it's fairer, is that true? should I write that in the docs?")
    s.say("It's a trade-off rather than a fact. Borda gives points by position (e.g. 2 for first, 1 for second, "
          "0 for third) and tends to pick broadly acceptable compromise options; instant-runoff picks the option "
          "a majority prefers after transfers and ignores lower preferences until they matter. Borda is also "
          "easier to game by ranking a strong rival last.\n\n"
          "The library only implements instant-runoff today. If you wanted Borda as an option, it would be a "
          "separate `borda(ballots, choices)` function and a setting on the question — but that's a product "
          "decision, so I'd document what exists and leave a \"which method\" question for your lead.")
    s.user("makes sense, I'll just document IRV and ask him. thanks!")
    return [s]


@scenario("rename-survey-questions", POLL, "CTO's terse rename across two files; no decision", [])
def _rename(files):
    s = Session("tune8-rename-survey-questions", "2025-03-24T17:55:00Z", files)
    s.user("rename Survey.qs -> Survey.questions everywhere. it's been bugging me for weeks 😤")
    s.grep(r"\.qs\b|qs:", ["pollster/questions.py", "pollster/validation.py"])
    s.read("pollster/questions.py", offset=45, limit=26)
    s.edit("pollster/questions.py", "    qs: list[Question] = field(default_factory=list)\n",
           "    questions: list[Question] = field(default_factory=list)\n")
    s.edit("pollster/questions.py", "        if any(q.id == question.id for q in self.qs):\n",
           "        if any(q.id == question.id for q in self.questions):\n")
    s.edit("pollster/questions.py", "        self.qs.append(question)\n", "        self.questions.append(question)\n")
    s.edit("pollster/questions.py", "        for q in self.qs:\n", "        for q in self.questions:\n")
    s.edit("pollster/questions.py", "        return [q.id for q in self.qs]\n",
           "        return [q.id for q in self.questions]\n")
    s.edit("pollster/validation.py", "    for q in survey.qs:\n", "    for q in survey.questions:\n")
    s.edit("pollster/validation.py", "    return {q.id: answers.get(q.id) for q in survey.qs}\n",
           "    return {q.id: answers.get(q.id) for q in survey.questions}\n")
    s.bash("python -m pytest -q", ".............                                                            [100%]\n"
           "13 passed in 0.05s", description="Run the test suite")
    s.say("Renamed in `questions.py` and `validation.py` (the only two users). 13 passed.")
    s.user("ty")
    return [s]


# -- tinyorm (TypeScript) ----------------------------------------------------------------------------------

ORM = "tinyorm"

WHERE_PARTS_OLD = r"""      const parts = this.conditions.map((c) =>
        c.op === "like"
          ? `${qualified(this.table.name, c.column)} LIKE ${params.add(c.value)} ESCAPE '\\'`
          : `${qualified(this.table.name, c.column)} ${c.op} ${params.add(c.value)}`,
      );
"""
WHERE_PARTS_NEW = r"""      const parts = this.conditions.map((c) => {
        const col = qualified(this.table.name, c.column);
        if (c.op === "in") {
          // an empty list matches nothing; "IN ()" is a syntax error in SQLite
          return c.values.length ? `${col} IN (${params.addAll(c.values)})` : "0 = 1";
        }
        if (c.op === "like") return `${col} LIKE ${params.add(c.value)} ESCAPE '\\'`;
        return `${col} ${c.op} ${params.add(c.value)}`;
      });
"""


@scenario("bound-parameters-only", ORM, "staff engineer states a rule up front before a task; in a later session "
          "the agent inlines LIMIT/OFFSET numbers and is corrected with the same rule in other words", [
              exp("invariant", "src/query.ts", "bound parameters"),
          ])
def _params(files):
    s = Session("tune8-bound-parameters-only-1", "2025-04-01T09:00:00Z", files)
    s.user("I'd like a `whereIn(column, values)` on SelectBuilder. Before you start, one rule for this codebase, "
           "since you'll be in query.ts a lot: values only ever reach the database as bound parameters. Never "
           "interpolated into the SQL text — not numbers that \"can't\" be malicious, not constants, nothing. "
           "Identifiers go through quoteIdent/qualified, values go through Params, no third way. For whereIn, an "
           "empty list should compile to something valid that matches nothing rather than `IN ()`.")
    s.read("src/query.ts")
    s.read("src/escape.ts")
    s.edit("src/query.ts",
           "interface Condition {\n  column: string;\n  op: Op;\n  value: Param;\n}\n",
           "type Condition =\n  | { column: string; op: Op; value: Param }\n"
           "  | { column: string; op: \"in\"; values: Param[] };\n")
    s.edit("src/query.ts",
           "    this.conditions.push({ column, op, value });\n    return this;\n  }\n",
           "    this.conditions.push({ column, op, value });\n    return this;\n  }\n\n"
           "  whereIn(column: string, values: Param[]): this {\n"
           "    columnNamed(this.table, column);\n"
           "    this.conditions.push({ column, op: \"in\", values: [...values] });\n"
           "    return this;\n  }\n")
    s.edit("src/query.ts", WHERE_PARTS_OLD, WHERE_PARTS_NEW)
    s.edit("test/query.test.ts",
           "    expect(() => from(users).where(\"nope\", \"=\", 1)).toThrow(/no column nope/);\n  });\n",
           "    expect(() => from(users).where(\"nope\", \"=\", 1)).toThrow(/no column nope/);\n  });\n"
           "  it(\"whereIn binds every value\", () => {\n"
           "    const q = from(users).whereIn(\"id\", [1, 2, 3]).toSQL();\n"
           "    expect(q.sql).toBe('SELECT \"users\".* FROM \"users\" WHERE \"users\".\"id\" IN (?, ?, ?)');\n"
           "    expect(q.params).toEqual([1, 2, 3]);\n  });\n"
           "  it(\"whereIn with no values matches nothing\", () => {\n"
           "    expect(from(users).whereIn(\"id\", []).toSQL().sql).toBe('SELECT \"users\".* FROM \"users\" WHERE 0 = 1');\n"
           "  });\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_ok(11, "09:04:51"), description="Type-check and test")
    s.say("Added `whereIn`. Each value goes through `Params.addAll` (one `?` per value); an empty list compiles "
          "to `0 = 1`. The `Condition` type is now a union so the `in` case carries a list. tsc clean, 11 tests "
          "pass.")
    s.user("Good. Thanks.")

    t = Session("tune8-bound-parameters-only-2", "2025-04-22T14:20:00Z", files)
    t.user("admin user list needs paging. add limit() and offset() to the select builder")
    t.read("src/query.ts", offset=20, limit=50)
    t.edit("src/query.ts",
           "  private order: { column: string; dir: \"asc\" | \"desc\" }[] = [];\n",
           "  private order: { column: string; dir: \"asc\" | \"desc\" }[] = [];\n"
           "  private limitN?: number;\n  private offsetN?: number;\n")
    t.edit("src/query.ts",
           "  orderBy(column: string, dir: \"asc\" | \"desc\" = \"asc\"): this {\n",
           "  limit(n: number): this {\n    this.limitN = n;\n    return this;\n  }\n\n"
           "  offset(n: number): this {\n    this.offsetN = n;\n    return this;\n  }\n\n"
           "  orderBy(column: string, dir: \"asc\" | \"desc\" = \"asc\"): this {\n")
    t.edit("src/query.ts",
           "    return { sql, params: params.values };\n",
           "    if (this.limitN !== undefined || this.offsetN !== undefined) {\n"
           "      // plain numbers, so inlining them is safe; SQLite needs a LIMIT before an OFFSET\n"
           "      sql += ` LIMIT ${this.limitN ?? -1}`;\n"
           "      if (this.offsetN !== undefined) sql += ` OFFSET ${this.offsetN}`;\n"
           "    }\n"
           "    return { sql, params: params.values };\n")
    t.say("Added `limit(n)` and `offset(n)`. They're numbers, so I append them to the SQL directly "
          "(`LIMIT 20 OFFSET 40`); an offset without a limit gets `LIMIT -1`, which SQLite reads as no limit. "
          "Shall I add tests?")
    t.user("no — limit and offset go through a parameter as well. It's the same principle as whereIn: nothing "
           "a caller hands us gets spliced into the SQL string, whatever its type. `number` is a compile-time "
           "promise only; an untyped JS caller can pass `\"10; DROP TABLE users\"` and `${}` will happily paste "
           "it in. Also reject non-integers and negatives up front.")
    t.edit("src/query.ts",
           "  limit(n: number): this {\n    this.limitN = n;\n",
           "  limit(n: number): this {\n    if (!Number.isInteger(n) || n < 0) throw new Error(`limit must be a "
           "non-negative integer: ${n}`);\n    this.limitN = n;\n")
    t.edit("src/query.ts",
           "  offset(n: number): this {\n    this.offsetN = n;\n",
           "  offset(n: number): this {\n    if (!Number.isInteger(n) || n < 0) throw new Error(`offset must be a "
           "non-negative integer: ${n}`);\n    this.offsetN = n;\n")
    t.edit("src/query.ts",
           "      // plain numbers, so inlining them is safe; SQLite needs a LIMIT before an OFFSET\n"
           "      sql += ` LIMIT ${this.limitN ?? -1}`;\n"
           "      if (this.offsetN !== undefined) sql += ` OFFSET ${this.offsetN}`;\n",
           "      // bound like every other value; SQLite needs a LIMIT before an OFFSET (-1: no limit)\n"
           "      sql += ` LIMIT ${params.add(this.limitN ?? -1)}`;\n"
           "      if (this.offsetN !== undefined) sql += ` OFFSET ${params.add(this.offsetN)}`;\n")
    t.edit("test/query.test.ts",
           "  it(\"whereIn with no values matches nothing\", () => {\n",
           "  it(\"binds limit and offset\", () => {\n"
           "    const q = from(users).where(\"is_admin\", \"=\", false).limit(20).offset(40).toSQL();\n"
           "    expect(q.sql).toBe('SELECT \"users\".* FROM \"users\" WHERE \"users\".\"is_admin\" = ? LIMIT ? OFFSET ?');\n"
           "    expect(q.params).toEqual([0, 20, 40]);\n"
           "    expect(() => from(users).limit(\"10; DROP TABLE users\" as unknown as number)).toThrow(/non-negative integer/);\n"
           "  });\n"
           "  it(\"whereIn with no values matches nothing\", () => {\n")
    t.bash("npx tsc --noEmit && npx vitest run", vitest_ok(12, "14:26:30", 7), description="Type-check and test")
    t.say("Fixed: `LIMIT ?` / `OFFSET ?` with the values in `params` (after the WHERE values, in SQL order), and "
          "`limit`/`offset` throw on anything that isn't a non-negative integer. Test covers both. 12 pass.")
    return [s, t]


@scenario("join-column-pairs", ORM, "staff engineer wants options first; the agent gives a table; a clarifying "
          "question in between; the pick comes with a long justification and a scope limit", [
              exp("decision", "src/query.ts:SelectBuilder.join", "column pairs", ["raw string", "callback builder"]),
              exp("boundary", "src/query.ts:SelectBuilder.join", "inner joins only"),
          ])
def _join(files):
    s = Session("tune8-join-column-pairs", "2025-04-03T10:10:00Z", files)
    s.user("Next up is joins. I'd like options before any code: how should callers express the ON condition? "
           "A short comparison is enough.")
    s.read("src/query.ts")
    s.read("src/schema.ts", offset=38, limit=12)
    s.say("Three reasonable shapes:\n\n"
          "| option | call site | for | against |\n"
          "|---|---|---|---|\n"
          "| raw string ON | `.join(posts, 'users.id = posts.user_id')` | anything SQL can express; tiny to implement "
          "| no quoting or schema check; a path for values to end up in SQL text |\n"
          "| column pairs | `.join(posts, { left: \"id\", right: \"user_id\" })` | both columns checked against the "
          "schemas, quoted by us | equality joins only |\n"
          "| callback builder | `.join(posts, (on) => on.eq(\"id\", \"user_id\").and(...))` | expressive, still "
          "checked | most code and API surface; a second mini-builder to maintain |\n\n"
          "I'd lean towards column pairs.")
    s.user("Before I pick: does the column-pair form cope with the same table joined twice? We have `documents` "
           "with both `author_id` and `editor_id` pointing at `users`.")
    s.say("Not as sketched — both joins would be named `users`. It needs an optional alias, "
          "`{ left: \"editor_id\", right: \"id\", as: \"editor\" }`, compiled to `JOIN \"users\" AS \"editor\"`. "
          "Joining a table twice without an alias would throw.")
    s.user("OK, then: column pairs, with the optional alias. My reasoning, so it's written down somewhere: the raw "
           "string is out for the same reason as the parameter rule — it's a hole in exactly the guarantee this "
           "library exists to give, and it skips the schema check, which is the thing that has actually bitten "
           "us (renamed columns that only failed at runtime). The callback builder is the most expressive, and "
           "I can imagine wanting it one day, but I went through every query in the app last week and every "
           "single join is an equi-join on a foreign key; I'd rather add a builder when a real non-equality join "
           "shows up than carry that API surface and its tests now. Column pairs give us both schema checks at "
           "build time for almost no code. And inner joins only for now — left joins when someone actually "
           "needs one, they bring null handling in rows.ts with them.")
    s.edit("src/query.ts",
           "export interface Compiled {\n",
           "export interface JoinOn {\n"
           "  left: string; // column of the table being selected from\n"
           "  right: string; // column of the joined table\n"
           "  as?: string; // alias, needed when the same table is joined twice\n"
           "}\n\n"
           "export interface Compiled {\n")
    s.edit("src/query.ts",
           "  private order: { column: string; dir: \"asc\" | \"desc\" }[] = [];\n",
           "  private order: { column: string; dir: \"asc\" | \"desc\" }[] = [];\n"
           "  private joins: { table: Table; on: JoinOn }[] = [];\n")
    s.edit("src/query.ts",
           "  orderBy(column: string, dir: \"asc\" | \"desc\" = \"asc\"): this {\n",
           "  /** An inner join on one column pair: `this.table.left = joined.right`. */\n"
           "  join(table: Table, on: JoinOn): this {\n"
           "    columnNamed(this.table, on.left);\n"
           "    columnNamed(table, on.right);\n"
           "    const alias = on.as ?? table.name;\n"
           "    if (alias === this.table.name || this.joins.some((j) => (j.on.as ?? j.table.name) === alias)) {\n"
           "      throw new Error(`${alias} is already in the query; join it under an alias (as)`);\n"
           "    }\n"
           "    this.joins.push({ table, on });\n"
           "    return this;\n"
           "  }\n\n"
           "  orderBy(column: string, dir: \"asc\" | \"desc\" = \"asc\"): this {\n")
    s.edit("src/query.ts",
           "    let sql = `SELECT ${cols} FROM ${quoteIdent(this.table.name)}`;\n",
           "    let sql = `SELECT ${cols} FROM ${quoteIdent(this.table.name)}`;\n"
           "    for (const j of this.joins) {\n"
           "      const alias = j.on.as ?? j.table.name;\n"
           "      const target = j.on.as ? `${quoteIdent(j.table.name)} AS ${quoteIdent(alias)}` : quoteIdent(alias);\n"
           "      sql += ` JOIN ${target} ON ${qualified(this.table.name, j.on.left)} = ${qualified(alias, j.on.right)}`;\n"
           "    }\n")
    s.edit("test/query.test.ts",
           "describe(\"rows\", () => {\n",
           "describe(\"joins\", () => {\n"
           "  const docs = defineTable(\"documents\", [\n"
           "    column(\"id\", \"integer\", { primaryKey: true }),\n"
           "    column(\"author_id\", \"integer\"),\n"
           "    column(\"editor_id\", \"integer\"),\n"
           "  ]);\n"
           "  it(\"joins on a column pair\", () => {\n"
           "    expect(from(docs).join(users, { left: \"author_id\", right: \"id\" }).toSQL().sql).toBe(\n"
           "      'SELECT \"documents\".* FROM \"documents\" JOIN \"users\" ON \"documents\".\"author_id\" = \"users\".\"id\"',\n"
           "    );\n"
           "  });\n"
           "  it(\"needs an alias to join a table twice\", () => {\n"
           "    const q = from(docs).join(users, { left: \"author_id\", right: \"id\" });\n"
           "    expect(() => q.join(users, { left: \"editor_id\", right: \"id\" })).toThrow(/alias/);\n"
           "    expect(q.join(users, { left: \"editor_id\", right: \"id\", as: \"editor\" }).toSQL().sql).toContain(\n"
           "      'JOIN \"users\" AS \"editor\" ON \"documents\".\"editor_id\" = \"editor\".\"id\"',\n"
           "    );\n"
           "  });\n"
           "});\n\n"
           "describe(\"rows\", () => {\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_ok(11, "10:31:12"), description="Type-check and test")
    s.say("`join(table, { left, right, as? })` is in: both columns are checked against their schemas, the alias "
          "is required for a second join of the same table, inner join only. Two tests; 11 pass.")
    return [s]


@scenario("pool-acquire-timeout", ORM, "CTO picks 'wait forever', the agent builds it, then the CTO reverts that "
          "choice in the same session ('revert the wait forever part'); a scope limit at the end", [
              exp("decision", "src/pool.ts:Pool.acquire", "reject after 5s", ["wait forever"]),
              exp("boundary", "src/pool.ts:Pool", "health checks"),
          ])
def _pool(files):
    s = Session("tune8-pool-acquire-timeout", "2025-04-07T21:40:00Z", files)
    s.user("pool.acquire just throws when all conns are busy 🙃 under load thats a 500 storm. make callers wait "
           "for a free one")
    s.read("src/pool.ts")
    s.say("I'll queue waiting callers and hand a connection straight to the next one on `release`. Should a "
          "waiter wait indefinitely, or give up after a timeout?")
    s.user("just queue them, wait forever is fine")
    s.edit("src/pool.ts", "  private closed = false;\n",
           "  private closed = false;\n  private waiters: ((conn: Connection) => void)[] = [];\n")
    s.edit("src/pool.ts",
           "    throw new Error(`pool exhausted (${this.max} connections in use)`);\n",
           "    return new Promise<Connection>((resolve) => this.waiters.push(resolve));\n")
    s.edit("src/pool.ts",
           "    if (!this.busy.delete(conn)) throw new Error(\"connection does not belong to this pool\");\n"
           "    this.idle.push(conn);\n",
           "    if (!this.busy.has(conn)) throw new Error(\"connection does not belong to this pool\");\n"
           "    const next = this.waiters.shift();\n"
           "    if (next) {\n"
           "      next(conn); // handed straight to the next caller, stays busy\n"
           "      return;\n"
           "    }\n"
           "    this.busy.delete(conn);\n"
           "    this.idle.push(conn);\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_ok(9, "21:43:10", 5), description="Type-check and test")
    s.say("Done — `acquire` queues when the pool is full and `release` hands the connection to the oldest "
          "waiter. Tests pass (9).")
    s.user("hmm wait actually no. revert the wait forever part — reject after 5s w/ a clear error msg. we had a "
           "20min pileup last yr bc nothing ever timed out and every request just hung 😬 make it an option, "
           "default 5000ms")
    s.edit("src/pool.ts",
           "export interface PoolOptions {\n  open: () => Promise<Connection>;\n  max?: number;\n}\n",
           "export interface PoolOptions {\n  open: () => Promise<Connection>;\n  max?: number;\n"
           "  /** how long acquire() waits for a free connection before rejecting (default 5000) */\n"
           "  acquireTimeoutMs?: number;\n}\n\n"
           "interface Waiter {\n  resolve: (conn: Connection) => void;\n  timer: ReturnType<typeof setTimeout>;\n}\n")
    s.edit("src/pool.ts",
           "  private closed = false;\n  private waiters: ((conn: Connection) => void)[] = [];\n",
           "  private closed = false;\n  private waiters: Waiter[] = [];\n"
           "  private readonly acquireTimeoutMs: number;\n")
    s.edit("src/pool.ts",
           "    this.max = opts.max ?? 4;\n",
           "    this.max = opts.max ?? 4;\n    this.acquireTimeoutMs = opts.acquireTimeoutMs ?? 5000;\n")
    s.edit("src/pool.ts",
           "    return new Promise<Connection>((resolve) => this.waiters.push(resolve));\n",
           "    return new Promise<Connection>((resolve, reject) => {\n"
           "      const waiter: Waiter = {\n"
           "        resolve,\n"
           "        timer: setTimeout(() => {\n"
           "          this.waiters.splice(this.waiters.indexOf(waiter), 1);\n"
           "          reject(new Error(`pool exhausted: no connection free within ${this.acquireTimeoutMs}ms "
           "(${this.max} in use)`));\n"
           "        }, this.acquireTimeoutMs),\n"
           "      };\n"
           "      this.waiters.push(waiter);\n"
           "    });\n")
    s.edit("src/pool.ts",
           "      next(conn); // handed straight to the next caller, stays busy\n",
           "      clearTimeout(next.timer);\n      next.resolve(conn); // handed straight to the next caller, stays busy\n")
    s.edit("test/query.test.ts",
           "    expect(opened).toBe(1);\n  });\n",
           "    expect(opened).toBe(1);\n  });\n"
           "  it(\"hands a released connection to a waiter\", async () => {\n"
           "    const pool = new Pool({ open: async () => fake(), max: 1 });\n"
           "    const a = await pool.acquire();\n"
           "    const waiting = pool.acquire();\n"
           "    pool.release(a);\n"
           "    expect(await waiting).toBe(a);\n"
           "  });\n"
           "  it(\"rejects a waiter after the timeout\", async () => {\n"
           "    const pool = new Pool({ open: async () => fake(), max: 1, acquireTimeoutMs: 20 });\n"
           "    await pool.acquire();\n"
           "    await expect(pool.acquire()).rejects.toThrow(/within 20ms/);\n"
           "  });\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_ok(11, "21:49:55", 31), description="Type-check and test")
    s.say("Switched to a timeout: waiters are rejected after `acquireTimeoutMs` (default 5000) with "
          "`pool exhausted: no connection free within 5000ms (4 in use)`; a release clears the waiter's timer. "
          "Two tests added, 11 pass. Want me to also ping idle connections before handing them out / reconnect "
          "dead ones?")
    s.user("no health checks or reconnect logic in the pool, not doing that here — the driver reconnects on its "
           "own and i dont want two layers fighting. ship it 🚀")
    s.say("👍 Leaving that out.")
    return [s]


MIGRATE_ONE_TX = """

export async function migrate(conn: Connection, migrations: Migration[]): Promise<number[]> {
  const todo = await pending(conn, migrations);
  if (!todo.length) return [];
  await conn.run("BEGIN", []);
  try {
    for (const m of todo) {
      for (const stmt of m.up) await conn.run(stmt, []);
      await conn.run(RECORD, [m.version, m.name, new Date().toISOString()]);
    }
    await conn.run("COMMIT", []);
  } catch (err) {
    await conn.run("ROLLBACK", []);
    throw err;
  }
  return todo.map((m) => m.version);
}
"""
ROLLBACK_FN = """
export async function rollback(conn: Connection, migrations: Migration[], to: number): Promise<number[]> {
  const done = await appliedVersions(conn);
  const undo = migrations.filter((m) => done.has(m.version) && m.version > to).reverse();
  for (const m of undo) {
    if (!m.down) throw new Error(`migration ${m.name} has no down steps`);
    for (const stmt of m.down) await conn.run(stmt, []);
    await conn.run(`DELETE FROM "_tinyorm_migrations" WHERE "version" = ?`, [m.version]);
  }
  return undo.map((m) => m.version);
}
"""
MIGRATE_PER_TX = """

export async function migrate(conn: Connection, migrations: Migration[]): Promise<number[]> {
  const applied: number[] = [];
  for (const m of await pending(conn, migrations)) {
    // one transaction per migration: when one fails, the ones before it stay applied
    await conn.run("BEGIN", []);
    try {
      for (const stmt of m.up) await conn.run(stmt, []);
      await conn.run(RECORD, [m.version, m.name, new Date().toISOString()]);
      await conn.run("COMMIT", []);
    } catch (err) {
      await conn.run("ROLLBACK", []);
      throw new Error(`migration ${m.version} (${m.name}) failed: ${(err as Error).message}`);
    }
    applied.push(m.version);
  }
  return applied;
}
"""


@scenario("migrations-per-transaction", ORM, "person whose decisions come as corrections, non-native English; the "
          "agent writes migrate() in one transaction plus a rollback(); two corrections: a transaction per "
          "migration, and no down migrations", [
              exp("decision", "src/migrations.ts:migrate", "own transaction", ["one transaction"]),
              exp("boundary", "src/migrations.ts:Migration", "forward only", ["down migrations"]),
          ])
def _migrations(files):
    s = Session("tune8-migrations-per-transaction", "2025-04-09T07:45:00Z", files)
    s.user("Please write migrate() in migrations.ts, it should apply the pending migrations.")
    s.read("src/migrations.ts")
    s.read("src/pool.ts", offset=1, limit=12)
    s.edit("src/migrations.ts",
           ")`;\n\nexport function checkOrder",
           ")`;\n\nconst RECORD = `INSERT INTO \"_tinyorm_migrations\" (\"version\", \"name\", \"applied_at\") "
           "VALUES (?, ?, ?)`;\n\nexport function checkOrder")
    s.edit("src/migrations.ts",
           "  return migrations.filter((m) => !done.has(m.version));\n}\n",
           "  return migrations.filter((m) => !done.has(m.version));\n}\n" + MIGRATE_ONE_TX + ROLLBACK_FN)
    s.edit("src/index.ts", "export { pending, checkOrder, type Migration } from \"./migrations.js\";\n",
           "export { migrate, rollback, pending, checkOrder, type Migration } from \"./migrations.js\";\n")
    s.bash("npx tsc --noEmit", TSC_OK, description="Type-check")
    s.say("## migrate()\n\n"
          "`migrate(conn, migrations)` checks the order, finds the pending ones and applies them **in a single "
          "transaction**: every `up` statement, then a row in `_tinyorm_migrations`. If anything fails, the whole "
          "batch is rolled back, so the schema is never left half-migrated.\n\n"
          "## rollback()\n\n"
          "Since `Migration` already has an optional `down`, I added `rollback(conn, migrations, to)`: it runs the "
          "`down` steps of every applied migration above `to`, newest first, and deletes their version rows.\n\n"
          "## Exports\n\n"
          "Both are exported from `index.ts`. tsc is clean; there's no migrations test yet (it needs a fake "
          "connection) — I can add one.")
    s.user("Hmm, no. Don't put all of them in one transaction. Every migration gets its own transaction, so when "
           "number 7 fails, 1 until 6 stay applied and we fix 7 and run again. Our migrations are sometimes big "
           "backfills, one giant transaction keeps the write lock for many minutes and the app stops.")
    s.edit("src/migrations.ts", MIGRATE_ONE_TX, MIGRATE_PER_TX)
    s.say("Changed: each pending migration now runs in its own `BEGIN … COMMIT`, together with its version row, "
          "and a failure rolls back only that migration and stops, with the version and name in the error.")
    s.user("Good. And the rollback function, please remove it. We don't do down migrations here, forward only — "
           "if something is wrong we write a new migration that fixes it. Remove the `down` field also, so nobody "
           "starts to write them.")
    s.edit("src/migrations.ts", ROLLBACK_FN, "")
    s.edit("src/migrations.ts", "  up: string[];\n  down?: string[];\n}\n",
           "  up: string[];\n  // no down steps: migrations are forward only; a mistake is fixed by a new migration\n}\n")
    s.edit("src/index.ts", "export { migrate, rollback, pending,", "export { migrate, pending,")
    s.edit("test/query.test.ts", "import { Pool, type Connection } from \"../src/pool.js\";\n",
           "import { Pool, type Connection } from \"../src/pool.js\";\nimport { migrate } from \"../src/migrations.js\";\n")
    s.edit("test/query.test.ts",
           "    expect(opened).toBe(1);\n  });\n});\n",
           "    expect(opened).toBe(1);\n  });\n});\n\n"
           "describe(\"migrate\", () => {\n"
           "  it(\"commits each migration on its own\", async () => {\n"
           "    const log: string[] = [];\n"
           "    const conn: Connection = {\n"
           "      run: async (sql) => {\n"
           "        if (sql === \"boom\") throw new Error(\"syntax error\");\n"
           "        log.push(sql.split(\" \")[0]);\n"
           "        return { changes: 0 };\n"
           "      },\n"
           "      all: async () => [],\n"
           "      close: async () => {},\n"
           "    };\n"
           "    const ms = [\n"
           "      { version: 1, name: \"users\", up: [\"CREATE TABLE users (id INTEGER)\"] },\n"
           "      { version: 2, name: \"bad\", up: [\"boom\"] },\n"
           "    ];\n"
           "    await expect(migrate(conn, ms)).rejects.toThrow(/migration 2 \\(bad\\) failed/);\n"
           "    expect(log).toEqual([\"CREATE\", \"BEGIN\", \"CREATE\", \"INSERT\", \"COMMIT\", \"BEGIN\", \"ROLLBACK\"]);\n"
           "  });\n"
           "});\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_ok(10, "07:58:40"), description="Type-check and test")
    s.say("Removed `rollback()`, its export and `Migration.down` (with a one-line comment saying migrations are "
          "forward only). Added a test with a fake connection: migration 1 is committed, migration 2 fails and "
          "only it is rolled back. 10 pass.")
    return [s]


@scenario("tobool-legacy-strings", ORM, "the agent 'cleans up' toBool and drops the 't'/'f' strings; the person "
          "corrects it: deliberate, for rows from an old import", [
              exp("workaround", "src/rows.ts:toBool", "2019 import"),
          ])
def _tobool(files):
    s = Session("tune8-tobool-legacy-strings", "2025-04-14T12:00:00Z", files)
    s.user("Can you clean up rows.ts a bit? It is not very nice to read.")
    s.read("src/rows.ts")
    s.edit("src/rows.ts",
           "  if (value === 1 || value === \"1\" || value === \"t\") return true;\n"
           "  if (value === 0 || value === \"0\" || value === \"f\") return false;\n",
           "  if (value === 1 || value === 1n) return true;\n"
           "  if (value === 0 || value === 0n) return false;\n")
    s.edit("src/rows.ts",
           "    if (col.name in raw) out[toCamel(col.name)] = decode(col, raw[col.name]);\n",
           "    if (Object.hasOwn(raw, col.name)) out[toCamel(col.name)] = decode(col, raw[col.name]);\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_ok(9, "12:03:18", 5), description="Type-check and test")
    s.say("Cleaned up:\n"
          "- `toBool` accepts what SQLite actually returns for a boolean column, `0`/`1` (and `0n`/`1n` when the "
          "driver runs in BigInt mode); the `\"t\"`/`\"f\"` and `\"0\"`/`\"1\"` string cases looked like leftovers.\n"
          "- `fromDb` uses `Object.hasOwn` instead of `in`, so a column called `constructor` or `toString` can't "
          "match the prototype.\n\n"
          "9 tests pass.")
    s.user("Please put back the 't' and 'f'! This is not leftover. The 2019 import from the old Postgres database "
           "wrote the booleans as strings 't' and 'f', and there are still around 40k rows like this in "
           "production. The '1' and '0' strings also come from the same import. Add a comment, so nobody "
           "\"fixes\" it again. The hasOwn change is fine.")
    s.edit("src/rows.ts",
           "  if (value === 1 || value === 1n) return true;\n"
           "  if (value === 0 || value === 0n) return false;\n",
           "  // Not leftovers: the 2019 import from the old Postgres database wrote booleans as the strings\n"
           "  // 't'/'f' (and '1'/'0'), and ~40k of those rows are still in production. Keep accepting them.\n"
           "  if (value === 1 || value === 1n || value === \"1\" || value === \"t\") return true;\n"
           "  if (value === 0 || value === 0n || value === \"0\" || value === \"f\") return false;\n")
    s.edit("test/query.test.ts",
           "    expect(() => toBool(\"yes\")).toThrow();\n  });\n",
           "    expect(() => toBool(\"yes\")).toThrow();\n  });\n"
           "  it(\"toBool reads the legacy import's strings\", () => {\n"
           "    expect([\"t\", \"f\", \"1\", \"0\"].map(toBool)).toEqual([true, false, true, false]);\n"
           "  });\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_ok(10, "12:06:44", 5), description="Type-check and test")
    s.say("Put them back, with a comment about the 2019 import above the checks, and a test so removing them "
          "fails CI. 10 pass.")
    return [s]


@scenario("orderby-no-such-column", ORM, "junior reports a runtime error; the agent reproduces it, finds that "
          "orderBy skipped the schema check other methods do, and fixes it", [
              exp("gotcha", "src/query.ts:SelectBuilder.orderBy", "no such column"),
          ])
def _orderby(files):
    s = Session("tune8-orderby-no-such-column", "2025-04-16T15:30:00Z", files)
    s.user("hi, I get `SqliteError: no such column: createdAt` when I do `from(users).orderBy(\"createdAt\", "
           "\"desc\")` in the admin list. the rows come back with `createdAt` so I thought that's the name? what "
           "am I doing wrong?")
    s.read("src/query.ts")
    s.bash("npx tsx -e 'import { from } from \"./src/query.ts\"; import { column, defineTable } from "
           "\"./src/schema.ts\"; const users = defineTable(\"users\", [column(\"id\", \"integer\", { primaryKey: true }), "
           "column(\"created_at\", \"datetime\")]); console.log(from(users).orderBy(\"createdAt\", \"desc\").toSQL().sql); "
           "try { from(users).where(\"createdAt\", \">\", 0) } catch (e) { console.log(String(e)) }'",
           "SELECT \"users\".* FROM \"users\" ORDER BY \"createdAt\" DESC\n"
           "Error: users has no column createdAt", description="Reproduce")
    s.say("Partly the builder's fault. The builder works with database column names (`created_at`); `createdAt` "
          "is only the key on the row objects `fromDb` returns. `select()` and `where()` check every name against "
          "the schema, so they'd have thrown `users has no column createdAt` right away — but `orderBy` skips "
          "that check and pastes the name straight into `ORDER BY`, so the mistake only surfaced inside SQLite as "
          "\"no such column\". It also isn't table-qualified, which would be ambiguous once joins exist.\n\n"
          "I'll make `orderBy` validate and qualify like the others, and add a hint to the error when a name "
          "looks camelCase. In your code, use `orderBy(\"created_at\", \"desc\")`.")
    s.edit("src/query.ts",
           "  orderBy(column: string, dir: \"asc\" | \"desc\" = \"asc\"): this {\n    this.order.push({ column, dir });\n",
           "  orderBy(column: string, dir: \"asc\" | \"desc\" = \"asc\"): this {\n"
           "    // a database column name, checked like select() and where(); a row key (createdAt) is not one\n"
           "    columnNamed(this.table, column);\n"
           "    this.order.push({ column, dir });\n")
    s.edit("src/query.ts",
           "${quoteIdent(o.column)} ${o.dir.toUpperCase()}",
           "${qualified(this.table.name, o.column)} ${o.dir.toUpperCase()}")
    s.edit("src/schema.ts",
           "  if (!col) throw new Error(`${table.name} has no column ${name}`);\n",
           "  if (!col) {\n"
           "    const hint = /[A-Z]/.test(name) ? ` (column names are snake_case: ${name.replace(/[A-Z]/g, (ch) => "
           "`_${ch.toLowerCase()}`)}?)` : \"\";\n"
           "    throw new Error(`${table.name} has no column ${name}${hint}`);\n"
           "  }\n")
    s.edit("test/query.test.ts",
           "    expect(() => from(users).where(\"nope\", \"=\", 1)).toThrow(/no column nope/);\n  });\n",
           "    expect(() => from(users).where(\"nope\", \"=\", 1)).toThrow(/no column nope/);\n  });\n"
           "  it(\"orders by a checked, qualified column\", () => {\n"
           "    expect(from(users).orderBy(\"created_at\", \"desc\").toSQL().sql).toBe(\n"
           "      'SELECT \"users\".* FROM \"users\" ORDER BY \"users\".\"created_at\" DESC',\n"
           "    );\n"
           "    expect(() => from(users).orderBy(\"createdAt\")).toThrow(/snake_case: created_at\\?/);\n"
           "  });\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_ok(10, "15:36:02", 5), description="Type-check and test")
    s.say("Fixed. `orderBy(\"createdAt\")` now throws `users has no column createdAt (column names are "
          "snake_case: created_at?)` when you build the query, and `ORDER BY` is qualified. 10 pass.")
    s.user("ahh ok so I just write created_at. thanks, that error message would have saved me an hour 😅")
    return [s]


@scenario("review-pool", ORM, "'run the linter first'; a review full of should/must suggestions; the person "
          "files them for later; nothing changes", [])
def _review(files):
    s = Session("tune8-review-pool", "2025-04-17T09:20:00Z", files)
    s.user("Could you review src/pool.ts for me? Review only, no changes please. Run the linter first so we "
           "don't discuss style.")
    s.bash("npm run lint", "\n> tinyorm@0.2.3 lint\n> eslint src test\n\n", description="Run eslint")
    s.read("src/pool.ts")
    s.say("Lint is clean. Review of `pool.ts`:\n\n"
          "**Correctness**\n"
          "1. `release()` after `close()` pushes the connection back into `idle`, where nothing will ever close "
          "it. `release` should close the connection when the pool is closed.\n"
          "2. `close()` only closes idle connections; busy ones leak if their callers never release. It should "
          "at least wait for them, or track and close them on release (see 1).\n"
          "3. If `opts.open()` rejects, nothing is counted, which is right — but the error reaches the caller "
          "unwrapped; a message naming the pool would help in logs.\n\n"
          "**API**\n"
          "4. `size` counts idle + busy; a `stats()` returning `{ idle, busy, max }` would make this observable "
          "for metrics.\n"
          "5. `max` must be at least 1 — `new Pool({ max: 0 })` currently builds a pool that can never hand out "
          "a connection. Validate it in the constructor.\n\n"
          "**Style**\n"
          "6. `withConnection` is the safe path; the docs should steer people to it rather than "
          "`acquire`/`release`.\n\n"
          "1 and 5 are the ones I'd fix first.")
    s.user("Thanks, that's a good list. I'll put 1, 2 and 5 into tickets and we'll look at them in planning; no "
           "changes today.")
    return [s]


@scenario("postgres-plan", ORM, "CTO asks how hard Postgres support would be; the agent writes a plan with "
          "'would'/'must' hypotheticals; nobody adopts it, no edits", [])
def _postgres(files):
    s = Session("tune8-postgres-plan", "2025-04-24T19:05:00Z", files)
    s.user("random q: how hard would it be to support postgres too? not asking u to do it, just want a feel 🤔")
    s.read("src/escape.ts")
    s.read("src/query.ts", offset=40, limit=25)
    s.grep("\\?", ["src/escape.ts", "src/migrations.ts", "src/query.ts"])
    s.say("Moderate — the builder is mostly portable, the edges aren't. Roughly what it would take:\n\n"
          "1. **Placeholders.** `Params.add` returns `?`; Postgres wants `$1, $2, …`. A `Dialect` object would "
          "have to own placeholder rendering, and `Params` would need to know its position.\n"
          "2. **Types.** `schema.ts` maps `boolean` to `INTEGER` and `datetime` to `TEXT` — fine for SQLite, but on "
          "Postgres you'd want `BOOLEAN`/`TIMESTAMPTZ`, and `rows.ts` decoding would have to branch per dialect.\n"
          "3. **Migrations.** The version table DDL is portable; `BEGIN`/`COMMIT` are too, but Postgres can run "
          "DDL transactionally so the behaviour would differ on failure.\n"
          "4. **LIKE escaping.** Same syntax, fine.\n"
          "5. **Pool.** Already driver-agnostic via `open()`; a `pg` adapter would just implement `Connection`.\n\n"
          "If you went ahead, every query test would have to run against both dialects, and the dialect must be "
          "chosen per pool, not globally. I'd estimate 3–5 days including tests.")
    s.user("k interesting. lemme think about it + talk to priya, she knows what the enterprise ppl actually want. thx")
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
    (HERE / "expected.json").write_text(json.dumps({"set": "tune8", "scenarios": out}, indent=2,
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
