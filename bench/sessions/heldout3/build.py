"""Writes the heldout3 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Held out: nobody tuning the extractor reads this folder.

Two repositories under ``repos/``: ``ledgerly`` (Python, a double-entry bookkeeping CLI) and
``chatwidget`` (TypeScript, an embeddable website chat widget). Sessions are written with the
``Session`` builder of ``tests/fixtures/transcripts/build.py``. ``python3 build.py`` rewrites the
outputs (committed); ``PYTHONPATH=../../../server python3 build.py --check`` also replays every
scenario on a copy of its repository and checks, with tether's own parser, that every expected
anchor names a definition of the final state.
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
    return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(base.rglob("*")) if p.is_file()}


def scenario(name: str, repo: str, note: str, *expected: dict):
    def register(fn):
        SCENARIOS.append({"name": name, "repo": repo, "note": note, "expected": list(expected), "fn": fn})
        return fn
    return register


def exp(kind: str, anchor: str, phrase: str, *rejected: str) -> dict:
    return {"kind": kind, "anchor": anchor, "phrase": phrase, "rejected": list(rejected)}


LP = "src/ledgerly/"
CW = "src/"

PYTEST_LEDGER = ("============================= test session starts ==============================\n"
                 "platform linux -- Python 3.12.7, pytest-8.3.3, pluggy-1.5.0\n"
                 "rootdir: /home/dev/ledgerly\nconfigfile: pyproject.toml\ncollected {n} items\n\n"
                 "tests/test_journal.py {dots}{pad}[100%]\n\n"
                 "============================== {n} passed in 0.{ms}s ===============================")


def pytest_ok(n: int, ms: int = 4) -> str:
    dots = "." * n
    return PYTEST_LEDGER.format(n=n, dots=dots, pad=" " * max(1, 52 - len(dots)), ms=f"{ms:02d}")


# -- ledgerly (Python) ---------------------------------------------------------------------------------------


@scenario("rounding-half-up", "ledgerly",
          "founder picks among the agent's numbered options with a vague 'the simple one'; the agent says how it "
          "reads that; restated two weeks later while rounding imported bank amounts",
          exp("decision", LP + "money.py:round_money", "half-up", "banker's rounding", "round only for display"))
def _rounding(files):
    a = Session("rounding-half-up-1", "2026-10-05T09:12:00.000Z", files)
    a.user("trial balance shows 33.333333333 on the rent split entry lol. can amounts just round properly")
    a.read(LP + "money.py")
    a.grep("round_money", [LP + "money.py"])
    a.say("Found it. `round_money()` exists but nothing calls it when an entry is posted, so an amount like "
          "`Decimal(100) / 3` goes into the journal with 28 digits. And when it *is* called, `quantize()` "
          "uses the default decimal context, which rounds half-to-even — so `2.345` becomes `2.34`, which "
          "surprises most people.\n\n"
          "There are three reasonable ways to handle this:\n\n"
          "1. **Round half-up when amounts are posted** — `0.005 → 0.01`, what invoices and most accountants "
          "expect. When an amount is split, the last share takes the leftover cent so the entry still balances.\n"
          "2. **Banker's rounding (half-even)** — what `quantize` does today. Unbiased over many operations, "
          "but it looks like a bug to anyone checking by hand.\n"
          "3. **Keep full precision and round only for display** — nothing is lost in storage, but the "
          "report lines won't add up to the totals printed under them.\n\n"
          "I'd go with 1. Which do you want?")
    a.user("yeah the simple one. ship it")
    a.say("I'll read \"the simple one\" as option 1 — half-up, applied when amounts are posted, leftover cent on "
          "the last share. Making the rounding mode explicit so it no longer depends on the decimal context:")
    a.edit(LP + "money.py", "from decimal import Decimal, InvalidOperation\n",
           "from decimal import ROUND_HALF_UP, Decimal, InvalidOperation\n")
    a.edit(LP + "money.py", "def round_money(amount, currency):\n    return amount.quantize(quantum(currency))\n",
           "def round_money(amount, currency):\n    return amount.quantize(quantum(currency), rounding=ROUND_HALF_UP)\n\n\n"
           "def split_amount(amount, parts, currency):\n"
           "    \"\"\"``amount`` in ``parts`` rounded shares; the last share takes what is left over.\"\"\"\n"
           "    share = round_money(amount / parts, currency)\n"
           "    return [share] * (parts - 1) + [amount - share * (parts - 1)]\n")
    a.read(LP + "journal.py", offset=38, limit=8)
    a.edit(LP + "journal.py", "    def post(self, entry):\n        for p in entry.postings:\n            self.chart.get(p.account)\n",
           "    def post(self, entry):\n        for p in entry.postings:\n            self.chart.get(p.account)\n"
           "            p.amount = round_money(p.amount, p.currency)\n")
    a.edit(LP + "journal.py", "from decimal import Decimal\n",
           "from decimal import Decimal\n\nfrom ledgerly.money import round_money\n")
    a.bash("python -m pytest -q", "..                                                                       [100%]\n"
           "2 passed in 0.04s")
    a.bash("python -c \"from decimal import Decimal as D; from ledgerly.money import split_amount, round_money; "
           "print(split_amount(D(100), 3, 'EUR'), round_money(D('2.345'), 'EUR'))\"",
           "[Decimal('33.33'), Decimal('33.33'), Decimal('33.34')] 2.35")
    a.say("Done.\n\n- `round_money()` now rounds **half-up** explicitly (`2.345 → 2.35`)\n"
          "- new `split_amount()` for splits: `100 / 3 → 33.33, 33.33, 33.34`\n"
          "- `Journal.post()` rounds each posting to its currency's minor unit before validating\n\n"
          "Tests pass. The rent entry will need re-posting with `split_amount` to get rid of the 33.333…")

    b = Session("rounding-half-up-2", "2026-10-19T14:40:00.000Z", files)  # the same dict: it holds session 1's end state
    b.user("card fees in the bank import come through with 3 decimals (0.125 etc) and then the entry is off by "
           "half a cent and refuses to post. round them when importing")
    b.read(LP + "bankimport.py")
    b.say("`read_statement()` hands `parse_amount()`'s result straight to `BankLine`, so `0.125` stays "
          "`0.125`. I can round there with `round_money()`. One question: the statement lines don't carry a "
          "currency — should I take the currency of the bank account you import into, or a `--currency` flag?")
    b.user("account currency. and same rounding as the journal — half up, we settled that already, no "
           "bankers rounding creeping in through the import")
    b.edit(LP + "bankimport.py", "from ledgerly.money import parse_amount\n",
           "from ledgerly.money import parse_amount, round_money\n")
    b.edit(LP + "bankimport.py",
           "def read_statement(path, date_format=\"%Y-%m-%d\", delimiter=\",\", decimal_comma=False):\n",
           "def read_statement(path, currency, date_format=\"%Y-%m-%d\", delimiter=\",\", decimal_comma=False):\n")
    b.edit(LP + "bankimport.py", "                amount=parse_amount(row[\"amount\"], decimal_comma=decimal_comma),\n",
           "                amount=round_money(parse_amount(row[\"amount\"], decimal_comma=decimal_comma), currency),\n")
    b.bash("python -m pytest -q", "..                                                                       [100%]\n"
           "2 passed in 0.04s")
    b.say("`read_statement()` now takes the account's `currency` and rounds every amount with `round_money()` — "
          "the same half-up rounding as `Journal.post()`, so `0.125` imports as `0.13`. Callers need to pass "
          "the currency; `load_rules`/`match_rule` are unchanged.")
    return [a, b]


@scenario("entry-rules", "ledgerly",
          "careful engineer writes the rules as a bullet list (plus a process bullet that is no note); the agent's "
          "first edit forgets an import and the test run shows it",
          exp("invariant", LP + "journal.py:Entry.validate", "per currency"),
          exp("invariant", LP + "journal.py:Entry.validate", "at least two postings"),
          exp("invariant", LP + "journal.py:Entry.validate", "zero-amount postings"))
def _entry_rules(files):
    s = Session("entry-rules", "2026-10-07T07:55:00.000Z", files)
    s.user("Tightening Entry.validate before the accountants get access next week. Rules:\n\n"
           "- an entry balances to zero per currency. a EUR debit can't be offset by a USD credit, even if the "
           "numbers happen to cancel\n"
           "- at least two postings, always. a single-posting entry is a typo, not an entry\n"
           "- no zero-amount postings. refuse the entry, don't silently drop them\n"
           "- one test per rule please, and run pytest before you show me anything\n\n"
           "error messages should say which entry (description is fine).")
    s.read(LP + "journal.py")
    s.say("Right now `validate()` only checks that the sum over *all* postings is zero, so a mixed-currency "
          "entry like `+100 EUR / -100 USD` passes. I'll restructure it to check your three rules in order "
          "(posting count, zero amounts, per-currency sums) and name the entry in each message.")
    s.edit(LP + "journal.py",
           "    def validate(self):\n        if self.total() != 0:\n"
           "            raise UnbalancedEntry(f\"{self.description}: off by {self.total()}\")\n",
           "    def validate(self):\n        if len(self.postings) < 2:\n"
           "            raise UnbalancedEntry(f\"{self.description}: needs at least two postings\")\n"
           "        per_currency = defaultdict(Decimal)\n        for p in self.postings:\n"
           "            if p.amount == 0:\n"
           "                raise UnbalancedEntry(f\"{self.description}: zero amount posted to {p.account}\")\n"
           "            per_currency[p.currency] += p.amount\n"
           "        off = {cur: amt for cur, amt in per_currency.items() if amt != 0}\n"
           "        if off:\n"
           "            detail = \", \".join(f\"{amt} {cur}\" for cur, amt in sorted(off.items()))\n"
           "            raise UnbalancedEntry(f\"{self.description}: does not balance ({detail})\")\n")
    s.edit("tests/test_journal.py",
           "    with pytest.raises(UnbalancedEntry):\n        journal.post(e)\n",
           "    with pytest.raises(UnbalancedEntry):\n        journal.post(e)\n\n\n"
           "def test_currencies_balance_separately(journal):\n"
           "    e = Entry(date(2026, 3, 3), \"fx mixup\", [Posting(\"1000\", Decimal(\"100\"), \"EUR\"),\n"
           "                                             Posting(\"4000\", Decimal(\"-100\"), \"USD\")])\n"
           "    with pytest.raises(UnbalancedEntry, match=\"fx mixup\"):\n        journal.post(e)\n\n\n"
           "def test_single_posting_is_refused(journal):\n"
           "    e = Entry(date(2026, 3, 3), \"lonely\", [Posting(\"1000\", Decimal(\"0.00\"))])\n"
           "    with pytest.raises(UnbalancedEntry, match=\"at least two\"):\n        journal.post(e)\n\n\n"
           "def test_zero_posting_is_refused(journal):\n"
           "    e = Entry(date(2026, 3, 3), \"noise\", [Posting(\"1000\", Decimal(\"5\")), Posting(\"4000\", Decimal(\"-5\")),\n"
           "                                         Posting(\"4000\", Decimal(\"0\"))])\n"
           "    with pytest.raises(UnbalancedEntry, match=\"zero amount\"):\n        journal.post(e)\n")
    s.bash("python -m pytest -q",
           "FFF.F                                                                    [100%]\n"
           "=================================== FAILURES ===================================\n"
           "__________________________ test_balanced_entry_posts ___________________________\n\n"
           "journal = <ledgerly.journal.Journal object at 0x7f3a1c2b5d90>\n\n"
           "    def test_balanced_entry_posts(journal):\n"
           "        e = Entry(date(2026, 3, 2), \"invoice 17\", [Posting(\"1000\", Decimal(\"120.00\")), ...])\n"
           ">       journal.post(e)\n\ntests/test_journal.py:21: \n"
           "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n"
           "src/ledgerly/journal.py:44: in post\n    entry.validate()\n"
           "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n\n"
           "    def validate(self):\n        if len(self.postings) < 2:\n"
           "            raise UnbalancedEntry(f\"{self.description}: needs at least two postings\")\n"
           ">       per_currency = defaultdict(Decimal)\n"
           "E       NameError: name 'defaultdict' is not defined\n\n"
           "src/ledgerly/journal.py:33: NameError\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_journal.py::test_balanced_entry_posts - NameError: name 'defaultdict' is not defined\n"
           "FAILED tests/test_journal.py::test_unbalanced_entry_is_refused - NameError: name 'defaultdict' is not ...\n"
           "FAILED tests/test_journal.py::test_currencies_balance_separately - NameError: name 'defaultdict' is no...\n"
           "FAILED tests/test_journal.py::test_zero_posting_is_refused - NameError: name 'defaultdict' is not defined\n"
           "4 failed, 1 passed in 0.09s", fail=True)
    s.say("My mistake — I used `defaultdict` without importing it. Fixing:")
    s.edit(LP + "journal.py", "from dataclasses import dataclass, field\n",
           "from collections import defaultdict\nfrom dataclasses import dataclass, field\n")
    s.bash("python -m pytest -q", ".....                                                                    [100%]\n"
           "5 passed in 0.05s")
    s.say("All green now.\n\n**`Entry.validate()`** checks, in this order:\n\n"
          "| rule | message |\n|---|---|\n"
          "| fewer than two postings | `<description>: needs at least two postings` |\n"
          "| a posting of `0` | `<description>: zero amount posted to <account>` |\n"
          "| any currency not summing to zero | `<description>: does not balance (100 EUR, -100 USD)` |\n\n"
          "Three new tests in `tests/test_journal.py`, one per rule. `Entry.total()` is still there (the "
          "reports use it) but it no longer decides anything.")
    return [s]


@scenario("closed-periods", "ledgerly",
          "the agent decides on its own to let late entries into a closed period with a warning; the person reverses "
          "it: nothing goes into a closed period, corrections are dated in the open month",
          exp("invariant", LP + "journal.py:Journal.post", "closed period", "log a warning"))
def _closed(files):
    s = Session("closed-periods", "2026-10-09T13:20:00.000Z", files)
    s.user("september is done, can you wire PeriodBook into the journal so closing a month actually means something")
    s.read(LP + "periods.py")
    s.read(LP + "journal.py", offset=36, limit=12)
    s.say("`PeriodBook` tracks closed months but `Journal` never consults it. I'll pass the book into `Journal` "
          "and check the entry's date in `post()`.")
    s.edit(LP + "journal.py", "    def __init__(self, chart):\n        self.chart = chart\n        self.entries = []\n",
           "    def __init__(self, chart, periods=None):\n        self.chart = chart\n        self.periods = periods\n"
           "        self.entries = []\n")
    s.edit(LP + "journal.py", "        entry.validate()\n        self.entries.append(entry)\n",
           "        entry.validate()\n        if self.periods is not None and self.periods.is_closed(entry.date):\n"
           "            log.warning(\"%s: posted into closed period %s\", entry.description, Period.of(entry.date))\n"
           "            entry.late = True\n        self.entries.append(entry)\n")
    s.edit(LP + "journal.py", "from dataclasses import dataclass, field\n",
           "import logging\nfrom dataclasses import dataclass, field\n")
    s.edit(LP + "journal.py", "from decimal import Decimal\n",
           "from decimal import Decimal\n\nfrom ledgerly.periods import Period\n\nlog = logging.getLogger(__name__)\n")
    s.bash("python -m pytest -q", "..                                                                       [100%]\n"
           "2 passed in 0.03s")
    s.say("Done. `Journal(chart, periods)` now knows about closed months. I made posting into a closed period "
          "**log a warning and flag the entry as `late`** rather than fail, so a forgotten September invoice "
          "isn't lost — the flag lets a report list late entries for review.")
    s.user("no. nothing goes into a closed period, that's the whole point of closing it. raise. if september "
           "had a mistake the fix is a correcting entry dated in the open month, which is what our accountant "
           "does anyway")
    s.say("Understood — closing is final. I'll raise instead and drop the `late` flag.")
    s.edit(LP + "journal.py",
           "        if self.periods is not None and self.periods.is_closed(entry.date):\n"
           "            log.warning(\"%s: posted into closed period %s\", entry.description, Period.of(entry.date))\n"
           "            entry.late = True\n",
           "        if self.periods is not None and self.periods.is_closed(entry.date):\n"
           "            raise PeriodClosed(f\"{entry.description}: {Period.of(entry.date)} is closed; \"\n"
           "                               \"post a correcting entry in an open period\")\n")
    s.edit(LP + "journal.py", "import logging\nfrom dataclasses import dataclass, field\n",
           "from dataclasses import dataclass, field\n")
    s.edit(LP + "journal.py", "from ledgerly.periods import Period\n\nlog = logging.getLogger(__name__)\n",
           "from ledgerly.periods import Period\n")
    s.edit(LP + "journal.py", "class UnbalancedEntry(ValueError):\n    pass\n",
           "class UnbalancedEntry(ValueError):\n    pass\n\n\nclass PeriodClosed(ValueError):\n    pass\n")
    s.edit("tests/test_journal.py", "from ledgerly.journal import Entry, Journal, Posting, UnbalancedEntry\n",
           "from ledgerly.journal import Entry, Journal, PeriodClosed, Posting, UnbalancedEntry\n"
           "from ledgerly.periods import Period, PeriodBook\n")
    s.edit("tests/test_journal.py", "    with pytest.raises(UnbalancedEntry):\n        journal.post(e)\n",
           "    with pytest.raises(UnbalancedEntry):\n        journal.post(e)\n\n\n"
           "def test_closed_period_refuses_entries(journal):\n"
           "    journal.periods = PeriodBook()\n    journal.periods.close(Period(2026, 9))\n"
           "    e = Entry(date(2026, 9, 30), \"late invoice\", [Posting(\"1000\", Decimal(\"10\")), Posting(\"4000\", Decimal(\"-10\"))])\n"
           "    with pytest.raises(PeriodClosed, match=\"2026-09 is closed\"):\n        journal.post(e)\n"
           "    assert journal.entries == []\n")
    s.bash("python -m pytest -q", "...                                                                      [100%]\n"
           "3 passed in 0.04s")
    s.say("Changed:\n\n- `Journal.post()` raises `PeriodClosed` for a date in a closed month, and the message "
          "points at a correcting entry in an open period\n- the `late` flag and the logging are gone\n"
          "- new test `test_closed_period_refuses_entries` (also checks nothing was appended)")
    return [s]


@scenario("ing-import-rule-order", "ledgerly",
          "the agent asks two questions; the person answers in a long message about the bank's CSV format and "
          "decides the rule order in the middle of it, turning down the agent's 'most specific' idea",
          exp("decision", LP + "bankimport.py:match_rule", "first rule that matches", "clever scoring",
              "most specific"))
def _ing(files):
    s = Session("ing-import-rule-order", "2026-10-12T08:03:00.000Z", files)
    s.user("we switched the business account to ING. need ledgerly import to read their csv export")
    s.read(LP + "bankimport.py")
    s.say("`read_statement()` expects English column names (`date`, `payee`, `description`, `amount`), commas "
          "as separators and ISO dates, so an ING export won't load as-is. Two things before I start:\n\n"
          "1. Could you paste the header line and one row of the export (anonymised)? Dutch banks differ in "
          "column names and number formats.\n"
          "2. Matching: `match_rule()` currently returns the first rule that matches. With a bigger rules file "
          "that gets fragile — I could pick the **most specific** rule instead (e.g. longest pattern wins), or "
          "score rules by how many fields match. Do you want that while I'm in here?")
    s.user("ok so the export looks like this, semicolons everywhere, comma decimals, dates day first:\n\n"
           "\"Datum\";\"Naam / Omschrijving\";\"Rekening\";\"Mededelingen\";\"Bedrag (EUR)\"\n"
           "\"03-10-2026\";\"HOSTNET BV\";\"NL12INGB0001234567\";\"factuur 88121\";\"-14,52\"\n\n"
           "the Rekening column is our own IBAN so ignore it. amounts are signed already (i checked, debits come "
           "with a minus). for the rules: first rule that matches wins, in the order they're in the file. i don't "
           "want clever scoring, i want to read rules.txt top to bottom and know what happens — if a rule is too "
           "greedy i'll move it down. the old rabobank export had the same thing where the payee was sometimes in "
           "the description column, no idea if ING does that, we'll see when the first real month comes in. "
           "also i'm out thursday and friday so if something's unclear just leave it and i'll look monday")
    s.say("Got it. Plan:\n\n- add an `ing` entry to a `BANK_FORMATS` table: `;` delimiter, decimal comma, "
          "`%d-%m-%Y`, and a column map from the Dutch headers to ledgerly's fields (`Rekening` ignored)\n"
          "- `read_statement()` takes the column map\n"
          "- `match_rule()` stays first-match-in-file-order; I'll make that explicit in the code so nobody "
          "\"improves\" it into scoring later")
    s.edit(LP + "bankimport.py", "@dataclass\nclass BankLine:\n",
           "BANK_FORMATS = {\n    \"ing\": {\n        \"delimiter\": \";\",\n        \"decimal_comma\": True,\n"
           "        \"date_format\": \"%d-%m-%Y\",\n"
           "        \"columns\": {\"Datum\": \"date\", \"Naam / Omschrijving\": \"payee\", \"Mededelingen\": \"description\",\n"
           "                    \"Bedrag (EUR)\": \"amount\"},\n    },\n}\n\n\n@dataclass\nclass BankLine:\n")
    s.edit(LP + "bankimport.py",
           "def read_statement(path, date_format=\"%Y-%m-%d\", delimiter=\",\", decimal_comma=False):\n"
           "    lines = []\n    with open(path, newline=\"\", encoding=\"utf-8\") as fh:\n"
           "        for row in csv.DictReader(fh, delimiter=delimiter):\n",
           "def read_statement(path, date_format=\"%Y-%m-%d\", delimiter=\",\", decimal_comma=False, columns=None):\n"
           "    lines = []\n    with open(path, newline=\"\", encoding=\"utf-8\") as fh:\n"
           "        for raw in csv.DictReader(fh, delimiter=delimiter):\n"
           "            row = {columns.get(k, k): v for k, v in raw.items()} if columns else raw\n")
    s.failed_edit(LP + "bankimport.py", "def match_rule(line, rules):\n    hits = [r for r in rules if r.matches(line)]\n"
                  "    return hits[0]\n",
                  "def match_rule(line, rules):\n    return next((r for r in rules if r.matches(line)), None)\n")
    s.read(LP + "bankimport.py", offset=55, limit=4)
    s.edit(LP + "bankimport.py", "def match_rule(line, rules):\n    hits = [r for r in rules if r.matches(line)]\n"
           "    return hits[0] if hits else None\n",
           "def match_rule(line, rules):\n"
           "    \"\"\"The first rule in file order that matches wins — deliberately no scoring, so the rules file\n"
           "    reads top to bottom.\"\"\"\n"
           "    return next((r for r in rules if r.matches(line)), None)\n")
    s.bash("printf '\"Datum\";\"Naam / Omschrijving\";\"Rekening\";\"Mededelingen\";\"Bedrag (EUR)\"\\n"
           "\"03-10-2026\";\"HOSTNET BV\";\"NL12INGB0001234567\";\"factuur 88121\";\"-14,52\"\\n' > /tmp/ing.csv && "
           "python -c \"from ledgerly.bankimport import *; print(read_statement('/tmp/ing.csv', **BANK_FORMATS['ing']))\"",
           "[BankLine(date=datetime.date(2026, 10, 3), payee='HOSTNET BV', description='factuur 88121', "
           "amount=Decimal('-14.52'))]")
    s.bash("python -m pytest -q", "..                                                                       [100%]\n"
           "2 passed in 0.04s")
    s.say("ING exports load now:\n\n```\nBankLine(date=2026-10-03, payee='HOSTNET BV', "
          "description='factuur 88121', amount=Decimal('-14.52'))\n```\n\n"
          "- `BANK_FORMATS[\"ing\"]` holds the delimiter, decimal comma, date format and column map\n"
          "- `read_statement(..., columns=...)` renames columns before reading them\n"
          "- `match_rule()`: first match in file order, with a docstring saying it's on purpose\n\n"
          "Nothing for the Rabobank payee-in-description case yet; we'll see with the first real month. "
          "Enjoy the long weekend.")
    return [s]


@scenario("narrow-nbsp-amounts", "ledgerly",
          "a pasted traceback from a French bank export; the agent finds the cause (a narrow no-break space as "
          "thousands separator) and fixes parse_amount",
          exp("gotcha", LP + "money.py:parse_amount", "no-break space"))
def _nbsp(files):
    s = Session("narrow-nbsp-amounts", "2026-10-14T16:31:00.000Z", files)
    s.user("bnp import blows up\n\n```\n$ ledgerly import releves/bnp-2026-09.csv --bank bnp\n"
           "Traceback (most recent call last):\n  File \"/home/nadia/.local/bin/ledgerly\", line 8, in <module>\n"
           "    sys.exit(main())\n"
           "  File \"/home/nadia/src/ledgerly/src/ledgerly/bankimport.py\", line 33, in read_statement\n"
           "    amount=parse_amount(row[\"amount\"], decimal_comma=decimal_comma),\n"
           "  File \"/home/nadia/src/ledgerly/src/ledgerly/money.py\", line 19, in parse_amount\n"
           "    raise AmountError(f\"not an amount: {text!r}\") from None\n"
           "ledgerly.money.AmountError: not an amount: '-1\\u202f250,00'\n```\n\n"
           "smaller amounts import fine")
    s.read(LP + "money.py")
    s.bash("python -c \"from ledgerly.money import parse_amount; print(parse_amount('-1\\u202f250,00', decimal_comma=True))\"",
           "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
           "  File \"/home/dev/ledgerly/src/ledgerly/money.py\", line 19, in parse_amount\n"
           "    raise AmountError(f\"not an amount: {text!r}\") from None\n"
           "ledgerly.money.AmountError: not an amount: '-1\\u202f250,00'", fail=True)
    s.say("Reproduced. The `\\u202f` in the message is the clue: BNP writes a **narrow no-break space** (U+202F) "
          "as the thousands separator, as French typography does. `parse_amount()` only strips the ASCII space "
          "(`.replace(\" \", \"\")`), so `1\\u202f250` reaches `Decimal()` with the separator still in it. "
          "Amounts under 1 000 have no separator, which is why the small ones work.\n\n"
          "Other banks use the ordinary no-break space (U+00A0) for the same thing. I'll strip every Unicode "
          "whitespace character instead of just the ASCII space — `\\s` in a `str` regex covers all of them.")
    s.edit(LP + "money.py", "from decimal import Decimal, InvalidOperation\n",
           "import re\nfrom decimal import Decimal, InvalidOperation\n")
    s.edit(LP + "money.py", "    s = text.strip().replace(\" \", \"\")\n",
           "    # thousands separators may be a no-break space (U+00A0) or a narrow one (U+202F, French banks)\n"
           "    s = re.sub(r\"\\s\", \"\", text)\n")
    s.write("tests/test_money.py",
            "from decimal import Decimal\n\nimport pytest\n\nfrom ledgerly.money import parse_amount\n\n\n"
            "@pytest.mark.parametrize(\"text\", [\"-1\\u202f250,00\", \"-1\\u00a0250,00\", \"-1 250,00\", \"-1.250,00\"])\n"
            "def test_thousands_separators(text):\n    assert parse_amount(text, decimal_comma=True) == Decimal(\"-1250.00\")\n")
    s.bash("python -m pytest -q", "......                                                                   [100%]\n"
           "6 passed in 0.05s")
    s.say("Fixed. `parse_amount()` now drops all whitespace, including U+00A0 and U+202F, before parsing; "
          "`tests/test_money.py` covers the four separator styles. Re-run the BNP import and it should go through.")
    return [s]



@scenario("report-questions", "ledgerly",
          "someone who only asks questions about the reports and closing; long explanations full of 'should' and "
          "'must'; the agent offers a change that is declined",
          )
def _questions(files):
    s = Session("report-questions", "2026-10-15T10:02:00.000Z", files)
    s.user("couple of questions, not asking for changes. why does trial_balance skip accounts with a zero balance?")
    s.read(LP + "reports.py")
    s.say("`trial_balance()` has `if bal == 0: continue` — a trial balance is usually printed only for accounts "
          "with a balance, so a chart with 200 accounts doesn't produce a page of zeros. Nothing depends on "
          "it: the debit and credit columns sum the same either way.")
    s.user("ok. and in balance_sheet, why is the balance negated for liabilities and equity?")
    s.say("Because of the sign convention in `Posting`: positive amounts are debits, negative are credits "
          "(see the comment on `Posting.amount`). Liabilities and equity are *credit-normal* — their balances "
          "are negative in the journal — so the report flips them to show them as positive numbers, the way a "
          "balance sheet is read. `AccountType.debit_normal` is what decides it:\n\n"
          "```python\n@property\ndef debit_normal(self):\n    return self in (AccountType.ASSET, AccountType.EXPENSE)\n```\n\n"
          "If it didn't flip them, assets would have to equal *minus* (liabilities + equity), which is correct "
          "but confusing to read.")
    s.user("makes sense. last one: does closing a period move income and expenses into retained earnings? "
           "my old tool did that")
    s.read(LP + "periods.py")
    s.say("No — `PeriodBook.close()` only records that the month is closed; it posts nothing.\n\n"
          "What your old tool did is a **year-end closing entry**: at the end of the fiscal year the income and "
          "expense accounts should be brought to zero and the net result moved to a retained-earnings equity "
          "account. In a proper setup:\n\n"
          "- the closing entry must be dated on the last day of the year\n"
          "- it must balance like any other entry (it does by construction: net income on one side)\n"
          "- monthly closes usually *don't* do this, only the year-end one\n\n"
          "ledgerly has no retained-earnings account in the chart yet. If you want, I can add a "
          "`close_year()` that builds that entry.")
    s.user("no, just wanted to understand what it does today. thanks")
    s.say("Sure. In short: month close = a lock on the dates, nothing more; year-end close doesn't exist yet.")
    return [s]


@scenario("cli-subcommands", "ledgerly",
          "a refactor with a process instruction ('run the tests first'), a colleague's rule reported second hand and "
          "not adopted, and a hypothetical about multiple users",
          )
def _cli(files):
    s = Session("cli-subcommands", "2026-10-16T15:10:00.000Z", files)
    s.user("cli.main is getting messy. move it to argparse subparsers, one function per command. run the tests "
           "first so we have a baseline")
    s.bash("python -m pytest -q", "..                                                                       [100%]\n"
           "2 passed in 0.03s")
    s.read(LP + "cli.py")
    s.say("Baseline: 2 passed. I'll give each command a `cmd_*` function and register it with `set_defaults(func=...)`; "
          "`--chart` stays a global option.")
    s.edit(LP + "cli.py",
           "def main(argv=None):\n    ap = argparse.ArgumentParser(prog=\"ledgerly\")\n"
           "    ap.add_argument(\"--chart\", default=\"chart.json\")\n"
           "    ap.add_argument(\"command\", choices=[\"accounts\", \"trial-balance\"])\n"
           "    args = ap.parse_args(argv)\n    chart = load_chart(args.chart)\n"
           "    if args.command == \"accounts\":\n        for code, acct in sorted(chart.accounts.items()):\n"
           "            print(f\"{code:<8}{acct.type.value:<11}{acct.name}\")\n"
           "    elif args.command == \"trial-balance\":\n        journal = Journal(chart)\n"
           "        for code, name, dr, cr in trial_balance(journal):\n"
           "            print(f\"{code:<8}{name:<30}{dr:>12}{cr:>12}\")\n    return 0\n",
           "def cmd_accounts(chart, args):\n    for code, acct in sorted(chart.accounts.items()):\n"
           "        print(f\"{code:<8}{acct.type.value:<11}{acct.name}\")\n    return 0\n\n\n"
           "def cmd_trial_balance(chart, args):\n    journal = Journal(chart)\n"
           "    for code, name, dr, cr in trial_balance(journal):\n"
           "        print(f\"{code:<8}{name:<30}{dr:>12}{cr:>12}\")\n    return 0\n\n\n"
           "def main(argv=None):\n    ap = argparse.ArgumentParser(prog=\"ledgerly\")\n"
           "    ap.add_argument(\"--chart\", default=\"chart.json\")\n"
           "    sub = ap.add_subparsers(dest=\"command\", required=True)\n"
           "    sub.add_parser(\"accounts\", help=\"list the chart of accounts\").set_defaults(func=cmd_accounts)\n"
           "    sub.add_parser(\"trial-balance\", help=\"print the trial balance\").set_defaults(func=cmd_trial_balance)\n"
           "    args = ap.parse_args(argv)\n    return args.func(load_chart(args.chart), args)\n")
    s.bash("python -m pytest -q && python -m ledgerly.cli --help",
           "..                                                                       [100%]\n2 passed in 0.03s\n"
           "usage: ledgerly [-h] [--chart CHART] {accounts,trial-balance} ...\n\n"
           "positional arguments:\n  {accounts,trial-balance}\n    accounts            list the chart of accounts\n"
           "    trial-balance       print the trial balance\n\noptions:\n  -h, --help            show this help message and exit\n"
           "  --chart CHART")
    s.say("Done — same behaviour, tests still 2 passed, and `--help` now lists the commands with a line each.")
    s.user("nice. fyi marta keeps saying every command must have a --json flag, apparently that was a hard rule "
           "at her last job. not today. and if we ever go multi-user the journal file would need locking, "
           "but that's a problem for never")
    s.say("Noted, I've left both alone. With the subparsers in place a `--json` flag would be a two-line addition "
          "per command if it ever comes up.")
    return [s]


@scenario("single-currency-reports", "ledgerly",
          "the agent lists three ways to handle currencies in report totals; the person scopes multi-currency out "
          "of the reports for now and picks the refusal",
          exp("boundary", LP + "reports.py:single_currency", "multi-currency", "rate table",
              "one section per currency"))
def _currency(files):
    s = Session("single-currency-reports", "2026-10-20T11:45:00.000Z", files)
    s.user("balance sheet needs a total under each section. the accountant adds them up by hand rn")
    s.read(LP + "reports.py")
    s.read(LP + "accounts.py", offset=20, limit=6)
    s.say("Easy to add, but one catch: every `Account` has its own `currency`, and `balance_sheet()` would happily "
          "add a USD balance to a EUR one. Before I write totals, how should mixed currencies behave?\n\n"
          "- **Convert** to EUR with a rate table (needs rates per closing date — a new input)\n"
          "- **One section per currency** — a total per currency, no conversion\n"
          "- **Refuse** — raise if a report meets more than one currency\n")
    s.user("leave multi-currency out of the reports for now — everything we hold is EUR. fail loudly if a report "
           "sees a second currency, don't convert anything")
    s.edit(LP + "reports.py", "def trial_balance(journal, until=None):\n",
           "class MixedCurrencies(ValueError):\n    pass\n\n\n"
           "def single_currency(journal):\n"
           "    \"\"\"The one currency of the chart; reports don't handle several (yet).\"\"\"\n"
           "    found = {a.currency for a in journal.chart.accounts.values()}\n"
           "    if len(found) > 1:\n"
           "        raise MixedCurrencies(f\"reports need a single currency, the chart has {', '.join(sorted(found))}\")\n"
           "    return found.pop() if found else \"EUR\"\n\n\n"
           "def trial_balance(journal, until=None):\n    single_currency(journal)\n")
    s.edit(LP + "reports.py",
           "def balance_sheet(journal, until=None):\n    sheet = {}\n",
           "def balance_sheet(journal, until=None):\n    single_currency(journal)\n    sheet = {}\n")
    s.edit(LP + "reports.py",
           "            lines.append((acct.name, bal if type_.debit_normal else -bal))\n"
           "        sheet[type_.value] = lines\n",
           "            lines.append((acct.name, bal if type_.debit_normal else -bal))\n"
           "        lines.append((\"Total\", sum((amt for _, amt in lines), Decimal(0))))\n"
           "        sheet[type_.value] = lines\n")
    s.bash("python -m pytest -q", "..                                                                       [100%]\n"
           "2 passed in 0.04s")
    s.say("Done:\n\n- each balance-sheet section ends with a `Total` line\n"
          "- `single_currency()` raises `MixedCurrencies` naming the currencies it found; both reports call it "
          "first\n- no conversion anywhere")
    return [s]



def vitest(files_: list[tuple[str, int]], start: str = "10:12:03") -> str:
    lines = [f" \u2713 {f} ({n} tests) {3 + i}ms" for i, (f, n) in enumerate(files_)]
    total = sum(n for _, n in files_)
    return ("\n RUN  v2.1.4 /home/dev/chatwidget\n\n" + "\n".join(lines) + "\n\n"
            f" Test Files  {len(files_)} passed ({len(files_)})\n      Tests  {total} passed ({total})\n"
            f"   Start at  {start}\n   Duration  486ms (transform 41ms, setup 0ms, collect 52ms, tests 9ms, "
            "environment 211ms, prepare 97ms)\n")


# -- chatwidget (TypeScript) ---------------------------------------------------------------------------------


@scenario("reconnect-backoff", "chatwidget",
          "the agent compares reconnect strategies in a table and recommends one; the person accepts with "
          "'sounds good'",
          exp("decision", CW + "connection.ts:Connection.backoffDelay", "full jitter", "fixed", "no jitter"))
def _backoff(files):
    s = Session("reconnect-backoff", "2026-11-02T09:30:00.000Z", files)
    s.user("when we deployed the chat backend yesterday it got hammered the second it came back up. I think "
           "it's the widgets all reconnecting at once? can you look at the reconnect logic")
    s.read(CW + "connection.ts")
    s.say("Yes, that's what the code does. `backoffDelay()` always returns `1000`, so when the server restarts "
          "every open widget sees `onclose` at the same moment and they all reconnect exactly one second later — "
          "and again one second after that if the server isn't ready yet. A thundering herd on every deploy.\n\n"
          "## Options\n\n"
          "| strategy | delay for attempt n | herd on restart | time to reconnect after a blip |\n"
          "|---|---|---|---|\n"
          "| Fixed 1 s (today) | 1 s | all at once, every second | 1 s |\n"
          "| Exponential, no jitter | 1 s, 2 s, 4 s … cap 30 s | still synchronised, just less often | 1 s |\n"
          "| Exponential + full jitter | random in [0, min(30 s, 1 s·2ⁿ)] | spread out | ~0.5 s on average |\n\n"
          "**Recommendation:** exponential backoff with full jitter, capped at 30 s. Plain exponential only "
          "spaces the waves out; the randomness is what breaks them up. The attempt counter already resets on "
          "`onopen`, so a widget that reconnected starts from the small delays again.")
    s.user("sounds good")
    s.edit(CW + "connection.ts", "export type ConnectionState = \"idle\" | \"connecting\" | \"open\" | \"closed\";\n",
           "export type ConnectionState = \"idle\" | \"connecting\" | \"open\" | \"closed\";\n\n"
           "const BASE_DELAY_MS = 1000;\nconst MAX_DELAY_MS = 30_000;\n")
    s.edit(CW + "connection.ts", "  backoffDelay(attempt: number): number {\n    return 1000;\n  }\n",
           "  // Exponential backoff with full jitter: a random delay in [0, min(cap, base * 2^attempt)], so the\n"
           "  // widgets of a whole site don't all reconnect in the same second after a server restart.\n"
           "  backoffDelay(attempt: number, random: () => number = Math.random): number {\n"
           "    const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);\n"
           "    return Math.floor(random() * ceiling);\n  }\n")
    s.write("test/connection.test.ts",
            "import { describe, expect, it } from \"vitest\";\nimport { Connection } from \"../src/connection\";\n\n"
            "const conn = new Connection({ url: \"ws://localhost\", onMessage: () => {} });\n\n"
            "describe(\"backoffDelay\", () => {\n"
            "  it(\"grows exponentially up to the cap\", () => {\n"
            "    const top = () => 0.999999;\n"
            "    expect(conn.backoffDelay(0, top)).toBe(999);\n"
            "    expect(conn.backoffDelay(3, top)).toBe(7999);\n"
            "    expect(conn.backoffDelay(10, top)).toBe(29999);\n  });\n\n"
            "  it(\"can be zero\", () => {\n    expect(conn.backoffDelay(5, () => 0)).toBe(0);\n  });\n});\n")
    s.bash("npx vitest run", vitest([("test/connection.test.ts", 2), ("test/markdown.test.ts", 2)]))
    s.say("Done.\n\n- `backoffDelay(attempt)` returns a random delay between 0 and `min(30 s, 1 s · 2^attempt)`\n"
          "- the random source is a parameter so the tests can pin it\n"
          "- new `test/connection.test.ts` (growth, cap, zero)\n\n"
          "After the next deploy the reconnects should spread over the first few seconds instead of landing "
          "together.")
    return [s]


@scenario("offline-outbox", "chatwidget",
          "a decision reached over four turns with a digression about test warnings: unsent messages survive a "
          "reload in sessionStorage, and a widget-wide rule about localStorage",
          exp("decision", CW + "queue.ts:OutboxQueue", "sessionStorage", "localStorage", "IndexedDB"),
          exp("invariant", "src/**/*.ts", "never put chat text"))
def _outbox(files):
    s = Session("offline-outbox", "2026-11-04T13:05:00.000Z", files)
    s.user("product wants messages typed while offline to survive a page reload. right now they're just gone "
           "right? what are the options")
    s.read(CW + "queue.ts")
    s.say("Right — `OutboxQueue` is a plain array in memory, so a reload (or the visitor navigating to another "
          "page of the site) drops everything that wasn't sent.\n\nWays to keep them:\n\n"
          "1. **localStorage** — survives reloads, new tabs and browser restarts. Simple, synchronous.\n"
          "2. **sessionStorage** — survives reloads and navigation within the tab, gone when the tab closes.\n"
          "3. **IndexedDB** — async, more room, overkill for a handful of short messages.\n\n"
          "localStorage is the most robust for the product ask.")
    s.user("hmm. what's the privacy angle with localStorage? half our customers are clinics, people type stuff "
           "like symptoms into that box")
    s.say("That's the catch with option 1: localStorage has no expiry. Whatever a visitor typed stays on that "
          "device until something deletes it — on a shared computer in a waiting room, the next person could read "
          "it from devtools, and it outlives the chat session itself. sessionStorage limits that to the lifetime "
          "of the tab, and if entries are deleted as soon as the server acknowledges them, only the few unsent "
          "messages ever sit there.")
    s.user("ok thinking. unrelated, vitest spams 'navigator.languages is undefined' warnings, is that us?")
    s.grep("navigator.languages", [CW + "widget.ts"])
    s.say("It's us, sort of: the `ChatWidget` constructor calls `pickLocale(navigator.languages)`, and the "
          "jsdom version in the test setup leaves `navigator.languages` undefined unless a test stubs it. It's "
          "only a warning — none of the current tests construct a widget, it comes from a local test file of "
          "yours I think. Want me to add a default in a vitest setup file?")
    s.user("leave it, mine. ok decision on the outbox: sessionStorage, only the unsent ones, and delete each one "
           "the moment it's delivered. and never put chat text in localStorage, anywhere in the widget — clinics.")
    s.edit(CW + "queue.ts", "export class OutboxQueue {\n  private items: OutgoingMessage[] = [];\n\n"
           "  enqueue(msg: OutgoingMessage): void {\n    this.items.push(msg);\n  }\n",
           "const STORAGE_KEY = \"cw.outbox\";\n\n"
           "// Unsent messages only, in sessionStorage (gone with the tab); each is removed once delivered.\n"
           "export class OutboxQueue {\n  private items: OutgoingMessage[];\n\n"
           "  constructor(private storage: Storage | null = typeof sessionStorage === \"undefined\" ? null : sessionStorage) {\n"
           "    this.items = this.load();\n  }\n\n"
           "  enqueue(msg: OutgoingMessage): void {\n    this.items.push(msg);\n    this.save();\n  }\n")
    s.edit(CW + "queue.ts", "      this.items.shift();\n      sent++;\n    }\n    return sent;\n  }\n",
           "      this.items.shift();\n      this.save();\n      sent++;\n    }\n    return sent;\n  }\n\n"
           "  private load(): OutgoingMessage[] {\n    const raw = this.storage?.getItem(STORAGE_KEY);\n"
           "    return raw ? (JSON.parse(raw) as OutgoingMessage[]) : [];\n  }\n\n"
           "  private save(): void {\n    if (!this.storage) return;\n"
           "    if (this.items.length === 0) this.storage.removeItem(STORAGE_KEY);\n"
           "    else this.storage.setItem(STORAGE_KEY, JSON.stringify(this.items));\n  }\n")
    s.grep("localStorage", [])
    s.write("test/queue.test.ts",
            "import { describe, expect, it } from \"vitest\";\nimport { OutboxQueue } from \"../src/queue\";\n\n"
            "describe(\"OutboxQueue\", () => {\n"
            "  it(\"keeps unsent messages across a reload and forgets delivered ones\", () => {\n"
            "    const q = new OutboxQueue(sessionStorage);\n"
            "    q.enqueue({ clientId: \"a\", text: \"hello\", createdAt: 1 });\n"
            "    q.enqueue({ clientId: \"b\", text: \"are you there\", createdAt: 2 });\n"
            "    expect(new OutboxQueue(sessionStorage).size).toBe(2);\n"
            "    q.flush(() => true);\n"
            "    expect(sessionStorage.getItem(\"cw.outbox\")).toBeNull();\n"
            "    expect(localStorage.length).toBe(0);\n  });\n});\n")
    s.bash("npx vitest run --environment jsdom",
           vitest([("test/markdown.test.ts", 2), ("test/queue.test.ts", 1)], start="13:31:40"))
    s.say("Done:\n\n- `OutboxQueue` persists the **unsent** messages in `sessionStorage` under `cw.outbox` and "
          "loads them on construction, so a reload in the same tab keeps them\n"
          "- every delivered message is removed right away; when the queue is empty the key is deleted\n"
          "- nothing in `src/` touches `localStorage` (grep is empty), and the new test asserts it stays empty\n\n"
          "When the connection opens, `ChatWidget` already flushes the outbox, so restored messages go out on the "
          "first successful connect.")
    return [s]


@scenario("unread-reset", "chatwidget",
          "the agent proposes resetting the unread count when the panel opens, the person agrees, then reverts "
          "it later in the session: reset only once the last message has been on screen",
          exp("decision", CW + "widget.ts:ChatWidget.watchLastMessage", "on screen", "when the panel opens"))
def _unread(files):
    s = Session("unread-reset", "2026-11-06T10:15:00.000Z", files)
    s.user("unread badge never goes back to 0. is markSeen ever called?")
    s.grep("markSeen", [CW + "unread.ts"])
    s.say("No — `UnreadCounter.markSeen()` is defined but nothing calls it, so the count only grows. The "
          "natural place is `ChatWidget.toggle()`: reset the count **when the panel opens**. Shall I do that?")
    s.user("yeah do that")
    s.read(CW + "widget.ts", offset=55, limit=6)
    s.edit(CW + "widget.ts", "    this.open = !this.open;\n    this.host.classList.toggle(\"cw-open\", this.open);\n",
           "    this.open = !this.open;\n    this.host.classList.toggle(\"cw-open\", this.open);\n"
           "    if (this.open) this.unread.markSeen();\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest([("test/markdown.test.ts", 2)], start="10:19:12"))
    s.say("Added: opening the panel calls `markSeen()`, which clears the badge. Type-check and tests pass.")
    s.user("hm actually no, just tried it on my phone. the panel opens scrolled to where you were and the new "
           "messages are below the fold, so the badge clears for stuff nobody has read. reset only when the last "
           "message has actually been on screen. intersection observer or whatever")
    s.say("Good catch — on a short viewport \"opened\" isn't \"read\". I'll take the reset out of `toggle()` and "
          "watch the newest message with an `IntersectionObserver` rooted at the message list: the count is "
          "cleared when that element is (almost) fully visible. Each new message moves the observer to itself.")
    s.edit(CW + "widget.ts", "    this.host.classList.toggle(\"cw-open\", this.open);\n"
           "    if (this.open) this.unread.markSeen();\n",
           "    this.host.classList.toggle(\"cw-open\", this.open);\n")
    s.edit(CW + "widget.ts", "    li.innerHTML = renderMarkdown(text);\n    this.list.appendChild(li);\n  }\n",
           "    li.innerHTML = renderMarkdown(text);\n    this.list.appendChild(li);\n    this.watchLastMessage(li);\n  }\n\n"
           "  private watchLastMessage(li: HTMLElement): void {\n    this.seenObserver?.disconnect();\n"
           "    this.seenObserver = new IntersectionObserver(\n"
           "      (entries) => {\n        if (entries.some((e) => e.isIntersecting)) this.unread.markSeen();\n      },\n"
           "      { root: this.list, threshold: 0.9 },\n    );\n    this.seenObserver.observe(li);\n  }\n")
    s.edit(CW + "widget.ts", "  private open = false;\n",
           "  private open = false;\n  private seenObserver: IntersectionObserver | null = null;\n")
    s.bash("npx tsc --noEmit -p . && npx vitest run", vitest([("test/markdown.test.ts", 2)], start="10:26:48"))
    s.say("Switched:\n\n- `toggle()` no longer touches the unread count\n"
          "- `watchLastMessage()` observes the newest message inside the list; the badge clears once 90 % of it "
          "is visible — a closed panel is `display: none`, so nothing intersects while it's closed\n\n"
          "Worth a look on your phone again: scroll up, get a message, open the panel — the badge should stay "
          "until you scroll down to it.")
    return [s]



@scenario("link-allowlist", "chatwidget",
          "a pen-test finding; the agent starts with a blocklist, the person corrects it to an allowlist of schemes",
          exp("invariant", CW + "markdown.ts:sanitizeUrl", "allowlist", "blocklist"))
def _links(files):
    s = Session("link-allowlist", "2026-11-09T08:40:00.000Z", files)
    s.user("pen test report item 4: an operator (or anyone who gets into an operator account) can send "
           "`[click me](javascript:alert(document.cookie))` and the widget renders it as a real link on the "
           "customer's site. fix sanitizeUrl pls")
    s.read(CW + "markdown.ts")
    s.say("Confirmed: `sanitizeUrl()` only trims, so any scheme goes through into `href`. `escapeHtml()` runs "
          "first, so quotes can't break out of the attribute — the scheme is the hole.\n\n"
          "I'll add a blocklist of the dangerous schemes (`javascript:`, `data:`, `vbscript:`), case-insensitive, and render "
          "the label as plain text for those.")
    s.edit(CW + "markdown.ts", "export function sanitizeUrl(url: string): string | null {\n  return url.trim();\n}\n",
           "const BLOCKED = /^\\s*(javascript|data|vbscript):/i;\n\n"
           "export function sanitizeUrl(url: string): string | null {\n  const u = url.trim();\n"
           "  return BLOCKED.test(u) ? null : u;\n}\n")
    s.user("no — allowlist. http, https, mailto, nothing else. blocklists always miss something: "
           "`java\\tscript:`, entities, whatever next year's browser quirk is")
    s.say("Agreed, an allowlist fails closed. I'll parse the URL and accept only `http:`, `https:` and "
          "`mailto:`; anything that doesn't parse as an absolute URL (including relative links) renders as "
          "plain text.")
    s.edit(CW + "markdown.ts", "const BLOCKED = /^\\s*(javascript|data|vbscript):/i;\n\n"
           "export function sanitizeUrl(url: string): string | null {\n  const u = url.trim();\n"
           "  return BLOCKED.test(u) ? null : u;\n}\n",
           "const ALLOWED_SCHEMES = new Set([\"http:\", \"https:\", \"mailto:\"]);\n\n"
           "export function sanitizeUrl(url: string): string | null {\n  const u = url.trim();\n  try {\n"
           "    return ALLOWED_SCHEMES.has(new URL(u).protocol) ? u : null;\n  } catch {\n    return null;\n  }\n}\n")
    s.edit("test/markdown.test.ts", "  it(\"renders bold and links\", () => {\n",
           "  it.each([\"javascript:alert(1)\", \"JaVaScRiPt:alert(1)\", \"java\\tscript:alert(1)\", \"data:text/html,x\", \"/relative\"])(\n"
           "    \"drops %s\",\n    (href) => {\n      expect(renderMarkdown(`[x](${href})`)).toBe(\"x\");\n    },\n  );\n\n"
           "  it(\"renders bold and links\", () => {\n")
    s.bash("npx vitest run", vitest([("test/markdown.test.ts", 7)], start="08:52:19"))
    s.say("All 7 pass.\n\n- `sanitizeUrl()` accepts only absolute `http:`, `https:` and `mailto:` URLs\n"
          "- everything else — other schemes, mixed case, tab tricks, relative links — renders the label as "
          "plain text\n- five new cases in `test/markdown.test.ts`")
    return [s]


@scenario("ios-input-zoom", "chatwidget",
          "the agent explains and makes a deliberate workaround (iOS Safari zooms on inputs under 16px), turning "
          "down the host-page viewport fix",
          exp("workaround", CW + "theme.ts:inputStyles", "16px", "maximum-scale"))
def _zoom(files):
    s = Session("ios-input-zoom", "2026-11-11T15:22:00.000Z", files)
    s.user("customer (the bakery chain) set fontSize: 13 in their theme and now on iphones the whole page zooms "
           "in when you tap the message box and stays zoomed. android fine")
    s.read(CW + "theme.ts")
    s.say("## What's happening\n\n"
          "iOS Safari zooms the page when a text field with a computed `font-size` **below 16px** gets focus — "
          "it's meant to make small inputs readable, and it doesn't zoom back out on blur. `inputStyles()` "
          "passes the theme's `fontSize` straight to the input, so 13 triggers it. Android Chrome doesn't do this.\n\n"
          "## Ways around it\n\n"
          "- **`maximum-scale=1` in the viewport meta** — the usual StackOverflow answer. But the viewport tag "
          "belongs to the customer's page, not to us, and it would also disable pinch-zoom for visually "
          "impaired visitors on older iOS. Not ours to change.\n"
          "- **Keep the input at 16px and scale it down visually** — the input's real font size stays 16px, so "
          "Safari doesn't zoom, and a CSS `transform: scale(13/16)` makes it look like 13px. Slightly hacky: the "
          "box has to be made wider by the inverse factor so it still fills the footer.\n\n"
          "I'll do the second; it's contained in `inputStyles()` and themes at 16px or above are untouched.")
    s.user("weird but ok")
    s.edit(CW + "theme.ts", "export function inputStyles(theme: Theme): Partial<CSSStyleDeclaration> {\n  return {\n"
           "    fontSize: `${theme.fontSize}px`,\n",
           "// iOS Safari zooms the page when an input under 16px gets focus. The viewport meta belongs to the host\n"
           "// page, so instead the input stays at 16px and is scaled down to look like the theme's size.\n"
           "const IOS_NO_ZOOM_PX = 16;\n\n"
           "export function inputStyles(theme: Theme): Partial<CSSStyleDeclaration> {\n"
           "  const scale = Math.min(1, theme.fontSize / IOS_NO_ZOOM_PX);\n  return {\n"
           "    fontSize: `${Math.max(theme.fontSize, IOS_NO_ZOOM_PX)}px`,\n"
           "    transform: scale < 1 ? `scale(${scale})` : \"\",\n    transformOrigin: \"left center\",\n"
           "    width: `${100 / scale}%`,\n")
    s.bash("npx tsc --noEmit -p .", "")
    s.say("Done. With `fontSize: 13` the input now gets `font-size: 16px; transform: scale(0.8125); width: 123.08%` "
          "— it looks the same as before but Safari has no reason to zoom. I can't test on a real iPhone from "
          "here; BrowserStack or your phone against the bakery's staging page would confirm it.")
    return [s]


@scenario("i18n-english-fallback", "chatwidget",
          "the person corrects the agent's fix for a missing translation (show the key) into a rule: fall back to "
          "English; restated a week later when strings are added",
          exp("invariant", CW + "i18n.ts:t", "fall back to english", "return the key"))
def _i18n(files):
    a = Session("i18n-english-fallback-1", "2026-11-12T09:10:00.000Z", files)
    a.user("sentry: TypeError: Cannot read properties of undefined (reading 'replace')\n"
           "    at t (widget.js:1:4412)\n    at widget.js:1:6388\n    at UnreadCounter.emit (widget.js:1:2210)\n"
           "only on dutch browsers apparently")
    a.read(CW + "i18n.ts")
    a.say("`t()` does `STRINGS[locale][key].replace(...)`, and the `nl` table only has `header.title` — so any "
          "other key is `undefined` for Dutch visitors and `.replace` throws. The first one hit is "
          "`unread.badge`, when the first operator message arrives and the badge updates.\n\nI'll make `t()` return the key itself when a "
          "translation is missing, so it can't crash.")
    a.edit(CW + "i18n.ts", "  const raw = STRINGS[locale][key];\n", "  const raw = STRINGS[locale][key] ?? key;\n")
    a.user("no — it must fall back to english. a visitor on a customer's site should never see "
           "\"unread.badge\" or whatever, english is better than a key")
    a.say("Right, a raw key is worse than English for a visitor. Falling back to the English table; the key "
          "only remains as a last resort for a key that doesn't exist in English either, which would be a bug "
          "in our code rather than a missing translation.")
    a.edit(CW + "i18n.ts", "  const raw = STRINGS[locale][key] ?? key;\n",
           "  // a missing translation falls back to English; visitors never see a raw key for it\n"
           "  const raw = STRINGS[locale][key] ?? STRINGS.en[key] ?? key;\n")
    a.write("test/i18n.test.ts",
            "import { expect, it } from \"vitest\";\nimport { t } from \"../src/i18n\";\n\n"
            "it(\"falls back to English for a missing translation\", () => {\n"
            "  expect(t(\"nl\", \"unread.badge\", { n: 3 })).toBe(\"3 new\");\n});\n")
    a.bash("npx vitest run", vitest([("test/i18n.test.ts", 1), ("test/markdown.test.ts", 2)], start="09:17:55"))
    a.say("Fixed: `t()` falls back to the English string when the locale has no translation "
          "(`t(\"nl\", \"unread.badge\", {n: 3})` → `3 new`). Test added in `test/i18n.test.ts`.")

    b = Session("i18n-english-fallback-2", "2026-11-19T14:02:00.000Z", files)
    b.user("need a typing indicator string, \"{name} is typing…\". add en and de, I'll get french from Camille "
           "later. fr/nl without it is fine, they get english like we agreed — never the raw key")
    b.read(CW + "i18n.ts", offset=1, limit=20)
    b.edit(CW + "i18n.ts", "    \"unread.badge\": \"{n} new\",\n  },\n",
           "    \"unread.badge\": \"{n} new\",\n    \"status.typing\": \"{name} is typing…\",\n  },\n")
    b.edit(CW + "i18n.ts", "    \"status.reconnecting\": \"Verbindung wird wiederhergestellt…\",\n",
           "    \"status.reconnecting\": \"Verbindung wird wiederhergestellt…\",\n    \"status.typing\": \"{name} schreibt…\",\n")
    b.edit("test/i18n.test.ts", "  expect(t(\"nl\", \"unread.badge\", { n: 3 })).toBe(\"3 new\");\n",
           "  expect(t(\"nl\", \"unread.badge\", { n: 3 })).toBe(\"3 new\");\n"
           "  expect(t(\"fr\", \"status.typing\", { name: \"Léa\" })).toBe(\"Léa is typing…\");\n")
    b.bash("npx vitest run", vitest([("test/i18n.test.ts", 1), ("test/markdown.test.ts", 2)], start="14:06:30"))
    b.say("Added `status.typing` in English (`{name} is typing…`) and German (`{name} schreibt…`). French and "
          "Dutch visitors get the English text through the fallback in `t()` until Camille's translation comes in; "
          "the test now checks that for `fr` too.")
    return [a, b]


@scenario("widget-review", "chatwidget",
          "a code review before handing the file to a new colleague; suggestions full of 'should', none taken up",
          )
def _review(files):
    s = Session("widget-review", "2026-11-16T11:00:00.000Z", files)
    s.user("can you review widget.ts? handing it to the new guy on monday and want to know what he's walking into")
    s.read(CW + "widget.ts")
    s.read(CW + "connection.ts", offset=30, limit=12)
    s.say("## Review of `src/widget.ts`\n\nOverall it's small and readable; the wiring between connection, outbox "
          "and unread counter is easy to follow. Things he'll likely trip over:\n\n"
          "### Correctness\n"
          "1. **No teardown.** There's no `destroy()`: the socket stays open and reconnects forever if the host "
          "page removes the widget (SPAs do this on route changes). It should close the `Connection` and remove "
          "the root element.\n"
          "2. **`crypto.randomUUID()`** isn't available on Safari < 15.4 or on plain-HTTP pages (it needs a secure "
          "context). On those, `sendText()` throws before anything is queued.\n"
          "3. **`receive()` trusts the payload shape** — `data as { text; from }` is a cast, not a check. A "
          "malformed server message would render `undefined`.\n\n"
          "### Accessibility\n"
          "4. `toggle()` should set `aria-expanded` on the launcher, and the list should be an `aria-live=\"polite\"` "
          "region so screen readers announce new messages.\n\n"
          "### Style\n"
          "5. `mount()` builds the header with `innerHTML` and a translated string. Safe today because the strings "
          "are ours, but a `textContent` assignment would make that obvious without thinking.\n\n"
          "Nothing here is urgent; 1 and 2 are the ones I'd fix first.")
    s.user("good list. he can take those as starter tickets, I'm not touching it today. thx")
    s.say("Makes sense — they're independent, so they split nicely into five small tickets.")
    return [s]


@scenario("double-connect", "chatwidget",
          "debugging a symptom whose cause is the person's demo page (React StrictMode); nothing changes in the widget",
          )
def _double(files):
    s = Session("double-connect", "2026-11-17T16:45:00.000Z", files)
    s.user("why does the widget open two websockets in dev? network tab shows two connects to /chat every page "
           "load. prod looks normal")
    s.read(CW + "widget.ts", offset=40, limit=20)
    s.grep("new ChatWidget", ["demo/src/App.tsx"])
    s.bash("sed -n 1,30p demo/src/App.tsx",
           "import { StrictMode, useEffect, useRef } from \"react\";\nimport { ChatWidget } from \"@parley/chatwidget\";\n\n"
           "function Chat() {\n  const host = useRef<HTMLDivElement>(null);\n  useEffect(() => {\n"
           "    const w = new ChatWidget(host.current!, { endpoint: \"ws://localhost:8787/chat\", siteId: \"demo\" });\n"
           "    w.mount();\n  }, []);\n  return <div ref={host} />;\n}\n\nexport default function App() {\n"
           "  return (\n    <StrictMode>\n      <Chat />\n    </StrictMode>\n  );\n}")
    s.say("It's the demo app, not the widget. `App.tsx` renders inside `<StrictMode>`, and in development React "
          "runs every effect twice (mount → unmount → mount) to surface missing cleanups. The effect creates and "
          "mounts a `ChatWidget` each time and returns no cleanup, so you get two widgets and two sockets. "
          "Production builds don't double-invoke effects, which is why prod looks normal.\n\n"
          "If the demo should behave, its effect would need to return a cleanup that closes the widget — which "
          "brings us back to the missing `destroy()` from the review.")
    s.user("ah ok, it's just the demo then. fine, ignoring it")
    return [s]


# -- writing and checking ------------------------------------------------------------------------------------


def build() -> None:
    out = []
    (HERE / "sessions").mkdir(exist_ok=True)
    for sc in SCENARIOS:
        sessions = sc["fn"](repo_files(sc["repo"]))
        for s in sessions:
            (HERE / "sessions" / f"{s.name}.jsonl").write_text(s.jsonl(), encoding="utf-8")
        out.append({"name": sc["name"], "repo": sc["repo"], "sessions": [f"{s.name}.jsonl" for s in sessions],
                    "note": sc["note"], "expected": sc["expected"]})
    (HERE / "expected.json").write_text(json.dumps({"set": "heldout3", "scenarios": out}, indent=2) + "\n",
                                        encoding="utf-8")


def check() -> None:
    """Replays each scenario on a copy of its repository (every edit must apply) and checks, with tether's
    parser, that each expected anchor names a definition of the final state (or an existing file)."""
    import shutil
    import tempfile
    sys.path.insert(0, str(TESTS))
    from capture_fixtures import hook_events, materialize
    from tether.core.languages import for_path
    from tether.core.syntax import SourceFile
    for sc in json.loads((HERE / "expected.json").read_text(encoding="utf-8"))["scenarios"]:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "repo"
            shutil.copytree(HERE / "repos" / sc["repo"], root)
            for name in sc["sessions"]:
                path = materialize(name, root, Path(tmp) / "t", HERE / "sessions" / name)
                for _event, change in hook_events(path, root):
                    if change is not None:
                        change()
            for e in sc["expected"]:
                assert e["kind"] in ("decision", "invariant", "boundary", "intent", "workaround", "gotcha"), e
                rel, _, name = e["anchor"].partition(":")
                if "*" in rel:
                    assert list(root.glob(rel)), (sc["name"], e["anchor"])
                    continue
                text = (root / rel).read_text(encoding="utf-8")
                if name:
                    names = {d.qualname for d in SourceFile(text, for_path(rel)).defs}
                    assert name in names, (sc["name"], e["anchor"], sorted(names))
        print(f"ok  {sc['name']}: {len(sc['sessions'])} session(s), {len(sc['expected'])} expected")


if __name__ == "__main__":
    build()
    if "--check" in sys.argv:
        check()
