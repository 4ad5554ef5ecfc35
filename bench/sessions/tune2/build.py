"""Writes the tune2 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``depot`` (Python, warehouse stock keeping) and
``tidyrc`` (TypeScript, the config loader of a CLI linter). Sessions are written with the
``Session`` builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py`` after
changing a scenario (outputs are committed). ``python3 build.py --check`` also replays every
scenario on a copy of its repository and checks that every expected anchor exists at the end.
"""

from __future__ import annotations

import json
import re
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


PYTEST_OK = "..\n2 passed in 0.03s"


# -- depot (Python) --------------------------------------------------------------------------------------


@scenario("utc-instants", "depot", "an invariant stated as a plain fact ('full stop'), restated in a later session",
          [exp("invariant", "src/depot/clock.py:now", "utc")])
def _utc(files):
    a = Session("utc-instants-1", "2026-11-23T08:14:00.000Z", files)
    a.user("the history timestamps are off by an hour since sunday. the server runs in us-east and the floor "
           "people read them in rotterdam time, so who knows what we're even storing rn")
    a.read("src/depot/clock.py")
    a.say("`now()` returns `datetime.now()` — a naive local time of whatever machine runs it, so the history "
          "rows carry the server's wall clock with no zone attached. After the DST switch on Sunday the two "
          "ends disagree by an hour.\n\nI can make `now()` zone-aware. Which zone should the ledger keep?")
    a.user("we store everything as UTC instants, full stop. converting to amsterdam time is the UI's job, "
           "not the ledger's")
    a.edit("src/depot/clock.py", "from datetime import datetime\n\n\ndef now():\n    return datetime.now()\n",
           "from datetime import datetime, timezone\n\n\ndef now():\n    return datetime.now(timezone.utc)\n")
    a.say("`now()` now returns an aware UTC datetime. `stamp()` still formats without an offset, which will read "
          "as local time to anyone looking at a log. Want the offset in there?")
    a.user("yeah put a Z on it")
    a.edit("src/depot/clock.py", "    return dt.strftime(\"%Y-%m-%d %H:%M:%S\")\n",
           "    return dt.astimezone(timezone.utc).strftime(\"%Y-%m-%dT%H:%M:%SZ\")\n")
    a.bash("python -m pytest -q", PYTEST_OK)
    a.say("Done:\n\n- `now()` → `datetime.now(timezone.utc)`\n- `stamp()` → ISO 8601 with a trailing `Z`\n\n"
          "Tests pass.")

    b = Session("utc-instants-2", "2026-11-30T13:40:00.000Z", files)
    b.user("add a helper in clock.py that takes a datetime from the handheld api and gives back what we store. "
           "reminder: ledger times are UTC instants only, like we settled last week, so a naive datetime "
           "coming in is a bug on their side -> reject it, don't guess a zone")
    b.read("src/depot/clock.py")
    b.edit("src/depot/clock.py", "def stamp(dt):\n",
           "def to_stored(dt):\n    if dt.tzinfo is None:\n"
           "        raise ValueError(f\"naive datetime {dt.isoformat()}: the ledger stores UTC instants only\")\n"
           "    return dt.astimezone(timezone.utc)\n\n\ndef stamp(dt):\n")
    b.bash("python -c \"from datetime import datetime; from depot.clock import to_stored; "
           "to_stored(datetime(2026, 11, 30, 9))\"",
           "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
           "  File \"/srv/depot/src/depot/clock.py\", line 10, in to_stored\n    raise ValueError(\n"
           "ValueError: naive datetime 2026-11-30T09:00:00: the ledger stores UTC instants only", fail=True)
    b.say("`to_stored()` converts aware datetimes to UTC and refuses naive ones with a message that says why "
          "(the error above is the intended behaviour).")
    return [a, b]


@scenario("reserve-options", "depot", "agent lists options, the person answers with one letter",
          [exp("decision", "src/depot/stock.py:StockLedger.reserve", "version",
               ["a lock per sku", "let available go negative"])])
def _reserve(files):
    s = Session("reserve-options", "2026-11-24T10:02:00.000Z", files)
    s.user("Two pickers both got the last 3 units of CABLE-2M reserved this morning. The handheld service "
           "runs the ledger in a thread pool, so I guess reserve() races. How do we want to handle this?")
    s.read("src/depot/stock.py")
    s.say("Yes — `reserve()` checks `available()` and then writes `reserved`, and nothing stops a second thread "
          "from running the check in between.\n\n## Options\n\n"
          "**A. A lock per SKU.** Wrap check-and-update in a `threading.Lock` keyed by SKU. Simple, but it "
          "only works while there's one process; the moment we run two workers it's back.\n\n"
          "**B. Optimistic version check.** Keep a version number per SKU; `reserve()` takes the version the "
          "caller saw and fails with `Conflict` if it moved. Callers retry. Works across processes once the "
          "ledger lives in the DB.\n\n"
          "**C. Let available go negative** and flag the SKU for a manual recount. No contention at all, but "
          "someone has to clean up after it and a customer may be promised stock we don't have.\n\n"
          "I'd lean towards B.")
    s.user("B. the handhelds already retry on 409 anyway")
    s.edit("src/depot/stock.py", "class OutOfStock(Exception):\n    pass\n",
           "class OutOfStock(Exception):\n    pass\n\n\nclass Conflict(Exception):\n    pass\n")
    s.edit("src/depot/stock.py", "        self.reserved = {}\n        self.history = []\n",
           "        self.reserved = {}\n        self.versions = {}\n        self.history = []\n")
    s.edit("src/depot/stock.py",
           "    def reserve(self, sku, qty):\n        if self.available(sku) < qty:\n            raise OutOfStock(sku)\n"
           "        self.reserved[sku] = self.reserved.get(sku, 0) + qty\n",
           "    def version(self, sku):\n        return self.versions.get(sku, 0)\n\n"
           "    def reserve(self, sku, qty, seen_version):\n        if self.version(sku) != seen_version:\n"
           "            raise Conflict(sku)\n        if self.available(sku) < qty:\n            raise OutOfStock(sku)\n"
           "        self.reserved[sku] = self.reserved.get(sku, 0) + qty\n        self.versions[sku] = seen_version + 1\n")
    s.bash("python -m pytest -q", "FF\n=================================== FAILURES ===================================\n"
           "________________________ test_reserve_reduces_available ________________________\n"
           "E       TypeError: StockLedger.reserve() missing 1 required positional argument: 'seen_version'\n"
           "______________________________ test_reserve_too_much ______________________________\n"
           "E       TypeError: StockLedger.reserve() missing 1 required positional argument: 'seen_version'\n"
           "2 failed in 0.04s", fail=True)
    s.edit("tests/test_stock.py", "    led.reserve(\"BOLT-M6\", 30)\n", "    led.reserve(\"BOLT-M6\", 30, led.version(\"BOLT-M6\"))\n")
    s.edit("tests/test_stock.py", "        led.reserve(\"BOLT-M6\", 6)\n", "        led.reserve(\"BOLT-M6\", 6, 0)\n")
    s.bash("python -m pytest -q", PYTEST_OK)
    s.say("`reserve()` now takes the version the caller read and raises `Conflict` when another reservation got "
          "there first; the service can map that to the 409 the handhelds already retry on.")
    return [s]


@scenario("quantities-decimal", "depot", "the person proposes floats, the agent pushes back, then a mid-implementation correction",
          [exp("decision", "src/depot/units.py:convert", "decimal", ["float", "fraction"])])
def _decimal(files):
    s = Session("quantities-decimal", "2026-11-24T15:30:00.000Z", files)
    s.user("convert('each','case') gives 0.4166666666666667 for 5 each and then int() somewhere chops it. "
           "lets just make all quantities float everywhere and be done")
    s.read("src/depot/units.py")
    s.say("I'd rather not go to floats across the board. A few concrete problems:\n\n"
          "- `0.1 + 0.2` kg of product ends up as `0.30000000000000004`, and `available() <= reorder_point` "
          "comparisons start flipping on noise\n"
          "- stock counts get summed thousands of times in `history` replays, so the error accumulates\n"
          "- equality checks in tests get flaky\n\n"
          "Two alternatives: `decimal.Decimal` quantized to a fixed number of places, or `fractions.Fraction` "
          "which is exact but prints as `5/12` and nobody on the floor wants to read that.")
    s.user("hm ok fair. fraction is overkill. decimal then")
    s.edit("src/depot/units.py", "FACTORS = {\n",
           "from decimal import ROUND_HALF_EVEN, Decimal\n\nPLACES = Decimal(\"0.01\")\n\nFACTORS = {\n")
    s.user("wait no — 3 places not 2. we sell saffron by the gram, 0.01 kg is way too coarse")
    s.edit("src/depot/units.py", "PLACES = Decimal(\"0.01\")\n", "PLACES = Decimal(\"0.001\")\n")
    s.edit("src/depot/units.py",
           "    if src == dst:\n        return qty\n    if (src, dst) in FACTORS:\n        return qty * FACTORS[(src, dst)]\n"
           "    if (dst, src) in FACTORS:\n        return qty / FACTORS[(dst, src)]\n",
           "    qty = Decimal(qty)\n    if src == dst:\n        return qty\n    if (src, dst) in FACTORS:\n"
           "        return (qty * FACTORS[(src, dst)]).quantize(PLACES, ROUND_HALF_EVEN)\n    if (dst, src) in FACTORS:\n"
           "        return (qty / FACTORS[(dst, src)]).quantize(PLACES, ROUND_HALF_EVEN)\n")
    s.bash("python -c \"from depot.units import convert; print(convert(5, 'each', 'case'))\"", "0.417")
    s.say("`convert()` now works in `Decimal` and quantizes to 3 places (banker's rounding), so 5 each is "
          "`0.417` case.")
    return [s]


@scenario("reorder-revert", "depot", "a choice made, then reverted later in the same session; the final one counts",
          [exp("decision", "src/depot/reorder.py:reorder_point", "safety stock", ["moving average"])])
def _reorder(files):
    s = Session("reorder-revert", "2026-11-25T09:10:00.000Z", files)
    s.user("we keep running dry on fast movers because reorder_point is just demand*lead time, zero buffer. "
           "ideas?")
    s.read("src/depot/reorder.py")
    s.say("The usual fixes:\n\n1. **Fixed safety stock per SKU** — `demand × lead_time + safety_stock`, with "
          "the buffer set by purchasing.\n2. **Moving average** — compute demand from the last 30 days of "
          "`history` plus a variability term, so the buffer adjusts itself.\n\n"
          "The second needs no manual upkeep.")
    s.user("moving avg sounds smart. do that")
    s.edit("src/depot/reorder.py", "def reorder_point(daily_demand, lead_time_days):\n    return daily_demand * lead_time_days\n",
           "def moving_average(ledger, sku, days=30):\n"
           "    shipped = [q for t, kind, s, q in ledger.history if kind == \"ship\" and s == sku]\n"
           "    return sum(shipped[-days:]) / days\n\n\n"
           "def reorder_point(daily_demand, lead_time_days):\n    return daily_demand * lead_time_days * 1.5\n")
    s.say("First cut in: `moving_average()` over the last 30 shipments, and a 1.5× cover factor. I still need "
          "to wire it into `needs_reorder`.")
    s.user("hold on. just talked to Priya in purchasing - they don't trust anything that moves on its own, "
           "they want to set the buffer themselves per sku in their sheet. scrap the moving average, go with "
           "the fixed safety stock")
    s.edit("src/depot/reorder.py",
           "def moving_average(ledger, sku, days=30):\n"
           "    shipped = [q for t, kind, s, q in ledger.history if kind == \"ship\" and s == sku]\n"
           "    return sum(shipped[-days:]) / days\n\n\n"
           "def reorder_point(daily_demand, lead_time_days):\n    return daily_demand * lead_time_days * 1.5\n",
           "def reorder_point(daily_demand, lead_time_days, safety_stock=0):\n"
           "    return daily_demand * lead_time_days + safety_stock\n")
    s.edit("src/depot/reorder.py",
           "def needs_reorder(ledger, sku, daily_demand, lead_time_days):\n"
           "    return ledger.available(sku) <= reorder_point(daily_demand, lead_time_days)\n",
           "def needs_reorder(ledger, sku, daily_demand, lead_time_days, safety_stock=0):\n"
           "    return ledger.available(sku) <= reorder_point(daily_demand, lead_time_days, safety_stock)\n")
    s.bash("python -m pytest -q", PYTEST_OK)
    s.say("Reverted the moving average. `reorder_point()` is now `demand × lead_time + safety_stock`, where "
          "`safety_stock` comes from purchasing per SKU (default 0, so existing callers behave as before).")
    return [s]


@scenario("bin-leading-zeros", "depot", "a terse 'never' rule from the person",
          [exp("invariant", "src/depot/locations.py:parse_bin", "leading zero")])
def _bins(files):
    s = Session("bin-leading-zeros", "2026-11-25T14:00:00.000Z", files)
    s.user("parse_bin('A07-03') -> ('A', 7, 3). label printer then prints A7-3 and the scanners cant find the "
           "bin. never strip leading zeros from bin codes, they're identifiers not numbers")
    s.read("src/depot/locations.py")
    s.edit("src/depot/locations.py", "    aisle, rack, shelf = m.groups()\n    return aisle, int(rack), int(shelf)\n",
           "    # rack and shelf stay strings: \"07\" and \"7\" are different bins\n    return m.groups()\n")
    s.bash("python -c \"from depot.locations import parse_bin, format_bin; print(format_bin(*parse_bin('A07-03')))\"",
           "A07-03")
    s.say("fixed, round-trips as `A07-03` now.")
    s.user("k")
    return [s]


@scenario("import-csv", "depot", "a scope boundary, and a deliberate workaround the agent explains after a failure",
          [exp("boundary", "src/depot/importer.py:import_csv", "xlsx"),
           exp("workaround", "src/depot/importer.py:import_csv", "utf-8-sig")])
def _import(files):
    s = Session("import-csv", "2026-11-26T11:20:00.000Z", files)
    s.user("Suppliers send their delivery notes as CSV, a couple send xlsx. Can you make the importer robust "
           "enough for the real files? Attached one in tests/data. Leave xlsx out for now — CSV only, we'll see "
           "if anyone complains.")
    s.read("src/depot/importer.py")
    s.write("tests/test_importer.py", "from pathlib import Path\n\nfrom depot.importer import import_csv\n"
            "from depot.stock import StockLedger\n\n\ndef test_supplier_file(tmp_path):\n"
            "    f = tmp_path / \"note.csv\"\n    f.write_bytes(\"\\ufeffsku,bin,qty\\nBOLT-M6,A07-03,40\\n\".encode())\n"
            "    led = StockLedger()\n    assert import_csv(f, led) == 1\n    assert led.available(\"BOLT-M6\") == 40\n")
    s.bash("python -m pytest -q tests/test_importer.py",
           "F\n=================================== FAILURES ===================================\n"
           "______________________________ test_supplier_file ______________________________\n\n"
           "    def import_csv(path, ledger):\n        count = 0\n        with open(path, newline=\"\") as fh:\n"
           "            for row in csv.DictReader(fh):\n                parse_bin(row[\"bin\"])\n"
           ">               ledger.receive(row[\"sku\"], int(row[\"qty\"]))\nE               KeyError: 'sku'\n\n"
           "src/depot/importer.py:11: KeyError\n1 failed in 0.05s", fail=True)
    s.say("The header's first cell is `\\ufeffsku`, not `sku`: Excel puts a byte order mark at the start of "
          "\"CSV UTF-8\" exports, and Python's `utf-8` codec keeps it as a character.\n\n"
          "I'll open the file with `encoding=\"utf-8-sig\"`. That's deliberate, a workaround for Excel: "
          "`utf-8-sig` drops a leading BOM if there is one and reads plain UTF-8 files unchanged, so it's safe "
          "for suppliers who don't use Excel too. I'll leave a comment so nobody \"simplifies\" it back.")
    s.edit("src/depot/importer.py", "    with open(path, newline=\"\") as fh:\n",
           "    # utf-8-sig, not utf-8: Excel's \"CSV UTF-8\" export starts with a BOM that would end up in the\n"
           "    # first header name\n    with open(path, newline=\"\", encoding=\"utf-8-sig\") as fh:\n")
    s.bash("python -m pytest -q tests/test_importer.py", ".\n1 passed in 0.02s")
    s.say("Passes. I didn't touch xlsx — `import_csv` still only reads CSV.")
    return [s]


@scenario("scanner-lowercase", "depot", "failure then fix: a gotcha found from a pasted stack trace",
          [exp("gotcha", "src/depot/locations.py:parse_bin", "lowercase")])
def _lower(files):
    s = Session("scanner-lowercase", "2026-11-26T16:45:00.000Z", files)
    s.user("getting this from the new zebra scanners, no idea why, worked with the old ones:\n\n```\n"
           "Traceback (most recent call last):\n  File \"/srv/depot/api/moves.py\", line 31, in post_move\n"
           "    dest = parse_bin(body[\"to\"])\n  File \"/srv/depot/src/depot/locations.py\", line 9, in parse_bin\n"
           "    raise ValueError(f\"bad bin code: {code!r}\")\nValueError: bad bin code: 'b12-04'\n```")
    s.read("src/depot/locations.py")
    s.say("The new scanners send the code in lowercase (`b12-04`) and `BIN_RE` only accepts `[A-Z]` for the "
          "aisle. The old ones must have been configured to upper-case. Bin codes are case-insensitive on the "
          "labels, so I'll normalise to upper case before matching.")
    s.edit("src/depot/locations.py", "    m = BIN_RE.match(code.strip())\n",
           "    # some scanners send lowercase codes (b12-04); labels are upper case\n"
           "    m = BIN_RE.match(code.strip().upper())\n")
    s.bash("python -c \"from depot.locations import parse_bin; print(parse_bin('b12-04'))\"", "('B', 12, 4)")
    s.say("Works for `b12-04` now.")
    s.user("nice ty")
    return [s]


@scenario("explain-ledger", "depot", "questions and a long explanation, no decision", [])
def _explain(files):
    s = Session("explain-ledger", "2026-11-27T09:00:00.000Z", files)
    s.user("im new on this codebase. whats the difference between on_hand and available and why does ship() "
           "call release() first? seems backwards")
    s.read("src/depot/stock.py")
    s.say("## `on_hand` vs `available`\n\n"
          "- **`on_hand`** is physical: how many units are in the building. Only `receive()` and `ship()` "
          "change it.\n- **`reserved`** is promised: units allocated to orders that haven't left yet.\n"
          "- **`available()`** is derived: `on_hand - reserved`, i.e. what you could still promise.\n\n"
          "## Why `ship()` releases first\n\n"
          "An order reserves stock when it's placed and ships later. When it ships, two things happen:\n\n"
          "1. the promise is fulfilled, so the reservation goes away → `release()`\n"
          "2. the units leave the building → `on_hand -= qty`\n\n"
          "If it only decremented `on_hand`, the units would be subtracted twice from `available()` (once via "
          "`reserved`, once via `on_hand`). Doing both keeps `available()` unchanged by a shipment, which is "
          "right: nothing new was promised or received.\n\n"
          "One thing to watch: `ship()` doesn't check that a reservation existed, so shipping unreserved stock "
          "makes `reserved` negative.")
    s.user("ahh ok that makes sense. the negative thing - is that a real problem in prod?")
    s.say("Only if something calls `ship()` without reserving first. The order service always reserves, so "
          "today it doesn't happen. The CLI tool for manual corrections might, but I can't see its code from "
          "here.")
    s.user("ok cool thx, thats all i needed")
    return [s]


@scenario("colleague-and-hypothetical", "depot", "misleading: a colleague's rule not adopted, a hypothetical, "
          "a quoted snippet, a process instruction; the actual work is a rename", [])
def _mislead(files):
    s = Session("colleague-and-hypothetical", "2026-11-27T13:30:00.000Z", files)
    s.user("small thing: in tests/test_stock.py rename `led` to `ledger`, its unreadable. run the tests first "
           "before you touch anything pls")
    s.bash("python -m pytest -q", PYTEST_OK)
    s.read("tests/test_stock.py")
    s.edit("tests/test_stock.py",
           "    led = StockLedger()\n    led.receive(\"BOLT-M6\", 100)\n    led.reserve(\"BOLT-M6\", 30)\n"
           "    assert led.available(\"BOLT-M6\") == 70\n",
           "    ledger = StockLedger()\n    ledger.receive(\"BOLT-M6\", 100)\n    ledger.reserve(\"BOLT-M6\", 30)\n"
           "    assert ledger.available(\"BOLT-M6\") == 70\n")
    s.edit("tests/test_stock.py",
           "    led = StockLedger()\n    led.receive(\"BOLT-M6\", 5)\n    with pytest.raises(OutOfStock):\n"
           "        led.reserve(\"BOLT-M6\", 6)\n",
           "    ledger = StockLedger()\n    ledger.receive(\"BOLT-M6\", 5)\n    with pytest.raises(OutOfStock):\n"
           "        ledger.reserve(\"BOLT-M6\", 6)\n")
    s.bash("python -m pytest -q", PYTEST_OK)
    s.say("Renamed in both tests; still green.")
    s.user("thanks. unrelated, Joost keeps saying we should always round received quantities up to whole "
           "cases, like\n\n```python\nqty = math.ceil(qty / 12) * 12\n```\n\nin receive(). thoughts? i'm not "
           "convinced")
    s.say("I'd be wary of it:\n\n- it makes `on_hand` disagree with what's physically on the shelf whenever a "
          "partial case arrives\n- suppliers do ship loose units (returns, samples)\n- rounding belongs to "
          "ordering, if anywhere, not to counting\n\nIf the goal is ordering whole cases, that could live in the "
          "purchase order code instead.")
    s.user("yeah thats what i told him. not doing it. also if we ever go multi-warehouse the ledger would "
           "need a location key on everything, right? not planning it, just thinking out loud")
    s.say("Right — `on_hand`, `reserved` and `history` would all be keyed by `(warehouse, sku)`, and "
          "`available()` would take a warehouse. It's a mechanical change while the ledger is this small.")
    s.user("ok good to know. thats it for today")
    return [s]


@scenario("release-below-zero", "depot", "a rule reached over several turns with a digression in between",
          [exp("invariant", "src/depot/stock.py:StockLedger.release", "below zero", ["clamp"])])
def _release(files):
    s = Session("release-below-zero", "2026-11-30T10:05:00.000Z", files)
    s.user("the recount report shows reserved = -4 for GLOVE-L. how does that even happen")
    s.read("src/depot/stock.py")
    s.say("`release()` subtracts without checking, so releasing more than was reserved (a cancelled order "
          "released twice, say) takes it below zero. Two ways to stop that:\n\n"
          "- **clamp** at zero silently\n- **raise** when the release is bigger than what's reserved")
    s.user("before that — why does pytest print `PytestUnknownMarkWarning: Unknown pytest.mark.slow`?")
    s.bash("grep -rn \"mark.slow\" tests/ pyproject.toml", "", fail=True)
    s.bash("python -m pytest -q -W error::pytest.PytestUnknownMarkWarning", PYTEST_OK)
    s.say("Nothing in this repo uses `mark.slow`, and with the warning turned into an error the suite still "
          "passes here, so it comes from outside the repo — a plugin or a `conftest.py` further up on your "
          "machine.")
    s.user("ah it's my global conftest. nvm. ok back to release: raise. clamping hides the double release and "
           "then the count is wrong somewhere else. reserved must never go below zero, and if something tries, "
           "i want to hear about it")
    s.edit("src/depot/stock.py",
           "    def release(self, sku, qty):\n        self.reserved[sku] = self.reserved.get(sku, 0) - qty\n",
           "    def release(self, sku, qty):\n        held = self.reserved.get(sku, 0)\n        if qty > held:\n"
           "            raise ValueError(f\"release of {qty} {sku} but only {held} reserved\")\n"
           "        self.reserved[sku] = held - qty\n")
    s.bash("python -m pytest -q", PYTEST_OK)
    s.say("`release()` now raises `ValueError` when asked to release more than is reserved, so `reserved` can't "
          "go below zero and a double release shows up as an error at the place it happens.")
    return [s]


# -- tidyrc (TypeScript) ---------------------------------------------------------------------------------

VITEST_OK = (" ✓ test/merge.test.ts (2 tests) 3ms\n\n Test Files  1 passed (1)\n      Tests  2 passed (2)\n"
             "   Start at  10:41:07\n   Duration  212ms")


@scenario("merge-arrays", "tidyrc", "options; the person answers by quoting part of one",
          [exp("decision", "src/merge.ts:deepMerge", "replace", ["concatenate", "merge by key"])])
def _arrays(files):
    s = Session("merge-arrays", "2026-11-23T10:30:00.000Z", files)
    s.user("when a project config `extends` the shared one, what happens to `include`? I have include = "
           "[\"src/**\"] locally and the base has [\"**/*\"] and tidy seems to lint everything")
    s.read("src/merge.ts")
    s.say("`deepMerge` only recurses into objects; for anything else it returns `over`, so arrays are already "
          "replaced... except `extends` is resolved *before* validation, and `validate()` fills in "
          "`include: [\"**/*\"]` when a file doesn't set it. Let me check your case in a test first.\n\n"
          "Either way we should pin down what arrays do on merge, because right now it's an accident. Options:\n\n"
          "1. **Later file replaces the array** — what you set locally is exactly what you get. Easy to "
          "explain.\n2. **Concatenate** — base + local. Good for `exclude`, surprising for `include`.\n"
          "3. **Merge by key** — only makes sense for arrays of tables, we have none.\n\nWhich one?")
    s.user("\"later file replaces the array\" — that one. concat bit us in eslint for years")
    s.edit("src/merge.ts", "export function deepMerge(base: Json, over: Json): Json {\n",
           "// Arrays are replaced, never concatenated: the later file's list is the whole list.\n"
           "export function deepMerge(base: Json, over: Json): Json {\n  if (Array.isArray(over)) return over;\n")
    s.edit("test/merge.test.ts", "  it(\"merges nested tables\", () => {\n",
           "  it(\"replaces arrays\", () => {\n"
           "    expect(deepMerge({ include: [\"**/*\"] }, { include: [\"src/**\"] })).toEqual({ include: [\"src/**\"] });\n"
           "  });\n  it(\"merges nested tables\", () => {\n")
    s.bash("npx vitest run", VITEST_OK.replace("2 tests", "3 tests").replace("2 passed (2)", "3 passed (3)"))
    s.say("Arrays from the later file now replace the earlier one explicitly, with a test. Your lint-everything "
          "problem is the `validate()` default — the base file gets validated on its own and gains "
          "`include: [\"**/*\"]`; want me to look at that separately?")
    s.user("later, not today")
    return [s]


@scenario("env-expansion", "tidyrc", "a decision and a rule spread over turns, with a digression about CI",
          [exp("decision", "src/env.ts:expandEnv", "braces", ["bare $NAME"]),
           exp("invariant", "src/env.ts:expandEnv", "missing")])
def _env(files):
    s = Session("env-expansion", "2026-11-24T08:50:00.000Z", files)
    s.user("Our monorepo config has `exclude = [\"$BUILD_DIR/**\", \"fixtures/$5-offer/**\"]` and the second "
           "one gets mangled. Can you look at expandEnv?")
    s.read("src/env.ts")
    s.say("The pattern makes the braces optional: `\\$\\{?([A-Z_][A-Z0-9_]*)\\}?`. So:\n\n"
          "- `$BUILD_DIR` expands (fine)\n- `$5-offer` doesn't match (names can't start with a digit), so that "
          "one's actually untouched — but `fixtures/$OFFER_5` would be eaten\n"
          "- unset variables become `\"\"`, so `$BUILD_DIR/**` turns into `/**` when `BUILD_DIR` isn't set, "
          "which excludes... the filesystem root.\n\nWe could accept only `${NAME}` with braces, or keep bare "
          "$NAME too and add an escape like `$$`.")
    s.user("hmm. let me check something in CI first, brb")
    s.user("ok so CI sets BUILD_DIR only in the build job, not in the lint job, which explains last week's "
           "'tidy passed on nothing' mystery lol")
    s.say("That fits: with `BUILD_DIR` unset the exclude became `/**` and matched every file, so nothing was "
          "linted and the job went green.")
    s.user("right. so: braces only, bare $NAME stays literal. and a missing variable is an error, never an "
           "empty string — silently linting nothing is exactly how we got burned")
    s.edit("src/env.ts",
           "const VAR = /\\$\\{?([A-Z_][A-Z0-9_]*)\\}?/g;\n\n"
           "export function expandEnv(value: string, env: NodeJS.ProcessEnv = process.env): string {\n"
           "  return value.replace(VAR, (_m, name: string) => env[name] ?? \"\");\n}\n",
           "const VAR = /\\$\\{([A-Z_][A-Z0-9_]*)\\}/g;\n\n"
           "export function expandEnv(value: string, env: NodeJS.ProcessEnv = process.env): string {\n"
           "  return value.replace(VAR, (_m, name: string) => {\n    const v = env[name];\n"
           "    if (v === undefined) throw new Error(`\\${${name}} is not set`);\n    return v;\n  });\n}\n")
    s.bash("npx tsc -p . --noEmit", "")
    s.say("Done:\n\n- only `${NAME}` is expanded; `$NAME` is left as written\n- an unset variable throws "
          "`${NAME} is not set` instead of expanding to nothing\n\nYou'll need to change `$BUILD_DIR` to "
          "`${BUILD_DIR}` in the monorepo config, and the lint job will now fail loudly until CI sets it.")
    s.user("good, that's the point")
    return [s]


@scenario("search-stops-at-repo", "tidyrc", "a correction mid-implementation ('no — it must ...')",
          [exp("invariant", "src/loader.ts:findConfigFile", "git", ["home directory"])])
def _search(files):
    s = Session("search-stops-at-repo", "2026-11-25T12:00:00.000Z", files)
    s.user("findConfigFile walks all the way up to /. on the CI runners it found some random "
           "/home/runner/.tidyrc.json from a previous job. make it stop earlier")
    s.read("src/loader.ts")
    s.say("I'll stop the walk at the user's home directory, so nothing above `~` is ever considered.")
    s.edit("src/loader.ts", "import * as fs from \"node:fs\";\n", "import * as fs from \"node:fs\";\nimport * as os from \"node:os\";\n")
    s.user("no — that's exactly the dir that bit us, home is where the stray file was. it must stop at the "
           "repository root, the first dir with a .git in it, and never look above that")
    s.edit("src/loader.ts", "import * as fs from \"node:fs\";\nimport * as os from \"node:os\";\n", "import * as fs from \"node:fs\";\n")
    s.edit("src/loader.ts",
           "      if (fs.existsSync(candidate)) return candidate;\n    }\n    const parent = path.dirname(dir);\n",
           "      if (fs.existsSync(candidate)) return candidate;\n    }\n"
           "    // the repository root is the last place a config can come from\n"
           "    if (fs.existsSync(path.join(dir, \".git\"))) return undefined;\n    const parent = path.dirname(dir);\n")
    s.bash("npx tsc -p . --noEmit && npx vitest run", VITEST_OK)
    s.say("Reverted the home-dir idea. `findConfigFile` now checks each directory for a config and stops after "
          "the first one that contains `.git` — configs above the repository root are never picked up. "
          "Outside a git repo it still walks to `/`; say if you want that to fail instead.")
    s.user("fine as is")
    return [s]


@scenario("no-executable-configs", "tidyrc", "a 'don't ever' rule plus a process instruction that is not a note",
          [exp("invariant", "src/loader.ts:readRaw", "execute")])
def _nojs(files):
    s = Session("no-executable-configs", "2026-11-26T09:15:00.000Z", files)
    s.user("tidy.config.js is in NAMES but readRaw can't read it, so people get 'unsupported config format' "
           "which is confusing. kill it. we don't ever execute config files — a linter that runs code from the "
           "repo it lints is a security hole. json and toml only, that's final. run tsc before and after pls")
    s.bash("npx tsc -p . --noEmit", "")
    s.read("src/loader.ts")
    s.edit("src/loader.ts", "const NAMES = [\".tidyrc.toml\", \".tidyrc.json\", \"tidy.config.js\"];\n",
           "const NAMES = [\".tidyrc.toml\", \".tidyrc.json\"];\n")
    s.edit("src/loader.ts", "  throw new ConfigError(file, \"unsupported config format\");\n",
           "  // Config files are data: tidy never executes them (no .js/.mjs/.ts configs).\n"
           "  throw new ConfigError(file, \"unsupported config format (use .tidyrc.toml or .tidyrc.json)\");\n")
    s.bash("npx tsc -p . --noEmit", "")
    s.say("- removed `tidy.config.js` from the search list\n- the error for any other extension now says which "
          "formats work\n- comment in `readRaw` so the rule is visible where someone would add a JS loader\n\n"
          "tsc is clean before and after.")
    return [s]


@scenario("realpath-workaround", "tidyrc", "a deliberate workaround the agent explains (macOS /var symlink)",
          [exp("workaround", "src/paths.ts:samePath", "realpath")])
def _realpath(files):
    s = Session("realpath-workaround", "2026-11-26T15:00:00.000Z", files)
    s.user("new test for samePath passes on linux CI but fails on my mac:\n\n```\n"
           " FAIL  test/paths.test.ts > samePath > tmp dir equals its realpath\n"
           "AssertionError: expected false to be true\n"
           " ❯ test/paths.test.ts:9:48\n```")
    s.read("src/paths.ts")
    s.say("On macOS `os.tmpdir()` is under `/var/folders/…`, and `/var` is a symlink to `/private/var`. "
          "`path.resolve` only normalises the string, so `/var/folders/x` and `/private/var/folders/x` compare "
          "unequal although they're the same directory.\n\n"
          "### Fix\n\nCompare `fs.realpathSync.native()` of both sides. Two details, both deliberate:\n\n"
          "- **`.native`**: the JS `realpathSync` resolves symlinks itself and gets the case of the path wrong "
          "on case-insensitive volumes; the native one asks the OS.\n"
          "- **fallback to `path.resolve`** when the path doesn't exist (realpath throws `ENOENT`), because "
          "`samePath` is also called with config paths that haven't been created yet.\n\n"
          "It's a workaround for the symlinked temp dir, not a general path canonicaliser, so I'll say so in a "
          "comment.")
    s.edit("src/paths.ts", "import * as path from \"node:path\";\n", "import * as fs from \"node:fs\";\nimport * as path from \"node:path\";\n")
    s.edit("src/paths.ts", "export function samePath(a: string, b: string): boolean {\n"
           "  return path.resolve(a) === path.resolve(b);\n}\n",
           "// realpath: on macOS /var is a symlink to /private/var, so tmp paths differ as strings.\n"
           "function canonical(p: string): string {\n  try {\n    return fs.realpathSync.native(p);\n  } catch {\n"
           "    return path.resolve(p); // not created yet\n  }\n}\n\n"
           "export function samePath(a: string, b: string): boolean {\n  return canonical(a) === canonical(b);\n}\n")
    s.bash("npx vitest run test/paths.test.ts",
           " ✓ test/paths.test.ts (1 test) 2ms\n\n Test Files  1 passed (1)\n      Tests  1 passed (1)\n   Duration  188ms")
    s.say("Green on macOS now.")
    return [s]


@scenario("exit-codes", "tidyrc", "a decision with a counter-proposal, restated in a second session",
          [exp("decision", "src/cli.ts:main", "exit 2", ["78"])])
def _exit(files):
    a = Session("exit-codes-1", "2026-11-27T10:00:00.000Z", files)
    a.user("CI can't tell 'your config is broken' from 'lint found problems', both exit 1. I want config errors "
           "to exit 2")
    a.read("src/cli.ts")
    a.say("Makes sense. One thought: sysexits.h has `EX_CONFIG = 78` for exactly this. Tools like `sendmail` "
          "use it. We could exit 78 for config errors and keep 1 for findings.")
    a.user("78 is cute but nobody knows sysexits. exit 2, like grep and friends")
    a.edit("src/cli.ts", "      console.error(`tidy: ${e.message}`);\n      return 1;\n",
           "      console.error(`tidy: ${e.message}`);\n      return 2; // config errors: exit 2; 1 is for lint findings\n")
    a.bash("npx tsc -p . && node dist/cli.js /tmp/broken; echo \"exit=$?\"",
           "tidy: /tmp/broken/.tidyrc.toml: rule no-console: unknown level warning\nexit=2")
    a.say("Config errors exit 2 now; 1 stays for lint findings.")

    b = Session("exit-codes-2", "2026-12-01T09:30:00.000Z", files)
    b.user("'no config found' still exits 1. that's a config problem too, so exit 2 like we agreed for broken "
           "configs. ")
    b.read("src/cli.ts")
    b.edit("src/cli.ts", "    console.error(\"tidy: no config found\");\n    return 1;\n",
           "    console.error(\"tidy: no config found\");\n    return 2;\n")
    b.bash("npx tsc -p . && node dist/cli.js /tmp; echo \"exit=$?\"", "tidy: no config found\nexit=2")
    b.say("`no config found` exits 2 as well now.")
    return [a, b]


@scenario("schema-review", "tidyrc", "a review with suggestions the person does not take up: no decision", [])
def _review(files):
    s = Session("schema-review", "2026-11-28T14:20:00.000Z", files)
    s.user("can you review schema.ts? don't change anything, just tell me what you see")
    s.read("src/schema.ts")
    s.say("# Review of `src/schema.ts`\n\n## Correctness\n\n"
          "- `include` and `exclude` aren't checked at all: `include = \"src\"` (a string, not a list) passes "
          "and blows up later in the globber.\n"
          "- `extends` isn't checked either; a number would reach `path.dirname`.\n"
          "- `raw.rules ?? {}` accepts `rules = []` because arrays are objects; `Object.entries([])` is empty "
          "so it just silently does nothing.\n\n## Messages\n\n"
          "- `unknown level warning` could list the allowed levels: `expected off, warn or error`.\n\n"
          "## Typing\n\n- `raw: any` could be `unknown` with narrowing; would have caught the two points above.\n\n"
          "## Possible direction\n\nIf this grows, a JSON Schema + ajv would give us all of this for free, "
          "plus editor completion via `$schema`. Probably overkill at four keys.")
    s.user("good points, i'll open tickets for the first three. nothing to change today")
    s.say("👍")
    return [s]


@scenario("rename-resolve", "tidyrc", "a terse rename across files: no decision", [])
def _rename(files):
    s = Session("rename-resolve", "2026-11-30T11:00:00.000Z", files)
    s.user("rename resolvePath -> resolveRelative everywhere. nothing else")
    s.grep("resolvePath", ["src/paths.ts", "src/loader.ts"])
    s.edit("src/paths.ts", "export function resolvePath(", "export function resolveRelative(")
    s.edit("src/loader.ts", "import { resolvePath } from \"./paths.js\";\n", "import { resolveRelative } from \"./paths.js\";\n")
    s.edit("src/loader.ts", "loadConfig(resolvePath(path.dirname(file), ext))", "loadConfig(resolveRelative(path.dirname(file), ext))")
    s.bash("npx tsc -p . --noEmit", "")
    s.say("renamed in 2 files, tsc clean")
    return [s]


@scenario("debug-wrong-filename", "tidyrc", "pure debugging; the cause was a typo in the user's file name", [])
def _debug(files):
    s = Session("debug-wrong-filename", "2026-12-01T16:10:00.000Z", files)
    s.user("tidy says 'no config found' in ~/code/shopfront but theres a .tidyrc.toml RIGHT THERE. is "
           "findConfigFile broken??")
    s.read("src/loader.ts", offset=9, limit=14)
    s.say("The search looks at `.tidyrc.toml`, `.tidyrc.json` and `tidy.config.js` in each directory up to "
          "`/`. Let me look at the actual directory.")
    s.bash("ls -la ~/code/shopfront | grep -i tidy", "-rw-r--r--   1 mara  staff   214 Dec  1 15:52 .tidyrc.tml")
    s.say("The file is called `.tidyrc.tml` — missing the `o`. Renaming it to `.tidyrc.toml` will fix it; the "
          "loader is fine.")
    s.user("omg. ok. thx")
    return [s]


# -- build and check -------------------------------------------------------------------------------------


def build() -> None:
    out = []
    (HERE / "sessions").mkdir(exist_ok=True)
    for sc in SCENARIOS:
        sessions = sc["fn"](repo_files(sc["repo"]))
        for s in sessions:
            (HERE / "sessions" / f"{s.name}.jsonl").write_text(s.jsonl(), encoding="utf-8")
        out.append({"name": sc["name"], "repo": sc["repo"], "sessions": [f"{s.name}.jsonl" for s in sessions],
                    "note": sc["note"], "expected": sc["expected"]})
    (HERE / "expected.json").write_text(json.dumps({"set": "tune2", "scenarios": out}, indent=2) + "\n",
                                        encoding="utf-8")


def check() -> None:
    """Replays each scenario on a copy of its repository and checks the expected anchors exist there."""
    import shutil
    import tempfile
    sys.path.insert(0, str(TESTS))
    from capture_fixtures import hook_events, materialize
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
                rel, _, name = e["anchor"].partition(":")
                text = (root / rel).read_text(encoding="utf-8")
                last = name.split(".")[-1]
                assert re.search(rf"(def|function|class|const)\s+{re.escape(last)}\b", text), (sc["name"], e["anchor"])
                if "." in name:
                    assert re.search(rf"class\s+{re.escape(name.split('.')[0])}\b", text), (sc["name"], e["anchor"])
        print(f"ok  {sc['name']}: {len(sc['sessions'])} session(s), {len(sc['expected'])} expected")


if __name__ == "__main__":
    build()
    if "--check" in sys.argv:
        check()
