"""Writes the heldout4 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``invoicer`` (Python, invoicing for a small SaaS) and
``dragdrop`` (TypeScript, a small drag-and-drop library for the DOM). Sessions are written with the
``Session`` builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py`` after
changing a scenario (outputs are committed). ``python3 build.py --check`` also replays every
scenario on a copy of its repository (every edit must apply), checks that the replayed end state is
the builder's, that every expected anchor names a definition of the final state (tether's own
parser), and that every key phrase and rejected phrase occurs in the sessions' text.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
TESTS = HERE.parents[2] / "tests"
sys.path.insert(0, str(TESTS / "fixtures" / "transcripts"))
from build import Session  # noqa: E402

SET = "heldout4"
SCENARIOS: list[dict] = []


def repo_files(repo: str) -> dict[str, str]:
    base = HERE / "repos" / repo
    return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8") for p in sorted(base.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts}


def scenario(name: str, repo: str, note: str, expected: list[dict]):
    def register(fn):
        SCENARIOS.append({"name": name, "repo": repo, "note": note, "expected": expected, "fn": fn})
        return fn
    return register


def exp(kind: str, anchor: str, phrase: str, rejected: list[str] | None = None) -> dict:
    return {"kind": kind, "anchor": anchor, "phrase": phrase, "rejected": rejected or []}


def pytest_ok(n: int, secs: str = "0.41") -> str:
    return ("============================= test session starts ==============================\n"
            "platform linux -- Python 3.11.7, pytest-8.3.3, pluggy-1.5.0\n"
            "rootdir: {{ROOT}}\nconfigfile: pyproject.toml\ncollected %d items\n\n"
            "tests/test_invoicer.py %s [100%%]\n\n"
            "============================== %d passed in %ss ===============================" % (n, "." * n, n, secs))


def vitest_ok(files: int, tests: int, ms: int = 612) -> str:
    return (" RUN  v2.1.4 {{ROOT}}\n\n"
            f" ✓ test/dragdrop.test.ts ({tests} tests) {ms // 6}ms\n\n"
            f" Test Files  {files} passed ({files})\n"
            f"      Tests  {tests} passed ({tests})\n"
            f"   Start at  10:14:07\n   Duration  {ms}ms (transform 61ms, setup 0ms, collect 88ms, tests {ms // 6}ms, "
            f"environment 301ms, prepare 74ms)\n")


# -- invoicer (Python) -------------------------------------------------------------------------------------

INV = "invoicer"


@scenario("tax-per-rate", INV, "founder's long message (thanks, an accountant's call, an unrelated repo); agent lists three "
          "numbered rounding options with reasons; founder picks 'the third one' mid-paragraph with reasons, among "
          "other requests",
          [exp("decision", "invoicer/tax.py:compute_tax", "per rate", ["per line", "invoice total"])])
def _tax_per_rate(files):
    s = Session("heldout4-tax-per-rate", "2025-03-04T09:12:00Z", files)
    s.user("Morning! A few things, in no particular order. First, thanks for the reminder emails yesterday, they read "
           "much better now. Second, I had a call with Marta (our accountant) about the March VAT return and she "
           "flagged that the tax on some of our invoices doesn't match what her software computes. It's off by a cent "
           "or two, and only on invoices with lots of lines, e.g. the agencies that buy seats for several teams. Could "
           "you look at how we round tax in invoicer/tax.py and tell me what the options are? I don't want to change "
           "anything before I understand it. Third, the pricing page copy lives in the website repo, so ignore the "
           "issue about it on the board, that one's mine.")
    s.read("invoicer/tax.py", text="Let me look at how tax is computed.")
    s.read("invoicer/lines.py")
    s.grep("compute_tax", ["invoicer/invoice.py", "invoicer/tax.py", "tests/test_invoicer.py"])
    s.bash("python3 -c \"from decimal import Decimal as D; from invoicer.lines import LineItem; "
           "from invoicer.tax import compute_tax; print(compute_tax([LineItem('Seat', D(1), 333)] * 3, 'DE'), "
           "round(999 * 0.19, 2))\"", "189 189.81", description="Compare per-line rounding with the exact tax")
    s.say("Found it. `compute_tax` rounds the tax of **each line** to whole cents and then adds them up. With three "
          "lines of €3.33 at 19% that's 3 × 63 = 189 cents, while 19% of the €9.99 net is 189.81 → 190 cents. Every "
          "line can lose or gain up to half a cent, so the error grows with the number of lines — which matches "
          "Marta seeing it only on the big agency invoices.\n\n"
          "The options:\n\n"
          "1. **Round per line** (what we do today). Each line's tax is rounded on its own and summed. Simple, and "
          "each line can show its own tax, but the total drifts from rate × net by up to half a cent per line.\n"
          "2. **Round once on the invoice total.** Sum all nets, multiply, round once. Exact, but it needs a single "
          "rate: it breaks as soon as one invoice mixes standard and reduced-rate lines.\n"
          "3. **Round per rate.** Group the lines by tax rate, sum the nets of each group and round each group's tax "
          "once. The invoice shows one tax amount per rate, which is what accounting software (and the EU invoicing "
          "rules) expect, and mixed-rate invoices still work.\n\n"
          "I'd lean towards 3. Nothing changed yet.")
    s.user("Thank you, that's a really clear write-up. Marta's software shows one VAT amount per rate, so let's go with "
           "the third one: round per rate group. Per line is what got us here, and the invoice total doesn't work for "
           "us because half our German customers have the reduced-rate e-book add-on on the same invoice as their "
           "seats. While you're in there, could you also add a test with a mixed invoice so this doesn't come back? "
           "And I'll be offline from 2 to 4 today, if you have questions just leave them here.")
    s.edit("invoicer/tax.py",
           "def compute_tax(lines: list[LineItem], region: str) -> int:\n"
           "    \"\"\"The tax of an invoice's lines, in minor units.\"\"\"\n"
           "    total = 0\n"
           "    for line in lines:\n"
           "        total += round_minor(line_total(line) * rate_for(region, line.tax_code))\n"
           "    return total\n",
           "def compute_tax(lines: list[LineItem], region: str) -> int:\n"
           "    \"\"\"The tax of an invoice's lines, in minor units.\n\n"
           "    Rounded per rate: the nets of all lines with the same rate are summed and that group's tax is\n"
           "    rounded once, so the invoice shows one tax amount per rate and it matches rate x net.\n"
           "    \"\"\"\n"
           "    nets: dict[Decimal, int] = {}\n"
           "    for line in lines:\n"
           "        rate = rate_for(region, line.tax_code)\n"
           "        nets[rate] = nets.get(rate, 0) + line_total(line)\n"
           "    return sum(round_minor(net * rate) for rate, net in nets.items())\n",
           text="Switching `compute_tax` to rounding per rate group.")
    s.edit("tests/test_invoicer.py",
           "def test_exempt_has_no_tax():\n",
           "def test_tax_rounded_per_rate():\n"
           "    seats = [LineItem(\"Seat\", Decimal(1), 333)] * 3\n"
           "    ebook = LineItem(\"E-book add-on\", Decimal(1), 1000, tax_code=\"reduced\")\n"
           "    # 19% of 9.99 = 1.8981 -> 1.90 (per line it was 3 x 0.63 = 1.89); 7% of 10.00 = 0.70\n"
           "    assert compute_tax(seats + [ebook], \"DE\") == 190 + 70\n\n\n"
           "def test_exempt_has_no_tax():\n")
    s.bash("python3 -m pytest -q", "...............                                                          [100%]\n"
           "15 passed in 0.38s", description="Run the test suite")
    s.say("Done:\n\n- `compute_tax` now sums the nets per rate and rounds each rate's tax once. Invoices with a single "
          "rate give the same result as rounding the invoice total; mixed invoices get one rounded amount per rate.\n"
          "- New test `test_tax_rounded_per_rate` with three €3.33 seats and a reduced-rate e-book line (190 + 70 "
          "cents; per line it would have been 189 + 70).\n\n15 passed. No questions for now — enjoy the afternoon.")
    return [s]


@scenario("numbering-gapless", INV, "terse maintainer states a rule up front ('numbers must be gapless'), the agent "
          "moves number allocation to finalize; agent's inline 'restart each January or one sequence?' answered "
          "'per year.'",
          [exp("invariant", "invoicer/invoice.py:Invoice.finalize", "gapless"),
           exp("decision", "invoicer/numbering.py:InvoiceNumberer.next_number", "per year", ["one sequence"])])
def _numbering(files):
    s = Session("heldout4-numbering-gapless", "2025-03-06T14:40:00Z", files)
    s.user("invoice numbers must be gapless. we take them at draft time, deleted drafts leave holes, the tax office "
           "hates that. take the number at finalize, not draft")
    s.read("invoicer/invoice.py")
    s.read("invoicer/numbering.py")
    s.grep("Invoice.draft|next_number", ["invoicer/invoice.py", "invoicer/numbering.py", "tests/test_invoicer.py"])
    s.say("Understood — a number is only taken when an invoice is finalised, so a draft that gets deleted never "
          "consumes one. I'll make `draft()` number-free and have `finalize()` take the numberer and allocate the "
          "number as its very last step, after the checks (no lines, missing VAT id) and the coupon redemption, so a "
          "finalize that fails doesn't burn a number either.\n\n"
          "One question first: the counter in `numbers.json` is a single `last` value, so it's one sequence across "
          "years — the first invoice of 2026 would be INV-2026-0143 or whatever follows. Should it restart at 0001 "
          "each January (a counter per year), or stay one sequence?")
    s.user("per year.")
    s.edit("invoicer/numbering.py",
           "    def _load(self) -> dict:\n"
           "        if not self.state_path.exists():\n"
           "            return {\"last\": 0}\n",
           "    def _load(self) -> dict:\n"
           "        if not self.state_path.exists():\n"
           "            return {}\n")
    s.edit("invoicer/numbering.py",
           "    def next_number(self, year: int) -> str:\n"
           "        state = self._load()\n"
           "        state[\"last\"] += 1\n"
           "        self._save(state)\n"
           "        return f\"{self.prefix}-{year}-{state['last']:04d}\"\n\n"
           "    def peek(self, year: int) -> str:\n"
           "        \"\"\"The number the next call would hand out, without taking it.\"\"\"\n"
           "        return f\"{self.prefix}-{year}-{self._load()['last'] + 1:04d}\"\n",
           "    def next_number(self, year: int) -> str:\n"
           "        \"\"\"The next number of ``year``; each year's counter starts again at 0001.\"\"\"\n"
           "        state = self._load()\n"
           "        last = state.get(str(year), 0) + 1\n"
           "        state[str(year)] = last\n"
           "        self._save(state)\n"
           "        return f\"{self.prefix}-{year}-{last:04d}\"\n\n"
           "    def peek(self, year: int) -> str:\n"
           "        \"\"\"The number the next call would hand out, without taking it.\"\"\"\n"
           "        return f\"{self.prefix}-{year}-{self._load().get(str(year), 0) + 1:04d}\"\n",
           text="Counter per year, keyed by the year in `numbers.json`.")
    s.edit("invoicer/invoice.py",
           "    @classmethod\n"
           "    def draft(cls, numberer: InvoiceNumberer, customer: str, region: str, today: date, **kw) -> Invoice:\n"
           "        inv = cls(customer=customer, region=region, **kw)\n"
           "        inv.number = numberer.next_number(today.year)\n"
           "        return inv\n",
           "    @classmethod\n"
           "    def draft(cls, customer: str, region: str, **kw) -> Invoice:\n"
           "        \"\"\"A draft has no number; it gets one when it is finalised.\"\"\"\n"
           "        return cls(customer=customer, region=region, **kw)\n",
           text="Now drafts without a number, and numbering in `finalize`.")
    s.edit("invoicer/invoice.py",
           "    def finalize(self, today: date, terms_days: int = 14) -> None:\n"
           "        if not self.lines:\n",
           "    def finalize(self, today: date, numberer: InvoiceNumberer, terms_days: int = 14) -> None:\n"
           "        \"\"\"Issues the invoice. Numbers stay gapless: the number is taken last, only once every\n"
           "        check has passed, and never for a draft.\"\"\"\n"
           "        if not self.lines:\n")
    s.edit("invoicer/invoice.py",
           "        self.issued = today\n"
           "        self.due = today + timedelta(days=terms_days)\n",
           "        self.issued = today\n"
           "        self.due = today + timedelta(days=terms_days)\n"
           "        self.number = numberer.next_number(today.year)\n")
    s.bash("python3 -m pytest -q",
           ".........F...F\n"
           "=================================== FAILURES ===================================\n"
           "_________________________ test_finalize_sets_due_date __________________________\n"
           "    def test_finalize_sets_due_date():\n"
           "        inv = make()\n"
           ">       inv.finalize(date(2025, 3, 1))\n"
           "E       TypeError: Invoice.finalize() missing 1 required positional argument: 'numberer'\n"
           "...\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_invoicer.py::test_finalize_sets_due_date - TypeError: Invoice.finalize() missing 1 req...\n"
           "FAILED tests/test_invoicer.py::test_reminders_schedule - TypeError: Invoice.finalize() missing 1 requir...\n"
           "2 failed, 12 passed in 0.44s", fail=True, description="Run the test suite",
           text="Running the tests; the ones calling `finalize` need the numberer now.")
    s.read("tests/test_invoicer.py", offset=60, limit=30)
    s.edit("tests/test_invoicer.py",
           "def test_finalize_sets_due_date():\n"
           "    inv = make()\n"
           "    inv.finalize(date(2025, 3, 1))\n",
           "def test_finalize_sets_due_date(tmp_path):\n"
           "    inv = make()\n"
           "    inv.finalize(date(2025, 3, 1), InvoiceNumberer(tmp_path / \"n.json\"))\n")
    s.edit("tests/test_invoicer.py",
           "    assert n.peek(2025) == \"INV-2025-0003\"\n",
           "    assert n.peek(2025) == \"INV-2025-0003\"\n"
           "    assert n.next_number(2026) == \"INV-2026-0001\"\n\n\n"
           "def test_drafts_take_no_number(tmp_path):\n"
           "    n = InvoiceNumberer(tmp_path / \"numbers.json\")\n"
           "    Invoice.draft(\"Thrown away Ltd\", \"GB\")\n"
           "    inv = make()\n"
           "    with pytest.raises(InvoiceError):\n"
           "        Invoice(customer=\"Empty\", region=\"DE\").finalize(date(2025, 3, 1), n)\n"
           "    inv.finalize(date(2025, 3, 1), n)\n"
           "    assert inv.number == \"INV-2025-0001\"\n")
    s.edit("tests/test_invoicer.py",
           "def test_reminders_schedule():\n"
           "    inv = make()\n"
           "    inv.finalize(date(2025, 3, 1))  # due 2025-03-15\n",
           "def test_reminders_schedule(tmp_path):\n"
           "    inv = make()\n"
           "    inv.finalize(date(2025, 3, 1), InvoiceNumberer(tmp_path / \"n.json\"))  # due 2025-03-15\n")
    s.bash("python3 -m pytest -q", "...............                                                          [100%]\n"
           "15 passed in 0.41s", description="Run the test suite")
    s.say("Done.\n\n- `Invoice.draft()` no longer takes a number; `finalize(today, numberer)` takes it as its last step, "
          "after every check, so neither a deleted draft nor a failed finalize leaves a hole.\n"
          "- `InvoiceNumberer` keeps one counter per year (`{\"2025\": 42}`), restarting at 0001 each January.\n"
          "- Tests updated for the new `finalize` signature, plus `test_drafts_take_no_number`.\n\n"
          "Heads-up: the existing `numbers.json` on the server has the old `{\"last\": N}` shape — it needs a one-off "
          "rewrite to `{\"2025\": N}` before deploying, or 2025 would restart at 0001.")
    s.user("will do. thx")
    return [s]


@scenario("one-coupon", INV, "terse maintainer; agent offers lettered options a/b/c; 'b', the agent implements it, then "
          "'hm no. c.' with a reason and the agent reverts to c",
          [exp("decision", "invoicer/invoice.py:Invoice.add_coupon", "one coupon", ["stack", "best one"])])
def _one_coupon(files):
    s = Session("heldout4-one-coupon", "2025-03-10T10:03:00Z", files)
    s.user("customer used SPRING10 and FIFTY on one invoice and got both. what should happen")
    s.read("invoicer/invoice.py")
    s.read("invoicer/discounts.py")
    s.say("Right now nothing stops it: `Invoice.coupons` is a list and `discount` applies them one after the other, "
          "each on what's left of the subtotal. Options:\n\n"
          "a) **Stack them** — keep today's behaviour, apply in order on the remaining amount.\n"
          "b) **Best one wins** — keep every code on the invoice but only apply the largest discount.\n"
          "c) **One coupon per invoice** — `add_coupon` refuses a second code with a `CouponError`; the customer "
          "has to remove one first.\n\n"
          "b is the friendliest for the customer, c is the easiest to explain on the invoice.")
    s.user("b")
    s.edit("invoicer/invoice.py",
           "    @property\n"
           "    def discount(self) -> int:\n"
           "        left = self.subtotal\n"
           "        off = 0\n"
           "        for coupon in self.coupons:\n"
           "            d = discount_for(coupon, left)\n"
           "            off += d\n"
           "            left -= d\n"
           "        return off\n",
           "    @property\n"
           "    def discount(self) -> int:\n"
           "        \"\"\"Only the best coupon applies when several were entered.\"\"\"\n"
           "        return max((discount_for(c, self.subtotal) for c in self.coupons), default=0)\n")
    s.bash("python3 -m pytest -q", "..............                                                           [100%]\n"
           "14 passed in 0.37s", description="Run the test suite")
    s.say("Done: `discount` now applies only the largest of the entered coupons. Want a test for two coupons on one "
          "invoice?")
    s.user("hm no. c. support gets tickets when a code 'does nothing', and with b the second one silently does nothing")
    s.edit("invoicer/invoice.py",
           "    @property\n"
           "    def discount(self) -> int:\n"
           "        \"\"\"Only the best coupon applies when several were entered.\"\"\"\n"
           "        return max((discount_for(c, self.subtotal) for c in self.coupons), default=0)\n",
           "    @property\n"
           "    def discount(self) -> int:\n"
           "        return discount_for(self.coupon, self.subtotal) if self.coupon else 0\n",
           text="Switching to one coupon per invoice.")
    s.edit("invoicer/invoice.py",
           "    coupons: list[Coupon] = field(default_factory=list)\n",
           "    coupon: Coupon | None = None\n")
    s.edit("invoicer/invoice.py",
           "    def add_coupon(self, coupon: Coupon) -> None:\n"
           "        self.coupons.append(coupon)\n",
           "    def add_coupon(self, coupon: Coupon) -> None:\n"
           "        \"\"\"One coupon per invoice: a second code is refused, never silently ignored.\"\"\"\n"
           "        if self.coupon is not None:\n"
           "            raise CouponError(f\"invoice already has coupon {self.coupon.code}; remove it first\")\n"
           "        self.coupon = coupon\n")
    s.edit("invoicer/invoice.py",
           "        for coupon in self.coupons:\n"
           "            redeem(coupon, today)\n",
           "        if self.coupon is not None:\n"
           "            redeem(self.coupon, today)\n")
    s.edit("invoicer/invoice.py",
           "from invoicer.discounts import Coupon, discount_for, redeem\n",
           "from invoicer.discounts import Coupon, CouponError, discount_for, redeem\n")
    s.edit("tests/test_invoicer.py",
           "def test_totals():\n",
           "def test_second_coupon_is_refused():\n"
           "    inv = make()\n"
           "    inv.add_coupon(Coupon(\"SPRING10\", percent_off=Decimal(10)))\n"
           "    with pytest.raises(CouponError):\n"
           "        inv.add_coupon(Coupon(\"FIFTY\", amount_off=5000))\n"
           "    assert inv.discount == 360\n\n\n"
           "def test_totals():\n")
    s.bash("python3 -m pytest -q", "...............                                                          [100%]\n"
           "15 passed in 0.39s", description="Run the test suite")
    s.say("Reverted the best-one change. Now:\n\n- `Invoice.coupon` holds at most one coupon; `add_coupon` raises "
          "`CouponError` (\"invoice already has coupon SPRING10; remove it first\") on a second code, so the "
          "checkout can show the message instead of ignoring the code.\n- `discount` and `finalize` use the single "
          "coupon.\n- Test `test_second_coupon_is_refused`. 15 passed.")
    s.user("👍")
    return [s]


@scenario("float-tax-rates", INV, "a customer's wrong tax amount; the agent writes a failing test, finds the cause "
          "(rates built with Decimal from float literals) and fixes it",
          [exp("gotcha", "invoicer/tax.py", "float literal")])
def _float_rates(files):
    s = Session("heldout4-float-tax-rates", "2025-03-12T16:20:00Z", files)
    s.user("customer in california says their invoice shows $0.14 sales tax on the $2.00 sms add-on. 7.25% of 2.00 "
           "is 0.145 so it should round to 0.15. can u check whats going on")
    s.read("invoicer/tax.py")
    s.edit("tests/test_invoicer.py",
           "def test_exempt_has_no_tax():\n",
           "def test_tax_us_ca_half_cent_rounds_up():\n"
           "    # 7.25% of $2.00 = 14.5 cents -> 15\n"
           "    assert compute_tax([LineItem(\"SMS add-on\", Decimal(1), 200)], \"US-CA\") == 15\n\n\n"
           "def test_exempt_has_no_tax():\n",
           text="Reproducing it with a test first.")
    s.bash("python3 -m pytest -q -k us_ca",
           "F                                                                        [100%]\n"
           "=================================== FAILURES ===================================\n"
           "_____________________ test_tax_us_ca_half_cent_rounds_up ______________________\n\n"
           "    def test_tax_us_ca_half_cent_rounds_up():\n"
           "        # 7.25% of $2.00 = 14.5 cents -> 15\n"
           ">       assert compute_tax([LineItem(\"SMS add-on\", Decimal(1), 200)], \"US-CA\") == 15\n"
           "E       AssertionError: assert 14 == 15\n"
           "E        +  where 14 = compute_tax([LineItem(description='SMS add-on', quantity=Decimal('1'), "
           "unit_price=200, tax_code='standard')], 'US-CA')\n\n"
           "tests/test_invoicer.py:45: AssertionError\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_invoicer.py::test_tax_us_ca_half_cent_rounds_up - AssertionError: assert 14 == 15\n"
           "1 failed, 14 deselected in 0.21s", fail=True, description="Run the new test")
    s.say("Reproduced: 14 instead of 15. `round_minor` rounds half up, so 14.5 should become 15 — unless the value "
          "isn't exactly 14.5. Let me look at the rate itself.")
    s.bash("python3 -c \"from invoicer.tax import rate_for; r = rate_for('US-CA', 'standard'); print(r); print(200 * r)\"",
           "0.07249999999999999500399638918679556809365749359130859375\n"
           "14.49999999999999900079927784",
           description="Print the US-CA rate as stored")
    s.say("There it is. The rates in `RULES` are written as `Decimal(0.0725)` — a `Decimal` built from a **float "
          "literal**. The float 0.0725 can't be represented exactly in binary, and `Decimal(float)` keeps the "
          "binary error instead of meaning \"0.0725\": the stored rate is 0.07249999…, so 200 × rate is 14.4999…, "
          "which rounds down to 14. The same thing affects any rate whose float is slightly low (France's 5.5% "
          "reduced rate is 0.05499999…); rates whose float is slightly high would round up at exact halves by "
          "luck.\n\nFix: build every rate from a string, `Decimal(\"0.0725\")`, which is exact.")
    s.edit("invoicer/tax.py",
           "RULES: dict[str, TaxRule] = {\n"
           "    \"DE\": TaxRule(\"DE\", Decimal(0.19), Decimal(0.07)),\n"
           "    \"FR\": TaxRule(\"FR\", Decimal(0.20), Decimal(0.055)),\n"
           "    \"NL\": TaxRule(\"NL\", Decimal(0.21), Decimal(0.09), label=\"BTW\"),\n"
           "    \"GB\": TaxRule(\"GB\", Decimal(0.20), Decimal(0.05)),\n"
           "    \"US-CA\": TaxRule(\"US-CA\", Decimal(0.0725), label=\"Sales tax\"),\n"
           "    \"US-NY\": TaxRule(\"US-NY\", Decimal(0.04), label=\"Sales tax\"),\n"
           "}\n",
           "# Rates are built from strings: Decimal(0.0725) would keep the float's binary error\n"
           "# (0.072499999...) and round exact half cents the wrong way.\n"
           "RULES: dict[str, TaxRule] = {\n"
           "    \"DE\": TaxRule(\"DE\", Decimal(\"0.19\"), Decimal(\"0.07\")),\n"
           "    \"FR\": TaxRule(\"FR\", Decimal(\"0.20\"), Decimal(\"0.055\")),\n"
           "    \"NL\": TaxRule(\"NL\", Decimal(\"0.21\"), Decimal(\"0.09\"), label=\"BTW\"),\n"
           "    \"GB\": TaxRule(\"GB\", Decimal(\"0.20\"), Decimal(\"0.05\")),\n"
           "    \"US-CA\": TaxRule(\"US-CA\", Decimal(\"0.0725\"), label=\"Sales tax\"),\n"
           "    \"US-NY\": TaxRule(\"US-NY\", Decimal(\"0.04\"), label=\"Sales tax\"),\n"
           "}\n")
    s.bash("python3 -m pytest -q", "...............                                                          [100%]\n"
           "15 passed in 0.40s", description="Run the test suite")
    s.say("Fixed. All rates in `RULES` are now string-built decimals, with a comment saying why; the California "
          "invoice gives 15 cents and the new test passes along with the rest (15 passed).\n\n"
          "Invoices already issued with the wrong cent stay as they are — if you want, I can write a script that "
          "lists the affected ones.")
    s.user("ugh. good catch. no script, there are like 3 of them, I'll credit them by hand")
    return [s]


@scenario("no-late-fees", INV, "founder asks for a firmer final reminder; the agent also adds a late fee on its own and "
          "says so after; blunt correction ('no. we don't charge late fees, ever') with a reason",
          [exp("boundary", "invoicer/reminders.py:reminder_body", "late fees")])
def _late_fees(files):
    s = Session("heldout4-no-late-fees", "2025-03-13T11:05:00Z", files)
    s.user("The third reminder should read like a proper final notice. People ignore the first two, which is fine, "
           "they're friendly on purpose, but the last one should make clear that this is the last email before we "
           "pause the account.")
    s.read("invoicer/reminders.py")
    s.edit("invoicer/reminders.py",
           "# days after the due date on which reminder n (1-based) goes out\n"
           "SCHEDULE = (3, 10, 24)\n",
           "# days after the due date on which reminder n (1-based) goes out\n"
           "SCHEDULE = (3, 10, 24)\n"
           "LATE_FEE = 500  # minor units, added with the final notice\n")
    s.edit("invoicer/reminders.py",
           "def reminder_body(inv: Invoice, today: date) -> str:\n"
           "    n = inv.reminders_sent + 1\n"
           "    opener = \"A friendly reminder\" if n == 1 else \"Second reminder\" if n == 2 else \"Final reminder\"\n"
           "    return (f\"{opener}: invoice {inv.number} for {format_amount(inv.total, inv.currency)} \"\n"
           "            f\"was due on {inv.due.isoformat()} ({overdue_days(inv, today)} days ago).\\n\")\n",
           "def reminder_body(inv: Invoice, today: date) -> str:\n"
           "    n = inv.reminders_sent + 1\n"
           "    amount = format_amount(inv.total, inv.currency)\n"
           "    if n >= len(SCHEDULE):\n"
           "        fee = format_amount(LATE_FEE, inv.currency)\n"
           "        return (f\"Final notice: invoice {inv.number} for {amount} was due on {inv.due.isoformat()} \"\n"
           "                f\"({overdue_days(inv, today)} days ago). This is the last reminder we will send. \"\n"
           "                f\"If it is not paid within 7 days, your account will be paused and a late fee of {fee} \"\n"
           "                f\"will be added to the invoice.\\n\")\n"
           "    opener = \"A friendly reminder\" if n == 1 else \"Second reminder\"\n"
           "    return (f\"{opener}: invoice {inv.number} for {amount} \"\n"
           "            f\"was due on {inv.due.isoformat()} ({overdue_days(inv, today)} days ago).\\n\")\n")
    s.bash("python3 -m pytest -q", "..............                                                           [100%]\n"
           "14 passed in 0.36s", description="Run the test suite")
    s.say("The third reminder is now a \"Final notice\": it says it's the last email and that the account will be "
          "paused if it isn't paid within 7 days. I also added a €5 late fee (`LATE_FEE`) to the final notice's "
          "text, since a final notice usually comes with a consequence beyond the pause — easy to drop if you'd "
          "rather not.")
    s.user("no. we don't charge late fees, ever. half our pay-by-invoice customers are nonprofits and schools, a fee "
           "would be a support and PR mess for 5 euros. take it out, final notice wording + the pause only")
    s.edit("invoicer/reminders.py",
           "SCHEDULE = (3, 10, 24)\n"
           "LATE_FEE = 500  # minor units, added with the final notice\n",
           "SCHEDULE = (3, 10, 24)\n",
           text="Removing the late fee.")
    s.edit("invoicer/reminders.py",
           "    if n >= len(SCHEDULE):\n"
           "        fee = format_amount(LATE_FEE, inv.currency)\n"
           "        return (f\"Final notice: invoice {inv.number} for {amount} was due on {inv.due.isoformat()} \"\n"
           "                f\"({overdue_days(inv, today)} days ago). This is the last reminder we will send. \"\n"
           "                f\"If it is not paid within 7 days, your account will be paused and a late fee of {fee} \"\n"
           "                f\"will be added to the invoice.\\n\")\n",
           "    if n >= len(SCHEDULE):\n"
           "        # no late fees, ever: the final notice only announces the pause\n"
           "        return (f\"Final notice: invoice {inv.number} for {amount} was due on {inv.due.isoformat()} \"\n"
           "                f\"({overdue_days(inv, today)} days ago). This is the last reminder we will send. \"\n"
           "                f\"If it is not paid within 7 days, your account will be paused.\\n\")\n")
    s.edit("tests/test_invoicer.py",
           "    assert reminder_body(inv, date(2025, 3, 19)).startswith(\"A friendly reminder\")\n",
           "    assert reminder_body(inv, date(2025, 3, 19)).startswith(\"A friendly reminder\")\n\n\n"
           "def test_final_notice_has_no_fee():\n"
           "    inv = make()\n"
           "    inv.finalize(date(2025, 3, 1))\n"
           "    inv.reminders_sent = 2\n"
           "    body = reminder_body(inv, date(2025, 4, 9))\n"
           "    assert body.startswith(\"Final notice\")\n"
           "    assert \"paused\" in body and \"fee\" not in body\n")
    s.bash("python3 -m pytest -q", "...............                                                          [100%]\n"
           "15 passed in 0.38s", description="Run the test suite")
    s.say("Taken out: no `LATE_FEE`, and the final notice only says it's the last reminder and that the account will "
          "be paused after 7 days. I left a one-line comment there and a test asserting the final notice mentions "
          "no fee. 15 passed.")
    return [s]


@scenario("escape-customer-text", INV, "rule set by the founder after a customer put markup in their company name "
          "('everything that came from a customer … must be escaped'); a week later, in other code (the notes), the "
          "agent interpolates raw text and is bluntly corrected ('same rule as the company name')",
          [exp("invariant", "invoicer/render.py:render_html", "escape")])
def _escape(files):
    s = Session("heldout4-escape-customer-text-1", "2025-03-14T08:50:00Z", files)
    s.user("Small security thing. A customer signed up with `Acme <img src=x onerror=alert(1)>` as the company name. "
           "It's harmless in practice since only they can see their own portal, but it did run in their invoice "
           "page, and the same HTML goes into the PDF service our enterprise customers use. So, the rule from now "
           "on: everything that came from a customer (company name, address, line descriptions if they're custom, "
           "notes) must be escaped before it goes into the HTML. Could you fix render_html and add a test?")
    s.read("invoicer/render.py")
    s.edit("invoicer/render.py",
           "from invoicer.invoice import Invoice\n",
           "from html import escape\n\nfrom invoicer.invoice import Invoice\n")
    s.edit("invoicer/render.py",
           "        f\"<tr><td>{line.quantity}</td><td>{line.description}</td>\"\n",
           "        f\"<tr><td>{line.quantity}</td><td>{escape(line.description)}</td>\"\n")
    s.edit("invoicer/render.py",
           "        f\"<p class=\\\"bill-to\\\">{inv.customer}</p>\\n\"\n",
           "        f\"<p class=\\\"bill-to\\\">{escape(inv.customer)}</p>\\n\"\n")
    s.edit("tests/test_invoicer.py",
           "def test_reminders_schedule():\n",
           "def test_render_html_escapes_customer_text():\n"
           "    inv = Invoice(customer=\"Acme <img src=x onerror=alert(1)>\", region=\"DE\")\n"
           "    inv.add(LineItem(\"<b>custom</b> work\", Decimal(1), 100))\n"
           "    html = render_html(inv)\n"
           "    assert \"<img\" not in html and \"&lt;img src=x\" in html\n"
           "    assert \"&lt;b&gt;custom&lt;/b&gt;\" in html\n\n\n"
           "def test_reminders_schedule():\n")
    s.bash("python3 -m pytest -q", "...............                                                          [100%]\n"
           "15 passed in 0.39s", description="Run the test suite")
    s.say("Fixed: `render_html` now passes the customer name and every line description through `html.escape` "
          "(quotes included), and `test_render_html_escapes_customer_text` checks both. The text rendering needs "
          "nothing — it goes into plain-text email bodies. 15 passed.")
    s.user("Perfect, thank you.")

    t = Session("heldout4-escape-customer-text-2", "2025-03-21T15:30:00Z", files)
    t.user("put the invoice notes in the html rendering, under the table")
    t.read("invoicer/render.py")
    t.edit("invoicer/render.py",
           "        f\"<table>{rows}</table>\\n\"\n",
           "        f\"<table>{rows}</table>\\n\"\n"
           "        + (f\"<p class=\\\"notes\\\">{inv.notes}</p>\\n\" if inv.notes else \"\")\n"
           "        + f\"\"\n")
    t.bash("python3 -m pytest -q", "...............                                                          [100%]\n"
           "15 passed in 0.40s", description="Run the test suite")
    t.say("Added: when `inv.notes` is set, a `<p class=\"notes\">` follows the table. 15 passed.")
    t.user("you're putting notes in raw. notes are typed by the customer, same rule as the company name — escape "
           "anything that comes from a customer. and that `+ f\"\"` is ugly")
    t.edit("invoicer/render.py",
           "        f\"<table>{rows}</table>\\n\"\n"
           "        + (f\"<p class=\\\"notes\\\">{inv.notes}</p>\\n\" if inv.notes else \"\")\n"
           "        + f\"\"\n",
           "        f\"<table>{rows}</table>\\n\"\n"
           "        f\"{notes}\"\n",
           text="Escaping the notes and building the paragraph before the f-string.")
    t.edit("invoicer/render.py",
           "def render_html(inv: Invoice) -> str:\n"
           "    cur = inv.currency\n",
           "def render_html(inv: Invoice) -> str:\n"
           "    cur = inv.currency\n"
           "    notes = f\"<p class=\\\"notes\\\">{escape(inv.notes)}</p>\\n\" if inv.notes else \"\"\n")
    t.edit("tests/test_invoicer.py",
           "    assert \"&lt;b&gt;custom&lt;/b&gt;\" in html\n",
           "    assert \"&lt;b&gt;custom&lt;/b&gt;\" in html\n\n\n"
           "def test_render_html_notes_escaped():\n"
           "    inv = make(notes=\"PO #12 <urgent>\")\n"
           "    assert '<p class=\"notes\">PO #12 &lt;urgent&gt;</p>' in render_html(inv)\n")
    t.bash("python3 -m pytest -q", "................                                                         [100%]\n"
           "16 passed in 0.41s", description="Run the test suite")
    t.say("Right, sorry — the notes are customer text. They now go through `escape()` like the company name and the "
          "descriptions, the paragraph is built before the f-string (no more `+ f\"\"`), and there's a test with "
          "`<urgent>` in the notes. 16 passed.")
    return [s, t]


@scenario("explain-numbering", INV, "questions about numbering and restarts; 'must' in a hypothetical (two workers); a "
          "cofounder's rule reported second-hand (Decimal instead of int cents) and not adopted; no edits",
          [])
def _explain(files):
    s = Session("heldout4-explain-numbering", "2025-03-17T09:30:00Z", files)
    s.user("new here, trying to understand the numbering. how does it survive a restart, and what happens if two "
           "things finalize at the same time?")
    s.read("invoicer/numbering.py")
    s.grep("InvoiceNumberer", ["invoicer/invoice.py", "invoicer/numbering.py", "tests/test_invoicer.py"])
    s.say("The counter lives in a small JSON file (`numbers.json`), not in memory:\n\n"
          "- `next_number` loads the file, increments `last`, and writes it back through `_save`, which writes a "
          "`.tmp` file and `os.replace`s it over the old one. The replace is atomic, so a crash mid-write leaves "
          "either the old or the new counter, never half a file. That's how it survives restarts.\n"
          "- Two finalizations at the same time are **not** safe: both can load `last = 41`, both write 42, and two "
          "invoices get the same number. Today that can't happen because the app runs a single worker process and "
          "finalization happens in request handlers one at a time.\n\n"
          "If you ever ran two workers, the counter would have to be protected — a file lock (`fcntl.flock`) around "
          "load/increment/save, or moving the counter into the database as a sequence. Nothing in the code does "
          "that today.")
    s.user("ok makes sense. another one: my cofounder says we should always store amounts as Decimal instead of int "
           "cents, because of the tax stuff. is that right?")
    s.read("invoicer/money.py")
    s.say("I don't think the code needs it. Amounts are integer minor units everywhere (`LineItem.unit_price`, "
          "totals, discounts), and `Decimal` only appears where a fractional value is unavoidable — quantities like "
          "1.5 hours and tax rates — and is rounded back to whole cents with `round_minor` right away. Integer cents "
          "can't drift, sum exactly and serialise trivially. Storing `Decimal` amounts would mainly move the "
          "rounding decision to later, which is where tax mistakes tend to come from.\n\n"
          "The one case for `Decimal` amounts would be prices below a cent (per-API-call pricing at $0.0004); "
          "nothing here bills like that.")
    s.user("fair, thanks. leaving it then")
    return [s]


@scenario("rename-format-money", INV, "terse rename across four files, 'run the tests after'; no decision", [])
def _rename(files):
    s = Session("heldout4-rename-format-money", "2025-03-18T13:12:00Z", files)
    s.user("rename format_amount -> format_money everywhere. run the tests after")
    s.grep("format_amount", ["invoicer/money.py", "invoicer/reminders.py", "invoicer/render.py",
                             "tests/test_invoicer.py"])
    s.edit("invoicer/money.py", "def format_amount(minor: int, currency: str) -> str:\n",
           "def format_money(minor: int, currency: str) -> str:\n")
    s.edit("invoicer/render.py", "from invoicer.money import format_amount\n",
           "from invoicer.money import format_money\n")
    s.edit("invoicer/render.py",
           "        out.append(_row(f\"{line.quantity} x {line.description}\", format_amount(line_total(line), cur)))\n"
           "    out.append(\"-\" * WIDTH)\n"
           "    out.append(_row(\"Subtotal\", format_amount(inv.subtotal, cur)))\n"
           "    if inv.discount:\n"
           "        out.append(_row(\"Discount\", format_amount(-inv.discount, cur)))\n"
           "    out.append(_row(rule_for(inv.region).label, format_amount(inv.tax, cur)))\n"
           "    out.append(_row(\"Total\", format_amount(inv.total, cur)))\n",
           "        out.append(_row(f\"{line.quantity} x {line.description}\", format_money(line_total(line), cur)))\n"
           "    out.append(\"-\" * WIDTH)\n"
           "    out.append(_row(\"Subtotal\", format_money(inv.subtotal, cur)))\n"
           "    if inv.discount:\n"
           "        out.append(_row(\"Discount\", format_money(-inv.discount, cur)))\n"
           "    out.append(_row(rule_for(inv.region).label, format_money(inv.tax, cur)))\n"
           "    out.append(_row(\"Total\", format_money(inv.total, cur)))\n")
    s.edit("invoicer/render.py",
           "        f\"<td class=\\\"num\\\">{format_amount(line_total(line), cur)}</td></tr>\"\n",
           "        f\"<td class=\\\"num\\\">{format_money(line_total(line), cur)}</td></tr>\"\n")
    s.edit("invoicer/render.py",
           "        f\"<p class=\\\"total\\\">Total: {format_amount(inv.total, cur)}</p>\\n\"\n",
           "        f\"<p class=\\\"total\\\">Total: {format_money(inv.total, cur)}</p>\\n\"\n")
    s.edit("invoicer/reminders.py", "from invoicer.money import format_amount\n",
           "from invoicer.money import format_money\n")
    s.edit("invoicer/reminders.py",
           "    return (f\"{opener}: invoice {inv.number} for {format_amount(inv.total, inv.currency)} \"\n",
           "    return (f\"{opener}: invoice {inv.number} for {format_money(inv.total, inv.currency)} \"\n")
    s.edit("tests/test_invoicer.py", "from invoicer.money import format_amount, to_minor\n",
           "from invoicer.money import format_money, to_minor\n")
    s.edit("tests/test_invoicer.py",
           "    assert format_amount(123456, \"EUR\") == \"€1,234.56\"\n"
           "    assert format_amount(-50, \"USD\") == \"-$0.50\"\n",
           "    assert format_money(123456, \"EUR\") == \"€1,234.56\"\n"
           "    assert format_money(-50, \"USD\") == \"-$0.50\"\n")
    s.bash("grep -rn format_amount invoicer tests || echo 'no matches'", "no matches",
           description="Check nothing still uses the old name")
    s.bash("python3 -m pytest -q", "..............                                                           [100%]\n"
           "14 passed in 0.37s", description="Run the test suite")
    s.say("Renamed `format_amount` → `format_money` in `money.py`, `render.py` (5 call sites), `reminders.py` and "
          "the tests. No references left; 14 passed.")
    return [s]


@scenario("reminder-grace-day", INV, "the agent spots what looks like an off-by-one and offers to fix it; the maintainer "
          "explains it is deliberate (SEPA debits settle a day late) and asks for a comment",
          [exp("workaround", "invoicer/reminders.py:due_reminders", "grace day")])
def _grace(files):
    s = Session("heldout4-reminder-grace-day", "2025-03-19T17:02:00Z", files)
    s.user("add tests for the 2nd and 3rd reminder, only the first one is tested")
    s.read("invoicer/reminders.py")
    s.read("tests/test_invoicer.py", offset=80)
    s.say("Before I write them, one thing in `due_reminders` looks like a bug:\n\n"
          "```python\nif overdue_days(inv, today - timedelta(days=1)) >= SCHEDULE[inv.reminders_sent]:\n```\n\n"
          "It measures the overdue days as of *yesterday*, so each reminder goes out one day later than `SCHEDULE` "
          "says (the first on day 4 after the due date, not day 3) — the existing test even encodes that (nothing on "
          "03-18, a reminder on 03-19). Should I drop the `- timedelta(days=1)` so the schedule means what it says?")
    s.user("no, leave it, it's on purpose. SEPA direct debits through stripe settle up to a day after the due date, we "
           "were sending 'your invoice is overdue' to people whose money was already on the way. the extra grace day "
           "is the fix. the comment there is useless though, write a proper one so nobody 'fixes' it again")
    s.edit("invoicer/reminders.py",
           "        # the payment provider settles up to a day late\n",
           "        # Deliberate grace day: overdue days are counted as of yesterday, so every reminder goes out one\n"
           "        # day after SCHEDULE says. SEPA direct debits (Stripe) settle up to a day after the due date,\n"
           "        # and without it customers whose payment was already on the way got \"overdue\" emails.\n"
           "        # Not an off-by-one; don't remove.\n",
           text="Replacing the comment.")
    s.edit("tests/test_invoicer.py",
           "    assert reminder_body(inv, date(2025, 3, 19)).startswith(\"A friendly reminder\")\n",
           "    assert reminder_body(inv, date(2025, 3, 19)).startswith(\"A friendly reminder\")\n\n\n"
           "def test_second_and_third_reminders_include_the_grace_day():\n"
           "    inv = make()\n"
           "    inv.finalize(date(2025, 3, 1))  # due 2025-03-15; schedule 3, 10, 24 days + 1 grace day\n"
           "    inv.reminders_sent = 1\n"
           "    assert due_reminders([inv], date(2025, 3, 25)) == []\n"
           "    assert due_reminders([inv], date(2025, 3, 26)) == [inv]\n"
           "    assert reminder_body(inv, date(2025, 3, 26)).startswith(\"Second reminder\")\n"
           "    inv.reminders_sent = 2\n"
           "    assert due_reminders([inv], date(2025, 4, 8)) == []\n"
           "    assert due_reminders([inv], date(2025, 4, 9)) == [inv]\n"
           "    assert reminder_body(inv, date(2025, 4, 9)).startswith(\"Final reminder\")\n"
           "    inv.reminders_sent = 3\n"
           "    assert due_reminders([inv], date(2025, 5, 1)) == []\n")
    s.bash("python3 -m pytest -q", "...............                                                          [100%]\n"
           "15 passed in 0.40s", description="Run the test suite")
    s.say("Left the logic alone and replaced the comment with one that says the grace day is deliberate and why "
          "(SEPA settlement through Stripe), so it doesn't read as an off-by-one. The new test covers the second "
          "reminder (day 10 + 1), the final one (day 24 + 1) and that nothing follows the third. 15 passed.")
    return [s]


# -- dragdrop (TypeScript) -----------------------------------------------------------------------------------

DD = "dragdrop"


@scenario("drag-threshold", DD, "founder reports clicks inside cards starting drags; the agent asks an inline two-way "
          "question; the founder picks the threshold and says why the other is rejected",
          [exp("decision", "src/pointer.ts:PointerTracker.onMove", "threshold", ["interactive children"])])
def _threshold(files):
    s = Session("heldout4-drag-threshold", "2025-04-01T08:45:00Z", files)
    s.user("We've had three reports this week that links and buttons inside draggable cards don't work anymore: you "
           "click a link and the card starts dragging instead. It started with 0.4. Can you take a look?")
    s.read("src/pointer.ts")
    s.read("src/draggable.ts")
    s.say("I see why. `PointerTracker.onDown` captures the pointer (`setPointerCapture`) and calls `start` right away, "
          "so every press on a card — including one on a link inside it — begins a drag, creates the ghost, and the "
          "captured pointer means the link never gets its click.\n\n"
          "Two ways to fix it:\n"
          "- **Start after a movement threshold**: on pointerdown just remember the position; only when the pointer "
          "has moved more than a few pixels (4px is common) do we capture it and start the drag. A click without "
          "movement stays a click.\n"
          "- **Ignore interactive children**: keep starting on pointerdown, but skip presses whose target is inside "
          "an `a`, `button`, `input`, `select`, `textarea` or `[contenteditable]`.\n\n"
          "Which do you prefer?")
    s.user("The threshold, please. Ignoring interactive children sounds neat, but people put all sorts of things in "
           "cards (custom elements, our own dropdown component, rich text) and we'd be chasing that list forever. "
           "4px sounds right, but make it an option, some of our customers use pen tablets.")
    s.edit("src/pointer.ts",
           "  constructor(private handle: HTMLElement, private cb: PointerCallbacks) {\n",
           "  /** @param threshold px the pointer must move before a press becomes a drag */\n"
           "  constructor(private handle: HTMLElement, private cb: PointerCallbacks, private threshold = 4) {\n")
    s.edit("src/pointer.ts",
           "    this.pointerId = ev.pointerId;\n"
           "    this.origin = { x: ev.clientX, y: ev.clientY };\n"
           "    this.handle.setPointerCapture(ev.pointerId);\n"
           "    this.handle.addEventListener(\"pointermove\", this.onMove);\n"
           "    this.handle.addEventListener(\"pointerup\", this.onUp);\n"
           "    this.handle.addEventListener(\"pointercancel\", this.onCancel);\n"
           "    this.dragging = true;\n"
           "    this.cb.start(this.origin, ev);\n"
           "  }\n",
           "    this.pointerId = ev.pointerId;\n"
           "    this.origin = { x: ev.clientX, y: ev.clientY };\n"
           "    this.handle.addEventListener(\"pointermove\", this.onMove);\n"
           "    this.handle.addEventListener(\"pointerup\", this.onUp);\n"
           "    this.handle.addEventListener(\"pointercancel\", this.onCancel);\n"
           "  }\n")
    s.edit("src/pointer.ts",
           "  private onMove(ev: PointerEvent): void {\n"
           "    if (ev.pointerId !== this.pointerId || !this.dragging) return;\n"
           "    this.cb.move({ x: ev.clientX, y: ev.clientY }, ev);\n"
           "  }\n",
           "  private onMove(ev: PointerEvent): void {\n"
           "    if (ev.pointerId !== this.pointerId || !this.origin) return;\n"
           "    if (!this.dragging) {\n"
           "      // a press only becomes a drag past the threshold, so clicks inside the handle stay clicks\n"
           "      const dx = ev.clientX - this.origin.x;\n"
           "      const dy = ev.clientY - this.origin.y;\n"
           "      if (Math.hypot(dx, dy) < this.threshold) return;\n"
           "      this.handle.setPointerCapture(ev.pointerId);\n"
           "      this.dragging = true;\n"
           "      this.cb.start(this.origin, ev);\n"
           "    }\n"
           "    this.cb.move({ x: ev.clientX, y: ev.clientY }, ev);\n"
           "  }\n")
    s.edit("src/draggable.ts",
           "  handle?: HTMLElement;\n",
           "  handle?: HTMLElement;\n"
           "  /** px the pointer must move before a press starts a drag (default 4) */\n"
           "  threshold?: number;\n")
    s.edit("src/draggable.ts",
           "    cancel() {\n"
           "      finish(false);\n"
           "    },\n"
           "  });\n",
           "    cancel() {\n"
           "      finish(false);\n"
           "    },\n"
           "  }, opts.threshold);\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_ok(1, 6), description="Type-check and run the tests")
    s.say("Done:\n\n- `PointerTracker` now only remembers the position on pointerdown. `onMove` starts the drag (pointer "
          "capture, `start` callback) once the pointer has moved at least `threshold` px; a press released before "
          "that is left alone, so links and buttons inside cards get their click again.\n"
          "- `threshold` defaults to 4 and is exposed as `makeDraggable(el, { threshold })`.\n\n"
          "Type-check is clean, 6 tests pass. I haven't added a test for the threshold itself: jsdom doesn't "
          "implement pointer capture, so it'd need a stub — say if you want one.")
    s.user("No need, thanks. I'll try it with the pen tablet people.")
    return [s]


@scenario("autoscroll-ramp", DD, "lowercase with typos; options as a table; the person thinks aloud, leans to constant "
          "speed, changes their mind to the linear ramp, rejects accelerating with a reason, and leaves the window "
          "out 'for now'",
          [exp("decision", "src/autoscroll.ts:AutoScroller.speedFor", "linear ramp", ["constant speed", "accelerating"]),
           exp("boundary", "src/autoscroll.ts:findScrollContainer", "scrolling the window")])
def _autoscroll(files):
    s = Session("heldout4-autoscroll-ramp", "2025-04-02T19:40:00Z", files)
    s.user("autoscroll feels janky on long lists, it crawls when u drag to the bottom of a 500 item list. and on short "
           "lists it jumps. whats the options for how fast it scrolls")
    s.read("src/autoscroll.ts")
    s.say("Today `speedFor` is all-or-nothing: inside the 40px edge zone it scrolls a fixed 12px per frame, outside "
          "it doesn't scroll. That's why it crawls on long lists (12px × 60fps ≈ 720px/s no matter how hard you "
          "push) and feels jumpy on short ones (full speed the moment you touch the zone).\n\n"
          "| option | how | feel |\n"
          "|---|---|---|\n"
          "| constant speed (today) | fixed px/frame anywhere in the edge zone | simple; too slow for long lists, "
          "too abrupt for short ones |\n"
          "| linear ramp | 0 at the inner border of the zone, rising linearly to the max at the container's edge | "
          "user controls the speed by how close they go; what most sortable libraries do |\n"
          "| accelerate over time | speed grows the longer the pointer stays in the zone | covers long lists, but "
          "hard to stop at a precise spot |\n\n"
          "The ramp and the acceleration can also be combined, but that's more tuning.")
    s.user("hmm. constant is the simplest, maybe just bump it to 20px and call it a day? ... actualy no, thats "
           "basicaly what we have now and it'll still jump on short lists. ok linear ramp. accelerating sounds nice "
           "but i tried that in trello and i overshoot everytime, so no. max 20px/frame at the very edge.\n\n"
           "oh and dont bother with scrolling the window for now, only the nearest scroll container. the window case "
           "has like three edge cases with sticky headers that i dont want to deal with today")
    s.edit("src/autoscroll.ts",
           "  speedFor(distance: number): number {\n"
           "    return distance < this.edge ? this.speed : 0;\n"
           "  }\n",
           "  /** Linear ramp: 0 at the inner border of the edge zone, rising to `speed` at the container's edge. */\n"
           "  speedFor(distance: number): number {\n"
           "    if (distance >= this.edge) return 0;\n"
           "    const d = Math.max(distance, 0);\n"
           "    return Math.ceil(this.speed * (1 - d / this.edge));\n"
           "  }\n")
    s.edit("src/autoscroll.ts",
           "    this.speed = opts.speed ?? 12;\n",
           "    this.speed = opts.speed ?? 20;\n")
    s.edit("src/autoscroll.ts",
           "  /** px per frame */\n",
           "  /** px per frame at the very edge (the speed ramps up linearly across the edge zone) */\n")
    s.edit("src/autoscroll.ts",
           "    el = el.parentElement;\n"
           "  }\n"
           "  return document.scrollingElement as HTMLElement | null;\n"
           "}\n",
           "    el = el.parentElement;\n"
           "  }\n"
           "  // The window (document.scrollingElement) is not auto-scrolled for now: sticky headers and friends.\n"
           "  return null;\n"
           "}\n",
           text="And no window scrolling: without an element container, nothing scrolls.")
    s.bash("npx vitest run",
           " RUN  v2.1.4 {{ROOT}}\n\n"
           " ❯ test/dragdrop.test.ts (6 tests | 1 failed) 97ms\n"
           "   × autoscroll > scrolls only near an edge 4ms\n"
           "     → expected 9 to be 12 // Object.is equality\n\n"
           "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n"
           " FAIL  test/dragdrop.test.ts > autoscroll > scrolls only near an edge\n"
           "AssertionError: expected 9 to be 12 // Object.is equality\n\n"
           "- Expected\n+ Received\n\n- 12\n+ 9\n\n"
           " ❯ test/dragdrop.test.ts:58:29\n\n"
           " Test Files  1 failed (1)\n      Tests  1 failed | 5 passed (6)\n",
           fail=True, description="Run the tests")
    s.say("Expected: that test pinned the old constant speed. Updating it to describe the ramp.")
    s.edit("test/dragdrop.test.ts",
           "  it(\"scrolls only near an edge\", () => {\n"
           "    const s = new AutoScroller({ edge: 40, speed: 12 });\n"
           "    expect(s.speedFor(100)).toBe(0);\n"
           "    expect(s.speedFor(10)).toBe(12);\n"
           "  });\n",
           "  it(\"scrolls only near an edge\", () => {\n"
           "    const s = new AutoScroller({ edge: 40, speed: 12 });\n"
           "    expect(s.speedFor(100)).toBe(0);\n"
           "    expect(s.speedFor(40)).toBe(0);\n"
           "  });\n"
           "  it(\"ramps up linearly towards the edge\", () => {\n"
           "    const s = new AutoScroller({ edge: 40, speed: 20 });\n"
           "    expect(s.speedFor(30)).toBe(5);\n"
           "    expect(s.speedFor(20)).toBe(10);\n"
           "    expect(s.speedFor(0)).toBe(20);\n"
           "    expect(s.speedFor(-15)).toBe(20);\n"
           "  });\n")
    s.bash("npx vitest run", vitest_ok(1, 7), description="Run the tests")
    s.say("Done:\n\n- `speedFor` is a linear ramp: 0 at the inner border of the 40px zone, up to the max at the edge "
          "(and past it, if the pointer leaves the container).\n- Max speed defaults to 20px/frame.\n"
          "- `findScrollContainer` returns `null` instead of falling back to the document, so only an element scroll "
          "container is auto-scrolled; there's a comment saying the window is left out for now.\n\n7 tests pass.")
    s.user("nice, way better")
    return [s]


@scenario("keyboard-a11y", DD, "non-native English; an accessibility audit's points as rules in one message: Escape "
          "must always return the item and the focus, announcements polite not assertive (with the auditor's reason)",
          [exp("invariant", "src/keyboard.ts:KeyboardDrag.cancel", "escape"),
           exp("decision", "src/keyboard.ts:announce", "polite", ["assertive"])])
def _keyboard(files):
    s = Session("heldout4-keyboard-a11y", "2025-04-03T07:55:00Z", files)
    s.user("Hello, we got accessibility audit from a big customer (public sector). Some points for the keyboard drag:\n"
           "1. When user press Escape during keyboard drag, the item must go back to the original place and the focus "
           "must go back on the item. Always, also if user already moved between zones.\n"
           "2. We need announcements for screen reader (picked up, which zone, dropped, cancelled). Please use "
           "aria-live polite, not assertive — the auditor said assertive interrupts the user too much, she tested "
           "with NVDA and it was cutting the reading.\n"
           "3. The arrows between zones are ok already I think, she did not complain.\n"
           "Thank you!")
    s.read("src/keyboard.ts")
    s.read("src/draggable.ts", offset=60)
    s.say("Looking at `KeyboardDrag`: there's no Escape handling at all yet, and nothing is announced. Note that a "
          "keyboard drag never moves the item itself — arrows only highlight the target zone and the item moves on "
          "drop — so cancelling means: clear the highlight, don't drop, give the focus back to the item, and tell "
          "the `cancel` callback. I'll add that, plus a shared polite live region for the announcements.")
    s.edit("src/keyboard.ts",
           "export interface KeyboardCallbacks {\n",
           "let region: HTMLElement | null = null;\n\n"
           "/** Reads a message to screen readers through a polite live region (assertive would interrupt them). */\n"
           "export function announce(message: string): void {\n"
           "  if (!region || !region.isConnected) {\n"
           "    region = document.createElement(\"div\");\n"
           "    region.className = \"dd-live\";\n"
           "    region.setAttribute(\"aria-live\", \"polite\");\n"
           "    region.setAttribute(\"aria-atomic\", \"true\");\n"
           "    Object.assign(region.style, {\n"
           "      position: \"absolute\", width: \"1px\", height: \"1px\", overflow: \"hidden\", clip: \"rect(0 0 0 0)\",\n"
           "    });\n"
           "    document.body.appendChild(region);\n"
           "  }\n"
           "  region.textContent = message;\n"
           "}\n\n"
           "export interface KeyboardCallbacks {\n")
    s.edit("src/keyboard.ts",
           "    if (!this.active) return;\n"
           "    if (ev.key === \"ArrowDown\" || ev.key === \"ArrowRight\") {\n",
           "    if (!this.active) return;\n"
           "    if (ev.key === \"Escape\") {\n"
           "      ev.preventDefault();\n"
           "      this.cancel();\n"
           "    } else if (ev.key === \"ArrowDown\" || ev.key === \"ArrowRight\") {\n")
    s.edit("src/keyboard.ts",
           "    this.item.el.setAttribute(\"aria-grabbed\", \"true\");\n"
           "    this.focusTarget(0);\n"
           "  }\n",
           "    this.item.el.setAttribute(\"aria-grabbed\", \"true\");\n"
           "    announce(`Picked up. ${this.targets.length} drop zones. Arrow keys to choose, Space to drop, `\n"
           "      + \"Escape to cancel.\");\n"
           "    this.focusTarget(0);\n"
           "  }\n")
    s.edit("src/keyboard.ts",
           "    this.targets.forEach((t, j) => t.classList.toggle(\"dd-over\", j === this.index));\n"
           "  }\n",
           "    this.targets.forEach((t, j) => t.classList.toggle(\"dd-over\", j === this.index));\n"
           "    const t = this.targets[this.index];\n"
           "    announce(t.getAttribute(\"aria-label\") ?? `Drop zone ${this.index + 1} of ${n}`);\n"
           "  }\n")
    s.edit("src/keyboard.ts",
           "    const target = this.targets[this.index];\n"
           "    this.reset();\n"
           "    if (target) this.cb.drop(target);\n"
           "  }\n",
           "    const target = this.targets[this.index];\n"
           "    this.reset();\n"
           "    if (target) {\n"
           "      this.cb.drop(target);\n"
           "      announce(\"Dropped.\");\n"
           "    }\n"
           "  }\n\n"
           "  /** Escape: nothing is dropped, the item stays in its original place and gets the focus back —\n"
           "   *  whatever zone was highlighted. */\n"
           "  cancel(): void {\n"
           "    if (!this.active) return;\n"
           "    this.reset();\n"
           "    this.item.el.focus();\n"
           "    announce(\"Cancelled. The item is back in its original place.\");\n"
           "    this.cb.cancel();\n"
           "  }\n")
    s.edit("test/dragdrop.test.ts",
           "import { createGhost, moveGhost } from \"../src/ghost\";\n",
           "import { createGhost, moveGhost } from \"../src/ghost\";\n"
           "import { KeyboardDrag } from \"../src/keyboard\";\n")
    s.edit("test/dragdrop.test.ts",
           "describe(\"ghost\", () => {\n",
           "describe(\"keyboard\", () => {\n"
           "  it(\"Escape cancels, returns focus and announces politely\", () => {\n"
           "    const zone = box(\"zone\");\n"
           "    registerZone(zone, { accepts: [\"k\"] });\n"
           "    const el = box(\"k1\");\n"
           "    const cancel = vi.fn();\n"
           "    const drop = vi.fn();\n"
           "    new KeyboardDrag({ el, data: null, type: \"k\" }, { drop, cancel });\n"
           "    const key = (k: string) => el.dispatchEvent(new KeyboardEvent(\"keydown\", { key: k }));\n"
           "    key(\" \");\n"
           "    key(\"ArrowDown\");\n"
           "    key(\"Escape\");\n"
           "    expect(cancel).toHaveBeenCalledOnce();\n"
           "    expect(drop).not.toHaveBeenCalled();\n"
           "    expect(document.activeElement).toBe(el);\n"
           "    expect(zone.classList.contains(\"dd-over\")).toBe(false);\n"
           "    const live = document.querySelector(\".dd-live\")!;\n"
           "    expect(live.getAttribute(\"aria-live\")).toBe(\"polite\");\n"
           "    expect(live.textContent).toMatch(/original place/);\n"
           "  });\n"
           "});\n\n"
           "describe(\"ghost\", () => {\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_ok(1, 7, 655), description="Type-check and run the tests")
    s.say("Done, for points 1 and 2:\n\n"
          "1. **Escape** during a keyboard drag now calls `KeyboardDrag.cancel()`: the highlight is cleared, nothing "
          "is dropped, the item stays in its original place, the focus goes back to the item and `onDragEnd(item, "
          "false)` fires — also after moving between zones.\n"
          "2. **Announcements** go through `announce()`, one shared visually hidden region with `aria-live=\"polite\"` "
          "and `aria-atomic`: on pick-up (with the number of zones and the keys), on each zone (its `aria-label` if "
          "it has one, else \"Drop zone 2 of 5\"), on drop and on cancel.\n\n"
          "Point 3 I left as is. New test for Escape + the live region; type-check clean, 7 tests pass.\n\n"
          "Tip for the customer: giving drop zones an `aria-label` makes the announcements much more useful than "
          "\"Drop zone 2 of 5\".")
    s.user("Very good, thank you, I will forward this.")
    return [s]


@scenario("ghost-hit-testing", DD, "terse maintainer reports drops broken; the agent finds the cause (elementFromPoint "
          "hits the ghost), the maintainer confirms it in devtools, fixed with pointer-events: none; then an inline "
          "'body or the source's parent?' question answered 'body.'",
          [exp("gotcha", "src/ghost.ts:createGhost", "pointer-events"),
           exp("decision", "src/ghost.ts:createGhost", "document.body", ["source's parent"])])
def _ghost(files):
    s = Session("heldout4-ghost-hit-testing", "2025-04-07T12:10:00Z", files)
    s.user("drops broken in the demo. zone never lights up. chrome 134")
    s.read("src/dropzone.ts")
    s.read("src/ghost.ts")
    s.read("src/draggable.ts", offset=40, limit=25)
    s.say("I think I see it. On every move, `draggable.ts` calls `zoneAt(at.x, at.y, item)`, which asks "
          "`document.elementFromPoint(x, y)` what's under the pointer and walks up from there looking for a "
          "registered zone. But the ghost is exactly under the pointer: it's `position: fixed`, translated so the "
          "grab point sits under the cursor, with the maximum z-index. So `elementFromPoint` returns the ghost (or "
          "one of its children), and walking up from the ghost leads through the *source list* — it's appended to "
          "`source.parentElement` — never through the zone under the pointer.\n\n"
          "Can you confirm in devtools? While dragging over a zone, `document.elementFromPoint(x, y)` with the "
          "pointer's coordinates should give you the `.dd-ghost`.")
    s.user("yep. div.dd-ghost")
    s.say("Confirmed. The fix is `pointer-events: none` on the ghost: it stays visible, but hit-testing (and so "
          "`elementFromPoint`) sees through it to whatever is underneath.")
    s.edit("src/ghost.ts",
           "    zIndex: \"2147483647\",\n"
           "    opacity: \"0.85\",\n"
           "  });\n",
           "    zIndex: \"2147483647\",\n"
           "    opacity: \"0.85\",\n"
           "    // the ghost sits under the pointer: without this, elementFromPoint in zoneAt hits the ghost and\n"
           "    // no drop zone is ever found\n"
           "    pointerEvents: \"none\",\n"
           "  });\n")
    s.say("While I'm here, a related question about where the ghost lives. Today it's appended to the **source's "
          "parent**. That keeps inherited styles (font, colour, CSS variables) so the clone looks right for free, "
          "but an ancestor with `overflow: hidden` clips it, and an ancestor with a `transform` or `filter` turns "
          "`position: fixed` into position-relative-to-that-ancestor, so the ghost drifts away from the pointer. "
          "Appending it to **document.body** avoids both, at the price of losing inherited styles (we could copy "
          "a few computed ones onto the clone). Body or the source's parent?")
    s.user("body.")
    s.edit("src/ghost.ts",
           "  source.parentElement!.appendChild(el);\n",
           "  // on body, not the source's parent: no clipping by overflow: hidden, and no transformed ancestor\n"
           "  // breaking position: fixed\n"
           "  const inherited = getComputedStyle(source);\n"
           "  el.style.font = inherited.font;\n"
           "  el.style.color = inherited.color;\n"
           "  document.body.appendChild(el);\n")
    s.edit("test/dragdrop.test.ts",
           "    expect(g.el.id).toBe(\"\");\n"
           "  });\n",
           "    expect(g.el.id).toBe(\"\");\n"
           "  });\n"
           "  it(\"lets hit-testing through and lives on body\", () => {\n"
           "    const list = box(\"list\");\n"
           "    const src = document.createElement(\"div\");\n"
           "    list.appendChild(src);\n"
           "    const g = createGhost(src, { x: 0, y: 0 });\n"
           "    expect(g.el.style.pointerEvents).toBe(\"none\");\n"
           "    expect(g.el.parentElement).toBe(document.body);\n"
           "  });\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_ok(1, 7, 640), description="Type-check and run the tests")
    s.say("Done:\n- `pointer-events: none` on the ghost, with a comment on why (drop zones are found again).\n"
          "- The ghost is appended to `document.body`; it copies `font` and `color` from the source so it still "
          "looks like the card.\n- Test for both. Type-check clean, 7 tests pass.")
    s.user("ok")
    return [s]


@scenario("zero-dependencies", DD, "the agent offers raf-schd, lodash.throttle or own code; the founder states the rule "
          "('zero runtime dependencies … a rule, not a preference'); days later, in other code (keyboard Tab), the "
          "agent installs focus-trap and is bluntly corrected ('we've been over this')",
          [exp("invariant", "src/**/*.ts", "runtime dependencies", ["raf-schd", "lodash.throttle", "focus-trap"])])
def _zero_deps(files):
    s = Session("heldout4-zero-dependencies-1", "2025-04-08T10:00:00Z", files)
    s.user("On a slow Android phone the drag stutters, and the profiler shows we do the hit test and the ghost update "
           "on every single pointermove, which fires several times per frame there. Can we do that at most once per "
           "animation frame?")
    s.read("src/draggable.ts")
    s.say("Yes — the `move` callback does `getBoundingClientRect`, `constrain`, `moveGhost` and `zoneAt` (which forces "
          "a layout via `elementFromPoint`) for every event. Throttling it to one call per frame with the latest "
          "position fixes that. Options:\n\n"
          "1. `raf-schd` — tiny (≈300 bytes), does exactly this.\n"
          "2. `lodash.throttle` with a 16ms wait — familiar, but time-based rather than frame-aligned, and bigger.\n"
          "3. Write a ~20-line `rafThrottle` helper ourselves.\n\n"
          "I'd go with 1 or 3.")
    s.user("Write it ourselves. This library ships with zero runtime dependencies. It's the first line of the README "
           "and honestly the main reason people pick us over the big ones, so treat that as a rule, not a "
           "preference: no raf-schd, no lodash, nothing in `dependencies`. Dev dependencies are fine.")
    s.write("src/raf.ts",
            "/** Calls `fn` at most once per animation frame, with the latest arguments. */\n"
            "export function rafThrottle<A extends unknown[]>(fn: (...args: A) => void) {\n"
            "  let frame = 0;\n"
            "  let latest: A | null = null;\n"
            "  const throttled = (...args: A): void => {\n"
            "    latest = args;\n"
            "    if (frame) return;\n"
            "    frame = requestAnimationFrame(() => {\n"
            "      frame = 0;\n"
            "      const args_ = latest;\n"
            "      latest = null;\n"
            "      if (args_) fn(...args_);\n"
            "    });\n"
            "  };\n"
            "  return Object.assign(throttled, {\n"
            "    cancel(): void {\n"
            "      if (frame) cancelAnimationFrame(frame);\n"
            "      frame = 0;\n"
            "      latest = null;\n"
            "    },\n"
            "  });\n"
            "}\n",
            text="Own helper, no dependency.")
    s.edit("src/draggable.ts",
           "import { PointerTracker } from \"./pointer\";\n",
           "import { PointerTracker } from \"./pointer\";\n"
           "import { rafThrottle } from \"./raf\";\n")
    s.edit("src/draggable.ts",
           "  const finish = (dropped: boolean) => {\n"
           "    if (ghost) removeGhost(ghost);\n",
           "  const finish = (dropped: boolean) => {\n"
           "    follow.cancel();\n"
           "    if (ghost) removeGhost(ghost);\n")
    s.edit("src/draggable.ts",
           "  const tracker = new PointerTracker(opts.handle ?? el, {\n",
           "  // pointermove can fire several times per frame: one ghost update and hit test per frame is enough\n"
           "  const follow = rafThrottle((at: Point) => {\n"
           "    if (!ghost) return;\n"
           "    const rect = ghost.el.getBoundingClientRect();\n"
           "    const p = opts.constraints ? constrain(origin, at, opts.constraints, rect) : at;\n"
           "    moveGhost(ghost, p);\n"
           "    scroller?.update(at);\n"
           "    const zone = zoneAt(at.x, at.y, item);\n"
           "    highlight(zone, over);\n"
           "    over = zone;\n"
           "  });\n\n"
           "  const tracker = new PointerTracker(opts.handle ?? el, {\n")
    s.edit("src/draggable.ts",
           "    move(at) {\n"
           "      if (!ghost) return;\n"
           "      const rect = ghost.el.getBoundingClientRect();\n"
           "      const p = opts.constraints ? constrain(origin, at, opts.constraints, rect) : at;\n"
           "      moveGhost(ghost, p);\n"
           "      scroller?.update(at);\n"
           "      const zone = zoneAt(at.x, at.y, item);\n"
           "      highlight(zone, over);\n"
           "      over = zone;\n"
           "    },\n",
           "    move(at) {\n"
           "      follow(at);\n"
           "    },\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest_ok(1, 6), description="Type-check and run the tests")
    s.say("Done. `src/raf.ts` has a `rafThrottle` helper (latest arguments win, with `cancel()`), and `makeDraggable` "
          "runs the ghost update and hit test through it, so at most once per frame; `finish` cancels a pending "
          "frame so nothing runs after the drop. `dependencies` stays empty. Type-check clean, 6 tests pass.")

    t = Session("heldout4-zero-dependencies-2", "2025-04-11T16:25:00Z", files)
    t.user("keyboard drag: while an item is picked up, Tab should move between the drop targets instead of leaving to "
           "the next thing on the page")
    t.read("src/keyboard.ts")
    t.bash("npm install focus-trap", "\nadded 2 packages, and audited 143 packages in 2s\n\n31 packages are looking for "
           "funding\n  run `npm fund` for details\n\nfound 0 vulnerabilities",
           description="Install focus-trap",
           text="I'll use `focus-trap` for this; it handles the awkward cases (shift+tab, shadow DOM, elements that "
                "become hidden) and is widely used.")
    t.user("no. zero runtime dependencies, we've been over this. uninstall it and write it yourself, it's ten lines "
           "in onKeyDown")
    t.bash("npm uninstall focus-trap", "\nremoved 2 packages, and audited 141 packages in 1s\n\nfound 0 "
           "vulnerabilities", description="Remove focus-trap")
    t.edit("src/keyboard.ts",
           "    if (!this.active) return;\n"
           "    if (ev.key === \"ArrowDown\" || ev.key === \"ArrowRight\") {\n",
           "    if (!this.active) return;\n"
           "    if (ev.key === \"Tab\") {\n"
           "      // while picked up, Tab cycles through the drop targets instead of leaving the widget\n"
           "      ev.preventDefault();\n"
           "      this.focusTarget(this.index + (ev.shiftKey ? -1 : 1));\n"
           "    } else if (ev.key === \"ArrowDown\" || ev.key === \"ArrowRight\") {\n",
           text="Handling Tab in `onKeyDown` directly.")
    t.bash("git diff --stat package.json package-lock.json", "", description="Check package.json is back as it was")
    t.bash("npx tsc --noEmit && npx vitest run", vitest_ok(1, 6), description="Type-check and run the tests")
    t.say("Sorry — uninstalled `focus-trap`; `package.json` and the lockfile are back to what they were. Tab and "
          "Shift+Tab now cycle through the drop targets in `KeyboardDrag.onKeyDown` while an item is picked up "
          "(the same wrap-around as the arrows), and behave normally otherwise. Type-check clean, 6 tests pass.")
    return [s, t]


@scenario("review-constraints", DD, "a process instruction ('run tsc first'); a review full of 'should'/'must' "
          "suggestions, acknowledged and not taken up; no edits", [])
def _review(files):
    s = Session("heldout4-review-constraints", "2025-04-14T09:20:00Z", files)
    s.user("review src/constraints.ts for me, anything wrong in there? run tsc first so we know where we stand")
    s.bash("npx tsc --noEmit", "", description="Type-check")
    s.read("src/constraints.ts")
    s.read("src/draggable.ts", offset=38, limit=20)
    s.say("Type-check is clean. `constraints.ts` is small and mostly fine; a few things I'd look at:\n\n"
          "- **`clampTo` with bounds smaller than the ghost.** If the ghost is wider than `bounds`, `bounds.right - "
          "size.width` is less than `bounds.left` and `Math.min(Math.max(...))` returns the right-hand limit — the "
          "ghost jumps left of the box. It should probably pin to `bounds.left` in that case.\n"
          "- **`snap` snaps to a viewport grid.** `Math.round(at.x / grid) * grid` uses client coordinates, so the "
          "grid moves when the page scrolls. It should snap relative to the drag origin or the bounds' top-left if "
          "the grid is meant to line up with the content.\n"
          "- **Order in `constrain`.** Snapping runs after clamping, so a snapped position can land outside the "
          "bounds again. Clamping must come last if the bounds are a hard limit.\n"
          "- **`lockAxis` gets the pointer, not the ghost's corner.** `draggable.ts` passes the raw pointer "
          "position and `moveGhost` subtracts the grab offset afterwards; that's consistent today, but a comment "
          "would help.\n\n"
          "None of these are covered by tests; the existing three only check the happy paths.")
    s.user("ok, good points. not touching it this week, I'll open issues for the first three")
    return [s]


@scenario("touch-plan", DD, "exploration of long-press touch support; the agent lays out a plan nobody adopts; the "
          "person asks for a JSDoc comment instead", [])
def _touch(files):
    s = Session("heldout4-touch-plan", "2025-04-15T13:45:00Z", files)
    s.user("just thinking out loud — what would it take to support long-press to start a drag on phones? right now "
           "on touch you can't scroll a list of cards because every swipe becomes a drag")
    s.read("src/pointer.ts")
    s.grep("touch-action", [])
    s.subagent("How do small drag-and-drop libraries start a drag on touch devices without blocking scrolling? "
               "Look at long-press delays and touch-action.",
               "Common approach: on touch pointers, start a timer (200–500ms) on pointerdown; if the pointer moves "
               "more than a few px before it fires, treat the gesture as a scroll and abandon the drag; if it fires, "
               "start the drag and from then on call preventDefault on touchmove (a non-passive listener) to stop "
               "the page scrolling. `touch-action: none` on the handle is simpler but blocks scrolling over the "
               "handle entirely, so libraries apply it only to explicit drag handles. Mouse and pen usually skip "
               "the delay.")
    s.say("It's a medium-sized change. Roughly:\n\n"
          "1. In `PointerTracker.onDown`, for `pointerType === \"touch\"` start a long-press timer (say 300ms) "
          "instead of tracking right away; mouse and pen keep the current behaviour.\n"
          "2. If the pointer moves more than a few px before the timer fires, give up: it's a scroll.\n"
          "3. When the timer fires, capture the pointer, start the drag, and add a non-passive `touchmove` "
          "listener that calls `preventDefault()` so the page stops scrolling during the drag.\n"
          "4. Optionally a `navigator.vibrate(10)` as feedback, and a `dragDelay` option.\n"
          "5. Tests would need fake timers and synthetic pointer events.\n\n"
          "`touch-action: none` on the card would be the one-liner, but it blocks scrolling over the cards "
          "completely, which is the problem you described.")
    s.user("hm ok, more than I hoped. I'll talk to Sam about it first. meanwhile can you add a proper jsdoc to "
           "makeDraggable, the editor tooltip is empty")
    s.edit("src/draggable.ts",
           "export function makeDraggable(el: HTMLElement, opts: DraggableOptions = {}): () => void {\n",
           "/**\n"
           " * Makes `el` draggable with the pointer and the keyboard (Space to pick up, arrows to choose a zone,\n"
           " * Space to drop).\n"
           " *\n"
           " * @param el the element to drag; it is copied into a ghost that follows the pointer\n"
           " * @param opts type and data handed to drop zones, an optional handle, constraints, auto-scroll\n"
           " * @returns a function that removes every listener\n"
           " */\n"
           "export function makeDraggable(el: HTMLElement, opts: DraggableOptions = {}): () => void {\n")
    s.bash("npx tsc --noEmit", "", description="Type-check")
    s.say("Added a JSDoc to `makeDraggable` (what it does, the keys, the params and the returned cleanup function). "
          "Type-check clean.")
    return [s]


# -- build and check ---------------------------------------------------------------------------------------

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
    (tether's parser) of the final state, or a file, or a glob matching some file; every phrase and
    rejected phrase must occur in the sessions' text."""
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
            shutil.copytree(HERE / "repos" / sc["repo"], root,
                            ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
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
