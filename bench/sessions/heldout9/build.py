"""Writes the heldout9 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``invstock`` (Python, a warehouse inventory service)
and ``chartlite`` (TypeScript, a small SVG chart library). Sessions are written with the
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

SET = "heldout9"
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


def pytest_ok(n: int, secs: str = "0.91") -> str:
    return ("============================= test session starts ==============================\n"
            "platform linux -- Python 3.12.7, pytest-8.3.3, pluggy-1.5.0\n"
            "rootdir: /home/dev/invstock\nconfigfile: pyproject.toml\ncollected " + str(n) + " items\n\n"
            "tests/test_invstock.py " + "." * n + " " * max(1, 53 - n) + "[100%]\n\n"
            f"============================== {n} passed in {secs}s ===============================")


def vitest_ok(n: int, ms: int = 412) -> str:
    return (" RUN  v2.1.4 /home/dev/chartlite\n\n"
            f" ✓ test/chart.test.ts ({n} tests) {ms // 20}ms\n\n"
            " Test Files  1 passed (1)\n"
            f"      Tests  {n} passed ({n})\n"
            "   Start at  10:42:17\n"
            f"   Duration  {ms}ms (transform 61ms, setup 0ms, collect 48ms, tests {ms // 20}ms, environment 0ms, "
            "prepare 71ms)\n")


# -- invstock (Python) ---------------------------------------------------------------------------------

INV = "invstock"


@scenario("hold-expiry", INV, "an operations lead (not a programmer) describes the problem in business terms; the agent "
          "answers with headings and three numbered options; the lead picks one but changes its number, turns the "
          "other two down with reasons, and puts customer e-mails out of scope",
          [exp("decision", "invstock/reservations.py:ReservationBook.expire_stale", "72 hours",
               ["per customer tier", "manual release"]),
           exp("boundary", "invstock/reservations.py:ReservationBook.expire_stale", "emailing customers")])
def _hold_expiry(files):
    s = Session("hold-expiry", "2026-03-09T08:14:00.000Z", files)
    s.user("Hi, Dana from warehouse ops here. I'm told you can change the stock system so here goes. Customer "
           "service puts stock on hold for phone orders, and when the customer never pays, that stock just sits "
           "there as \"reserved\" for weeks. The pickers can see full shelves but the system says zero available. "
           "Last month we told one of our biggest accounts we were out of blue widgets when there were 300 on the "
           "shelf. That cannot happen again. Can holds go away on their own somehow?")
    s.read("invstock/reservations.py")
    s.grep("release\\(", ["invstock/reservations.py"])
    s.say("## What's happening\n\n"
          "A hold is a `Reservation` in `ReservationBook`. The only way one ever ends is `release()`, which is "
          "called when a pick is confirmed or when someone cancels the order by hand. Nothing looks at how old a "
          "hold is, so an unpaid phone order keeps its stock forever, and `available()` (on hand minus reserved) "
          "shows zero while the shelf is full.\n\n"
          "## Options\n\n"
          "1. **A fixed time limit for every hold** — e.g. a hold that hasn't been picked within 24 hours is "
          "released automatically and the stock becomes available again. Simple, and the same for everyone.\n"
          "2. **A time limit per customer tier** — key accounts keep holds longer (say 7 days), everyone else "
          "24 hours. This needs each customer's tier, which this system doesn't have today; we'd have to get it "
          "from the ERP.\n"
          "3. **No expiry, but a daily list of old holds** for customer service to go through (manual release).\n\n"
          "I'd lean towards 1. Which fits how the floor works?")
    s.user("Option 1, but not 24 hours. A lot of phone orders come in on Friday afternoon and the money lands "
           "Monday morning, so 24 would throw those away. Make it 72 hours.\n\n"
           "The per customer tier one, no. Our tier data is a mess and I don't want the floor arguing about who is "
           "gold. The list-and-release-by-hand one is basically what we're supposed to do now and nobody does it.\n\n"
           "And don't worry about emailing customers when a hold lapses. That's the CRM team's thing, not this "
           "system.")
    s.edit("invstock/reservations.py", "from datetime import datetime, timezone\n",
           "from datetime import datetime, timedelta, timezone\n")
    s.edit("invstock/reservations.py", "class NotEnoughAvailable(Exception):\n",
           "# An unpaid hold gives its stock back after this long. 72 hours covers a phone order taken on a\n"
           "# Friday afternoon and paid on Monday morning.\n"
           "HOLD_TTL = timedelta(hours=72)\n\n\n"
           "class NotEnoughAvailable(Exception):\n")
    s.edit("invstock/reservations.py",
           "    def release(self, res_id: int) -> None:\n        self._res[res_id].released = True\n",
           "    def release(self, res_id: int) -> None:\n        self._res[res_id].released = True\n\n"
           "    def expire_stale(self, now: datetime | None = None) -> list[Reservation]:\n"
           "        \"\"\"Releases every open hold older than ``HOLD_TTL`` and returns the ones released.\n\n"
           "        Only the stock is released; telling the customer is the CRM's job, not this service's.\"\"\"\n"
           "        now = now or datetime.now(timezone.utc)\n"
           "        stale = [r for r in self.open() if now - r.created_at >= HOLD_TTL]\n"
           "        for r in stale:\n"
           "            r.released = True\n"
           "        return stale\n")
    s.edit("tests/test_invstock.py",
           "def test_reorder_point():\n",
           "def test_stale_holds_expire_after_72_hours():\n"
           "    led = StockLedger()\n"
           "    led.receive(\"ACME-10042\", \"A-03-2\", 10)\n"
           "    book = ReservationBook(led)\n"
           "    friday = datetime(2026, 3, 6, 15, 0, tzinfo=timezone.utc)\n"
           "    book.reserve(\"SO-1\", \"ACME-10042\", 7, now=friday)\n"
           "    assert book.expire_stale(now=friday + timedelta(hours=71)) == []\n"
           "    assert [r.order_id for r in book.expire_stale(now=friday + timedelta(hours=72))] == [\"SO-1\"]\n"
           "    assert book.available(\"ACME-10042\") == 10\n\n\n"
           "def test_reorder_point():\n")
    s.bash("python -m pytest -q", pytest_ok(10), description="Run the test suite")
    s.say("Done.\n\n## What changed\n\n"
          "- Holds now lapse after **72 hours**: `ReservationBook.expire_stale()` releases every open hold older "
          "than that and gives the stock back to \"available\".\n"
          "- It only frees the stock. No e-mails or messages to customers.\n"
          "- A test covers your Friday case: a hold placed Friday 15:00 is still there 71 hours later and gone at "
          "72.\n\n"
          "## One thing to know\n\n"
          "Something has to call `expire_stale()` regularly. The job schedule lives in the ops scheduler, not in "
          "this code, so whoever runs it needs to add an hourly run. Happy to write up the one-liner for them.")
    s.user("Great, thank you. I'll ask Raj to add it to the schedule.")
    return [s]


@scenario("pick-never-negative", INV, "staff engineer states the rule as imperative bullets up front (with the "
          "rejected option and a deferred part); the agent acts and reports tersely",
          [exp("invariant", "invstock/stock.py:StockLedger.pick", "never goes negative", ["clamp to zero"]),
           exp("boundary", "invstock/stock.py:StockLedger.transfer", "separate ticket")])
def _pick_negative(files):
    s = Session("pick-never-negative", "2026-03-10T13:02:00.000Z", files)
    s.user("pick() lets on_hand go negative. -14 on ACME-20210 @ C-11-4 in prod this morning.\n\n"
           "- on_hand never goes negative, per bin. not per sku total, per bin.\n"
           "- pick > on hand in that bin -> raise InsufficientStock. don't clamp to zero, don't partial-pick. "
           "nothing written.\n"
           "- transfer() has the same hole. leave it, separate ticket (INV-482), it needs the two-phase thing.\n"
           "- tests.")
    s.read("invstock/stock.py")
    s.edit("invstock/stock.py",
           "            raise ValueError(\"pick qty must be positive\")\n",
           "            raise ValueError(\"pick qty must be positive\")\n"
           "        have = self.on_hand(sku, location)\n"
           "        if qty > have:\n"
           "            # on hand never goes negative in a bin: refuse the whole pick, write nothing\n"
           "            raise InsufficientStock(sku, location, qty, have)\n")
    s.edit("tests/test_invstock.py", "from invstock.stock import MoveKind, StockLedger\n",
           "from invstock.stock import InsufficientStock, MoveKind, StockLedger\n")
    s.edit("tests/test_invstock.py",
           "def test_transfer_moves_between_bins():\n",
           "def test_pick_more_than_on_hand_raises_and_writes_nothing():\n"
           "    led = StockLedger()\n"
           "    led.receive(\"ACME-20210\", \"C-11-4\", 10)\n"
           "    with pytest.raises(InsufficientStock):\n"
           "        led.pick(\"ACME-20210\", \"C-11-4\", 24)\n"
           "    assert led.on_hand(\"ACME-20210\", \"C-11-4\") == 10\n"
           "    assert len(led.movements) == 1\n\n\n"
           "def test_pick_checks_the_bin_not_the_sku_total():\n"
           "    led = StockLedger()\n"
           "    led.receive(\"ACME-20210\", \"C-11-4\", 10)\n"
           "    led.receive(\"ACME-20210\", \"C-12-1\", 10)\n"
           "    with pytest.raises(InsufficientStock):\n"
           "        led.pick(\"ACME-20210\", \"C-11-4\", 15)\n\n\n"
           "def test_transfer_moves_between_bins():\n")
    s.bash("python -m pytest -q", pytest_ok(11, "0.87"), description="Run tests")
    s.say("Done.\n\n- `pick` raises `InsufficientStock` when qty > on hand in that bin; nothing is appended.\n"
          "- 2 tests: refused pick writes nothing; the check is per bin (20 in the SKU, 10 in the bin, pick 15 "
          "fails).\n- `transfer` untouched (INV-482).\n\n11 passed.")
    s.user("👍")
    return [s]


@scenario("scanner-prefix", INV, "lowercase person with abbreviations pastes a production error; the agent "
          "reproduces it with a failing test, finds the cause (a symbology identifier the new scanners send) "
          "and fixes the parser instead of the scanner config",
          [exp("gotcha", "invstock/barcode.py:parse_gs1", "symbology identifier")])
def _scanner_prefix(files):
    s = Session("scanner-prefix", "2026-03-11T05:47:00.000Z", files)
    s.user("dock 3 scanners failing on every pallet label since the zebra swap last nite. from the logs:\n\n"
           "```\nTraceback (most recent call last):\n"
           "  File \"/srv/invstock/rf/handlers.py\", line 88, in on_scan\n"
           "    scan = parse_gs1(raw)\n"
           "  File \"/srv/invstock/invstock/barcode.py\", line 67, in parse_gs1\n"
           "    raise BarcodeError(f\"unknown AI {ai!r} at {i} in {data!r}\")\n"
           "invstock.barcode.BarcodeError: unknown AI ']C' at 0 in ']C101095011015300031726123110AB-123\\x1d3024'\n"
           "```\n\n"
           "new ones r TC52s fwiw. old ones worked fine w the same labels. can u look asap pls, receiving is "
           "keying evrything by hand rn")
    s.read("invstock/barcode.py")
    s.say("The data starts with `]C1` before the first AI. That's an AIM **symbology identifier**: `]C1` means "
          "\"GS1-128\". Many scanners can prepend it; the old ones evidently had it off, the TC52s ship with it on. "
          "Our parser takes the first two characters as the AI, gets `]C`, and gives up.\n\n"
          "Let me reproduce it in a test first.")
    s.edit("tests/test_invstock.py",
           "def test_reconcile_report():\n",
           "def test_gs1_parse_with_symbology_identifier():\n"
           "    scan = parse_gs1(\"]C1\" + \"0109501101530003\" + \"17261231\" + \"10AB-123\\x1d\" + \"3024\")\n"
           "    assert scan.gtin == \"09501101530003\"\n"
           "    assert scan.lot == \"AB-123\"\n"
           "    assert scan.count == 24\n\n\n"
           "def test_reconcile_report():\n")
    s.bash("python -m pytest -q tests/test_invstock.py -k symbology",
           "F                                                                        [100%]\n"
           "=================================== FAILURES ===================================\n"
           "___________________ test_gs1_parse_with_symbology_identifier ___________________\n\n"
           "    def test_gs1_parse_with_symbology_identifier():\n"
           ">       scan = parse_gs1(\"]C1\" + \"0109501101530003\" + \"17261231\" + \"10AB-123\\x1d\" + \"3024\")\n\n"
           "tests/test_invstock.py:79: \n"
           "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n\n"
           "    def parse_gs1(data: str) -> Scan:\n"
           "        scan = Scan()\n"
           "        i = 0\n"
           "        while i < len(data):\n"
           "            ai = data[i:i + 2]\n"
           "            if ai not in AIS:\n"
           ">               raise BarcodeError(f\"unknown AI {ai!r} at {i} in {data!r}\")\n"
           "E               invstock.barcode.BarcodeError: unknown AI ']C' at 0 in "
           "']C101095011015300031726123110AB-123\\x1d3024'\n\n"
           "invstock/barcode.py:67: BarcodeError\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_invstock.py::test_gs1_parse_with_symbology_identifier - invstock.barcode.BarcodeError: "
           "unknown AI ']C' at 0 in ']C101095011015300031726123110AB-123\\x1d3024'\n"
           "1 failed, 9 deselected in 0.31s", fail=True, description="Run the new test")
    s.say("Same failure as production. Two ways out:\n\n"
          "- turn the identifier off in the TC52's DataWedge profile, or\n"
          "- strip a known symbology identifier in `parse_gs1` before reading AIs.\n\n"
          "I'd do the parser: the next scanner swap (or a reset profile) brings the prefix right back, and the "
          "identifier is harmless to ignore. OK?")
    s.user("ya parser. ty")
    s.edit("invstock/barcode.py", "GS = \"\\x1d\"\n",
           "GS = \"\\x1d\"\n\n"
           "# AIM symbology identifiers a scanner may put before the data (GS1-128, GS1 DataBar, GS1 DataMatrix,\n"
           "# GS1 QR). The TC52s on dock 3 send ]C1 by default; the older scanners had it switched off.\n"
           "SYMBOLOGY_IDS = (\"]C1\", \"]e0\", \"]d2\", \"]Q3\")\n")
    s.edit("invstock/barcode.py",
           "def parse_gs1(data: str) -> Scan:\n    scan = Scan()\n    i = 0\n",
           "def parse_gs1(data: str) -> Scan:\n    scan = Scan()\n"
           "    i = 3 if data[:3] in SYMBOLOGY_IDS else 0\n")
    s.bash("python -m pytest -q", pytest_ok(10, "0.84"), description="Run all tests")
    s.say("Fixed and covered by a test (10 passed). Cause: the new TC52s prepend the symbology identifier "
          "`]C1`, which the parser read as an AI. `parse_gs1` now skips a leading `]C1`/`]e0`/`]d2`/`]Q3`, so "
          "both old and new scanners work without touching the scanner profiles. Deploy and dock 3 should be "
          "back.")
    return [s]


@scenario("count-tolerance", INV, "polite Japanese engineer asks for options; the agent answers with a table and "
          "an extra suggestion; the engineer picks one with an exception, rejects the others with reasons, and "
          "turns the extra suggestion down with a rule",
          [exp("decision", "invstock/reconcile.py:find_discrepancies", "percent tolerance",
               ["absolute units", "value tolerance"]),
           exp("invariant", "invstock/reconcile.py:reconcile", "human must approve", ["auto-post"])])
def _count_tolerance(files):
    s = Session("count-tolerance", "2026-03-12T00:31:00.000Z", files)
    s.user("Good morning. I would like to ask your help about the nightly reconciliation.\n\n"
           "Currently `find_discrepancies` reports every difference, even 1 unit on a bin with 5,000 screws. The "
           "inventory control team receives about 300 lines each morning, and they told me it is too much to "
           "check carefully, so they check nothing carefully. Could you please propose some ways to reduce this "
           "noise? I would like to decide after I see the options. Thank you in advance.")
    s.read("invstock/reconcile.py")
    s.read("invstock/sku.py", limit=45)
    s.say("Here are the three ways I can see to decide whether a difference is worth a line in the report:\n\n"
          "| | rule | good | not so good |\n"
          "|---|---|---|---|\n"
          "| **A. absolute units** | ignore \\|delta\\| ≤ N units | simplest | 2 units of a €900 drill count the "
          "same as 2 screws |\n"
          "| **B. percent tolerance** | ignore \\|delta\\| ≤ p % of expected | scales with the bin size | small "
          "bins: 1 of 3 is already 33 % |\n"
          "| **C. value tolerance** | ignore \\|delta\\| × unit cost ≤ €X | matches the financial risk | needs "
          "`unit_cost_cents` from the catalogue, which the job doesn't load today |\n\n"
          "I'd suggest **B**, with a small floor so that tiny bins still report.\n\n"
          "Separately, we could also auto-post an `adjust()` movement for each difference within tolerance, so "
          "the ledger matches the count the next morning and the small drift doesn't pile up.")
    s.user("Thank you for the clear table, it is very helpful.\n\n"
           "I think B is the best for us: percent tolerance, 2%. However, please make one exception: when the "
           "expected quantity is zero or the counted quantity is zero, always report it, because in our "
           "experience this usually means the stock is in a wrong bin. A is too rough for our mix of items. C is "
           "nice in theory, but our unit costs in the catalogue are not reliable yet, so I prefer not to depend "
           "on them.\n\n"
           "About the auto-post idea: please do not do it. The reconciliation must not change the ledger by "
           "itself. A human must approve every adjustment; this is an audit requirement from our finance "
           "department. Even small ones.")
    s.edit("invstock/reconcile.py",
           "def find_discrepancies(ledger: StockLedger, counts: list[Count]) -> list[Discrepancy]:\n"
           "    out = []\n    for c in counts:\n        expected = ledger.on_hand(c.sku, c.location)\n"
           "        if c.counted != expected:\n",
           "def within_tolerance(expected: int, counted: int, tolerance_pct: float) -> bool:\n"
           "    \"\"\"A difference of at most ``tolerance_pct`` percent of the expected quantity is noise.\n\n"
           "    An empty bin on either side is never noise: it usually means stock in the wrong bin.\"\"\"\n"
           "    if expected == 0 or counted == 0:\n"
           "        return counted == expected\n"
           "    return abs(counted - expected) * 100 <= tolerance_pct * expected\n\n\n"
           "def find_discrepancies(ledger: StockLedger, counts: list[Count],\n"
           "                       tolerance_pct: float = 2.0) -> list[Discrepancy]:\n"
           "    out = []\n    for c in counts:\n        expected = ledger.on_hand(c.sku, c.location)\n"
           "        if not within_tolerance(expected, c.counted, tolerance_pct):\n")
    s.edit("invstock/reconcile.py",
           "def reconcile(ledger: StockLedger, csv_text: str) -> list[Discrepancy]:\n"
           "    counts = read_counts(csv_text)\n    return find_discrepancies(ledger, counts)\n",
           "def reconcile(ledger: StockLedger, csv_text: str, tolerance_pct: float = 2.0) -> list[Discrepancy]:\n"
           "    \"\"\"Reports, never adjusts: every ledger adjustment from a count needs a person's approval\n"
           "    (finance audit requirement), so this only returns the discrepancies for the report.\"\"\"\n"
           "    counts = read_counts(csv_text)\n"
           "    return find_discrepancies(ledger, counts, tolerance_pct)\n")
    s.edit("tests/test_invstock.py", "    assert report(found) == \"sku,location,expected,counted,delta\\nACME-10042,A-03-2,10,9,-1\\n\"\n",
           "    assert report(found) == \"sku,location,expected,counted,delta\\nACME-10042,A-03-2,10,9,-1\\n\"\n\n\n"
           "def test_small_differences_are_noise_but_empty_bins_are_not():\n"
           "    led = StockLedger()\n"
           "    led.receive(\"FAST-00100\", \"D-01-1\", 5000)\n"
           "    led.receive(\"FAST-00200\", \"D-01-2\", 3)\n"
           "    counts = read_counts(\"sku,location,counted\\nFAST-00100,D-01-1,4990\\nFAST-00200,D-01-2,0\\n\")\n"
           "    assert [(d.sku, d.delta) for d in find_discrepancies(led, counts)] == [(\"FAST-00200\", -3)]\n")
    s.bash("python -m pytest -q", pytest_ok(10, "0.89"), description="Run tests")
    s.say("Done, 10 passed.\n\n"
          "- `find_discrepancies` takes `tolerance_pct` (default 2.0): a difference within 2 % of the expected "
          "quantity is not reported.\n"
          "- If expected or counted is zero, the line is always reported.\n"
          "- `reconcile` still only reports. I wrote the approval requirement into its docstring so nobody adds "
          "an automatic adjustment later without knowing why it isn't there.\n\n"
          "On the 5,000-screw bin, anything up to 100 units is now quiet; a 3-unit bin reports any difference "
          "(1 of 3 is 33 %).")
    s.user("Thank you very much. This is exactly what I wanted.")
    return [s]


@scenario("eaches-everywhere", INV, "two sessions a week apart: the agent switches a quantity to cases and is told "
          "quantities are integer eaches everywhere; later, in the barcode module, it returns cases again and is "
          "corrected with the same rule in other words",
          [exp("invariant", "invstock/**/*.py", "eaches")])
def _eaches(files):
    s = Session("eaches-everywhere-1", "2026-03-13T10:20:00.000Z", files)
    s.user("suppliers only ship full cases, so reorder suggestions should come out in whole cases. right now we "
           "suggest 40 of something that comes in 12s and purchasing has to do the maths. can you fix "
           "order_quantity")
    s.read("invstock/reorder.py")
    s.read("invstock/sku.py", offset=30, limit=15)
    s.edit("invstock/reorder.py", "from dataclasses import dataclass\n",
           "import math\nfrom dataclasses import dataclass\n")
    s.edit("invstock/reorder.py", "    reorder_point: int\n    order_qty: int\n",
           "    reorder_point: int\n    order_cases: int\n")
    s.edit("invstock/reorder.py",
           "    \"\"\"Enough to get back to twice the reorder point, at least the supplier's minimum.\"\"\"\n"
           "    want = max(2 * point - available, policy.min_order_qty)\n    return want\n",
           "    \"\"\"Cases to order: enough to get back to twice the reorder point, at least the supplier's minimum.\"\"\"\n"
           "    want = max(2 * point - available, policy.min_order_qty)\n"
           "    return math.ceil(want / sku.case_size)\n")
    s.bash("python -m pytest -q", pytest_ok(9, "0.80"), description="Run tests")
    s.say("`order_quantity` now returns whole cases (`ceil(units / case_size)`), and the field on `Suggestion` "
          "is `order_cases` so it's obvious what the number means. 40 units of a 12-pack → 4 cases.")
    s.user("hm, no. keep it in eaches. order_qty stays a number of eaches, just rounded up to a multiple of "
           "case_size, so 40 -> 48. quantities inside invstock are always integer eaches, full stop. cases only "
           "exist at the edges (the PO export on the ERP side, the label printer). the moment one function "
           "returns cases somebody adds it to an on_hand and we're off by 12x, that's happened before")
    s.edit("invstock/reorder.py", "    reorder_point: int\n    order_cases: int\n",
           "    reorder_point: int\n    order_qty: int  # eaches, a whole number of cases\n")
    s.edit("invstock/reorder.py",
           "    \"\"\"Cases to order: enough to get back to twice the reorder point, at least the supplier's minimum.\"\"\"\n"
           "    want = max(2 * point - available, policy.min_order_qty)\n"
           "    return math.ceil(want / sku.case_size)\n",
           "    \"\"\"Eaches to order: enough to get back to twice the reorder point, at least the supplier's minimum,\n"
           "    rounded up to whole cases (suppliers only ship full cases).\"\"\"\n"
           "    want = max(2 * point - available, policy.min_order_qty)\n"
           "    return math.ceil(want / sku.case_size) * sku.case_size\n")
    s.edit("tests/test_invstock.py", "def test_ean13():\n",
           "def test_order_qty_is_whole_cases_in_eaches():\n"
           "    cat = Catalogue()\n"
           "    cat.add(Sku(\"ACME-10042\", \"blue widget\", case_size=12))\n"
           "    led = StockLedger()\n"
           "    led.receive(\"ACME-10042\", \"A-03-2\", 30)\n"
           "    book = ReservationBook(led)\n"
           "    [s] = suggest(cat, book, {\"ACME-10042\": [2] * 30}, {\"ACME-10042\": ReorderPolicy(10, 15)})\n"
           "    assert s.order_qty == 48\n\n\n"
           "def test_ean13():\n")
    s.bash("python -m pytest -q", pytest_ok(10, "0.82"), description="Run tests")
    s.say("Back to eaches: `order_qty` is 48 for that case (40 wanted, rounded up to 4 × 12). The type stays "
          "`int` and the field name is unchanged, so nothing downstream moves. Test added, 10 passed.")
    s.user("good")

    t = Session("eaches-everywhere-2", "2026-03-20T14:05:00.000Z", files)
    t.user("receiving wants to scan the pallet label instead of counting cases. pallet labels are SSCC + AI 37 "
           "(number of cases on the pallet). add something in barcode.py that gives receiving the qty for a scan")
    t.read("invstock/barcode.py")
    t.edit("invstock/barcode.py", "def ean13_check_digit(first12: str) -> int:\n",
           "def pallet_cases(scan: Scan) -> int:\n"
           "    \"\"\"Number of cases on a pallet label (AI 37); receiving converts to units.\"\"\"\n"
           "    if scan.sscc is None or scan.count is None:\n"
           "        raise BarcodeError(\"not a pallet label with a count (AI 00 + AI 37)\")\n"
           "    return scan.count\n\n\n"
           "def ean13_check_digit(first12: str) -> int:\n")
    t.say("Added `pallet_cases(scan)`: it checks the label has an SSCC and an AI 37 count and returns the "
          "count of cases. Receiving can multiply by the SKU's `case_size` when it books the stock.")
    t.user("no, that hands cases out of the parser. same rule as the reorder change last week: everything inside "
           "invstock is eaches, as ints. do the multiplication here, take the case size as an argument, and "
           "return eaches")
    t.edit("invstock/barcode.py",
           "def pallet_cases(scan: Scan) -> int:\n"
           "    \"\"\"Number of cases on a pallet label (AI 37); receiving converts to units.\"\"\"\n",
           "def receive_qty(scan: Scan, case_size: int) -> int:\n"
           "    \"\"\"Eaches to receive for a pallet label: AI 37 (cases on the pallet) times the case size.\"\"\"\n")
    t.edit("invstock/barcode.py", "    return scan.count\n\n\n",
           "    return scan.count * case_size\n\n\n")
    t.edit("tests/test_invstock.py", "from invstock.barcode import BarcodeError, parse_gs1, validate_ean13\n",
           "from invstock.barcode import BarcodeError, parse_gs1, receive_qty, validate_ean13\n")
    t.edit("tests/test_invstock.py", "def test_reconcile_report():\n",
           "def test_receive_qty_is_eaches():\n"
           "    scan = parse_gs1(\"00\" + \"395011015300000011\" + \"0109501101530003\" + \"37\" + \"40\")\n"
           "    assert receive_qty(scan, case_size=12) == 480\n\n\n"
           "def test_reconcile_report():\n")
    t.bash("python -m pytest -q", pytest_ok(11, "0.86"), description="Run tests")
    t.say("Renamed to `receive_qty(scan, case_size)`; it returns eaches (40 cases × 12 = 480). 11 passed.")
    return [s, t]


@scenario("internal-labels", INV, "a person thinks aloud, talks themselves out of two options and into a "
          "deliberate workaround; the agent asks one question at a time and writes the reason into the code",
          [exp("workaround", "invstock/barcode.py:validate_ean13", "internal prefix", ["reprint", "by hand"])])
def _internal_labels(files):
    s = Session("internal-labels", "2026-03-16T15:40:00.000Z", files)
    s.user("ok so. returns desk says roughly 1 in 20 scans of our OWN shelf labels fail with 'bad check digit'. "
           "those are the in-house ones, start with 20..., printed by the old Datamax on B-dock. honestly maybe "
           "we just reject them and make people key the SKU in by hand? hmm, no, that's like 200 manual entries "
           "a day on returns alone. or we reprint them... there are something like 40k of those labels out "
           "there, no way. ok what about: for our internal prefix (20-29, that's the restricted circulation "
           "range, right?) we just don't check the check digit at all. is that crazy")
    s.read("invstock/barcode.py")
    s.say("Not crazy. 20–29 is GS1's restricted circulation range: those numbers are only valid inside your own "
          "organisation, so a code with a wrong check digit there can't be mistaken for a supplier's GTIN.\n\n"
          "One question before I change anything: do the bad ones fail because the printer computes the digit "
          "wrongly (the same label always fails), or because the digit is smudged and misread (the same label "
          "sometimes passes)?")
    s.user("printer computes it wrong. apparently the firmware has a known bug with some leading-2 codes, so the "
           "same label fails every time. wait, actually, should we log when we skip it? yes, log it, debug level "
           "is fine. so we can see when the Datamax finally dies and this can go")
    s.edit("invstock/barcode.py", "from __future__ import annotations\n\nfrom dataclasses import dataclass\n",
           "from __future__ import annotations\n\nimport logging\nfrom dataclasses import dataclass\n")
    s.edit("invstock/barcode.py", "GS = \"\\x1d\"\n", "log = logging.getLogger(__name__)\n\nGS = \"\\x1d\"\n")
    s.edit("invstock/barcode.py",
           "    if ean13_check_digit(code[:12]) != int(code[12]):\n"
           "        raise BarcodeError(f\"bad check digit: {code}\")\n",
           "    if ean13_check_digit(code[:12]) != int(code[12]):\n"
           "        if code[0] == \"2\":\n"
           "            # Deliberate: our own shelf labels (internal prefix 20-29, GS1 restricted circulation)\n"
           "            # come from the B-dock Datamax, whose firmware gets the check digit wrong. Reprinting\n"
           "            # ~40k labels is not an option and these codes never leave the building, so a wrong\n"
           "            # digit can't collide with a supplier GTIN. Logged so we notice when the printer is gone.\n"
           "            log.debug(\"internal label %s: check digit not verified\", code)\n"
           "            return code\n"
           "        raise BarcodeError(f\"bad check digit: {code}\")\n")
    s.edit("tests/test_invstock.py", "def test_gs1_parse():\n",
           "def test_internal_labels_skip_the_check_digit():\n"
           "    assert validate_ean13(\"2012345000013\") == \"2012345000013\"\n"
           "    with pytest.raises(BarcodeError):\n"
           "        validate_ean13(\"5012345000013\")\n\n\n"
           "def test_gs1_parse():\n")
    s.bash("python -m pytest -q", pytest_ok(10, "0.83"), description="Run tests")
    s.say("Done: codes starting with 2 are accepted even with a wrong check digit, logged at debug; everything "
          "else is still checked (the test uses the same digits with a 5 prefix and it fails). The comment "
          "says why it's there and when it can go.")
    s.user("perfect")
    return [s]


@scenario("night-shift-questions", INV, "a night-shift supervisor asks how the nightly job works; the agent "
          "explains, describes a hypothetical change, and answers a manager's rule reported second-hand; "
          "nothing is changed",
          [])
def _night_questions(files):
    s = Session("night-shift-questions", "2026-03-17T23:10:00.000Z", files)
    s.user("Hello, Marcus here, night shift supervisor. I'm not technical so bear with me. Three questions:\n"
           "1) What exactly does the 2am job compare?\n"
           "2) Why would a bin show up on the morning report when I know we counted it right?\n"
           "3) My manager says we must never count a zone while picking is going on in it. Does the system "
           "actually care, or is that just a floor rule?")
    s.read("invstock/reconcile.py")
    s.read("invstock/stock.py", offset=45, limit=30)
    s.say("Happy to explain.\n\n"
          "**1) What it compares.** Your counters' handhelds upload a file per zone: SKU, bin, how many they "
          "counted. At 2am the job takes each line and compares the count with what the system thinks is in "
          "that bin *at 2am* (every receipt, pick and adjustment added up). Every line where the two differ goes "
          "on the report.\n\n"
          "**2) Why a correct count can show up.** Because of that \"at 2am\". If a bin was counted at 22:00 and "
          "a pick from it was confirmed at 23:30, the system's number at 2am is lower than what your counter "
          "saw, so it looks like a difference even though the count was right. Late receipts do the same in the "
          "other direction.\n\n"
          "If you ever wanted that airtight, the job would need the time of each count and would have to compare "
          "against the stock *at that moment*, which would mean changing how the counts file is read and how the "
          "system adds up movements. That's a real change, not something to do casually.\n\n"
          "**3) Counting during picking.** The system doesn't enforce it; nothing stops a count upload for a "
          "zone with picks going on. So your manager's rule is a floor rule, and a sensible one given the answer "
          "to 2).")
    s.user("ok that makes sense, thanks. I'll pass it on to the day team")
    return [s]


@scenario("rename-movekind", INV, "terse rename across two files; no decision", [])
def _rename(files):
    s = Session("rename-movekind", "2026-03-18T09:01:00.000Z", files)
    s.user("rename MoveKind -> MovementType everywhere. nothing else")
    s.grep("MoveKind", ["invstock/stock.py", "tests/test_invstock.py"])
    s.read("invstock/stock.py")
    for rel in ("invstock/stock.py", "tests/test_invstock.py"):
        for line in [ln for ln in files[rel].split("\n") if "MoveKind" in ln]:
            s.edit(rel, line + "\n", line.replace("MoveKind", "MovementType") + "\n")
    s.grep("MoveKind", [])
    s.bash("python -m pytest -q", pytest_ok(9, "0.79"), description="Run tests")
    s.say("Renamed in `invstock/stock.py` (the class, the `Movement.kind` field and 6 uses) and the test file (import + one assert). No other "
          "references. 9 passed.")
    return [s]


# -- chartlite (TypeScript) ----------------------------------------------------------------------------

CL = "chartlite"


@scenario("tick-float-error", CL, "a developer pastes a failing vitest repro; the agent finds the cause "
          "(accumulated floating-point error from repeated addition) and rewrites the loop",
          [exp("gotcha", "src/ticks.ts:niceTicks", "repeated addition")])
def _tick_float(files):
    s = Session("tick-float-error", "2026-04-01T09:33:00.000Z", files)
    s.user("The conversion-rate chart shows `30.000000000000004%` as a y-axis label (we pass "
           "`format: (v) => `${v * 100}%``). I wrote a repro test, it's failing:\n\n"
           "```ts\nit(\"fractional ticks are exact\", () => {\n"
           "  expect(niceTicks(0, 0.6, 6)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]);\n});\n```\n\n"
           "Could you find out why and fix it? I'd rather not paper over it in our formatter.")
    s.read("src/ticks.ts")
    s.edit("test/chart.test.ts",
           "  it(\"formats\", () => {\n",
           "  it(\"fractional ticks are exact\", () => {\n"
           "    expect(niceTicks(0, 0.6, 6)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]);\n"
           "  });\n\n"
           "  it(\"formats\", () => {\n")
    s.bash("npx vitest run",
           " RUN  v2.1.4 /home/dev/chartlite\n\n"
           " ❯ test/chart.test.ts (8 tests | 1 failed) 27ms\n"
           "   × ticks > fractional ticks are exact 6ms\n"
           "     → expected [ 0, 0.1, 0.2, …(4) ] to deeply equal [ 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6 ]\n\n"
           "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n"
           " FAIL  test/chart.test.ts > ticks > fractional ticks are exact\n"
           "AssertionError: expected [ 0, 0.1, 0.2, …(4) ] to deeply equal [ 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6 ]\n\n"
           "- Expected\n+ Received\n\n"
           "  Array [\n    0,\n    0.1,\n    0.2,\n-   0.3,\n+   0.30000000000000004,\n    0.4,\n    0.5,\n"
           "    0.6,\n  ]\n\n"
           " ❯ test/chart.test.ts:31:38\n\n"
           " Test Files  1 failed (1)\n      Tests  1 failed | 7 passed (8)\n", fail=True,
           description="Run vitest")
    s.say("Reproduced. The cause is the loop in `niceTicks`: it builds ticks by repeated addition, `v += step`. "
          "0.1 has no exact binary representation, and each addition carries the rounding error forward, so "
          "the fourth tick comes out as `0.1 + 0.1 + 0.1 = 0.30000000000000004`. "
          "The built-in `formatTick` hides it with `toFixed(2)`, which is why only custom formats show it.\n\n"
          "Fix: compute each tick as `i * step` from an integer index (no accumulation) and round it to the "
          "step's decimals, which `decimals()` in the same file already computes.")
    s.edit("src/ticks.ts",
           "  const start = Math.ceil(min / step) * step;\n"
           "  const ticks: number[] = [];\n"
           "  for (let v = start; v <= max + step * 1e-9; v += step) {\n"
           "    ticks.push(v);\n"
           "  }\n",
           "  const first = Math.ceil(min / step);\n"
           "  const last = Math.floor(max / step + 1e-9);\n"
           "  const digits = decimals(step);\n"
           "  const ticks: number[] = [];\n"
           "  // i * step, rounded to the step's decimals. Repeated addition (v += step) accumulated the binary\n"
           "  // rounding error: 0.1 + 0.1 + 0.1 = 0.30000000000000004, which custom formats printed.\n"
           "  for (let i = first; i <= last; i++) {\n"
           "    ticks.push(Number((i * step).toFixed(digits)));\n"
           "  }\n")
    s.bash("npx vitest run", vitest_ok(8), description="Run vitest")
    s.say("Fixed, 8 passed including your repro. `niceTicks` now returns exactly `0.3`, so your "
          "formatter doesn't need a workaround.")
    s.user("Perfect, thanks!")
    return [s]


@scenario("bar-width", CL, "agent asks 'X or Y?' inline; the person picks the first, then reverts it later in the "
          "same session after seeing it on a wallboard and goes with the second; tests adjusted",
          [exp("decision", "src/scale.ts:bandScale", "fraction of the band", ["fixed pixel"])])
def _bar_width(files):
    s = Session("bar-width", "2026-04-02T13:15:00.000Z", files)
    s.user("bars are way too fat when there are only 2-3 categories. looks like a chart for toddlers. can we cap "
           "them somehow")
    s.read("src/scale.ts")
    s.read("src/series.ts")
    s.say("Bar width is the band's width × (1 − padding), so with 2 categories on a 900px chart each bar is "
          "360px wide. Two ways to cap it: a fixed pixel cap (say `maxWidth = 48`, bar centred in its band), or "
          "keep it a fraction of the band but never more than some share of the plot, so the gaps grow instead. "
          "Fixed pixel cap or fraction of the band?")
    s.user("fixed pixel, 48 is fine")
    s.edit("src/series.ts",
           "export function barRects(bars: Bar[], x: BandScale, y: LinearScale): BarRect[] {\n"
           "  const base = y(0);\n",
           "export function barRects(bars: Bar[], x: BandScale, y: LinearScale, maxWidth = 48): BarRect[] {\n"
           "  const base = y(0);\n"
           "  const width = Math.min(x.bandwidth, maxWidth);\n"
           "  const inset = (x.bandwidth - width) / 2;\n")
    s.edit("src/series.ts", "      x: x(b.key),\n", "      x: x(b.key) + inset,\n")
    s.edit("src/series.ts", "      width: x.bandwidth,\n", "      width,\n")
    s.edit("test/chart.test.ts",
           "[{ key: \"a\", x: 0, y: 50, width: 100, height: 50 }]",
           "[{ key: \"a\", x: 26, y: 50, width: 48, height: 50 }]")
    s.bash("npx vitest run", vitest_ok(7), description="Run vitest")
    s.say("Capped at 48px and centred in the band; the bar test now expects the 48px bar. 7 passed.")
    s.user("hmm. just put it on the wallboard build. on the big screen the bars are 48px sticks floating in a "
           "1600px chart, looks broken, and on the quarter-width dashboard tile they look fat again. it doesn't "
           "scale with the chart, which is the whole point. revert the pixel cap. fraction of the band it is, "
           "and cap the bar at a sixth of the plot width")
    s.edit("src/series.ts", "      width,\n", "      width: x.bandwidth,\n")
    s.edit("src/series.ts", "      x: x(b.key) + inset,\n", "      x: x(b.key),\n")
    s.edit("src/series.ts",
           "export function barRects(bars: Bar[], x: BandScale, y: LinearScale, maxWidth = 48): BarRect[] {\n"
           "  const base = y(0);\n"
           "  const width = Math.min(x.bandwidth, maxWidth);\n"
           "  const inset = (x.bandwidth - width) / 2;\n",
           "export function barRects(bars: Bar[], x: BandScale, y: LinearScale): BarRect[] {\n"
           "  const base = y(0);\n")
    s.edit("test/chart.test.ts",
           "[{ key: \"a\", x: 26, y: 50, width: 48, height: 50 }]",
           "[{ key: \"a\", x: 0, y: 50, width: 100, height: 50 }]")
    s.edit("src/scale.ts",
           "export function bandScale(keys: string[], range: [number, number], padding = 0.2): BandScale {\n"
           "  const [r0, r1] = range;\n"
           "  const step = (r1 - r0) / Math.max(keys.length, 1);\n"
           "  const bandwidth = step * (1 - padding);\n",
           "export function bandScale(keys: string[], range: [number, number], padding = 0.2,\n"
           "                          maxFraction = 1 / 6): BandScale {\n"
           "  const [r0, r1] = range;\n"
           "  const step = (r1 - r0) / Math.max(keys.length, 1);\n"
           "  // A bar is a fraction of its band, never wider than maxFraction of the whole range: with few keys the\n"
           "  // gaps grow instead of the bars, and it scales with the chart (a pixel cap didn't).\n"
           "  const bandwidth = Math.min(step * (1 - padding), (r1 - r0) * maxFraction);\n")
    s.bash("npx vitest run",
           " RUN  v2.1.4 /home/dev/chartlite\n\n"
           " ❯ test/chart.test.ts (7 tests | 2 failed) 24ms\n"
           "   × scales > band scale spaces keys evenly 4ms\n"
           "     → expected 16.666666666666664 to be 40 // Object.is equality\n"
           "   × series > bars grow from zero 3ms\n"
           "     → expected [ { key: 'a', x: 41.66666666666667, …(3) } ] to deeply equal [ { key: 'a', x: 0, …(3) } ]\n\n"
           " Test Files  1 failed (1)\n      Tests  2 failed | 5 passed (7)\n", fail=True, description="Run vitest")
    s.say("Both failures are the new cap doing its job: those tests use 1–2 keys on a 100px range, so the bar "
          "is capped at 100/6. I'll pin them to `maxFraction = 1` (they test spacing and baselines, not the cap) "
          "and add a test for the cap itself.")
    s.edit("test/chart.test.ts", "    const b = bandScale([\"a\", \"b\"], [0, 100], 0.2);\n",
           "    const b = bandScale([\"a\", \"b\"], [0, 100], 0.2, 1);\n")
    s.edit("test/chart.test.ts", "    const x = bandScale([\"a\"], [0, 100], 0);\n",
           "    const x = bandScale([\"a\"], [0, 100], 0, 1);\n")
    s.edit("test/chart.test.ts",
           "    expect(b(\"b\")).toBe(55);\n  });\n",
           "    expect(b(\"b\")).toBe(55);\n  });\n\n"
           "  it(\"caps a band at a sixth of the range\", () => {\n"
           "    const b = bandScale([\"a\", \"b\"], [0, 600], 0.2);\n"
           "    expect(b.bandwidth).toBe(100);\n"
           "    expect(b(\"a\")).toBe(100);\n"
           "  });\n")
    s.bash("npx vitest run", vitest_ok(8), description="Run vitest")
    s.say("Pixel cap reverted (`barRects` is back to the band width). `bandScale` now caps the band at "
          "`maxFraction` of the range, default 1/6: 2 categories on 1600px → 266px bars with wide gaps, on a "
          "400px tile → 66px. 8 passed.")
    s.user("much better")
    return [s]


@scenario("tooltip-edges", CL, "a long, chatty message: thanks, a release date, then the rule agreed with design "
          "(mid-paragraph, with the option they turned down), a scope limit, and a README remark withdrawn in the "
          "same breath",
          [exp("invariant", "src/tooltip.ts:Tooltip.position", "flips to the left", ["clipping"]),
           exp("boundary", "src/tooltip.ts:Tooltip", "touch")])
def _tooltip(files):
    s = Session("tooltip-edges", "2026-04-06T08:52:00.000Z", files)
    s.user("Morning! A few things, sorry this is long. First, thanks for the legend fix last week, design loved "
           "it and Lena said it's the first time the legend didn't look like an afterthought. Second, the release "
           "is planned for the 14th, so if anything below turns out big, tell me before you dive in. Third, the "
           "actual thing: tooltips near the right-hand side of the chart get cut off by the card's "
           "overflow:hidden, and on the revenue dashboard you literally can't read the December value. I talked "
           "it through with Lena and what we agreed is that the tooltip must always stay fully inside the chart "
           "container: when it would overflow on the right it flips to the left of the cursor, and the same at "
           "the bottom, it flips above. We considered clipping or shrinking it, but a truncated number is worse "
           "than a box that moved. Also, don't bother with touch. Tap-to-show on mobile is its own project and "
           "we're not doing it in this release. Oh, and unrelated, the README still says `npm i chartlite@0.8`, "
           "if you're in there anyway... actually no, leave the README, I'll do it together with the changelog.")
    s.read("src/tooltip.ts")
    s.say("Small change, fine for the 14th. Plan:\n\n"
          "- `position()` measures the tooltip box and the container, and flips left/up when the box would "
          "overflow; it never goes past the top/left edge either.\n"
          "- No touch handlers.\n"
          "- A test with stubbed sizes, since jsdom doesn't do layout.")
    s.edit("src/tooltip.ts",
           "  position(x: number, y: number): void {\n"
           "    this.el.style.left = `${x + this.offset}px`;\n"
           "    this.el.style.top = `${y + this.offset}px`;\n"
           "  }\n",
           "  // Always fully inside the container: near the right edge the box flips to the left of the cursor,\n"
           "  // near the bottom it flips above. Never clipped or shrunk (a cut-off value is worse than a moved\n"
           "  // box). Mouse only: touch is out of scope for this release.\n"
           "  position(x: number, y: number): void {\n"
           "    const w = this.el.offsetWidth;\n"
           "    const h = this.el.offsetHeight;\n"
           "    let left = x + this.offset;\n"
           "    let top = y + this.offset;\n"
           "    if (left + w > this.container.clientWidth) left = x - this.offset - w;\n"
           "    if (top + h > this.container.clientHeight) top = y - this.offset - h;\n"
           "    this.el.style.left = `${Math.max(0, left)}px`;\n"
           "    this.el.style.top = `${Math.max(0, top)}px`;\n"
           "  }\n")
    s.edit("test/chart.test.ts",
           "import { describe, expect, it } from \"vitest\";\n",
           "// @vitest-environment jsdom\nimport { describe, expect, it } from \"vitest\";\n")
    s.edit("test/chart.test.ts",
           "import { formatTick, niceDomain, niceTicks } from \"../src/ticks.js\";\n",
           "import { lightTheme } from \"../src/theme.js\";\n"
           "import { formatTick, niceDomain, niceTicks } from \"../src/ticks.js\";\n"
           "import { Tooltip } from \"../src/tooltip.js\";\n")
    s.edit("test/chart.test.ts",
           "describe(\"series\", () => {\n",
           "describe(\"tooltip\", () => {\n"
           "  it(\"flips left near the right edge\", () => {\n"
           "    const box = document.createElement(\"div\");\n"
           "    Object.defineProperty(box, \"clientWidth\", { value: 300 });\n"
           "    Object.defineProperty(box, \"clientHeight\", { value: 200 });\n"
           "    const tip = new Tooltip(box, lightTheme);\n"
           "    const el = box.querySelector<HTMLDivElement>(\".chartlite-tooltip\")!;\n"
           "    Object.defineProperty(el, \"offsetWidth\", { value: 100 });\n"
           "    Object.defineProperty(el, \"offsetHeight\", { value: 40 });\n"
           "    tip.position(250, 20);\n"
           "    expect(el.style.left).toBe(\"138px\");\n"
           "    expect(el.style.top).toBe(\"32px\");\n"
           "  });\n"
           "});\n\n"
           "describe(\"series\", () => {\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_ok(8, 655), description="Type-check and test")
    s.say("Done; tsc clean, 8 tests pass. The tooltip flips left at the right edge and up at the bottom, and is "
          "never clipped. README untouched, no touch support.")
    s.user("thank you!!")
    return [s]


@scenario("resize-loop", CL, "agent explains a browser error and offers lettered options with a recommendation; "
          "a terse 'yes a' with reasons against the others; the fix looks odd and carries its reason",
          [exp("workaround", "src/resize.ts:observeResize", "requestanimationframe", ["debounce", "wrapper element"])])
def _resize(files):
    s = Session("resize-loop", "2026-04-07T16:20:00.000Z", files)
    s.user("sentry is full of 'ResizeObserver loop completed with undelivered notifications' from the dashboard. "
           "stack points at chartlite")
    s.read("src/resize.ts")
    s.grep("observeResize", ["src/resize.ts"])
    s.say("It comes from `observeResize`. The callback calls `onResize` synchronously, and the chart's render "
          "then changes the container's own size (new `viewBox` via `fitSvg`, the legend rewraps to a different "
          "height). The browser sees a size change caused inside a ResizeObserver callback in the same frame, "
          "can't deliver it, and reports the loop error. Charts still end up right, but every drag of a window "
          "edge logs a few of these.\n\n"
          "a) **Defer the render to the next frame** with `requestAnimationFrame` (cancel a pending one first). "
          "One frame of lag, and several entries during a drag become one render.\n"
          "b) **Debounce** with `setTimeout`, ~100 ms. Fewer renders, but resizing visibly lags.\n"
          "c) **Observe a wrapper element** whose size doesn't depend on the chart. Clean, but every caller has to "
          "change their markup.\n\n"
          "I'd go with a.")
    s.user("yes a. b feels laggy, c breaks everyone's markup")
    s.edit("src/resize.ts",
           "  let last: Size = { width: -1, height: -1 };\n"
           "  const observer = new ResizeObserver((entries) => {\n",
           "  let last: Size = { width: -1, height: -1 };\n"
           "  let frame = 0;\n"
           "  const observer = new ResizeObserver((entries) => {\n")
    s.edit("src/resize.ts",
           "    last = size;\n    onResize(size);\n  });\n  observer.observe(container);\n"
           "  return () => observer.disconnect();\n",
           "    last = size;\n"
           "    // Deliberately one frame late. Rendering inside the observer callback resizes the container (new\n"
           "    // viewBox, legend rewraps), and the browser reports \"ResizeObserver loop completed with\n"
           "    // undelivered notifications\". requestAnimationFrame moves the render out of the callback and\n"
           "    // coalesces a drag's worth of entries into one render per frame.\n"
           "    cancelAnimationFrame(frame);\n"
           "    frame = requestAnimationFrame(() => onResize(size));\n"
           "  });\n"
           "  observer.observe(container);\n"
           "  return () => {\n"
           "    cancelAnimationFrame(frame);\n"
           "    observer.disconnect();\n"
           "  };\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_ok(7, 590), description="Type-check and test")
    s.say("Done. Renders now run in the next animation frame; unobserving also cancels a pending one. tsc "
          "clean, 7 passed (jsdom has no ResizeObserver, so there is no unit test for this; I checked it in the "
          "demo page by dragging the window edge: no more loop errors in the console).")
    return [s]


@scenario("colors-from-theme", CL, "two sessions: a colour rule stated when the agent hardcodes greys in the legend; "
          "restated in other words a week later when it puts a literal colour in the bar series",
          [exp("invariant", "src/**/*.ts", "hardcoded hex")])
def _colors(files):
    s = Session("colors-from-theme-1", "2026-04-08T11:00:00.000Z", files)
    s.user("clicking a legend entry hides the series but the entry itself doesn't change at all. hidden ones "
           "should look greyed out")
    s.read("src/legend.ts")
    s.edit("src/legend.ts",
           "    entry.append(swatch, item.name);\n"
           "    entry.addEventListener(\"click\", () => {\n"
           "      item.visible = !item.visible;\n"
           "      entry.setAttribute(\"aria-pressed\", String(item.visible));\n",
           "    entry.append(swatch, item.name);\n"
           "    const paint = () => {\n"
           "      swatch.style.background = item.visible ? seriesColor(theme, i) : \"#cccccc\";\n"
           "      entry.style.color = item.visible ? theme.text : \"#999999\";\n"
           "    };\n"
           "    paint();\n"
           "    entry.addEventListener(\"click\", () => {\n"
           "      item.visible = !item.visible;\n"
           "      entry.setAttribute(\"aria-pressed\", String(item.visible));\n"
           "      paint();\n")
    s.bash("npx vitest run", vitest_ok(7), description="Run vitest")
    s.say("Hidden entries now get a grey swatch and grey text; clicking again restores the series colour.")
    s.user("works, but no hardcoded hex in components please. in the dark theme #999 on #121212 is barely "
           "readable. every colour comes from the theme object; if you need one that isn't there, add a slot to "
           "Theme. there's already `muted` for exactly this")
    s.edit("src/legend.ts",
           "      swatch.style.background = item.visible ? seriesColor(theme, i) : \"#cccccc\";\n"
           "      entry.style.color = item.visible ? theme.text : \"#999999\";\n",
           "      swatch.style.background = item.visible ? seriesColor(theme, i) : theme.muted;\n"
           "      entry.style.color = item.visible ? theme.text : theme.muted;\n")
    s.bash("npx vitest run", vitest_ok(7), description="Run vitest")
    s.say("Switched both to `theme.muted`, so the dark theme gets its own grey.")

    t = Session("colors-from-theme-2", "2026-04-15T10:12:00.000Z", files)
    t.user("hover on bar charts: when the pointer is on a bar, the other bars should dim. can you add a helper "
           "the renderer can call for the fill")
    t.read("src/series.ts")
    t.read("src/theme.ts")
    t.edit("src/series.ts", "import { BandScale, LinearScale } from \"./scale.js\";\n",
           "import { BandScale, LinearScale } from \"./scale.js\";\nimport { Theme, seriesColor } from \"./theme.js\";\n")
    t.edit("src/series.ts", "export function nearestPoint(",
           "// Fill for bar i while bar `hovered` is under the pointer (-1 for none): the others dim.\n"
           "export function barFill(theme: Theme, i: number, hovered: number): string {\n"
           "  if (hovered < 0 || hovered === i) return seriesColor(theme, 0);\n"
           "  return \"#d0d0d0\";\n"
           "}\n\n"
           "export function nearestPoint(")
    t.say("Added `barFill(theme, i, hovered)`: the hovered bar (or all, when nothing is hovered) keeps the "
          "series colour, the rest go light grey.")
    t.user("no literal colours in series.ts either, that's the same thing we went through with the legend. "
           "colours only ever come from Theme. dim with withAlpha on the palette colour, 0.35")
    t.edit("src/series.ts", "import { Theme, seriesColor } from \"./theme.js\";\n",
           "import { Theme, seriesColor, withAlpha } from \"./theme.js\";\n")
    t.edit("src/series.ts",
           "  if (hovered < 0 || hovered === i) return seriesColor(theme, 0);\n  return \"#d0d0d0\";\n",
           "  const color = seriesColor(theme, 0);\n"
           "  return hovered < 0 || hovered === i ? color : withAlpha(color, 0.35);\n")
    t.edit("test/chart.test.ts", "import { barRects, linePath } from \"../src/series.js\";\n",
           "import { barFill, barRects, linePath } from \"../src/series.js\";\n"
           "import { lightTheme } from \"../src/theme.js\";\n")
    t.edit("test/chart.test.ts", "  it(\"bars grow from zero\", () => {\n",
           "  it(\"dims the bars that are not hovered\", () => {\n"
           "    expect(barFill(lightTheme, 0, 1)).toBe(\"rgba(78, 121, 167, 0.35)\");\n"
           "    expect(barFill(lightTheme, 1, 1)).toBe(\"#4e79a7\");\n"
           "  });\n\n"
           "  it(\"bars grow from zero\", () => {\n")
    t.bash("npx vitest run", vitest_ok(8), description="Run vitest")
    t.say("Now the dimmed bars are the palette colour at 35 % alpha via `withAlpha`; no colour literal in "
          "`series.ts`. Test added, 8 passed.")
    return [s, t]


@scenario("tick-labels", CL, "a decision reached over several short turns, the agent asking one question at a time; "
          "the last answer also leaves a locale option out for now",
          [exp("decision", "src/ticks.ts:formatTick", "compact", ["full digits"]),
           exp("boundary", "src/ticks.ts:formatTick", "always en-us")])
def _tick_labels(files):
    s = Session("tick-labels", "2026-04-09T14:48:00.000Z", files)
    s.user("y axis on the revenue chart says 1250000. make it readable")
    s.read("src/ticks.ts")
    s.say("Sure. Abbreviated like `1.25M`, or full digits with separators like `1,250,000`?")
    s.user("abbreviated")
    s.say("`Intl.NumberFormat` has `notation: \"compact\"`, which gives `1.25M`, `12K`. Apply it to every value, "
          "or only from some size up?")
    s.user("from 10k up. below that plain, 9,500 reads fine")
    s.say("Last one: which locale? The browser's, or an option on the chart?")
    s.user("neither for now. always en-US. we'll add a locale option when the german customers ask for it, not "
           "before")
    s.edit("src/ticks.ts",
           "export function formatTick(value: number): string {\n"
           "  if (Math.abs(value) >= 1000) return value.toFixed(0);\n"
           "  if (Number.isInteger(value)) return String(value);\n"
           "  return value.toFixed(2);\n"
           "}\n",
           "// Always en-US for now; a locale option comes when a customer needs one.\n"
           "const compact = new Intl.NumberFormat(\"en-US\", { notation: \"compact\", maximumFractionDigits: 2 });\n"
           "const plain = new Intl.NumberFormat(\"en-US\", { maximumFractionDigits: 2 });\n\n"
           "// 10,000 and up abbreviated (1.25M, 12K); below that plain digits with grouping (9,500).\n"
           "export function formatTick(value: number): string {\n"
           "  return Math.abs(value) >= 10_000 ? compact.format(value) : plain.format(value);\n"
           "}\n")
    s.edit("test/chart.test.ts", "    expect(formatTick(0.25)).toBe(\"0.25\");\n",
           "    expect(formatTick(0.25)).toBe(\"0.25\");\n"
           "    expect(formatTick(9500)).toBe(\"9,500\");\n"
           "    expect(formatTick(1250000)).toBe(\"1.25M\");\n")
    s.bash("npx vitest run", vitest_ok(7), description="Run vitest")
    s.say("Done: compact notation from 10,000 up (`1.25M`), plain grouped digits below, always en-US. The old "
          "`toFixed` paths are gone. 7 passed.")
    s.user("ty")
    return [s]


@scenario("review-series", CL, "process instructions (lint, tsc) then a review of a module with 'should'/'must' "
          "suggestions; the person only notes them; nothing changes",
          [])
def _review(files):
    s = Session("review-series", "2026-04-10T09:05:00.000Z", files)
    s.user("- run lint + tsc first\n- then review src/series.ts. I'm taking it over from Jonas next sprint\n"
           "- notes only, no changes")
    s.bash("npm run lint", "\n> chartlite@0.9.2 lint\n> eslint src test\n\n", description="Lint")
    s.bash("npx tsc --noEmit", "", description="Type-check")
    s.read("src/series.ts")
    s.say("Lint and tsc are clean. Notes on `src/series.ts`:\n\n"
          "1. `linePath` breaks the line on a non-finite `y` but not on a non-finite `x`; a `NaN` x would write "
          "`MNaN,…` into the path. It should probably treat both the same.\n"
          "2. `barRects` assumes the y domain contains 0 (`base = y(0)`). With a domain like `[50, 100]` bars "
          "start below the plot. It must either clamp the base to the range or the caller must guarantee a "
          "zero-based domain; today nothing says which.\n"
          "3. `nearestPoint` is a linear scan. Points are sorted by `x` in every caller I can see, so a binary "
          "search would make hover O(log n); only matters past a few thousand points.\n"
          "4. `toFixed(2)` in paths is fine at screen scale; worth a comment so nobody \"fixes\" it.\n\n"
          "Nothing urgent; 2 is the one I'd look at first.")
    s.user("thx, noted. will go through them with Jonas")
    return [s]


@scenario("animation-questions", CL, "a non-native speaker asks how animations would work and reports a "
          "colleague's rule; the agent sketches a plan nobody adopts; the person will decide in a meeting",
          [])
def _animation(files):
    s = Session("animation-questions", "2026-04-13T12:30:00.000Z", files)
    s.user("Hello. Please can you explain me how we would add animations to the line series, when data is "
           "updated? We do not implement now, I want to understand first. Also my colleague Kenji says we must "
           "use canvas instead of SVG when there are more than 10k points, is it true?")
    s.read("src/series.ts")
    s.read("src/axis.ts", limit=30)
    s.say("Sure. How I'd approach it:\n\n"
          "**Animating a line on update**\n"
          "1. Keep the previous points. On update, resample old and new to the same number of points (by x).\n"
          "2. Each animation frame, interpolate y between old and new with an easing function and rebuild the "
          "path with `linePath`.\n"
          "3. Axes would animate their domain the same way, or just jump (most libraries jump the axis and "
          "animate only the data).\n\n"
          "CSS transitions on the `d` attribute look tempting but only work in Chromium, so I wouldn't rely on "
          "them.\n\n"
          "**Canvas for 10k points**\n"
          "Kenji's point is right for scatter plots, where every point is its own SVG element and things slow "
          "down somewhere between 5k and 10k nodes. A line series is one `<path>`, so 10k points is still one "
          "element; the cost is the path string and hit-testing on hover (`nearestPoint` is a linear scan). If we "
          "ever add scatter, canvas would be worth a look for that series type.")
    s.user("Okay, thank you, this is clear. I will bring it to the team on Thursday and we decide there.")
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
