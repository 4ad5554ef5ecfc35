"""Writes the tune6 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``ledgerline`` (Python, a small double-entry
bookkeeping library and CLI) and ``chartkit`` (TypeScript, a small SVG charting library). Sessions
are written with the ``Session`` builder of ``tests/fixtures/transcripts/build.py``; run
``python3 build.py`` after changing a scenario (outputs are committed). ``python3 build.py --check``
also replays every scenario on a copy of its repository (every edit must apply) and checks, with
tether's own parser, that every expected anchor names a definition of the final state, and that
every key phrase and rejected phrase occurs in the sessions' text. ``python3 build.py --dump DIR``
writes each scenario's end state under DIR (to run the repositories' own tests on it).
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
    return "." * n + " " * (73 - n) + "[100%]\n" + f"{n} passed in {secs}s"


def vitest_ok(n: int, ms: str = "9") -> str:
    return (f" RUN  v2.1.9 {{{{ROOT}}}}\n\n ✓ test/chartkit.test.ts ({n} tests) {ms}ms\n\n"
            f" Test Files  1 passed (1)\n      Tests  {n} passed ({n})\n   Start at  14:02:11\n"
            f"   Duration  742ms (transform 251ms, setup 0ms, collect 280ms, tests {ms}ms, environment 0ms, "
            f"prepare 148ms)")


# -- ledgerline (Python) -----------------------------------------------------------------------------------

LED = "ledgerline"

@scenario("no-float-money", LED, "rule stated as a correction of the agent's float sum in the CLI ('money is never "
          "float'); restated nine days later, in other words, about a float() in a new ECB loader in rates.py",
          [exp("invariant", "ledgerline/**/*.py", "never float")])
def _no_float(files):
    s = Session("no-float-money-1", "2026-09-08T08:41:00.000Z", files)
    s.user("pls make import cmd print a total line at the end, sum of all imported amounts. accounting wants to "
           "compare with the statement footer")
    s.read("ledgerline/cli.py", text="Let me look at the import command first.")
    s.edit("ledgerline/cli.py",
           "    for line, why in result.skipped:\n",
           "    total = sum(float(e.postings[0].amount.amount) for e in result.entries)\n"
           "    print(f\"{'total':<52}  {total:,.2f} {args.currency}\")\n"
           "    for line, why in result.skipped:\n",
           text="The first posting of each imported entry is the bank side, so summing those gives the statement's "
                "net movement. I'll print it right after the entries, aligned with the amount column.")
    s.bash("python -m ledgerline.cli --chart examples/chart.csv import examples/statement-2026-08.csv | tail -3",
           "2026-08-29  Stadtwerke Strom 08/2026                    -64.20 EUR\n"
           "2026-08-31  Kontofuehrung                                -4.90 EUR\n"
           "total                                                 -1,318.47 EUR")
    s.say("Done — `ledgerline import` now ends with a `total` line (net of all imported rows, bank side). On the "
          "August example it prints `-1,318.47 EUR`. Skipped rows are not included in the total. Want me to also "
          "print the count of rows, or a separate debit/credit split?")
    s.user("no float pls. in this lib money is never float, also not for printing a sum. 1318.47 works by luck, "
           "with 10k rows it wont. sum the Money itself")
    s.say("Right — summing floats can drift by a cent over many rows, and it bypasses the currency check too. "
          "I'll sum `Money` values (which keeps `Decimal` and refuses mixed currencies).")
    s.edit("ledgerline/cli.py",
           "    total = sum(float(e.postings[0].amount.amount) for e in result.entries)\n"
           "    print(f\"{'total':<52}  {total:,.2f} {args.currency}\")\n",
           "    total = sum((e.postings[0].amount for e in result.entries), Money.zero(args.currency))\n"
           "    print(f\"{'total':<52}  {total}\")\n")
    s.edit("ledgerline/cli.py",
           "from ledgerline.journal import Journal\n",
           "from ledgerline.journal import Journal\nfrom ledgerline.money import Money\n")
    s.bash("python -m ledgerline.cli --chart examples/chart.csv import examples/statement-2026-08.csv | tail -1 "
           "&& python -m pytest -q",
           "total                                                 -1,318.47 EUR\n" + pytest_ok(9))
    s.say("Now the total is a `Money` sum (Decimal all the way, `Money.__str__` does the formatting). Same output "
          "on the example, tests pass.")
    s.user("ok")

    s2 = Session("no-float-money-2", "2026-09-17T13:05:00.000Z", files)
    s2.user("we download the ecb xml every day (eurofxref-daily.xml) and convert to csv by hand, stupid. pls add a "
            "loader for the xml directly in RateTable")
    s2.read("ledgerline/rates.py")
    s2.bash("head -c 600 examples/eurofxref-daily.xml",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gesmes:Envelope xmlns:gesmes=\"http://www.gesmes.org/xml/2002-08-01\" "
            "xmlns=\"http://www.ecb.int/vocabulary/2002-08-01/eurofxref\">\n\t<gesmes:subject>Reference rates</gesmes:subject>\n"
            "\t<Cube>\n\t\t<Cube time='2026-09-16'>\n\t\t\t<Cube currency='USD' rate='1.0871'/>\n"
            "\t\t\t<Cube currency='JPY' rate='158.42'/>\n\t\t\t<Cube currency='GBP' rate='0.84415'/>\n"
            "\t\t\t<Cube currency='CHF' rate='0.9391'/>")
    s2.edit("ledgerline/rates.py",
            "    @classmethod\n    def load_csv(cls, path: Path) -> RateTable:\n",
            "    @classmethod\n    def load_ecb_xml(cls, path: Path) -> RateTable:\n"
            "        \"\"\"The ECB's eurofxref-daily.xml (or -hist.xml): EUR is the base of every rate.\"\"\"\n"
            "        ns = {\"e\": \"http://www.ecb.int/vocabulary/2002-08-01/eurofxref\"}\n"
            "        table = cls()\n"
            "        for day in ElementTree.parse(path).getroot().iterfind(\".//e:Cube[@time]\", ns):\n"
            "            on = date.fromisoformat(day.get(\"time\"))\n"
            "            for cube in day.iterfind(\"e:Cube\", ns):\n"
            "                if cube.get(\"currency\") in MINOR_UNITS:\n"
            "                    table.add(\"EUR\", cube.get(\"currency\"), on, float(cube.get(\"rate\")))\n"
            "        return table\n\n"
            "    @classmethod\n    def load_csv(cls, path: Path) -> RateTable:\n",
            text="The XML nests a `Cube` per day with a `Cube` per currency. I'll add `load_ecb_xml` next to "
                 "`load_csv`, skipping currencies we don't know in `MINOR_UNITS`.")
    s2.edit("ledgerline/rates.py",
            "from pathlib import Path\n\nfrom ledgerline.money import Money\n",
            "from pathlib import Path\nfrom xml.etree import ElementTree\n\nfrom ledgerline.money import MINOR_UNITS, Money\n")
    s2.bash("python -c \"from ledgerline.rates import RateTable; from datetime import date; "
            "t = RateTable.load_ecb_xml('examples/eurofxref-daily.xml'); print(t.rate('EUR', 'USD', date(2026, 9, 16)))\"",
            "1.0871")
    s2.say("`RateTable.load_ecb_xml(path)` reads the daily file (and the `-hist` one, same shape). EUR/USD on "
           "2026-09-16 comes out as 1.0871. Options from here:\n\n- wire it into the CLI as `--rates-xml`\n"
           "- download the file ourselves (would need `urllib`, and a cache)\n- leave it as a library call\n\n"
           "Which do you prefer?")
    s2.user("leave it as library. but float(cube.get(\"rate\")) — no. same rule like the import total last week, "
            "money and rates are never float anywhere in ledgerline. give add() the string, it makes the Decimal")
    s2.say("Got it — `add()` already does `Decimal(str(rate))`, so passing the attribute string straight through "
           "keeps the exact digits (`float('0.84415')` happens to print back the same, but it's the wrong path).")
    s2.edit("ledgerline/rates.py",
            "                    table.add(\"EUR\", cube.get(\"currency\"), on, float(cube.get(\"rate\")))\n",
            "                    table.add(\"EUR\", cube.get(\"currency\"), on, cube.get(\"rate\"))\n")
    s2.bash("python -m pytest -q", pytest_ok(9, "0.44"))
    s2.say("Changed: the rate goes in as the string from the XML. Tests pass. I didn't add a CLI flag.")
    s2.user("👍")
    return [s, s2]


@scenario("half-even", LED, "a cent off against the bank statement; the agent explains and asks half-up or "
          "banker's rounding (or per currency); terse 'half even' with a reason; a test changes with it",
          [exp("decision", "ledgerline/money.py:Money.round", "half even",
               ["round_half_up", "configurable per currency"])])
def _half_even(files):
    s = Session("half-even", "2026-09-10T09:12:00.000Z", files)
    s.user("convert gives 1 cent diff to bank statement sometimes. ex 10.10 EUR to USD rate 1.25 -> we have 12.63, "
           "bank says 12.62")
    s.read("ledgerline/rates.py", offset=36, limit=3)
    s.read("ledgerline/money.py", offset=29, limit=8)
    s.bash("python -c \"from decimal import Decimal; print(Decimal('10.10') * Decimal('1.25'))\"", "12.6250")
    s.say("Found it. `10.10 × 1.25 = 12.6250` exactly — a tie — and `Money.round()` quantizes with "
          "`ROUND_HALF_UP`, so ties always go up to 12.63. Your bank rounds the tie to the even cent, 12.62 "
          "(\"banker's rounding\", `ROUND_HALF_EVEN`).\n\nOptions:\n\n1. **keep `ROUND_HALF_UP`** — what most "
          "invoicing tools and people expect; you live with the occasional cent vs. the bank\n"
          "2. **switch to `ROUND_HALF_EVEN`** — matches the bank, and over many rows ties don't all push the "
          "total upward\n3. **make it configurable per currency** in `MINOR_UNITS` — flexible, but more to "
          "get wrong\n\nI'd go with 2. Which one?")
    s.user("half even. totals must match the statement, thats the whole point of the import")
    s.edit("ledgerline/money.py", "from decimal import ROUND_HALF_UP, Decimal, InvalidOperation\n",
           "from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation\n")
    s.edit("ledgerline/money.py",
           "    def round(self) -> Money:\n        exp = Decimal(1).scaleb(-MINOR_UNITS[self.currency])\n"
           "        return Money(self.amount.quantize(exp, rounding=ROUND_HALF_UP), self.currency)\n",
           "    def round(self) -> Money:\n        \"\"\"To the minor unit, ties to the even digit (as banks round).\"\"\"\n"
           "        exp = Decimal(1).scaleb(-MINOR_UNITS[self.currency])\n"
           "        return Money(self.amount.quantize(exp, rounding=ROUND_HALF_EVEN), self.currency)\n")
    s.bash("python -m pytest -q",
           "F........                                                                [ 11%]\n"
           "=================================== FAILURES ===================================\n"
           "_______________________ test_money_rounds_to_minor_unit ________________________\n\n"
           "    def test_money_rounds_to_minor_unit():\n"
           ">       assert Money.of(\"10.005\", \"EUR\").amount == Decimal(\"10.01\")\n"
           "E       AssertionError: assert Decimal('10.00') == Decimal('10.01')\n\n"
           "tests/test_ledger.py:30: AssertionError\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_ledger.py::test_money_rounds_to_minor_unit - AssertionError\n"
           "1 failed, 8 passed in 0.43s", fail=True)
    s.say("That failure is the rule change itself: the test asserted half-up on a tie (10.005 → 10.01). Under "
          "half-even it's 10.00. I'll update it and add the odd-digit case and your statement example.")
    s.edit("tests/test_ledger.py",
           "    assert Money.of(\"10.005\", \"EUR\").amount == Decimal(\"10.01\")\n",
           "    assert Money.of(\"10.005\", \"EUR\").amount == Decimal(\"10.00\")\n"
           "    assert Money.of(\"10.015\", \"EUR\").amount == Decimal(\"10.02\")\n"
           "    assert Money.of(Decimal(\"10.10\") * Decimal(\"1.25\"), \"USD\").amount == Decimal(\"12.62\")\n")
    s.bash("python -m pytest -q", pytest_ok(9, "0.40"))
    s.say("Switched `Money.round()` to `ROUND_HALF_EVEN`; every `Money.of`, `convert` and import goes through it, "
          "so 10.10 EUR @ 1.25 is now 12.62 USD like the bank. Tests updated and passing.")
    return [s]


@scenario("unbalanced-entries", LED, "three numbered options for an unbalanced entry; 'ok the 1st' with a reason "
          "against the suspense account",
          [exp("decision", "ledgerline/journal.py:Journal.post", "unbalancedentry",
               ["suspense account", "log a warning"])])
def _unbalanced(files):
    s = Session("unbalanced-entries", "2026-09-14T07:58:00.000Z", files)
    s.user("journal.post takes entries that dont balance?? found one from friday, debit 120.00 credit 12.00. "
           "how is that possible")
    s.read("ledgerline/journal.py")
    s.say("It's possible because `post()` only checks that there are two postings and that each posting's "
          "currency matches its account — it never checks that the postings sum to zero. `Entry.is_balanced()` "
          "exists but nothing calls it.\n\nWhat should happen to an unbalanced entry? A few options:\n\n"
          "1. **raise** a new `UnbalancedEntry` (a `PostingError`) — nothing unbalanced ever gets into the "
          "journal; the importer already skips rows that raise `ValueError`\n"
          "2. **post the difference to the suspense account** (1999) automatically — imports never stop, "
          "someone clears suspense later\n"
          "3. **accept it and log a warning** — least disruptive, but the trial balance stops adding up\n\n"
          "My vote is 1: option 2 would have silently absorbed exactly this typo.")
    s.user("ok the 1st. suspense account is for rows where we dont know the account, not for wrong numbers")
    s.edit("ledgerline/journal.py",
           "class PostingError(ValueError):\n    pass\n",
           "class PostingError(ValueError):\n    pass\n\n\nclass UnbalancedEntry(PostingError):\n"
           "    \"\"\"The postings of an entry do not sum to zero in some currency.\"\"\"\n")
    s.edit("ledgerline/journal.py",
           "                raise PostingError(f\"{p.account} is kept in {account.currency}, not {p.amount.currency}\")\n"
           "        self.entries.append(entry)\n",
           "                raise PostingError(f\"{p.account} is kept in {account.currency}, not {p.amount.currency}\")\n"
           "        off = {cur: total for cur, total in entry.totals().items() if total != 0}\n"
           "        if off:\n"
           "            raise UnbalancedEntry(f\"{entry.memo!r} does not balance: \" +\n"
           "                                  \", \".join(f\"{t:+} {cur}\" for cur, t in sorted(off.items())))\n"
           "        self.entries.append(entry)\n")
    s.edit("tests/test_ledger.py",
           "from ledgerline.journal import Entry, Journal, Posting, PostingError\n",
           "from ledgerline.journal import Entry, Journal, Posting, PostingError, UnbalancedEntry\n")
    s.edit("tests/test_ledger.py",
           "def test_rates_convert():\n",
           "def test_post_refuses_unbalanced(chart):\n    j = Journal(chart)\n"
           "    with pytest.raises(UnbalancedEntry, match=\"108.00 EUR\"):\n"
           "        j.post(Entry(date(2026, 9, 11), \"typo\", [Posting(\"6000\", eur(\"120\")), Posting(\"1200\", eur(\"-12\"))]))\n"
           "    assert j.entries == []\n\n\n"
           "def test_rates_convert():\n")
    s.bash("python -m pytest -q", pytest_ok(10, "0.42"))
    s.say("`Journal.post()` now raises `UnbalancedEntry` with the difference per currency (`+108.00 EUR` for "
          "Friday's entry) before anything is appended. Test added, 10 passed.\n\nSide note: `close_period` and "
          "`reverse` build balanced entries by construction, so they're unaffected. If you want, I can also "
          "add a `ledgerline check` command that scans existing journals for old unbalanced entries — or skip it?")
    s.user("skip")
    return [s]


@scenario("closed-periods", LED, "one verbose message: a chart from accounting, a release date, an incident and "
          "the rule (nothing posted into a closed period, corrections go into the open one), table spacing 'up "
          "to you'; later 'leave the spacing'",
          [exp("invariant", "ledgerline/journal.py:Journal.post", "closed period")])
def _closed(files):
    s = Session("closed-periods", "2026-09-21T08:03:00.000Z", files)
    s.user("Morning! A few things, sorry this is long. First, Marta from accounting finally sent the chart of "
           "accounts for the Vienna entity; I'll drop it into examples/ later, nothing to do with it yet. Second, "
           "I'd like to tag 0.5 next Thursday, so whatever we change today should stay small and low-risk.\n\n"
           "Third, and this is the real reason I'm writing: last month someone imported the February statement "
           "after we had already closed January, and two rows on it were dated 31 January. They went straight "
           "into January, and the January figures we had already sent to the tax advisor no longer matched the "
           "books. It took Marta a day to find. So please make it so that once a period has been closed, nothing "
           "can be posted into a closed period any more — anything dated on or before the last closing date has "
           "to be refused, by post() itself, not only by the importer. If something in a closed month turns out "
           "to be wrong, the correction goes in as a new entry in the open period (reverse and re-post, dated "
           "today); we never touch the closed month itself.\n\nAlso, completely unrelated, the trial balance "
           "table looks a bit cramped in the terminal — maybe more space between the columns? Up to you. And I'm "
           "out on Friday, so if anything's unclear, ask today.")
    s.read("ledgerline/journal.py")
    s.read("ledgerline/closing.py")
    s.say("Thanks for the context. Plan:\n\n- `Journal` gets a `closed_until: date | None` (the last closing "
          "date); `post()` raises a new `PeriodClosed` for any entry dated on or before it — so the importer, "
          "`reverse()` and anything else all go through the same check\n- `close_period()` sets `closed_until` "
          "right after posting the closing entry (the closing entry itself is dated `period_end`, so it has to "
          "be posted before the lock)\n- `reverse(entry, on)` already takes the date of the reversal, so a "
          "correction dated in the open period works as is\n\nStarting on that; I'll come back to the table "
          "spacing at the end.")
    s.edit("ledgerline/journal.py",
           "class PostingError(ValueError):\n    pass\n",
           "class PostingError(ValueError):\n    pass\n\n\nclass PeriodClosed(PostingError):\n"
           "    \"\"\"The entry is dated in a period that has been closed.\"\"\"\n")
    s.edit("ledgerline/journal.py",
           "        self.chart = chart\n        self.entries: list[Entry] = []\n\n    def post(self, entry: Entry) -> Entry:\n",
           "        self.chart = chart\n        self.entries: list[Entry] = []\n"
           "        self.closed_until: date | None = None\n\n    def post(self, entry: Entry) -> Entry:\n"
           "        if self.closed_until is not None and entry.date <= self.closed_until:\n"
           "            raise PeriodClosed(f\"{entry.date.isoformat()} is in a closed period (closed until \"\n"
           "                               f\"{self.closed_until.isoformat()}); post a correction in the open period\")\n")
    s.edit("ledgerline/closing.py",
           "    return journal.post(Entry(period_end, f\"Closing {period_end.isoformat()}\", postings, ref=\"close\"))\n",
           "    entry = journal.post(Entry(period_end, f\"Closing {period_end.isoformat()}\", postings, ref=\"close\"))\n"
           "    journal.closed_until = period_end\n    return entry\n")
    s.edit("tests/test_ledger.py",
           "def test_trial_balance(chart):\n",
           "def test_closed_period_refuses_postings(chart):\n    j = Journal(chart)\n"
           "    sale = j.post(Entry(date(2026, 1, 5), \"sale\", [Posting(\"1200\", eur(\"500\")), Posting(\"4000\", eur(\"-500\"))]))\n"
           "    close_period(j, date(2026, 1, 31))\n"
           "    with pytest.raises(PeriodClosed):\n"
           "        j.post(Entry(date(2026, 1, 31), \"late\", [Posting(\"6000\", eur(\"9\")), Posting(\"1200\", eur(\"-9\"))]))\n"
           "    j.reverse(sale, date(2026, 2, 3))\n"
           "    assert j.balance(\"1200\").is_zero()\n\n\n"
           "def test_trial_balance(chart):\n")
    s.edit("tests/test_ledger.py",
           "from ledgerline.journal import Entry, Journal, Posting, PostingError\n",
           "from ledgerline.journal import Entry, Journal, PeriodClosed, Posting, PostingError\n")
    s.bash("python -m pytest -q", pytest_ok(10, "0.45"))
    s.say("Done:\n\n- `Journal.post()` refuses anything dated on or before `closed_until` with `PeriodClosed` "
          "(message says to post the correction in the open period)\n- `close_period()` sets the lock after "
          "its own entry\n- a new test: a 31 January entry after closing January is refused, and a reversal "
          "dated 3 February goes through\n\nOne thing to know: `closed_until` lives on the `Journal` object; "
          "nothing persists it yet, since the CLI rebuilds the journal from statements on every run. That's "
          "fine for the library, but if the CLI should know about past closings it needs a place to read "
          "them from.\n\nFor the table spacing, I can either (a) widen the gap from two spaces to four, or (b) "
          "keep two spaces and add a `|` separator. Or leave it for after the release?")
    s.user("Looks good, thank you! Leave the spacing as it is for now, I'll look at it together with the Vienna "
           "chart after the release. On the persistence question, let me think about it and ask Marta how they "
           "track closings today.")
    return [s]


@scenario("weekend-rates", LED, "options as a table; the person thinks aloud, is drawn to interpolation, turns "
          "it down, picks the last known rate and adds a limit (5 days back, then fail)",
          [exp("decision", "ledgerline/rates.py:RateTable.rate", "last known rate",
               ["interpolation", "exact date only"]),
           exp("boundary", "ledgerline/rates.py:RateTable.rate", "5 days")])
def _weekend(files):
    s = Session("weekend-rates", "2026-09-24T15:20:00.000Z", files)
    s.user("convert crashes for saturday dates. RateMissing: no EUR/USD rate on 2026-09-19. ecb has no rates on "
           "weekend and holidays ofc. what we do")
    s.read("ledgerline/rates.py")
    s.say("Right, `rate()` only does an exact-day lookup. Here are the usual ways to handle days without a "
          "published rate:\n\n| option | what `rate(…, on=Saturday)` returns | downside |\n|---|---|---|\n"
          "| **A. exact date only** (today) | raises `RateMissing` | every weekend/holiday row fails |\n"
          "| **B. last known rate** before the date | Friday's rate | if the feed stops, we'd quietly use "
          "old rates |\n| **C. linear interpolation** between the rates around the date | a blend of Friday "
          "and Monday | needs a rate *after* the date; the number was never published |\n\n"
          "B is what most bookkeeping tools do (and what the ECB itself recommends for non-publication days). "
          "I'd pair it with a cap on how far back it may look, so a dead feed doesn't go unnoticed.")
    s.user("hmm C sounds more correct actually?? saturday is between fri and mon.. no wait. then we have a rate "
           "that never existed, and for today we dont have monday yet so it cant even work. ok B, last known "
           "rate. but max 5 days back, if older something is broken with the feed and it must fail loud")
    s.edit("ledgerline/rates.py",
           "from datetime import date\n",
           "from datetime import date, timedelta\n")
    s.edit("ledgerline/rates.py",
           "class RateMissing(LookupError):\n    pass\n",
           "# Weekends and holidays have no published rate; older than this means the feed is broken.\n"
           "MAX_LOOKBACK = timedelta(days=5)\n\n\nclass RateMissing(LookupError):\n    pass\n")
    s.edit("ledgerline/rates.py",
           "        by_day = self._rates.get((base, quote), {})\n        if on in by_day:\n            return by_day[on]\n"
           "        raise RateMissing(f\"no {base}/{quote} rate on {on.isoformat()}\")\n",
           "        by_day = self._rates.get((base, quote), {})\n"
           "        day = on\n        while on - day <= MAX_LOOKBACK:\n"
           "            if day in by_day:\n                return by_day[day]\n            day -= timedelta(days=1)\n"
           "        raise RateMissing(f\"no {base}/{quote} rate on {on.isoformat()} or the {MAX_LOOKBACK.days} days before\")\n",
           text="Implementing B with the 5-day cap: walk back day by day from `on`, at most `MAX_LOOKBACK`.")
    s.edit("tests/test_ledger.py",
           "    with pytest.raises(RateMissing):\n        t.rate(\"EUR\", \"USD\", date(2026, 3, 3))\n",
           "    assert t.rate(\"EUR\", \"USD\", date(2026, 3, 7)) == Decimal(\"1.0842\")  # the Monday's rate, 5 days on\n"
           "    with pytest.raises(RateMissing):\n        t.rate(\"EUR\", \"USD\", date(2026, 3, 8))\n"
           "    with pytest.raises(RateMissing):\n        t.rate(\"EUR\", \"USD\", date(2026, 3, 1))\n")
    s.bash("python -m pytest -q", pytest_ok(9, "0.41"))
    s.say("Done. `RateTable.rate()` now uses the last known rate on or before the date, looking back at most 5 "
          "days (`MAX_LOOKBACK`); past that it still raises `RateMissing`, with a message saying how far it "
          "looked. A rate is never taken from *after* the date. Tests cover a lookup 5 days on (ok), 6 days "
          "on (fails) and before the first rate (fails).\n\nShould the lookback be a parameter of `RateTable`, "
          "or is a module constant fine?")
    s.user("constant ok")
    return [s]


@scenario("bom-header", LED, "pasted CLI output (every row skipped); the cause is the BOM Excel writes, found and "
          "fixed; the agent offers semicolon/decimal-comma support and the person leaves it out for now",
          [exp("gotcha", "ledgerline/importer.py:read_rows", "bom"),
           exp("boundary", "ledgerline/importer.py:read_rows", "decimal comma")])
def _bom(files):
    s = Session("bom-header", "2026-10-02T10:44:00.000Z", files)
    s.user("$ ledgerline import statements/2026-09-giro.csv\nskipped line 2: missing date\nskipped line 3: "
           "missing date\nskipped line 4: missing date\n...\nskipped line 61: missing date\n\nall rows skiped?? "
           "the file looks totally fine in excel, date column is there. it worked last month")
    s.read("ledgerline/importer.py", offset=27, limit=6)
    s.bash("head -c 80 statements/2026-09-giro.csv | xxd | head -3",
           "00000000: efbb bf64 6174 652c 6465 7363 7269 7074  ...date,descript\n"
           "00000010: 696f 6e2c 616d 6f75 6e74 2c61 6363 6f75  ion,amount,accou\n"
           "00000020: 6e74 0d0a 3230 3236 2d30 392d 3031 2c4d  nt..2026-09-01,M")
    s.bash("python -c \"from ledgerline.importer import read_rows; print(list(read_rows('statements/2026-09-giro.csv')[0]))\"",
           "['\\ufeffdate', 'description', 'amount', 'account']")
    s.say("Found it. The file starts with `ef bb bf` — a UTF-8 byte order mark (BOM). Excel writes one when you "
          "save as \"CSV UTF-8\" (so probably someone re-saved the export this month). We open the file with "
          "`encoding=\"utf-8\"`, which keeps the BOM as a `\\ufeff` character, so the first header is "
          "`'\\ufeffdate'`, not `'date'` — and `str.strip()` doesn't remove it, because U+FEFF isn't "
          "whitespace. Every row then has no `date` key → \"missing date\".\n\nFix: open with "
          "`encoding=\"utf-8-sig\"`, which drops a leading BOM if there is one and reads plain UTF-8 otherwise.")
    s.edit("ledgerline/importer.py",
           "def read_rows(path: Path) -> list[dict[str, str]]:\n    with open(path, newline=\"\", encoding=\"utf-8\") as f:\n",
           "def read_rows(path: Path) -> list[dict[str, str]]:\n"
           "    # utf-8-sig: Excel's \"CSV UTF-8\" starts the file with a BOM, which would end up in the first header\n"
           "    with open(path, newline=\"\", encoding=\"utf-8-sig\") as f:\n")
    s.edit("tests/test_ledger.py",
           "def test_close_period(chart):\n",
           "def test_import_csv_with_bom(tmp_path, chart):\n    f = tmp_path / \"excel.csv\"\n"
           "    f.write_bytes(b\"\\xef\\xbb\\xbfdate,description,amount\\r\\n2026-09-01,Miete,-800.00\\r\\n\")\n"
           "    result = import_csv(f, chart, \"1200\")\n"
           "    assert result.skipped == [] and result.entries[0].memo == \"Miete\"\n\n\n"
           "def test_close_period(chart):\n")
    s.bash("python -m pytest -q && ledgerline import statements/2026-09-giro.csv | tail -2",
           pytest_ok(10, "0.43") + "\n2026-09-30  Kontofuehrung                              -4.90 EUR\n"
           "2026-09-30  Zinsen 3. Quartal                           1.12 EUR")
    s.say("Fixed: all 60 rows of the September file import now, and there's a test with a BOM + CRLF file.\n\n"
          "While looking at the file: your other bank's export (the `Umsaetze_*.csv` ones in `statements/`) is "
          "semicolon-separated with a decimal comma (`-1.234,56`). We can't read those either. Options:\n\n"
          "- sniff the delimiter with `csv.Sniffer` and add a `decimal=\",\"` switch to `parse_amount`\n"
          "- a `--format de` flag on the CLI that sets both\n- leave it\n\nWant me to do one of these?")
    s.user("no, not now. only comma csv with dot decimal for now, the semicolon / decimal comma stuff comes when "
           "we do vienna. maybe write it in the docstring so its clear")
    s.edit("ledgerline/importer.py",
           "def read_rows(path: Path) -> list[dict[str, str]]:\n",
           "def read_rows(path: Path) -> list[dict[str, str]]:\n"
           "    \"\"\"Comma-separated, dot as the decimal point. Semicolon / decimal-comma exports are not read.\"\"\"\n")
    s.say("Added to `read_rows`' docstring; no other change.")
    return [s]


@scenario("card-sign", LED, "asked for --since; the agent 'tidies' a sign flip it takes for a bug; 'no no, must be "
          "flipped' with the reason; restored with a comment",
          [exp("workaround", "ledgerline/importer.py:card_rows", "flipped")])
def _card(files):
    s = Session("card-sign", "2026-10-06T12:30:00.000Z", files)
    s.user("pls add --since DATE to import cmd. card statements always go back 90 days and i get the old rows "
           "again every month")
    s.read("ledgerline/cli.py")
    s.read("ledgerline/importer.py")
    s.edit("ledgerline/importer.py",
           "def import_csv(path: Path, chart: Chart, bank: str, currency: str = \"EUR\", card: bool = False) -> ImportResult:\n"
           "    rows = read_rows(path)\n    if card:\n        rows = card_rows(rows)\n    result = ImportResult()\n"
           "    for n, row in enumerate(rows, start=2):\n        try:\n"
           "            result.entries.append(row_to_entry(row, chart, bank, currency))\n",
           "def import_csv(path: Path, chart: Chart, bank: str, currency: str = \"EUR\",\n"
           "               since: date | None = None) -> ImportResult:\n"
           "    rows = read_rows(path)\n    result = ImportResult()\n"
           "    for n, row in enumerate(rows, start=2):\n        try:\n"
           "            entry = row_to_entry(row, chart, bank, currency)\n"
           "            if since is None or entry.date >= since:\n"
           "                result.entries.append(entry)\n",
           text="Adding `since` to `import_csv` (filtering after parsing, so a bad date still shows up as skipped).")
    s.edit("ledgerline/importer.py",
           "def card_rows(rows: list[dict[str, str]]) -> list[dict[str, str]]:\n    out = []\n    for row in rows:\n"
           "        amount = row[\"amount\"]\n        amount = amount[1:] if amount.startswith(\"-\") else \"-\" + amount\n"
           "        out.append({**row, \"amount\": amount})\n    return out\n\n\n",
           "",
           text="While I'm here: `card_rows` negates every amount of a card statement, which turns each charge "
                "into money coming *in* to the account. That looks like a leftover bug, so I'm removing it along "
                "with the `card` flag.")
    s.edit("ledgerline/cli.py",
           "    result = import_csv(args.statement, chart, args.bank, args.currency, card=args.card)\n",
           "    since = date.fromisoformat(args.since) if args.since else None\n"
           "    result = import_csv(args.statement, chart, args.bank, args.currency, since=since)\n")
    s.edit("ledgerline/cli.py",
           "    p.add_argument(\"--card\", action=\"store_true\", help=\"the statement is a credit card export\")\n",
           "    p.add_argument(\"--since\", help=\"skip rows before this date (YYYY-MM-DD)\")\n")
    s.bash("python -m pytest -q", pytest_ok(9, "0.42"))
    s.say("Added `--since YYYY-MM-DD` to `ledgerline import` (rows before it are dropped after parsing). I also "
          "removed `card_rows` and `--card`: it flipped the sign of every card amount, which looked wrong. Tests "
          "pass. Should `--since` also go on `tb`?")
    s.user("no no, must be flipped!! the card export from the bank has charges as positive numbers and refunds "
           "negative, opposite of the giro export. without the flip every card purchase becomes income. pls put "
           "it back, and write a comment so nobody 'fixes' it again")
    s.say("Sorry — I got that backwards. Putting `card_rows` and `--card` back exactly as they were, with a "
          "comment on why the flip is there, and keeping `--since`.")
    s.edit("ledgerline/importer.py",
           "def row_to_entry(row: dict[str, str], chart: Chart, bank: str, currency: str) -> Entry:\n",
           "def card_rows(rows: list[dict[str, str]]) -> list[dict[str, str]]:\n"
           "    # Deliberate: the bank's credit card export lists charges as positive and refunds as negative,\n"
           "    # the opposite of the giro export. Without this flip every card purchase would post as income.\n"
           "    out = []\n    for row in rows:\n"
           "        amount = row[\"amount\"]\n        amount = amount[1:] if amount.startswith(\"-\") else \"-\" + amount\n"
           "        out.append({**row, \"amount\": amount})\n    return out\n\n\n"
           "def row_to_entry(row: dict[str, str], chart: Chart, bank: str, currency: str) -> Entry:\n")
    s.edit("ledgerline/importer.py",
           "               since: date | None = None) -> ImportResult:\n    rows = read_rows(path)\n",
           "               card: bool = False, since: date | None = None) -> ImportResult:\n    rows = read_rows(path)\n"
           "    if card:\n        rows = card_rows(rows)\n")
    s.edit("ledgerline/cli.py",
           "    result = import_csv(args.statement, chart, args.bank, args.currency, since=since)\n",
           "    result = import_csv(args.statement, chart, args.bank, args.currency, card=args.card, since=since)\n")
    s.edit("ledgerline/cli.py",
           "    p.add_argument(\"--since\", help=\"skip rows before this date (YYYY-MM-DD)\")\n",
           "    p.add_argument(\"--card\", action=\"store_true\", help=\"the statement is a credit card export\")\n"
           "    p.add_argument(\"--since\", help=\"skip rows before this date (YYYY-MM-DD)\")\n")
    s.bash("python -m pytest -q && ledgerline import --card --since 2026-09-01 statements/card-2026-09.csv | head -3",
           pytest_ok(9, "0.44") + "\n2026-09-02  AMAZON EU SARL                             -38.99 EUR\n"
           "2026-09-04  DB Fernverkehr                            -119.90 EUR\n"
           "2026-09-07  AMAZON EU SARL (Erstattung)                 38.99 EUR")
    s.say("Restored `card_rows` and `--card` with the comment, `--since` stays. A September card import now "
          "shows purchases as outgoing and the refund as incoming.")
    s.user("good")
    return [s]


@scenario("explain-closing", LED, "a newcomer's questions about closing; a hypothetical with 'must'; a colleague's "
          "rule reported second-hand and not adopted; no edits",
          [])
def _explain(files):
    s = Session("explain-closing", "2026-10-08T09:05:00.000Z", files)
    s.user("hi, i am new on this. how close_period works exactly? and why it posts to 3000")
    s.read("ledgerline/closing.py")
    s.read("ledgerline/accounts.py", offset=10, limit=20)
    s.say("Sure! In short:\n\n1. `closing_postings()` walks the chart and picks the **temporary** accounts — "
          "income and expense (`AccountType.temporary`).\n2. For each one with a non-zero balance up to "
          "`period_end`, it adds a posting of the *negative* balance, which brings the account to zero.\n"
          "3. The sum of all those balances — the period's profit or loss — goes to one posting on "
          "**retained earnings**, account `3000` by default (`RETAINED_EARNINGS`).\n4. `close_period()` posts "
          "all of that as one entry dated `period_end`, `ref=\"close\"`.\n\nWhy 3000: in double-entry, profit "
          "isn't \"kept\" in income accounts — at the end of a period it moves into equity. `3000` is just the "
          "code the example chart uses for retained earnings; you can pass another code as `retained=`.\n\n"
          "Example: sales −500 (credit), rent +200 (debit) → closing entry: sales +500, rent −200, "
          "3000 −300 (a 300 profit, credited to equity).")
    s.user("ok. and if we had accounts in USD, must we convert them before close? or it does itself")
    s.say("It doesn't convert by itself: `closing_postings()` raises `ValueError(\"… convert before closing\")` "
          "when a temporary account isn't in the retained-earnings account's currency. If you ever had USD "
          "income accounts, you'd have two choices: post a conversion entry (USD account → EUR clearing, at "
          "the closing date's rate from `RateTable`) before closing, or have `closing_postings` do that itself "
          "with a rate table passed in. Right now every account in the example chart is EUR, so it never "
          "comes up.")
    s.user("ok understand. my colleague say we should close every month not every year, is it problem for the code?")
    s.say("Not for the code: `close_period()` takes any date, so monthly closing is just calling it with each "
          "month's last day. Income and expense accounts then start from zero every month, and the trial "
          "balance for a month shows only that month. Whether to close monthly is an accounting choice — your "
          "colleague and the accountant would decide that, the library supports both.")
    s.user("ok thx, just wanted understand before i touch it")
    return [s]


@scenario("tb-refactor", LED, "a plain extract-function refactor of the CLI with process instructions ('run ruff "
          "and pytest'); no decision",
          [])
def _refactor(files):
    s = Session("tb-refactor", "2026-10-09T16:10:00.000Z", files)
    s.user("cmd_tb is messy. pull the journal building out in own function build_journal(chart, statements, "
           "bank, currency). no behaviour change. run ruff and pytest after")
    s.read("ledgerline/cli.py", offset=34, limit=14)
    s.edit("ledgerline/cli.py",
           "def cmd_tb(args: argparse.Namespace) -> int:\n    chart = load_chart(args.chart)\n"
           "    journal = Journal(chart)\n    for statement in args.statements:\n"
           "        for e in import_csv(statement, chart, args.bank, args.currency).entries:\n"
           "            journal.post(e)\n",
           "def build_journal(chart: Chart, statements: list[Path], bank: str, currency: str) -> Journal:\n"
           "    journal = Journal(chart)\n    for statement in statements:\n"
           "        for e in import_csv(statement, chart, bank, currency).entries:\n"
           "            journal.post(e)\n    return journal\n\n\n"
           "def cmd_tb(args: argparse.Namespace) -> int:\n    chart = load_chart(args.chart)\n"
           "    journal = build_journal(chart, args.statements, args.bank, args.currency)\n")
    s.bash("ruff check . && ruff format --check . && python -m pytest -q",
           "All checks passed!\n13 files already formatted\n" + pytest_ok(9, "0.39"))
    s.say("Extracted `build_journal(chart, statements, bank, currency)`; `cmd_tb` now just loads the chart, "
          "builds the journal and prints. ruff (check + format) is clean and the 9 tests pass.\n\nIf you like, "
          "I could also:\n- move `build_journal` into the library (e.g. `ledgerline/book.py`) so scripts can "
          "use it\n- add a test for the CLI with `capsys`\n\nor leave it here.")
    s.user("leave it")
    return [s]


# -- chartkit (TypeScript) ---------------------------------------------------------------------------------

CK = "chartkit"


@scenario("number-format", CK, "a rule stated up front for the whole formatting module (real minus sign), then "
          "lettered options for compact labels; 'b.' with a reason and a tweak (B not G)",
          [exp("invariant", "src/format.ts", "minus sign"),
           exp("decision", "src/format.ts:formatCompact", "suffixes", ["intl.numberformat", "thousands separators"])])
def _format(files):
    s = Session("number-format", "2026-09-09T11:00:00.000Z", files)
    s.user("2 things. first a rule for everything in format.ts: negative numbers always with the real minus sign "
           "− (U+2212), never the hyphen -. designers complain since months, hyphen looks too short next to "
           "digits. second pls add compact format for the y axis, 1200000 -> 1.2M etc, the revenue charts have "
           "labels like 12,000,000 now")
    s.read("src/format.ts")
    s.edit("src/format.ts",
           "function group(int: string): string {\n",
           "// U+2212: every negative number this module formats uses it, never the ASCII hyphen.\n"
           "export const MINUS = \"\\u2212\";\n\nfunction group(int: string): string {\n")
    s.edit("src/format.ts",
           "  const sign = value < 0 && Number(fixed) !== 0 ? \"-\" : \"\";\n",
           "  const sign = value < 0 && Number(fixed) !== 0 ? MINUS : \"\";\n",
           text="First the minus: `formatNumber` is the only place that writes a sign (`formatPercent` and the "
                "tick formatter go through it), so one constant covers the module.")
    s.say("Minus sign done. For the compact format there are a few ways:\n\n"
          "**a)** `Intl.NumberFormat(undefined, { notation: \"compact\" })` — built in, zero code, but the "
          "output follows the viewer's locale (`1,2 Mio.` in German, `120万` in Japanese), and it writes its "
          "own minus sign\n**b)** our own SI-style suffixes **k / M / G** on top of `formatNumber` — same "
          "output everywhere, keeps the U+2212 rule, ~20 lines\n**c)** no abbreviation: full numbers with "
          "thousands separators, and fewer ticks so they fit\n\nI'd pick b for axis labels. Which one?")
    s.user("b. intl gives different labels per browser language, we dont want that on the axis. but B for "
           "billion not G, our users are finance ppl")
    s.edit("src/format.ts",
           "export function formatPercent(value: number, decimals = 1): string {\n",
           "const SUFFIXES: [number, string][] = [\n  [1e12, \"T\"],\n  [1e9, \"B\"],\n  [1e6, \"M\"],\n  [1e3, \"k\"],\n];\n\n"
           "/** 1200000 -> \"1.2M\", -2500 -> \"−2.5k\", 3e9 -> \"3B\" (finance style: B, not G). */\n"
           "export function formatCompact(value: number, decimals = 1): string {\n"
           "  if (!Number.isFinite(value)) return \"–\";\n"
           "  const abs = Math.abs(value);\n"
           "  for (const [size, suffix] of SUFFIXES) {\n"
           "    if (abs >= size) {\n"
           "      const scaled = Number((value / size).toFixed(decimals));\n"
           "      return formatNumber(scaled, { decimals: Number.isInteger(scaled) ? 0 : decimals, suffix });\n"
           "    }\n  }\n"
           "  return formatNumber(value, { decimals: Number.isInteger(value) ? 0 : decimals });\n}\n\n"
           "export function formatPercent(value: number, decimals = 1): string {\n")
    s.edit("src/chart.ts",
           "import { renderAxis } from \"./axis\";\n",
           "import { renderAxis } from \"./axis\";\nimport { formatCompact } from \"./format\";\n")
    s.edit("src/chart.ts",
           "        renderAxis(y, \"left\"),\n",
           "        renderAxis(y, \"left\", { format: (v) => formatCompact(v) }),\n")
    s.edit("test/chartkit.test.ts",
           "import { formatNumber, formatPercent } from \"../src/format\";\n",
           "import { formatCompact, formatNumber, formatPercent } from \"../src/format\";\n")
    s.edit("test/chartkit.test.ts",
           "    expect(formatPercent(0.1234)).toBe(\"12.3%\");\n  });\n",
           "    expect(formatPercent(0.1234)).toBe(\"12.3%\");\n  });\n\n"
           "  it(\"uses the real minus sign\", () => {\n"
           "    expect(formatNumber(-1234)).toBe(\"\\u22121,234\");\n"
           "    expect(formatPercent(-0.05)).toBe(\"\\u22125.0%\");\n  });\n\n"
           "  it(\"abbreviates with k/M/B\", () => {\n"
           "    expect(formatCompact(1200000)).toBe(\"1.2M\");\n"
           "    expect(formatCompact(-2500)).toBe(\"\\u22122.5k\");\n"
           "    expect(formatCompact(3e9)).toBe(\"3B\");\n"
           "    expect(formatCompact(950)).toBe(\"950\");\n  });\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(8))
    s.say("Done:\n- `MINUS` (U+2212) in `format.ts`, used by `formatNumber`, so percent and tick labels get it "
          "too\n- `formatCompact()` with k / M / B / T, built on `formatNumber`\n- the chart's y axis uses it "
          "(the x axis and the tooltip keep full numbers)\n- tests for both; tsc and vitest pass (8 tests)")
    s.user("ok thanks")
    return [s]


@scenario("tick-float", CK, "a missing tick reported; the agent reproduces it in a test, finds the floating point "
          "cause and fixes it; then asks 'why +0.5, bug?' answered by the agent (crisp 1px lines); comment added",
          [exp("gotcha", "src/scale.ts:niceTicks", "floating point"),
           exp("workaround", "src/axis.ts:crisp", "blurry")])
def _tick(files):
    s = Session("tick-float", "2026-09-15T14:40:00.000Z", files)
    s.user("the percent chart (y from -0.3 to 0.3) has no tick at -30%, bottom of axis is empty. top has 30% "
           "fine. pls check")
    s.read("src/scale.ts", offset=36, limit=22)
    s.edit("test/chartkit.test.ts",
           "    expect(niceTicks(-3, 7, 5)).toEqual([-2, 0, 2, 4, 6]);\n",
           "    expect(niceTicks(-3, 7, 5)).toEqual([-2, 0, 2, 4, 6]);\n"
           "    expect(niceTicks(-0.3, 0.3, 6)).toEqual([-0.3, -0.2, -0.1, 0, 0.1, 0.2, 0.3]);\n",
           text="Let me reproduce it in a test first.")
    s.bash("npx vitest run",
           " RUN  v2.1.9 {{ROOT}}\n\n ❯ test/chartkit.test.ts (6 tests | 1 failed) 12ms\n"
           "   × scales > picks round ticks 6ms\n     → expected [ -0.2, -0.1, 0, 0.1, 0.2, …(1) ] to deeply "
           "equal [ -0.3, -0.2, -0.1, 0, 0.1, 0.2, 0.3 ]\n\n"
           "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯\n\n"
           " FAIL  test/chartkit.test.ts > scales > picks round ticks\n"
           "AssertionError: expected [ -0.2, -0.1, 0, 0.1, 0.2, …(1) ] to deeply equal [ -0.3, -0.2, -0.1, 0, 0.1, 0.2, 0.3 ]\n\n"
           "- Expected\n+ Received\n\n  Array [\n-   -0.3,\n    -0.2,\n    -0.1,\n    0,\n    0.1,\n    0.2,\n"
           "-   0.3,\n+   0.30000000000000004,\n  ]\n\n ❯ test/chartkit.test.ts:19:45\n\n"
           " Test Files  1 failed (1)\n      Tests  1 failed | 5 passed (6)", fail=True)
    s.bash("node -e \"console.log(-0.3 / 0.1, Math.ceil(-0.3 / 0.1), 0.1 + 0.1 + 0.1)\"",
           "-2.9999999999999996 -2 0.30000000000000004")
    s.say("Reproduced, and it's floating point, twice over:\n\n1. **The first tick:** `start = Math.ceil(min / "
          "step) * step`. In binary, `-0.3 / 0.1` is `-2.9999999999999996`, and `ceil` of that is `-2`, so the "
          "axis starts at -0.2 and the -30% tick is lost.\n2. **The running sum:** `v += step` accumulates "
          "rounding error — the last tick is `0.30000000000000004`. It still passes the `<= max` check "
          "because of the `1e-9` slack, which is why the top looked fine.\n\nFix: compute integer tick "
          "indices with a small tolerance (`ceil(min / step - ε)`, `floor(max / step + ε)`) and make each "
          "tick `i * step`, rounded to the step's decimals — no accumulation.")
    s.edit("src/scale.ts",
           "  const step = niceStep(max - min, count);\n  const start = Math.ceil(min / step) * step;\n"
           "  const ticks: number[] = [];\n  for (let v = start; v <= max + step * 1e-9; v += step) {\n"
           "    ticks.push(v);\n  }\n  return ticks;\n",
           "  const step = niceStep(max - min, count);\n"
           "  // Integer multiples of the step, not a running sum: in floating point -0.3 / 0.1 is -2.9999999999999996\n"
           "  // (ceil gives -2, losing a tick) and adding 0.1 three times is 0.30000000000000004.\n"
           "  const first = Math.ceil(min / step - 1e-9);\n  const last = Math.floor(max / step + 1e-9);\n"
           "  const digits = Math.max(0, -Math.floor(Math.log10(step)));\n  const ticks: number[] = [];\n"
           "  for (let i = first; i <= last; i++) {\n    ticks.push(Number((i * step).toFixed(digits)));\n  }\n"
           "  return ticks;\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(6, "8"))
    s.say("Fixed in `niceTicks`: the -0.3..0.3 axis now gets all seven ticks, and the values are exact "
          "(`0.3`, not `0.30000000000000004`). The new case is in the \"picks round ticks\" test; all 6 tests "
          "pass.")
    s.user("ok thx. btw why crisp() adds 0.5 to everything, is it a bug? in devtools all ticks are at x.5")
    s.read("src/axis.ts", offset=16, limit=4)
    s.say("It's deliberate. SVG strokes are centered on the coordinate: a 1px line at `x = 10` covers 9.5 to "
          "10.5, i.e. half of two pixel columns. The browser anti-aliases that into a 2px-wide, half-grey line "
          "— ticks and the axis domain look blurry. Putting the line at `x = 10.5` makes it cover exactly one "
          "pixel column (10 to 11), so it stays sharp. That's why the domain lines are at `0.5` / `-0.5` too.\n\n"
          "It only makes sense for 1px strokes; series lines (2px, anti-aliased anyway) don't use it. Want me "
          "to put a comment on `crisp` so nobody removes it?")
    s.user("yes pls")
    s.edit("src/axis.ts",
           "export function crisp(px: number): number {\n",
           "// Half-pixel offset on purpose: a 1px stroke centered on a whole pixel straddles two pixel columns and\n"
           "// renders as a blurry 2px grey line. Only for the 1px axis and tick lines.\n"
           "export function crisp(px: number): number {\n")
    s.say("Comment added above `crisp`.")
    return [s]


@scenario("tooltip-x-only", CK, "the agent explains a jumping tooltip and asks an inline 'x only or euclidean' "
          "question; 'x only' with a reason",
          [exp("decision", "src/tooltip.ts:nearestIndex", "x only", ["euclidean distance"])])
def _tooltip(files):
    s = Session("tooltip-x-only", "2026-09-18T10:25:00.000Z", files)
    s.user("tooltip jumps between points weird when 2 lines are close. and sometimes shows values from different "
           "dates for each line in same tooltip??")
    s.read("src/tooltip.ts")
    s.say("Both come from `nearestIndex`: it picks, **per series**, the point with the smallest euclidean "
          "distance (x and y) to the pointer. When two lines are close, a small vertical move changes which "
          "point is nearest, so the tooltip jumps; and each line can pick a point at a different x, so one "
          "tooltip mixes dates (the header shows the first series' date only).\n\nTwo ways to fix it: match "
          "by **x only** (the point whose x is closest to the pointer, ignoring y — every line then reports the "
          "same date), or keep **euclidean distance** to find the nearest series and then use that point's x "
          "for all lines. Which do you want?")
    s.user("x only. ppl hover over a date, not over a point")
    s.edit("src/tooltip.ts",
           "export function nearestIndex(s: LineSeries, px: number, py: number, x: LinearScale, y: LinearScale): number {\n"
           "  let best = -1;\n  let bestDist = Infinity;\n  s.points.forEach((p, i) => {\n"
           "    if (!Number.isFinite(p.y)) return;\n    const dx = x(p.x) - px;\n    const dy = y(p.y) - py;\n"
           "    const dist = dx * dx + dy * dy;\n",
           "/** The point whose x is nearest the pointer's; y is ignored, so every series answers for the same x. */\n"
           "export function nearestIndex(s: LineSeries, px: number, x: LinearScale): number {\n"
           "  let best = -1;\n  let bestDist = Infinity;\n  s.points.forEach((p, i) => {\n"
           "    if (!Number.isFinite(p.y)) return;\n    const dist = Math.abs(x(p.x) - px);\n")
    s.edit("src/tooltip.ts",
           "      const i = nearestIndex(s, px, py, this.opts.x, this.opts.y);\n",
           "      const i = nearestIndex(s, px, this.opts.x);\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(6))
    s.say("`nearestIndex(series, px, x)` now matches on x only, so all lines in a tooltip report the same date "
          "and moving the pointer up and down doesn't change the pick. `py` is only used to place the box now. "
          "tsc and tests pass.\n\nNote this is a signature change of an exported function (`nearestIndex` is in "
          "`index.ts`) — worth a line in the changelog. Should I also add a vertical hover line at the picked x?")
    s.user("no line. changelog i write myself")
    return [s]


@scenario("legend-toggle", CK, "the agent builds a legend toggle that rescales the y axis to the visible series; "
          "accepted, then reverted by the person later in the same session (keep the domain from all series)",
          [exp("decision", "src/chart.ts:Chart.yDomain", "all series", ["visible series"])])
def _legend(files):
    s = Session("legend-toggle", "2026-09-22T13:15:00.000Z", files)
    s.user("make legend clickable to hide/show a series pls")
    s.read("src/chart.ts")
    s.read("src/legend.ts", offset=1, limit=12)
    s.say("The chart renders to a string, so a click can't change it in place — the page re-renders. I'll "
          "add state to `Chart`: `toggle(name)` / `isHidden(name)`, hidden series are skipped when drawing, the "
          "legend marks them (`LegendItem.hidden` already gives the `ck-hidden` class), and `yDomain()` uses "
          "the visible series only, so the remaining lines use the full height. The page wires the click via "
          "the legend item's `data-series`.")
    s.edit("src/chart.ts",
           "  private series: Series[] = [];\n",
           "  private series: Series[] = [];\n  private hidden = new Set<string>();\n")
    s.edit("src/chart.ts",
           "  get margin() {\n",
           "  /** Hides a shown series, shows a hidden one. Re-render afterwards. */\n"
           "  toggle(name: string): boolean {\n"
           "    if (!this.hidden.delete(name)) this.hidden.add(name);\n    return !this.hidden.has(name);\n  }\n\n"
           "  isHidden(name: string): boolean {\n    return this.hidden.has(name);\n  }\n\n"
           "  private visible(): Series[] {\n    return this.series.filter((s) => !this.hidden.has(s.name));\n  }\n\n"
           "  get margin() {\n")
    s.edit("src/chart.ts",
           "    const values = this.series.flatMap(seriesValues);\n",
           "    const values = this.visible().flatMap(seriesValues);\n")
    s.edit("src/chart.ts",
           "    for (const s of this.series) {\n      if (s.kind === \"line\") {\n",
           "    for (const s of this.visible()) {\n      if (s.kind === \"line\") {\n")
    s.edit("src/chart.ts",
           "    const legend = renderLegend(this.series.map((s) => ({ name: s.name, color: s.color })), { width: innerW });\n",
           "    const legend = renderLegend(\n"
           "      this.series.map((s) => ({ name: s.name, color: s.color, hidden: this.hidden.has(s.name) })),\n"
           "      { width: innerW },\n    );\n")
    s.edit("test/chartkit.test.ts",
           "    expect(c.render()).toMatch(/^<svg/);\n  });\n",
           "    expect(c.render()).toMatch(/^<svg/);\n  });\n\n"
           "  it(\"hides a toggled series\", () => {\n"
           "    const c = new Chart({ width: 300, height: 200 })\n"
           "      .add({ kind: \"line\", name: \"a\", color: \"#06c\", points: [{ x: 0, y: 1 }, { x: 1, y: 3 }] })\n"
           "      .add({ kind: \"line\", name: \"b\", color: \"#c60\", points: [{ x: 0, y: 100 }, { x: 1, y: 300 }] });\n"
           "    expect(c.toggle(\"b\")).toBe(false);\n"
           "    expect(c.render()).not.toContain('class=\"ck-line\" data-series=\"b\"');\n"
           "    expect(c.render()).toContain(\"ck-hidden\");\n  });\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(7))
    s.say("Done — `chart.toggle(name)` hides/shows a series, hidden ones are greyed in the legend (`ck-hidden`) "
          "and not drawn, and the y axis rescales to the visible series. Wiring on the page:\n\n```ts\n"
          "svgHost.addEventListener(\"click\", (ev) => {\n  const item = (ev.target as Element).closest(\"[data-series]\");\n"
          "  if (item) { chart.toggle(item.getAttribute(\"data-series\")!); svgHost.innerHTML = chart.render(); }\n"
          "});\n```\n\ntsc and tests pass (7).")
    s.user("ok nice")
    s.user("hmm tried it in the dashboard. when i hide the big series the y axis jumps and the other lines "
           "suddenly look huge, users think the numbers changed. keep the y domain from all series, hidden ones "
           "too. only dont draw the line", seconds=900)
    s.say("Makes sense — a stable axis is easier to read than a rescaled one. I'll go back to computing the "
          "domain from all series; hiding stays purely visual.")
    s.edit("src/chart.ts",
           "    const values = this.visible().flatMap(seriesValues);\n",
           "    // All series, hidden ones too: hiding a series must not rescale the axis under the others.\n"
           "    const values = this.series.flatMap(seriesValues);\n")
    s.edit("test/chartkit.test.ts",
           "    expect(c.render()).toContain(\"ck-hidden\");\n  });\n",
           "    expect(c.render()).toContain(\"ck-hidden\");\n    expect(c.yDomain()).toEqual([0, 300]);\n  });\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(7, "10"))
    s.say("`yDomain()` uses all series again (with a comment saying why); hidden series are still skipped when "
          "drawing. The test now also checks the domain stays `[0, 300]` with `b` hidden.")
    s.user("👍")
    return [s]


@scenario("no-dom-render", CK, "the agent measures labels with a canvas (then guards it for node after a failing "
          "test); 'no dom in the render code'; two weeks later the same rule in other words about window in the "
          "legend",
          [exp("invariant", "src/**/*.ts", "no dom")])
def _no_dom(files):
    s = Session("no-dom-render-1", "2026-09-25T09:30:00.000Z", files)
    s.user("long y labels (like 1,250,000) overlap into the chart. pls make left margin fit the widest tick label")
    s.read("src/chart.ts", offset=40, limit=20)
    s.read("src/axis.ts", offset=1, limit=20)
    s.say("The left margin is a fixed 56px. I'll measure the y tick labels and widen the margin to the widest "
          "one (plus the tick and a gap), unless the caller passed an explicit `margin`. For the measuring I'll "
          "use a canvas 2D context's `measureText`, which gives the real width in the chart's font.")
    s.edit("src/axis.ts",
           "export function crisp(px: number): number {\n",
           "let measureCtx: CanvasRenderingContext2D | null = null;\n\n"
           "/** The rendered width of a tick label, in px. */\n"
           "export function labelWidth(label: string, fontSize = 11): number {\n"
           "  measureCtx ??= document.createElement(\"canvas\").getContext(\"2d\");\n"
           "  if (!measureCtx) return Math.ceil(label.length * fontSize * 0.6);\n"
           "  measureCtx.font = `${fontSize}px sans-serif`;\n"
           "  return Math.ceil(measureCtx.measureText(label).width);\n}\n\n"
           "export function crisp(px: number): number {\n")
    s.edit("src/chart.ts",
           "import { renderAxis } from \"./axis\";\n",
           "import { labelWidth, renderAxis } from \"./axis\";\nimport { tickFormatter } from \"./format\";\n")
    s.edit("src/chart.ts",
           "  private xScale(): LinearScale {\n"
           "    const xs = this.series.flatMap((s) => (s.kind === \"line\" ? s.points.map((p) => p.x) : []));\n"
           "    const m = this.margin;\n    return linearScale(extent(xs), [0, this.opts.width - m.left - m.right]);\n  }\n",
           "  private xScale(innerW: number): LinearScale {\n"
           "    const xs = this.series.flatMap((s) => (s.kind === \"line\" ? s.points.map((p) => p.x) : []));\n"
           "    return linearScale(extent(xs), [0, innerW]);\n  }\n\n"
           "  /** Wide enough for the widest y tick label, unless the caller set the margin. */\n"
           "  private leftMargin(y: LinearScale): number {\n"
           "    if (this.opts.margin) return this.opts.margin.left;\n"
           "    const ticks = y.ticks(5);\n    const format = tickFormatter(ticks);\n"
           "    const widest = Math.max(0, ...ticks.map((v) => labelWidth(format(v))));\n"
           "    return Math.max(DEFAULT_MARGIN.left, widest + 6 + 4 + 8);\n  }\n")
    s.edit("src/chart.ts",
           "    const m = this.margin;\n    const innerW = this.opts.width - m.left - m.right;\n"
           "    const innerH = this.opts.height - m.top - m.bottom;\n"
           "    const y = linearScale(this.yDomain(), [innerH, 0]);\n    const x = this.xScale();\n",
           "    const base = this.margin;\n    const innerH = this.opts.height - base.top - base.bottom;\n"
           "    const y = linearScale(this.yDomain(), [innerH, 0]);\n"
           "    const m = { ...base, left: this.leftMargin(y) };\n"
           "    const innerW = this.opts.width - m.left - m.right;\n    const x = this.xScale(innerW);\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run",
           " RUN  v2.1.9 {{ROOT}}\n\n ❯ test/chartkit.test.ts (6 tests | 1 failed) 14ms\n"
           "   × series and chart > renders an svg 5ms\n     → document is not defined\n\n"
           "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯\n\n"
           " FAIL  test/chartkit.test.ts > series and chart > renders an svg\n"
           "ReferenceError: document is not defined\n ❯ labelWidth src/axis.ts:20:3\n"
           " ❯ src/chart.ts:47:52\n ❯ Chart.leftMargin src/chart.ts:47:40\n ❯ Chart.render src/chart.ts:54:27\n\n"
           " Test Files  1 failed (1)\n      Tests  1 failed | 5 passed (6)", fail=True)
    s.say("vitest runs in node, where there's no `document`. I'll guard it: use the canvas when a `document` "
          "exists, otherwise fall back to an estimate from the character count.")
    s.edit("src/axis.ts",
           "  measureCtx ??= document.createElement(\"canvas\").getContext(\"2d\");\n",
           "  if (typeof document !== \"undefined\") measureCtx ??= document.createElement(\"canvas\").getContext(\"2d\");\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(6))
    s.say("Tests pass. The left margin now grows with the widest y label: measured with a canvas in the "
          "browser, estimated (0.6 × font size per character) where there's no DOM.")
    s.user("no, no dom in the render code at all, also not with typeof check. we render the same svg on the "
           "server (node, the pdf export), and the margin must be the same there and in browser, otherwise pdf "
           "and screen look different. estimate with char width like legend.ts does")
    s.say("Understood — rendering has to be deterministic and DOM-free; a canvas measurement would make the "
          "browser and the PDF disagree. I'll make `labelWidth` a pure estimate, the same formula as the "
          "legend's `itemWidth`.")
    s.edit("src/axis.ts",
           "let measureCtx: CanvasRenderingContext2D | null = null;\n\n"
           "/** The rendered width of a tick label, in px. */\n"
           "export function labelWidth(label: string, fontSize = 11): number {\n"
           "  if (typeof document !== \"undefined\") measureCtx ??= document.createElement(\"canvas\").getContext(\"2d\");\n"
           "  if (!measureCtx) return Math.ceil(label.length * fontSize * 0.6);\n"
           "  measureCtx.font = `${fontSize}px sans-serif`;\n"
           "  return Math.ceil(measureCtx.measureText(label).width);\n}\n",
           "/** An estimate of a tick label's width in px (0.6 em a character, as the legend does). */\n"
           "export function labelWidth(label: string, fontSize = 11): number {\n"
           "  return Math.ceil(label.length * fontSize * 0.6);\n}\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(6, "7"))
    s.say("`labelWidth` is a plain estimate now, no DOM; same output in node and in the browser. `1,250,000` at "
          "11px estimates to 60px, so the margin becomes 78px for that chart.")
    s.user("ok")

    s2 = Session("no-dom-render-2", "2026-10-07T15:50:00.000Z", files)
    s2.user("on the big tv in the office the legend is tiny. pls make legend scale up on big screens")
    s2.read("src/legend.ts")
    s2.edit("src/legend.ts",
            "  const { width, swatch = 10, gap = 16, fontSize = 12 } = opts;\n",
            "  const zoom = typeof window !== \"undefined\" && window.innerWidth >= 2560 ? 1.5 : 1;\n"
            "  const { width, swatch = 10 * zoom, gap = 16 * zoom, fontSize = 12 * zoom } = opts;\n",
            text="I'll scale the legend's sizes by 1.5 when the viewport is at least 2560px wide (4K TVs usually "
                 "report that), leaving explicit options alone.")
    s2.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(6))
    s2.say("Done: on screens ≥ 2560px wide the legend's swatch, gap and font are 1.5×. Alternatively I could "
           "use a CSS media query in the stylesheet instead, or `window.devicePixelRatio` — want one of those?")
    s2.user("no — again window. same thing like with the axis labels: no dom, no window in anything that "
            "renders, only tooltip.ts may touch the browser. the svg must come out the same on the server. just "
            "let the chart take a legend font size, the tv dashboard passes a bigger one")
    s2.edit("src/legend.ts",
            "  const zoom = typeof window !== \"undefined\" && window.innerWidth >= 2560 ? 1.5 : 1;\n"
            "  const { width, swatch = 10 * zoom, gap = 16 * zoom, fontSize = 12 * zoom } = opts;\n",
            "  const { width, fontSize = 12, swatch = Math.round(fontSize * 0.85), gap = Math.round(fontSize * 1.3) } = opts;\n")
    s2.edit("src/chart.ts",
            "  title?: string;\n}\n",
            "  title?: string;\n  /** Font size of the legend (px); swatch and gaps scale with it. */\n  legendFontSize?: number;\n}\n")
    s2.edit("src/chart.ts",
            "    const legend = renderLegend(this.series.map((s) => ({ name: s.name, color: s.color })), { width: innerW });\n",
            "    const legend = renderLegend(this.series.map((s) => ({ name: s.name, color: s.color })),\n"
            "                                { width: innerW, fontSize: this.opts.legendFontSize });\n")
    s2.bash("npx tsc --noEmit -p . && npx vitest run", vitest_ok(6))
    s2.say("Removed the `window` check. `ChartOptions.legendFontSize` (default 12) now sets the legend's font, "
           "and the swatch and gaps scale with it (10 and 16 at 12px, as before). The TV dashboard can pass "
           "e.g. `legendFontSize: 18`.")
    s2.user("👍")
    return [s, s2]


@scenario("review-series", CK, "a review with must/should suggestions; nobody takes them up ('later')",
          [])
def _review(files):
    s = Session("review-series", "2026-10-12T10:00:00.000Z", files)
    s.user("can u review series.ts? anything bad in there")
    s.read("src/series.ts")
    s.say("Overall it's small and readable. Things I'd look at, most important first:\n\n"
          "1. **Zero-height bars get 1px.** `height: Math.max(1, bottom - top)` draws a 1px bar for a value "
          "of 0 — on a bar chart that reads as \"a tiny amount\". You probably want `0` there, or at least "
          "only the 1px minimum for non-zero values.\n2. **Negative bars and `Math.min(top, zero)`:** correct, "
          "but `top`/`bottom` are already min/max'ed, so `y: round2(top)` would do; simpler to read.\n"
          "3. **`linePath` should skip `NaN` x too**, not only y — a point with a missing date currently emits "
          "`MNaN,…` and the whole path is dropped by the browser.\n4. **`renderBars` must not assume unique "
          "keys** — duplicated keys draw on top of each other silently. A dev-mode warning would help.\n"
          "5. Minor: `seriesValues` could live in `chart.ts`, it's only used there.\n\nWant me to do any of these?")
    s.user("ok thx, good list. not now, will look later when i do the bar chart stuff")
    return [s]


@scenario("theme-plan", CK, "an agent's plan for dark mode, not adopted ('talk to design first'); a hypothetical "
          "question answered",
          [])
def _theme(files):
    s = Session("theme-plan", "2026-10-14T16:30:00.000Z", files)
    s.user("thinking about dark mode for the charts. how would u do it? dont change anything yet")
    s.grep("fill:|stroke:|color", ["src/axis.ts", "src/legend.ts", "src/series.ts", "src/chart.ts"])
    s.read("src/axis.ts", offset=24, limit=12)
    s.say("Here's how I'd approach it:\n\n| step | change | why |\n|---|---|---|\n| 1 | axis, tick and label "
          "colors via CSS classes only (`ck-domain`, `ck-tick`, `ck-label` already exist) with "
          "`currentColor` | the page's CSS decides, nothing in the SVG is hard-coded |\n| 2 | a `theme` option "
          "on `Chart` (`\"light\" | \"dark\"`) that adds `ck-theme-dark` on the `<svg>` | server-side PDFs can "
          "pick a theme explicitly |\n| 3 | series colors from a palette per theme when a series has no "
          "`color` | the default blue is hard to see on dark grey |\n| 4 | a small `chartkit.css` with both "
          "themes | one place to tweak |\n\nSteps 1 and 4 alone would already cover most of it.")
    s.user("and if we do it, the legend colors would have to change too?")
    s.say("Only the text: the legend's swatches use each series' color, so they'd follow whatever step 3 "
          "decides. The legend labels are plain `<text>` — with step 1 they'd inherit `currentColor` and "
          "switch with the theme.")
    s.user("hm ok. need to talk with design first, maybe they want other colors completely. leave it for now")
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
    (HERE / "expected.json").write_text(json.dumps({"set": "tune6", "scenarios": out}, indent=2,
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


def dump(out: Path) -> None:
    """Each scenario's end state (as the builder computes it) under ``out/<scenario>/``."""
    for sc in SCENARIOS:
        files = repo_files(sc["repo"])
        sc["fn"](files)
        for rel, text in files.items():
            (out / sc["name"] / rel).parent.mkdir(parents=True, exist_ok=True)
            (out / sc["name"] / rel).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    build()
    if "--check" in sys.argv:
        check()
    if "--dump" in sys.argv:
        dump(Path(sys.argv[sys.argv.index("--dump") + 1]))
