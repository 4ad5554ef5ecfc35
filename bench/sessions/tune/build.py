"""Writes the ``tune`` half of the labelled capture evaluation set: ``sessions/*.jsonl`` and
``expected.json``, from the scenarios below, then checks that every session replays on a copy
of its repository and that every expected anchor names something in the final state.

The sessions are Claude Code transcripts written with the ``Session`` builder of
``tests/fixtures/transcripts/build.py`` against the three repositories in ``repos/``:
``billing`` (Python, subscription billing), ``ingest`` (Python, a CLI that loads meter
readings into SQLite) and ``roster`` (TypeScript, a shift-scheduling HTTP API). Each scenario
starts from a fresh copy of its repository; the sessions of one scenario run in order on the
same copy (a decision restated in a later session).

    python3 bench/sessions/tune/build.py
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOP = HERE.parents[2]
SET = "tune"

sys.path.insert(0, str(TOP / "server"))
sys.path.insert(0, str(TOP / "tests"))
from capture_fixtures import PLACEHOLDER, hook_events  # noqa: E402
from tether.core.files import glob_match  # noqa: E402
from tether.core.languages import for_path  # noqa: E402
from tether.core.syntax import SourceFile  # noqa: E402

# the fixtures' Session builder, loaded by path: this file is also called build.py
_spec = importlib.util.spec_from_file_location("fixture_build", TOP / "tests" / "fixtures" / "transcripts" / "build.py")
_fixture_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fixture_build)
Session = _fixture_build.Session


def read_repo(repo: str) -> dict[str, str]:
    base = HERE / "repos" / repo
    return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8") for p in sorted(base.rglob("*")) if p.is_file()}


SCENARIOS: list[dict] = []


def scenario(name: str, repo: str, note: str, expected: list[dict]):
    def register(fn):
        SCENARIOS.append({"name": name, "repo": repo, "note": note, "fn": fn, "expected": expected})
        return fn
    return register


def exp(kind: str, anchor: str, phrase: str, rejected: list[str] | None = None) -> dict:
    return {"kind": kind, "anchor": anchor, "phrase": phrase, "rejected": rejected or []}


def passed(n: int, t: str = "0.05") -> str:
    """pytest -q output for n passing tests."""
    return f"{'.' * n}{' ' * (72 - n)}[100%]\n{n} passed in {t}s"


# == billing (Python) ===================================================================================

@scenario("billing-proration-options", "billing",
          "terse senior; the agent lists options A/B/C with reasons, the person picks one in two words",
          [exp("decision", "src/billing/proration.py:unused_fraction", "by the second",
               ["round partial days up", "no proration at all"])])
def _bill_proration(files):
    s = Session("bill-proration-options", "2026-11-09T08:41:12.000Z", files)
    s.user("proration is off for mid-month upgrades. cust upgraded 23:00 on the 15th, got charged as if it was "
           "the whole day. fix")
    s.say("Let me look at how the unused part of the period is computed.",
          thinking="Probably integer days somewhere. Read proration.py.")
    s.read("src/billing/proration.py")
    s.bash("python -m pytest -q tests/test_proration.py", passed(2), description="Run the proration tests")
    s.say("Found it. `unused_fraction` uses `timedelta.days` for both the period and the remaining time, and "
          "`.days` drops everything below 24h. An upgrade at 23:00 on the 15th leaves 15 days and 1 hour, which "
          "becomes 15 days, so the customer pays for the 15th as if they'd had the new plan all day.\n\n"
          "A few ways to fix it:\n\n"
          "**A. Keep calendar days, round partial days up** — small change, and the invoice can keep saying "
          "\"15 days remaining\". Still off by up to one day's price, just in the customer's favour now.\n\n"
          "**B. Prorate by the second** — `total_seconds()` on both deltas. Exact, no edge cases around the time "
          "of day or DST. The invoice line can't show a neat day count any more.\n\n"
          "**C. No proration at all** — new price from the next period on. Simplest, but upgrades get the "
          "bigger plan for free until renewal; finance would object.\n\n"
          "I'd go with B.")
    s.user("B. seconds. invoice text can just say 'prorated'")
    s.edit("src/billing/proration.py",
           "    total = (period_end - period_start).days\n    left = (period_end - changed_at).days\n"
           "    return max(0, left) / total\n",
           "    total = (period_end - period_start).total_seconds()\n"
           "    left = (period_end - changed_at).total_seconds()\n    return max(0.0, left) / total\n")
    s.edit("tests/test_proration.py", "def test_downgrade_is_credit():\n",
           "def test_late_in_the_day_counts():\n    start, end = datetime(2026, 4, 1), datetime(2026, 5, 1)\n"
           "    # 15 days and 1 hour left of 30 days\n"
           "    assert prorate(get_plan(\"starter\"), get_plan(\"team\"), start, end, datetime(2026, 4, 15, 23)) == 2006\n"
           "\n\ndef test_downgrade_is_credit():\n")
    s.bash("python -m pytest -q tests/test_proration.py", passed(3), description="Run the proration tests")
    s.say("Done — `unused_fraction` now works in seconds. The new test covers the 23:00 case: 15 days 1 hour of "
          "30 days on a 40.00 EUR difference is 20.06 EUR. All 3 proration tests pass.")
    return [s]


@scenario("billing-tax-per-invoice", "billing",
          "verbose person; tax on the invoice total instead of per line, chosen over two alternatives, then "
          "restated in a second session days later",
          [exp("decision", "src/billing/invoices.py:build_invoice", "invoice total",
               ["per line", "distribute the invoice-level tax across the lines"])])
def _bill_tax(files):
    a = Session("bill-tax-rounding-1", "2026-11-10T13:05:44.000Z", files)
    a.user("So our accountant, Henrike, flagged something on last month's invoices and I want to fix it properly "
           "before the next run. Right now we compute VAT on each invoice line separately, round each line, and "
           "then add the line taxes up. On invoices with lots of small lines — we have one customer with 40 seat "
           "add-ons at 1.99 each — the rounding differences pile up and the VAT on the invoice no longer equals "
           "net times rate. On that one it was off by 8 cents, and their accounts payable team bounced the invoice.\n\n"
           "The German tax office expects VAT to be calculated on the invoice total per rate, and Henrike says "
           "that's what every other SaaS vendor she deals with does. So I'd like us to compute tax once on the "
           "invoice total instead of per line. Lines can keep showing their net amounts. I don't really care "
           "whether the per-line tax field disappears or stays at zero, whatever is cleaner. Does that make sense?")
    a.read("src/billing/invoices.py")
    a.read("src/billing/tax.py")
    a.say("It makes sense, and the numbers back it up: 40 × 1.99 = 79.60 net; per line the tax is "
          "round(199 × 0.19) = 38 cents, × 40 = 15.20, while 19% of 79.60 is 15.12.\n\n"
          "Two ways to do it:\n"
          "1. Keep `InvoiceLine.tax_minor` and distribute the invoice-level tax across the lines (largest "
          "remainder), so the line taxes still add up to the total. Only worth it if something needs tax per line.\n"
          "2. Drop per-line tax and keep one `tax_minor` on the invoice, computed from the net total.\n\n"
          "Let me check whether anything reads the line tax.")
    a.grep("tax_minor", ["src/billing/invoices.py"])
    a.say("Only `invoices.py` itself uses it.")
    a.user("Right, nothing downstream reads line tax, I also checked the PDF template and it only prints net per "
           "line. Go with the single tax computed on the invoice total. Per-line rounding is exactly the thing we "
           "want to get rid of, so let's not keep a distributed version of it around either.")
    a.edit("src/billing/invoices.py",
           "class InvoiceLine:\n    description: str\n    net_minor: int\n    tax_minor: int = 0\n",
           "class InvoiceLine:\n    description: str\n    net_minor: int\n")
    a.edit("src/billing/invoices.py",
           "    lines: list[InvoiceLine] = field(default_factory=list)\n",
           "    lines: list[InvoiceLine] = field(default_factory=list)\n    tax_minor: int = 0\n")
    a.edit("src/billing/invoices.py",
           "    @property\n    def tax(self) -> int:\n        return sum(l.tax_minor for l in self.lines)\n",
           "    @property\n    def tax(self) -> int:\n        return self.tax_minor\n")
    a.edit("src/billing/invoices.py",
           "    for desc, net in [(plan.name, plan.price_minor), *extras]:\n"
           "        inv.lines.append(InvoiceLine(desc, net, tax_for(customer[\"country\"], net)))\n    return inv\n",
           "    for desc, net in [(plan.name, plan.price_minor), *extras]:\n"
           "        inv.lines.append(InvoiceLine(desc, net))\n"
           "    # VAT once on the invoice total, not per line: per-line rounding drifts from net x rate\n"
           "    inv.tax_minor = tax_for(customer[\"country\"], inv.net)\n    return inv\n")
    a.write("tests/test_invoices.py",
            "from billing.invoices import build_invoice\n\n\n"
            "def test_tax_on_total_not_per_line():\n"
            "    extras = [(\"Seat add-on\", 199)] * 40\n"
            "    inv = build_invoice(\"INV-2026-00001\", {\"id\": \"c1\", \"country\": \"DE\"}, \"starter\", extras)\n"
            "    assert inv.net == 900 + 7960\n"
            "    assert inv.tax == round(inv.net * 19 / 100)\n")
    a.bash("python -m pytest -q", passed(5, "0.07"), description="Run all tests")
    a.say("Done:\n- `InvoiceLine` has no tax field any more; `Invoice.tax_minor` holds one VAT amount.\n"
          "- `build_invoice` computes it once from `inv.net`.\n"
          "- New test with the 40 × 1.99 case; the whole suite passes (5 tests).")
    a.user("Lovely, thank you. Henrike will be pleased.")

    b = Session("bill-tax-rounding-2", "2026-11-17T10:22:03.000Z", files)
    b.user("Next thing on my list is discount codes for the spring campaign. A discount is a percentage off the "
           "plan price, and it should show up on the invoice as its own negative line, like \"Spring campaign "
           "−20%\". One thing to keep in mind from last week: VAT is computed once on the invoice total, never per "
           "line, so the discount should simply reduce the net before the tax is computed — please don't "
           "reintroduce any per-line tax for the discount line. Could you add a `discount` parameter to "
           "build_invoice, something like (label, percent)?")
    b.read("src/billing/invoices.py")
    b.edit("src/billing/invoices.py",
           "def build_invoice(number: str, customer: dict, plan_code: str, extras: list[tuple[str, int]]) -> Invoice:\n"
           "    plan = get_plan(plan_code)\n    inv = Invoice(number, customer[\"id\"], plan.currency)\n"
           "    for desc, net in [(plan.name, plan.price_minor), *extras]:\n",
           "def build_invoice(number: str, customer: dict, plan_code: str, extras: list[tuple[str, int]],\n"
           "                  discount: tuple[str, int] | None = None) -> Invoice:\n"
           "    plan = get_plan(plan_code)\n    inv = Invoice(number, customer[\"id\"], plan.currency)\n"
           "    lines = [(plan.name, plan.price_minor), *extras]\n    if discount:\n"
           "        label, percent = discount\n        lines.append((label, -round(plan.price_minor * percent / 100)))\n"
           "    for desc, net in lines:\n",
           text="Since tax is computed once on the invoice total, the discount only needs to be a negative line; "
                "the tax follows from the reduced net automatically.")
    b.edit("tests/test_invoices.py", "    assert inv.tax == round(inv.net * 19 / 100)\n",
           "    assert inv.tax == round(inv.net * 19 / 100)\n\n\n"
           "def test_discount_reduces_net_before_tax():\n"
           "    inv = build_invoice(\"INV-2026-00002\", {\"id\": \"c1\", \"country\": \"DE\"}, \"team\", [],\n"
           "                        discount=(\"Spring campaign -20%\", 20))\n"
           "    assert inv.net == 4900 - 980\n"
           "    assert inv.tax == round(3920 * 19 / 100)\n")
    b.bash("python -m pytest -q", passed(6, "0.07"), description="Run all tests")
    b.say("Added `discount=(label, percent)` to `build_invoice`. The discount is a negative line computed from "
          "the plan price (not the add-ons); VAT is still one amount on the invoice total. 6 tests pass.")
    return [a, b]


@scenario("billing-dunning-revert", "billing",
          "terse senior; agrees to exponential backoff, then reverts it in the same session for a fixed "
          "schedule: only the final choice is expected",
          [exp("decision", "src/billing/dunning.py:next_retry", "fixed schedule", ["exponential backoff"])])
def _bill_dunning(files):
    s = Session("bill-dunning-backoff", "2026-11-11T15:30:00.000Z", files)
    s.user("dunning retries daily. 4 tries in 4 days, too aggressive, cards just get blocked. spread them out")
    s.read("src/billing/dunning.py")
    s.say("Two common shapes for this:\n"
          "- exponential backoff from the last failure: 1, 2, 4, 8 days\n"
          "- a fixed schedule counted from the first failure, e.g. day 1, 3, 5, 7\n\n"
          "I'd go with exponential backoff: one formula, and it keeps working if `MAX_ATTEMPTS` changes.")
    s.user("ok")
    s.edit("src/billing/dunning.py", "    return failed_at + timedelta(days=1)\n",
           "    return failed_at + timedelta(days=2 ** (attempt - 1))\n")
    s.write("tests/test_dunning.py",
            "from datetime import datetime\n\nfrom billing.dunning import next_retry\n\n\n"
            "def test_spacing_grows():\n    t = datetime(2026, 6, 1)\n"
            "    assert [(next_retry(n, t) - t).days for n in (1, 2, 3)] == [1, 2, 4]\n\n\n"
            "def test_gives_up():\n    assert next_retry(4, datetime(2026, 6, 1)) is None\n")
    s.bash("python -m pytest -q tests/test_dunning.py", passed(2, "0.02"), description="Run the dunning tests")
    s.say("Retries now wait 1, 2, 4 days after each failure; after the 4th failure we give up.")
    s.user("hm wait. talked to ops. salaries land on the 1st and 15th, and they want retries on predictable days "
           "they can tell support about. revert the backoff. fixed schedule: day 1, 3, 5, 7 after the FIRST "
           "failure. want to read it off the code")
    s.say("Got it — back to a table. That needs the time of the first failure rather than the last one, so "
          "`next_retry` takes `first_failed_at`.")
    s.edit("src/billing/dunning.py",
           "MAX_ATTEMPTS = 4\n\n\ndef next_retry(attempt: int, failed_at: datetime) -> datetime | None:\n"
           "    \"\"\"When to retry after the ``attempt``-th failed charge (1-based); None: give up.\"\"\"\n"
           "    if attempt >= MAX_ATTEMPTS:\n        return None\n"
           "    return failed_at + timedelta(days=2 ** (attempt - 1))\n",
           "# days after the first failed charge; ops tell customers these dates, keep them fixed\n"
           "RETRY_DAYS = (1, 3, 5, 7)\nMAX_ATTEMPTS = len(RETRY_DAYS) + 1\n\n\n"
           "def next_retry(attempt: int, first_failed_at: datetime) -> datetime | None:\n"
           "    \"\"\"When to retry after the ``attempt``-th failed charge (1-based); None: give up.\"\"\"\n"
           "    if attempt >= MAX_ATTEMPTS:\n        return None\n"
           "    return first_failed_at + timedelta(days=RETRY_DAYS[attempt - 1])\n")
    s.edit("tests/test_dunning.py",
           "def test_spacing_grows():\n    t = datetime(2026, 6, 1)\n"
           "    assert [(next_retry(n, t) - t).days for n in (1, 2, 3)] == [1, 2, 4]\n\n\n"
           "def test_gives_up():\n    assert next_retry(4, datetime(2026, 6, 1)) is None\n",
           "def test_fixed_days_after_first_failure():\n    t = datetime(2026, 6, 1)\n"
           "    assert [(next_retry(n, t) - t).days for n in (1, 2, 3, 4)] == [1, 3, 5, 7]\n\n\n"
           "def test_gives_up():\n    assert next_retry(5, datetime(2026, 6, 1)) is None\n")
    s.bash("python -m pytest -q tests/test_dunning.py", passed(2, "0.02"), description="Run the dunning tests")
    s.say("Reverted the backoff. `RETRY_DAYS = (1, 3, 5, 7)` counted from the first failure, five attempts in "
          "all (the renewal plus four retries). Callers now pass the first failure's time — the renewal job "
          "already stores it as `first_failed_at` on the subscription.")
    s.user("👍")
    return [s]


@scenario("billing-webhook-correction", "billing",
          "the person corrects the agent's fix with a hard rule (raw bytes, constant-time compare); one "
          "invariant, the agent's re-serialising fix is rejected",
          [exp("invariant", "src/billing/webhooks.py:verify_signature", "raw request body", ["sorted keys"])])
def _bill_webhook(files):
    s = Session("bill-webhook-signature", "2026-11-12T09:14:51.000Z", files)
    s.user("webhook signature check fails for roughly 1 in 50 events in prod. provider support says our "
           "verification is wrong. can you look")
    s.read("src/billing/webhooks.py")
    s.say("The check parses the payload and signs `json.dumps(event)` — a re-serialisation. Whenever the "
          "provider's JSON differs in spacing, key order or `\\u` escapes from Python's output, the HMAC won't "
          "match. Events with accented customer names would be exactly that 1 in 50.\n\n"
          "I'll serialise canonically so it matches their format: compact separators and sorted keys.")
    s.edit("src/billing/webhooks.py",
           "json.dumps(event).encode()",
           "json.dumps(event, separators=(\",\", \":\"), sort_keys=True, ensure_ascii=False).encode()")
    s.user("no — that's guessing their serializer, and it breaks the next time they change it. it must HMAC the "
           "raw request body, exactly the bytes we received, before any parsing. and compare with "
           "hmac.compare_digest, not !=, or we leak timing")
    s.say("You're right, the raw bytes are the only thing both sides agree on. Verifying first and parsing "
          "after.")
    s.edit("src/billing/webhooks.py",
           "    event = json.loads(payload)\n"
           "    expected = hmac.new(secret.encode(), json.dumps(event, separators=(\",\", \":\"), sort_keys=True, "
           "ensure_ascii=False).encode(), hashlib.sha256).hexdigest()\n"
           "    if header != expected:\n        raise BadSignature(\"signature mismatch\")\n    return event\n",
           "    # the raw body as received: any re-serialisation changes bytes the provider signed\n"
           "    expected = hmac.new(secret.encode(), payload, hashlib.sha256).hexdigest()\n"
           "    if not hmac.compare_digest(expected, header):\n        raise BadSignature(\"signature mismatch\")\n"
           "    return json.loads(payload)\n")
    s.write("tests/test_webhooks.py",
            "import hashlib\nimport hmac\n\nimport pytest\n\nfrom billing.webhooks import BadSignature, "
            "verify_signature\n\n\ndef sign(body: bytes) -> str:\n"
            "    return hmac.new(b\"whsec\", body, hashlib.sha256).hexdigest()\n\n\n"
            "def test_any_formatting_verifies():\n"
            "    body = '{ \"type\" : \"charge.succeeded\", \"data\": {\"name\": \"Jos\\u00e9\"} }'.encode()\n"
            "    assert verify_signature(body, sign(body), \"whsec\")[\"type\"] == \"charge.succeeded\"\n\n\n"
            "def test_tampered_body_fails():\n    body = b'{\"type\": \"charge.succeeded\"}'\n"
            "    with pytest.raises(BadSignature):\n"
            "        verify_signature(body.replace(b\"succeeded\", b\"failed\"), sign(body), \"whsec\")\n")
    s.bash("python -m pytest -q tests/test_webhooks.py", passed(2, "0.03"), description="Run the webhook tests")
    s.say("`verify_signature` now HMACs the payload bytes as received, compares with `hmac.compare_digest`, and "
          "only then parses the JSON. Both tests pass, including one with odd spacing and a `\\u00e9` escape.")
    return [s]


@scenario("billing-gateway-409-workaround", "billing",
          "a pasted stack trace; the agent explains why a 409 is deliberately treated as success",
          [exp("workaround", "src/billing/gateway.py:GatewayClient.charge", "409")])
def _bill_gateway(files):
    s = Session("bill-gateway-idempotency", "2026-11-13T07:02:37.000Z", files)
    s.user("renewal job died overnight on a retry:\n\n```\nTraceback (most recent call last):\n"
           "  File \"/srv/billing/jobs/renew.py\", line 61, in run\n"
           "    res = gw.charge(sub.customer_id, inv.total, inv.currency, idempotency_key=inv.number)\n"
           "  File \"/srv/billing/src/billing/gateway.py\", line 43, in charge\n"
           "    return self._post(\"/v1/charges\", {\"customer\": customer_id, \"amount\": amount_minor, "
           "\"currency\": currency},\n"
           "  File \"/srv/billing/src/billing/gateway.py\", line 29, in _post\n"
           "    raise GatewayError(e.code, e.read().decode(errors=\"replace\")) from None\n"
           "billing.gateway.GatewayError: gateway answered 409: {\"error\":{\"type\":\"idempotency_error\","
           "\"message\":\"A request with this idempotency key is still in progress or has completed.\"}}\n```\n\n"
           "the charge DID go through on their side btw, customer has a receipt")
    s.read("src/billing/gateway.py")
    s.say("What happened, as far as I can reconstruct it: the first `charge` call timed out on our side after 10s, "
          "but the provider finished it. The job retried with the same idempotency key — which is what the key is "
          "for — but this provider doesn't replay the original response for a key whose first request outlived "
          "the client; it answers 409 `idempotency_error` instead. So a 409 here means \"already charged\", not "
          "\"failed\".\n\n"
          "I'll make `charge` treat that specific 409 as success and fetch the existing charge by its idempotency "
          "key, so the caller gets the same dict as on a normal success. It looks odd to catch an error and "
          "return normally, so I'll say why in a comment.")
    s.edit("src/billing/gateway.py",
           "    def charge(self, customer_id: str, amount_minor: int, currency: str, idempotency_key: str) -> dict:\n"
           "        return self._post(\"/v1/charges\", {\"customer\": customer_id, \"amount\": amount_minor, "
           "\"currency\": currency},\n                          {\"Idempotency-Key\": idempotency_key})\n",
           "    def charge(self, customer_id: str, amount_minor: int, currency: str, idempotency_key: str) -> dict:\n"
           "        try:\n"
           "            return self._post(\"/v1/charges\", {\"customer\": customer_id, \"amount\": amount_minor,\n"
           "                                               \"currency\": currency},\n"
           "                              {\"Idempotency-Key\": idempotency_key})\n"
           "        except GatewayError as e:\n"
           "            # The provider answers 409 (not the original response) when a retried key's first\n"
           "            # request already completed after we timed out: the charge exists, fetch it.\n"
           "            if e.status != 409:\n                raise\n"
           "            found = self._get(f\"/v1/charges?idempotency_key={idempotency_key}\")[\"data\"]\n"
           "            if not found:\n                raise\n            return found[0]\n")
    s.bash("python -c 'import billing.gateway'", "", description="Check the module imports")
    s.say("Done. A 409 on `charge` now looks the charge up by its idempotency key and returns it; any other "
          "error, or a 409 with no charge behind it, still raises. The renewal job can be re-run for last night's "
          "batch — the invoices that went through will come back as paid instead of crashing.")
    s.user("ok makes sense, rerunning")
    return [s]


@scenario("billing-questions", "billing",
          "questions and explanations, one hypothetical the agent mentions; no change, nothing to note",
          [])
def _bill_questions(files):
    s = Session("bill-questions", "2026-11-16T11:47:19.000Z", files)
    s.user("how does next_invoice_number deal with the year changing?")
    s.read("src/billing/invoices.py")
    s.say("It starts over. `next_invoice_number(last, year)` only continues the sequence if `last` starts with "
          "`INV-<year>-`; otherwise — first invoice ever, or the last one is from the previous year — it returns "
          "`INV-<year>-00001`. So the first invoice of 2027 is `INV-2027-00001` no matter where 2026 ended.")
    s.user("and if two workers call it at the same time with the same `last`?")
    s.say("Then both get the same number. The function is pure: it only sees the string you pass in. It's safe "
          "only if the caller reads `last` and inserts the new invoice in one transaction that locks the row, "
          "which is what `jobs/renew.py` does with `SELECT ... FOR UPDATE` on the counter row.\n\n"
          "If you ever wanted the function itself to be safe, the usual way would be a database sequence per year, "
          "but with the locking in the job there's no need.")
    s.user("ok good to know. and format_money for JPY prints no decimals right?")
    s.read("src/billing/money.py")
    s.say("Right: `MINOR_UNITS[\"JPY\"]` is 0, so `format_money(1500, \"JPY\")` gives `1500 JPY`.")
    s.user("thx")
    return [s]


@scenario("billing-month-end-gotcha", "billing",
          "a crash, a failing test that reproduces it, the fix, the test passing",
          [exp("gotcha", "src/billing/plans.py:next_period_end", "out of range")])
def _bill_month_end(files):
    s = Session("bill-month-end", "2026-11-30T22:10:05.000Z", files)
    s.user("renewals for customers who signed up on the 31st crash tonight:\n"
           "ValueError: day is out of range for month\n  File \"src/billing/plans.py\", line 33, in next_period_end")
    s.read("src/billing/plans.py")
    s.edit("tests/test_plans.py", "def test_year():\n",
           "def test_end_of_month():\n    assert next_period_end(date(2026, 1, 31), 1) == date(2026, 2, 28)\n\n\n"
           "def test_year():\n", text="Reproducing it first.")
    s.bash("python -m pytest -q tests/test_plans.py",
           ".F.                                                                      [100%]\n"
           "=================================== FAILURES ===================================\n"
           "______________________________ test_end_of_month ______________________________\n"
           "    def test_end_of_month():\n>       assert next_period_end(date(2026, 1, 31), 1) == date(2026, 2, 28)\n"
           "tests/test_plans.py:10: \n_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n"
           "    return start.replace(year=year, month=month % 12 + 1)\n"
           "E   ValueError: day is out of range for month\n"
           "src/billing/plans.py:33: ValueError\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_plans.py::test_end_of_month - ValueError: day is out of range for month\n"
           "1 failed, 2 passed in 0.04s", fail=True, description="Run the plan tests")
    s.say("`next_period_end` keeps the start's day of month, and `date.replace(day=31)` in February raises "
          "\"day is out of range for month\". Periods that start on the 29th–31st have to end on the last day of a "
          "shorter month. I'll clamp the day to the month's length.")
    s.edit("src/billing/plans.py",
           "    return start.replace(year=year, month=month % 12 + 1)\n",
           "    month = month % 12 + 1\n"
           "    # the 29th-31st do not exist in every month: end on that month's last day instead\n"
           "    return start.replace(year=year, month=month, day=min(start.day, monthrange(year, month)[1]))\n")
    s.edit("src/billing/plans.py", "from datetime import date\n", "from calendar import monthrange\nfrom datetime import date\n")
    s.bash("python -m pytest -q tests/test_plans.py", passed(3, "0.02"), description="Run the plan tests")
    s.say("Fixed: a period starting Jan 31 now ends Feb 28 (Feb 29 in leap years), and the test passes. Tonight's "
          "failed renewals can be re-run.")
    return [s]


@scenario("billing-eur-only-boundary", "billing",
          "non-native speaker draws a scope line: no multi-currency invoices for now",
          [exp("boundary", "src/billing/invoices.py:build_invoice", "multi currency")])
def _bill_eur(files):
    s = Session("bill-eur-only", "2026-11-18T14:33:40.000Z", files)
    s.user("hi, we have the first customer from UK and they ask for invoice in GBP. but i think for now we not "
           "do multi currency invoices, is too much work with the exchange rates and the accounting export. "
           "please make build_invoice refuse other currency than EUR with a clear error, then sales can tell "
           "them. GBP maybe we do in Q2")
    s.read("src/billing/invoices.py")
    s.say("Plans are all priced in EUR; the customer record can carry a `currency` wish (it defaults to the "
          "plan's). I'll make `build_invoice` raise a `ValueError` naming the customer and the currency when it "
          "isn't EUR.")
    s.edit("src/billing/invoices.py",
           "    plan = get_plan(plan_code)\n    inv = Invoice(number, customer[\"id\"], plan.currency)\n",
           "    plan = get_plan(plan_code)\n    currency = customer.get(\"currency\", plan.currency)\n"
           "    if currency != \"EUR\":\n"
           "        raise ValueError(f\"customer {customer['id']}: invoices are EUR only, not {currency}\")\n"
           "    inv = Invoice(number, customer[\"id\"], currency)\n")
    s.write("tests/test_invoices.py",
            "import pytest\n\nfrom billing.invoices import build_invoice\n\n\n"
            "def test_gbp_is_refused():\n    with pytest.raises(ValueError, match=\"EUR only\"):\n"
            "        build_invoice(\"INV-2026-00009\", {\"id\": \"uk1\", \"country\": \"GB\", \"currency\": \"GBP\"}, "
            "\"team\", [])\n")
    s.bash("python -m pytest -q", passed(5, "0.06"), description="Run all tests")
    s.say("Done: a GBP customer now gets `customer uk1: invoices are EUR only, not GBP`. Tests pass.")
    s.user("perfect thank you!")
    return [s]


@scenario("billing-misleading", "billing",
          "a process instruction, a colleague's rule reported second-hand and not adopted, a hypothetical, a "
          "typo fix: nothing to note",
          [])
def _bill_misleading(files):
    s = Session("bill-misleading", "2026-11-19T16:05:00.000Z", files)
    s.user("run the tests first before you touch anything. then tell me why test_downgrade_is_credit only "
           "checks < 0")
    s.bash("python -m pytest -q", passed(4, "0.05"), description="Run all tests")
    s.read("tests/test_proration.py")
    s.say("All 4 pass. `test_downgrade_is_credit` only checks the sign because its point is that a downgrade "
          "produces a credit; the exact amount is already pinned by `test_upgrade_half_way`, which uses the same "
          "arithmetic.")
    s.user("Marta from finance told me 'invoices must never be deleted, only voided'. is that anywhere in our "
           "code?")
    s.grep("void|delete", [])
    s.say("No — there's no delete and no void anywhere in `src/billing`; invoices are only ever built. If "
          "there's a rule like that it lives in the invoice storage, which isn't in this repo.")
    s.user("ok, not our problem today then. hypothetically, what would it take to switch everything to Decimal "
           "instead of int cents?")
    s.say("Roughly:\n- `money.py`: `to_minor` would become a quantize to the currency's exponent and return "
          "`Decimal`;\n- `Plan.price_minor` and every `*_minor` field would change type;\n"
          "- `tax_for` and `prorate` use `round()`, which on a `Decimal` returns an int — they'd need "
          "`quantize` instead.\n\nSomething like:\n\n```python\ndef tax_for(country, net: Decimal) -> Decimal:\n"
          "    return (net * vat_rate(country) / 100).quantize(Decimal(\"0.01\"), ROUND_HALF_EVEN)\n```\n\n"
          "It's a day of work, mostly in tests. Nothing forces it: ints in minor units are exact already.")
    s.user("ok thanks, was just curious. can you fix that typo in the tax.py docstring, 'handeled'")
    s.read("src/billing/tax.py", limit=3)
    s.edit("src/billing/tax.py", "is handeled by the caller", "is handled by the caller")
    s.say("Fixed.")
    return [s]


@scenario("billing-reverse-charge-reject", "billing",
          "terse senior rejects the agent's plan with one word (\"Reject.\") and names the alternative",
          [exp("decision", "src/billing/tax.py:is_reverse_charge", "format check only", ["VIES service at invoice time"])])
def _bill_reverse(files):
    s = Session("bill-reverse-charge", "2026-11-24T09:12:40.000Z", files)
    s.user("B2B customers in other EU countries need reverse charge. 0% VAT when they have a vat id and aren't "
           "in DE. add it")
    s.read("src/billing/tax.py")
    s.read("src/billing/invoices.py", offset=38)
    s.say("Plan: a new `is_reverse_charge(customer)` in `tax.py` — true when the customer has a `vat_id`, their "
          "country is in the EU table but isn't DE, and the id is valid — and `build_invoice` uses 0 tax for "
          "those customers. For \"valid\" I'd call the EU VIES service at invoice time, so we never zero-rate "
          "an invoice on a dead VAT id.")
    s.user("Reject. VIES is down half the day, invoice run can't wait on it. format check only here, the nightly "
           "sync already sets vat_id_invalid on ids VIES refused")
    s.say("OK — format check plus the sync's `vat_id_invalid` flag.")
    s.edit("src/billing/tax.py",
           "\"\"\"VAT by customer country (B2C rates; reverse charge for B2B is handeled by the caller).\"\"\"\n",
           "\"\"\"VAT by customer country; B2B customers elsewhere in the EU are reverse charged (no VAT).\"\"\"\n\n"
           "import re\n\nHOME = \"DE\"\nVAT_ID = re.compile(r\"^[A-Z]{2}[0-9A-Z]{8,12}$\")\n")
    s.edit("src/billing/tax.py", "def tax_for(country: str, net_minor: int) -> int:\n",
           "def is_reverse_charge(customer: dict) -> bool:\n"
           "    # format only: VIES is checked by the nightly sync, which sets vat_id_invalid\n"
           "    country = customer[\"country\"].upper()\n"
           "    vat_id = (customer.get(\"vat_id\") or \"\").replace(\" \", \"\").upper()\n"
           "    return (country != HOME and country in VAT_RATES and vat_id.startswith(country)\n"
           "            and bool(VAT_ID.match(vat_id)) and not customer.get(\"vat_id_invalid\"))\n\n\n"
           "def tax_for(country: str, net_minor: int) -> int:\n")
    s.edit("src/billing/invoices.py", "from .tax import tax_for\n", "from .tax import is_reverse_charge, tax_for\n")
    s.edit("src/billing/invoices.py",
           "        inv.lines.append(InvoiceLine(desc, net, tax_for(customer[\"country\"], net)))\n",
           "        tax = 0 if is_reverse_charge(customer) else tax_for(customer[\"country\"], net)\n"
           "        inv.lines.append(InvoiceLine(desc, net, tax))\n")
    s.write("tests/test_tax.py",
            "from billing.tax import is_reverse_charge\n\n\ndef test_french_business():\n"
            "    assert is_reverse_charge({\"country\": \"FR\", \"vat_id\": \"FR 40 303265045\"})\n\n\n"
            "def test_german_business_pays_vat():\n"
            "    assert not is_reverse_charge({\"country\": \"DE\", \"vat_id\": \"DE811569869\"})\n\n\n"
            "def test_refused_by_the_sync():\n"
            "    assert not is_reverse_charge({\"country\": \"NL\", \"vat_id\": \"NL123456789B01\", \"vat_id_invalid\": True})\n")
    s.bash("python -m pytest -q", passed(7, "0.06"), description="Run all tests")
    s.say("Done. `is_reverse_charge` checks country, prefix and format, and honours `vat_id_invalid`; "
          "`build_invoice` puts 0 VAT on those lines. 7 tests pass.")
    return [s]


@scenario("billing-money-no-float", "billing",
          "a repo-wide rule set by the person (no floats for money in the package), applied in three files",
          [exp("invariant", "src/billing/**/*.py", "never goes through float")])
def _bill_nofloat(files):
    s = Session("bill-no-float", "2026-11-26T15:41:09.000Z", files)
    s.user("just noticed format_money does `minor / 10 ** digits`. rule for the whole billing package from now "
           "on: money never goes through float. not for formatting, not for tax, nowhere. ints in minor units, "
           "and Decimal or Fraction when you really have to divide")
    s.read("src/billing/money.py")
    s.edit("src/billing/money.py",
           "    return f\"{minor / 10 ** digits:.{digits}f} {currency}\"\n",
           "    whole, frac = divmod(abs(minor), 10 ** digits)\n"
           "    return f\"{'-' if minor < 0 else ''}{whole}.{frac:0{digits}d} {currency}\"\n")
    s.bash("grep -n ' / ' src/billing/*.py",
           "src/billing/money.py:11:    return int((Decimal(amount) / exp).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))\n"
           "src/billing/proration.py:11:    return max(0, left) / total\n"
           "src/billing/tax.py:13:    return round(net_minor * vat_rate(country) / 100)",
           description="Find other divisions")
    s.say("`to_minor` divides `Decimal`s, that's fine. Two more places divide in float:\n- `tax_for`: `net_minor * rate / 100` is a float before `round`;\n"
          "- `unused_fraction` returns a float that `prorate` multiplies the price difference by.\n\n"
          "I'll make `tax_for` use `Decimal` with the same half-to-even rounding `round()` used, and "
          "`unused_fraction` return a `Fraction` — the day counts are ints, so it stays exact and `round()` of a "
          "`Fraction` gives an int.")
    s.edit("src/billing/tax.py", "    return round(net_minor * vat_rate(country) / 100)\n",
           "    return int((Decimal(net_minor) * vat_rate(country) / 100).quantize(Decimal(1), ROUND_HALF_EVEN))\n")
    s.edit("src/billing/tax.py", "VAT_RATES = {\n", "from decimal import ROUND_HALF_EVEN, Decimal\n\nVAT_RATES = {\n")
    s.edit("src/billing/proration.py",
           "def unused_fraction(period_start: datetime, period_end: datetime, changed_at: datetime) -> float:\n",
           "def unused_fraction(period_start: datetime, period_end: datetime, changed_at: datetime) -> Fraction:\n")
    s.edit("src/billing/proration.py", "    return max(0, left) / total\n", "    return Fraction(max(0, left), total)\n")
    s.edit("src/billing/proration.py", "from datetime import datetime\n",
           "from datetime import datetime\nfrom fractions import Fraction\n")
    s.bash("python -m pytest -q", passed(4, "0.05"), description="Run all tests")
    s.bash("python -c \"from billing.money import format_money as f; print(f(1999, 'EUR'), f(-5, 'EUR'), "
           "f(1500, 'JPY'))\"", "19.99 EUR -0.05 EUR 1500 JPY", description="Spot-check formatting")
    s.say("No float left in money paths: `format_money` uses `divmod`, `tax_for` uses `Decimal`, proration uses "
          "`Fraction`. Tests pass and the formatting is unchanged (`-0.05 EUR` included).")
    s.user("good")
    return [s]


# == ingest (Python CLI) ================================================================================

@scenario("ingest-dedupe-options", "ingest",
          "terse senior; the agent lists three numbered options with trade-offs, the person answers "
          "\"the second\"",
          [exp("decision", "src/ingest/sink.py:SqliteSink.write_batch", "INSERT OR IGNORE",
               ["in-memory set", "bloom filter"])])
def _ingest_dedupe(files):
    s = Session("ingest-dedupe", "2026-11-09T10:12:00.000Z", files)
    s.user("gateways resend their last file after a reconnect -> duplicate readings in the db. dedupe on "
           "meter_id + read_at")
    s.read("src/ingest/sink.py")
    s.read("src/ingest/dedupe.py")
    s.say("There's a `row_key` helper in `dedupe.py` that nothing calls yet. Options:\n\n"
          "1. **In-memory set of `row_key`s** during a run — trivial, but it only catches duplicates inside one "
          "run; a file resent tomorrow still doubles up.\n"
          "2. **UNIQUE index on `(meter_id, read_at)` plus `INSERT OR IGNORE`** — SQLite enforces it across runs "
          "and processes. Costs one index, fine at ~2M rows.\n"
          "3. **Bloom filter** persisted next to the database — little memory, but a false positive silently "
          "drops a real reading.\n\n"
          "I'd take 2.")
    s.user("the second")
    s.edit("src/ingest/sink.py",
           "    def _ensure_table(self) -> None:\n        self.conn.execute(SCHEMA)\n",
           "    def _ensure_table(self) -> None:\n        self.conn.execute(SCHEMA)\n"
           "        self.conn.execute(\"CREATE UNIQUE INDEX IF NOT EXISTS readings_once ON readings (meter_id, read_at)\")\n")
    s.edit("src/ingest/sink.py",
           "    def write_batch(self, rows: list[dict]) -> int:\n        self.conn.executemany(\n"
           "            \"INSERT INTO readings (meter_id, read_at, value, unit) VALUES (:meter_id, :read_at, :value, "
           ":unit)\",\n            rows,\n        )\n        return len(rows)\n",
           "    def write_batch(self, rows: list[dict]) -> int:\n        \"\"\"Rows written; a reading already "
           "stored (a resent file) is skipped.\"\"\"\n        before = self.conn.total_changes\n"
           "        self.conn.executemany(\n"
           "            \"INSERT OR IGNORE INTO readings (meter_id, read_at, value, unit) \"\n"
           "            \"VALUES (:meter_id, :read_at, :value, :unit)\",\n            rows,\n        )\n"
           "        return self.conn.total_changes - before\n")
    s.write("tests/test_sink.py",
            "from ingest.sink import SqliteSink\n\n\ndef test_resent_rows_are_skipped(tmp_path):\n"
            "    sink = SqliteSink(tmp_path / \"r.db\")\n"
            "    rows = [{\"meter_id\": \"M-1\", \"read_at\": 1.0, \"value\": 2.5, \"unit\": \"kWh\"}]\n"
            "    assert sink.write_batch(rows) == 1\n    assert sink.write_batch(rows) == 0\n"
            "    assert sink.conn.execute(\"SELECT count(*) FROM readings\").fetchone()[0] == 1\n")
    s.bash("python -m pytest -q", passed(3, "0.04"), description="Run the tests")
    s.say("Done. `write_batch` now uses `INSERT OR IGNORE` against a unique index and returns how many rows were "
          "actually written, so `loaded N readings` counts only new ones.\n\n"
          "Heads-up for the production db: it already has duplicates, and `CREATE UNIQUE INDEX` will fail on it. "
          "Run this once before deploying:\n\n```sql\nDELETE FROM readings WHERE rowid NOT IN "
          "(SELECT min(rowid) FROM readings GROUP BY meter_id, read_at);\n```")
    s.user("k. done on prod")
    return [s]


@scenario("ingest-utc-restated", "ingest",
          "non-native speaker picks option (b) of two; restated in a second session that adds offsets",
          [exp("decision", "src/ingest/normalize.py:parse_timestamp", "UTC with Z", ["epoch seconds"])])
def _ingest_utc(files):
    a = Session("ingest-timestamps-1", "2026-11-12T08:03:10.000Z", files)
    a.user("the readings from the Lisbon gateway are one hour shifted in summer time. i think the problem is we "
           "store the timestamp as epoch from strptime without any timezone. what you propose?")
    a.read("src/ingest/normalize.py")
    a.say("Yes: `datetime.strptime(...)` gives a naive datetime and `.timestamp()` interprets it in the "
          "*server's* timezone (Europe/Berlin on the collector), not the gateway's. Lisbon is an hour behind "
          "Berlin, so every Lisbon reading is off by one hour.\n\nTwo ways to fix it:\n\n"
          "(a) keep epoch seconds (the REAL column), but interpret naive input in the gateway's configured "
          "timezone before converting;\n"
          "(b) store ISO 8601 strings in UTC with a trailing `Z`, converting from the gateway's timezone at ingest.\n\n"
          "(b) is readable in the sqlite shell and still sorts correctly as text; (a) keeps the column numeric "
          "and a bit smaller.")
    a.user("i prefer b. UTC with Z, always. epoch is very difficult to debug when the field people call us and "
           "read us numbers from the screen. the timezone of the gateway we put in the config, per source, and "
           "the default is UTC")
    a.edit("src/ingest/normalize.py",
           "from datetime import datetime\n\n\ndef parse_timestamp(value: str) -> float:\n"
           "    for fmt in (\"%Y-%m-%dT%H:%M:%S\", \"%Y-%m-%d %H:%M:%S\", \"%d.%m.%Y %H:%M\"):\n"
           "        try:\n            return datetime.strptime(value.strip(), fmt).timestamp()\n"
           "        except ValueError:\n            continue\n",
           "from datetime import datetime, timezone\nfrom zoneinfo import ZoneInfo\n\n\n"
           "def parse_timestamp(value: str, tz: str = \"UTC\") -> str:\n"
           "    \"\"\"``value`` as ISO 8601 in UTC ending in Z; a time without offset is wall-clock time in ``tz``.\"\"\"\n"
           "    for fmt in (\"%Y-%m-%dT%H:%M:%S\", \"%Y-%m-%d %H:%M:%S\", \"%d.%m.%Y %H:%M\"):\n"
           "        try:\n            local = datetime.strptime(value.strip(), fmt).replace(tzinfo=ZoneInfo(tz))\n"
           "        except ValueError:\n            continue\n"
           "        return local.astimezone(timezone.utc).strftime(\"%Y-%m-%dT%H:%M:%SZ\")\n")
    a.edit("src/ingest/normalize.py",
           "def normalize_row(row: dict, columns: dict[str, str]) -> dict:\n",
           "def normalize_row(row: dict, columns: dict[str, str], tz: str = \"UTC\") -> dict:\n")
    a.edit("src/ingest/normalize.py", "        \"read_at\": parse_timestamp(str(get(\"read_at\"))),\n",
           "        \"read_at\": parse_timestamp(str(get(\"read_at\")), tz),\n")
    a.edit("src/ingest/config.py", "    delimiter: str = \",\"\n", "    delimiter: str = \",\"\n    timezone: str = \"UTC\"\n")
    a.edit("src/ingest/config.py", "        delimiter=src.get(\"delimiter\", \",\"),\n",
           "        delimiter=src.get(\"delimiter\", \",\"),\n        timezone=src.get(\"timezone\", \"UTC\"),\n")
    a.edit("src/ingest/cli.py", "        rows = [normalize_row(r, cfg.columns) for r in read_any(path, cfg.delimiter)]\n",
           "        rows = [normalize_row(r, cfg.columns, cfg.timezone) for r in read_any(path, cfg.delimiter)]\n")
    a.edit("src/ingest/cli.py", "                normalize_row(r, cfg.columns)\n",
           "                normalize_row(r, cfg.columns, cfg.timezone)\n")
    a.edit("src/ingest/sink.py", "    read_at  REAL NOT NULL,\n", "    read_at  TEXT NOT NULL,\n")
    a.edit("tests/test_normalize.py", "from ingest.normalize import coerce_number, normalize_row\n",
           "from ingest.normalize import coerce_number, normalize_row, parse_timestamp\n\n\n"
           "def test_lisbon_summer_time_is_utc_plus_one():\n"
           "    assert parse_timestamp(\"2026-07-01 10:00:00\", \"Europe/Lisbon\") == \"2026-07-01T09:00:00Z\"\n")
    a.bash("python -m pytest -q", passed(3, "0.05"), description="Run the tests")
    a.say("Done:\n- `parse_timestamp(value, tz)` returns e.g. `2026-07-01T09:00:00Z`;\n"
          "- `[source] timezone = \"Europe/Lisbon\"` in the config, default `UTC`;\n"
          "- the `read_at` column is TEXT for new databases. The existing one needs a migration — want me to "
          "write it?")
    a.user("no i do the migration myself with sqlite3, is only 2 tables. thanks!")

    b = Session("ingest-timestamps-2", "2026-11-20T09:40:55.000Z", files)
    b.user("now we add the Helsinki gateways. their files have the time with offset like "
           "2026-05-01T10:00:00+03:00. please support this. remember we store always UTC with Z, not epoch and "
           "also not keep the offset")
    b.read("src/ingest/normalize.py")
    b.edit("src/ingest/normalize.py",
           "    \"\"\"``value`` as ISO 8601 in UTC ending in Z; a time without offset is wall-clock time in ``tz``.\"\"\"\n",
           "    \"\"\"``value`` as ISO 8601 in UTC ending in Z; a time without offset is wall-clock time in ``tz``.\"\"\"\n"
           "    try:\n        stamped = datetime.fromisoformat(value.strip())\n    except ValueError:\n"
           "        stamped = None\n    if stamped is not None and stamped.tzinfo is not None:\n"
           "        return stamped.astimezone(timezone.utc).strftime(\"%Y-%m-%dT%H:%M:%SZ\")\n",
           text="A value with its own offset wins over the configured timezone; either way it ends up as UTC "
                "with Z, the offset itself is not stored.")
    b.edit("tests/test_normalize.py", "def test_lisbon_summer_time_is_utc_plus_one():\n",
           "def test_offset_in_the_value():\n"
           "    assert parse_timestamp(\"2026-05-01T10:00:00+03:00\", \"Europe/Lisbon\") == \"2026-05-01T07:00:00Z\"\n"
           "\n\ndef test_lisbon_summer_time_is_utc_plus_one():\n")
    b.bash("python -m pytest -q", passed(4, "0.05"), description="Run the tests")
    b.say("Helsinki timestamps with `+03:00` are now converted to UTC (`2026-05-01T07:00:00Z`). 4 tests pass.")
    return [a, b]


@scenario("ingest-bom-gotcha", "ingest",
          "a symptom in the data, a hex dump, the cause (a UTF-8 BOM) and the fix",
          [exp("gotcha", "src/ingest/readers.py:read_csv", "byte order mark")])
def _ingest_bom(files):
    s = Session("ingest-bom", "2026-11-13T12:20:31.000Z", files)
    s.user("since the firmware update on gw7 all its readings land with meter_id 'None':\n\n"
           "sqlite> select meter_id, count(*) from readings where read_at > 1763000000 group by 1;\n"
           "M-0412|96\nM-0413|96\nNone|2880\n\nfile looks normal in excel")
    s.bash("head -c 48 inbox/gw7-20261113.csv | xxd",
           "00000000: efbb bf6d 6574 6572 5f69 642c 7265 6164  ...meter_id,read\n"
           "00000010: 5f61 742c 7661 6c75 652c 756e 6974 0d0a  _at,value,unit..\n"
           "00000020: 4d2d 3037 3131 2c32 3032 362d 3131 2d31  M-0711,2026-11-1",
           description="Look at the first bytes of the file")
    s.read("src/ingest/readers.py")
    s.say("The new firmware writes a UTF-8 byte order mark (`ef bb bf`) at the start of the file. We open it as "
          "plain `utf-8`, so the BOM stays in the text and the first header is `\\ufeffmeter_id` rather than "
          "`meter_id`. `normalize_row` then finds no `meter_id` and `str(None)` becomes `'None'`. Excel hides the "
          "BOM, which is why the file looks fine.\n\n`utf-8-sig` strips a BOM when there is one and reads files "
          "without it unchanged.")
    s.edit("src/ingest/readers.py", "    with open(path, newline=\"\", encoding=\"utf-8\") as f:\n",
           "    # utf-8-sig: gateway firmware >= 3.2 starts files with a BOM, which would end up in the first header\n"
           "    with open(path, newline=\"\", encoding=\"utf-8-sig\") as f:\n")
    s.write("tests/test_readers.py",
            "from ingest.readers import read_csv\n\n\ndef test_bom_is_not_part_of_the_header(tmp_path):\n"
            "    p = tmp_path / \"gw7.csv\"\n"
            "    p.write_bytes(b\"\\xef\\xbb\\xbfmeter_id,read_at,value,unit\\r\\nM-0711,2026-11-13 00:00:00,1.5,kWh\\r\\n\")\n"
            "    assert next(read_csv(p))[\"meter_id\"] == \"M-0711\"\n")
    s.bash("python -m pytest -q", passed(3, "0.04"), description="Run the tests")
    s.say("Fixed and covered by a test. The 2880 readings stored under `None` are all from gw7 files; after a "
          "`DELETE FROM readings WHERE meter_id = 'None'` you can re-run the loader on those files.")
    return [s]


@scenario("ingest-batches-multiturn", "ingest",
          "a decision reached over several turns (commit per batch, not one transaction), with a side "
          "question in between",
          [exp("decision", "src/ingest/cli.py:cmd_run", "commit per batch", ["one transaction"])])
def _ingest_batches(files):
    s = Session("ingest-batches", "2026-11-16T17:55:02.000Z", files)
    s.user("cmd_run loads a whole file into a list before writing. on the raspberry pi collector (512MB) it "
           "gets OOM killed on the monthly export files, ~3M lines. can we stream?")
    s.read("src/ingest/cli.py")
    s.say("Yes — read, normalise and write in chunks of `cfg.batch_size` instead of building the list. One "
          "thing to decide first: commit after each batch, or keep one transaction for the whole run?\n\n"
          "- one transaction: a crash half-way leaves nothing loaded, a rerun starts clean;\n"
          "- commit per batch: the rollback journal stays small and the dashboard sees rows as they arrive, but "
          "a crash leaves the file half loaded.")
    s.user("hmm. what's the default batch_size, 1000?")
    s.read("src/ingest/config.py")
    s.say("Yes, 1000 (`Config.batch_size`, overridable with `batch_size` in the TOML).")
    s.user("ok let me think about the commit thing. last time it died the journal file was 1.2GB on a 4GB sd "
           "card, that's probably half the problem")
    s.say("That points to committing per batch: with one transaction the journal holds the entire run until the "
          "final commit, so it grows with the file; per batch it never exceeds one batch.")
    s.user("yes. commit per batch then. if it dies half way we rerun the file, I can live with that")
    s.edit("src/ingest/cli.py",
           "    for path in sorted(cfg.inbox.glob(\"*\")):\n"
           "        rows = [normalize_row(r, cfg.columns) for r in read_any(path, cfg.delimiter)]\n"
           "        total += sink.write_batch(rows)\n    sink.commit()\n    sink.close()\n",
           "    for path in sorted(cfg.inbox.glob(\"*\")):\n"
           "        rows = (normalize_row(r, cfg.columns) for r in read_any(path, cfg.delimiter))\n"
           "        for batch in batched(rows, cfg.batch_size):\n            total += sink.write_batch(batch)\n"
           "            # commit per batch: one transaction over a whole file filled the Pi's SD card with journal\n"
           "            sink.commit()\n    sink.close()\n")
    s.edit("src/ingest/cli.py", "def cmd_run(args) -> int:\n",
           "def batched(rows: Iterable[dict], size: int) -> Iterator[list[dict]]:\n    it = iter(rows)\n"
           "    while chunk := list(islice(it, size)):\n        yield chunk\n\n\ndef cmd_run(args) -> int:\n")
    s.edit("src/ingest/cli.py", "import argparse\nimport sys\n",
           "import argparse\nimport sys\nfrom collections.abc import Iterable, Iterator\nfrom itertools import islice\n")
    s.bash("python -m pytest -q", passed(2, "0.03"), description="Run the tests")
    s.bash("/usr/bin/time -v python -m ingest.cli -c pi.toml run 2>&1 | egrep 'loaded|Maximum resident'",
           "loaded 3012211 readings\n\tMaximum resident set size (kbytes): 41236",
           description="Load the monthly export and measure memory")
    s.say("Streaming works: the 3M-line export loads with a 40 MB peak, committing every 1000 rows.")
    return [s]


@scenario("ingest-refactor", "ingest",
          "a behaviour-preserving refactor on request; nothing to note",
          [])
def _ingest_refactor(files):
    s = Session("ingest-refactor", "2026-11-17T11:00:00.000Z", files)
    s.user("cmd_run and cmd_validate both do the same inbox glob. pull that into a helper pls, no behaviour "
           "change")
    s.read("src/ingest/cli.py")
    s.edit("src/ingest/cli.py", "def cmd_run(args) -> int:\n",
           "def _inbox_files(cfg) -> list[Path]:\n    return sorted(cfg.inbox.glob(\"*\"))\n\n\n"
           "def cmd_run(args) -> int:\n")
    s.edit("src/ingest/cli.py", "    total = 0\n    for path in sorted(cfg.inbox.glob(\"*\")):\n",
           "    total = 0\n    for path in _inbox_files(cfg):\n")
    s.edit("src/ingest/cli.py", "    bad = 0\n    for path in sorted(cfg.inbox.glob(\"*\")):\n",
           "    bad = 0\n    for path in _inbox_files(cfg):\n")
    s.bash("python -m pytest -q", passed(2, "0.03"), description="Run the tests")
    s.say("Done, `_inbox_files(cfg)` is used by both commands.")
    s.user("also that `get` lambda in normalize_row with the noqa is ugly, make it a normal inner function")
    s.read("src/ingest/normalize.py", offset=20)
    s.edit("src/ingest/normalize.py",
           "    get = lambda key: row.get(columns.get(key, key))  # noqa: E731\n",
           "    def get(key: str):\n        return row.get(columns.get(key, key))\n\n")
    s.bash("python -m pytest -q", passed(2, "0.03"), description="Run the tests")
    s.bash("ruff check src", "All checks passed!", description="Lint")
    s.say("Replaced it with a nested `def get(key)`; tests and ruff are clean.")
    s.user("ty")
    return [s]


@scenario("ingest-chit-chat", "ingest",
          "greetings and questions about argparse and tomllib; nothing to note",
          [])
def _ingest_chat(files):
    s = Session("ingest-chat", "2026-11-18T07:31:00.000Z", files)
    s.user("morning! quick one before standup: whats the point of `set_defaults(fn=...)` on the subparsers vs "
           "just checking args.cmd with an if?")
    s.read("src/ingest/cli.py", offset=36)
    s.say("Morning! `set_defaults(fn=cmd_run)` stores the handler on the namespace when that subcommand is "
          "parsed, so `main` just calls `args.fn(args)`. With an `if args.cmd == \"run\"` chain you'd repeat every "
          "command name in two places; with `set_defaults`, adding a command is one line where the parser is "
          "defined. Behaviour is the same either way.")
    s.user("makes sense. and why does tomllib want the file opened with 'rb'?")
    s.say("`tomllib.load` insists on a binary file because TOML is defined as UTF-8: it decodes the bytes itself, "
          "so your locale's default encoding can't get in the way. If you already have a string, "
          "`tomllib.loads(text)` takes that.")
    s.user("cool, that's all. have a good one :)")
    s.say("You too!")
    return [s]


@scenario("ingest-retry-revert", "ingest",
          "the agent adds a library, the person rejects it (\"nah, keep it simple\") and it is reverted; the "
          "final own sleep loop is expected, the library is the rejected option",
          [exp("decision", "src/ingest/retry.py:with_retries", "no new dependency", ["tenacity"])])
def _ingest_retry(files):
    s = Session("ingest-retry", "2026-11-19T13:14:15.000Z", files)
    s.user("with_retries doesn't wait between attempts, so all 3 fail within the same millisecond while the "
           "dashboard holds the lock. make it back off")
    s.read("src/ingest/retry.py")
    s.say("I'll use `tenacity` for this; it gives exponential backoff with jitter and only retries the "
          "exception we name.")
    s.bash("pip install tenacity", "Collecting tenacity\n  Using cached tenacity-9.0.0-py3-none-any.whl (28 kB)\n"
           "Installing collected packages: tenacity\nSuccessfully installed tenacity-9.0.0",
           description="Install tenacity")
    s.write("src/ingest/retry.py",
            "import sqlite3\n\nfrom tenacity import Retrying, retry_if_exception_type, stop_after_attempt, "
            "wait_random_exponential\n\n\n"
            "def with_retries(fn, attempts: int = 3):\n"
            "    \"\"\"Call ``fn``; SQLite says 'database is locked' while the dashboard reads, so try again.\"\"\"\n"
            "    for attempt in Retrying(stop=stop_after_attempt(attempts), reraise=True,\n"
            "                            wait=wait_random_exponential(multiplier=0.2, max=5),\n"
            "                            retry=retry_if_exception_type(sqlite3.OperationalError)):\n"
            "        with attempt:\n            return fn()\n")
    s.user("nah, keep it simple. no new dependency for six lines of code — this runs on the pi from an offline "
           "wheelhouse and every package is a hassle there. a sleep in the loop is fine")
    s.say("Fair enough, reverting to the plain loop with a doubling sleep.")
    s.write("src/ingest/retry.py",
            "import sqlite3\nimport time\n\n\ndef with_retries(fn, attempts: int = 3, delay: float = 0.2):\n"
            "    \"\"\"Call ``fn``; SQLite says 'database is locked' while the dashboard reads, so wait and try "
            "again.\"\"\"\n"
            "    for i in range(attempts):\n        try:\n            return fn()\n"
            "        except sqlite3.OperationalError:\n            if i == attempts - 1:\n                raise\n"
            "            time.sleep(delay * 2 ** i)\n")
    s.bash("pip uninstall -y tenacity", "Found existing installation: tenacity 9.0.0\nUninstalling tenacity-9.0.0:\n"
           "  Successfully uninstalled tenacity-9.0.0", description="Remove tenacity again")
    s.write("tests/test_retry.py",
            "import sqlite3\n\nfrom ingest import retry\n\n\ndef test_waits_longer_each_time(monkeypatch):\n"
            "    slept = []\n    monkeypatch.setattr(retry.time, \"sleep\", slept.append)\n    calls = []\n\n"
            "    def locked():\n        calls.append(1)\n        if len(calls) < 3:\n"
            "            raise sqlite3.OperationalError(\"database is locked\")\n        return \"ok\"\n\n"
            "    assert retry.with_retries(locked) == \"ok\"\n    assert slept == [0.2, 0.4]\n")
    s.bash("python -m pytest -q", passed(3, "0.04"), description="Run the tests")
    s.say("`with_retries` now sleeps 0.2 s, then 0.4 s between attempts; no new dependency, tenacity is "
          "uninstalled again. Test added.")
    return [s]


@scenario("ingest-config-strict", "ingest",
          "a verbose person sets a rule (unknown config keys are errors) and draws a scope line (no YAML)",
          [exp("invariant", "src/ingest/config.py:load_config", "never be silently ignored"),
           exp("boundary", "src/ingest/config.py:load_config", "leave YAML out")])
def _ingest_config(files):
    s = Session("ingest-config-strict", "2026-11-23T15:02:44.000Z", files)
    s.user("We had a silly but expensive incident last week, and I want to make sure it can't happen again. "
           "Someone on the field team edited meterload.toml on the Porto collector and wrote `batchsize = 200` "
           "instead of `batch_size`, and also `[sources]` instead of `[source]`. load_config silently ignored "
           "both, so the loader ran against the default `inbox` folder, found nothing, printed 'loaded 0 "
           "readings' every night for three days, and nobody noticed until the customer asked where their "
           "data was.\n\n"
           "So here's the rule I want for this tool: a typo in the config must never be silently ignored. "
           "load_config should reject any key it doesn't know, at every level, and the error should name the "
           "file and the offending key so the field team can fix it themselves over the phone.\n\n"
           "While we're at it — there was some talk about also supporting YAML configs, because the field team "
           "knows YAML from Home Assistant. Let's leave YAML out for now. TOML only; we can revisit it next "
           "quarter once the strict checking has settled.")
    s.read("src/ingest/config.py")
    s.say("Clear. The known keys are `database` and `batch_size` at the top level, `inbox` and `delimiter` under "
          "`[source]`, and under `[columns]` the four canonical names (`meter_id`, `read_at`, `value`, `unit`) "
          "that map to the file's own column names. I'll check all three tables and report every unknown key at "
          "once, so a file with two typos needs one round-trip, not two.")
    s.edit("src/ingest/config.py",
           "def load_config(path: Path) -> Config:\n    with open(path, \"rb\") as f:\n        raw = tomllib.load(f)\n"
           "    src = raw.get(\"source\", {})\n",
           "TOP_KEYS = {\"database\", \"batch_size\", \"source\", \"columns\"}\nSOURCE_KEYS = {\"inbox\", \"delimiter\"}\n"
           "COLUMN_KEYS = {\"meter_id\", \"read_at\", \"value\", \"unit\"}\n\n\n"
           "def _unknown(table: dict, allowed: set[str], where: str) -> list[str]:\n"
           "    return [f\"{where}{key}\" for key in sorted(set(table) - allowed)]\n\n\n"
           "def load_config(path: Path) -> Config:\n    with open(path, \"rb\") as f:\n        raw = tomllib.load(f)\n"
           "    src = raw.get(\"source\", {})\n"
           "    # a misspelt key silently fell back to defaults once (loaded 0 readings for 3 days)\n"
           "    unknown = (_unknown(raw, TOP_KEYS, \"\") + _unknown(src, SOURCE_KEYS, \"source.\")\n"
           "               + _unknown(raw.get(\"columns\", {}), COLUMN_KEYS, \"columns.\"))\n"
           "    if unknown:\n        raise ValueError(f\"{path}: unknown key(s): {', '.join(unknown)}\")\n")
    s.write("tests/test_config.py",
            "import pytest\n\nfrom ingest.config import load_config\n\n\n"
            "def test_typos_are_errors(tmp_path):\n    p = tmp_path / \"meterload.toml\"\n"
            "    p.write_text('database = \"r.db\"\\nbatchsize = 200\\n[sources]\\ninbox = \"in\"\\n')\n"
            "    with pytest.raises(ValueError, match=\"batchsize, sources\"):\n        load_config(p)\n\n\n"
            "def test_good_config(tmp_path):\n    p = tmp_path / \"meterload.toml\"\n"
            "    p.write_text('database = \"r.db\"\\n[source]\\ninbox = \"in\"\\n[columns]\\nmeter_id = \"Zaehler\"\\n')\n"
            "    assert load_config(p).columns == {\"meter_id\": \"Zaehler\"}\n")
    s.bash("python -m pytest -q tests/test_config.py", passed(2, "0.03"), description="Run the config tests")
    s.say("Done. The Porto file would now fail with:\n\n```\nmeterload.toml: unknown key(s): batchsize, sources\n```\n\n"
          "YAML is untouched — `load_config` still only reads TOML.")
    s.user("Great, that's exactly the message I wanted. Thanks a lot.")
    return [s]


@scenario("ingest-validate-long", "ingest",
          "a long session across a compaction: a rule set early (validate never touches the database), small "
          "unrelated work, then after the compaction the agent lists exit-code options and the person answers "
          "\"yes, A\"",
          [exp("invariant", "src/ingest/cli.py:cmd_validate", "never touch the database"),
           exp("decision", "src/ingest/cli.py:main", "2 for config", ["1 for everything", "distinct codes"])])
def _ingest_validate(files):
    s = Session("ingest-validate-long", "2026-11-27T08:05:00.000Z", files)
    s.summary("meterload validate: read-only guarantee and exit codes")
    s.user("the field team will run `meterload validate` on their laptops before they upload files. validate must "
           "never touch the database — not open it, not create it. it doesn't today but I want a test that fails "
           "if someone adds it")
    s.read("src/ingest/cli.py")
    s.say("`cmd_validate` only loads the config and reads the inbox today. A test that runs it with a config "
          "pointing at a database path that doesn't exist, and asserts the file still doesn't exist afterwards, "
          "catches both opening (sqlite creates the file) and creating.")
    s.write("tests/test_cli.py",
            "from ingest.cli import main\n\n\ndef test_validate_never_creates_the_database(tmp_path):\n"
            "    (tmp_path / \"in\").mkdir()\n"
            "    (tmp_path / \"in\" / \"a.csv\").write_text(\"meter_id,read_at,value\\nM-1,2026-05-01 10:00:00,3\\n\")\n"
            "    cfg = tmp_path / \"meterload.toml\"\n"
            "    cfg.write_text(f'database = \"{tmp_path / \"r.db\"}\"\\n[source]\\ninbox = \"{tmp_path / \"in\"}\"\\n')\n"
            "    assert main([\"-c\", str(cfg), \"validate\"]) == 0\n    assert not (tmp_path / \"r.db\").exists()\n")
    s.edit("src/ingest/cli.py", "def cmd_validate(args) -> int:\n",
           "def cmd_validate(args) -> int:\n    # read-only: the field team runs this on laptops; it must never open or create the database\n")
    s.bash("python -m pytest -q tests/test_cli.py", passed(1, "0.03"), description="Run the CLI test")
    s.user("also it should end with a summary line, like 'checked 3 files, 2 bad rows'")
    s.edit("src/ingest/cli.py", "    bad = 0\n    for path in sorted(cfg.inbox.glob(\"*\")):\n",
           "    bad = 0\n    paths = sorted(cfg.inbox.glob(\"*\"))\n    for path in paths:\n")
    s.edit("src/ingest/cli.py", "    return 1 if bad else 0\n",
           "    print(f\"checked {len(paths)} files, {bad} bad rows\")\n    return 1 if bad else 0\n")
    s.bash("python -m pytest -q", passed(3, "0.04"), description="Run the tests")
    s.say("`validate` now ends with `checked N files, M bad rows` on stdout; the problems themselves still go to "
          "stderr.")
    s.user("ok. lunch, back in an hour")
    s.compacted("Summary: the user wants `meterload validate` to stay read-only (it must never open or create the "
                "database); a test in tests/test_cli.py checks that the database file is not created, and "
                "cmd_validate has a comment saying so. validate now prints 'checked N files, M bad rows'. All tests "
                "pass.")
    s.user("back. exit codes: bad rows give 1, but a broken config gives a python traceback. what do you suggest?")
    s.read("src/ingest/cli.py", offset=34)
    s.say("Options:\n\n"
          "**A.** 1 for bad rows, 2 for config and usage errors — argparse already exits 2 when it's called wrong, "
          "so 2 would consistently mean \"fix how you call it\"; one line on stderr instead of a traceback.\n"
          "**B.** 1 for everything, and the message says what went wrong — simplest, but scripts can't tell a "
          "bad file from a bad setup.\n"
          "**C.** distinct codes per failure (3 config, 4 unreadable file, …) — precise, but nobody remembers "
          "them and the field scripts only test for non-zero anyway.\n\n"
          "I'd suggest A.")
    s.user("yes, A")
    s.edit("src/ingest/cli.py", "    args = p.parse_args(argv)\n    return args.fn(args)\n",
           "    args = p.parse_args(argv)\n    try:\n        load_config(args.config)\n"
           "    except (OSError, ValueError, KeyError) as e:\n"
           "        # 2 for config errors, as argparse does for usage errors; 1 stays \"bad rows\"\n"
           "        print(f\"meterload: {args.config}: {e}\", file=sys.stderr)\n        return 2\n"
           "    return args.fn(args)\n")
    s.edit("tests/test_cli.py", "def test_validate_never_creates_the_database(tmp_path):\n",
           "def test_broken_config_exits_2(tmp_path, capsys):\n    cfg = tmp_path / \"meterload.toml\"\n"
           "    cfg.write_text(\"database = \\n\")\n    assert main([\"-c\", str(cfg), \"validate\"]) == 2\n"
           "    assert \"Traceback\" not in capsys.readouterr().err\n\n\n"
           "def test_validate_never_creates_the_database(tmp_path):\n")
    s.bash("python -m pytest -q", passed(4, "0.05"), description="Run the tests")
    s.say("Done: a config that can't be read or parsed (or lacks `database`) now prints one line, "
          "e.g. `meterload: meterload.toml: Invalid value (at line 1, column 12)`, and exits 2. Bad rows still "
          "exit 1.")
    return [s]


# == roster (TypeScript) ================================================================================

def node_tests(names: list[str], failed: dict[str, str] | None = None, ms: str = "431.7") -> str:
    failed = failed or {}
    out = ["", "> roster-api@0.3.0 test", "> node --import tsx --test test/*.test.ts", ""]
    for i, n in enumerate(names):
        if n in failed:
            out.append(f"✖ {n} ({1.9 + i / 10:.3f}ms)")
            out += ["  " + ln for ln in failed[n].split("\n")]
        else:
            out.append(f"✔ {n} ({0.7 + i / 10:.3f}ms)")
    out += [f"ℹ tests {len(names)}", "ℹ suites 0", f"ℹ pass {len(names) - len(failed)}", f"ℹ fail {len(failed)}",
            "ℹ cancelled 0", "ℹ skipped 0", "ℹ todo 0", f"ℹ duration_ms {ms}"]
    return "\n".join(out)


TIME_TESTS = ["overlapping shifts", "an eight hour shift"]


@scenario("roster-overlap-options", "roster",
          "terse senior; bulleted options A/B/C, the person answers \"yes, A\"",
          [exp("decision", "src/time.ts:overlaps", "half-open", ["special-case equal endpoints", "grace period"])])
def _roster_overlap(files):
    s = Session("roster-overlap", "2026-11-10T06:58:21.000Z", files)
    s.user("back to back shifts 06-14 and 14-22 for the same person -> 409 conflict. that's a normal double, "
           "should be allowed")
    s.read("src/time.ts")
    s.read("src/store.ts", offset=28, limit=4)
    s.say("The conflict check ends in `overlaps`, which uses `<=` on both sides, so two shifts that merely touch "
          "at 14:00 count as overlapping.\n\nOptions:\n"
          "- **A: half-open intervals** `[start, end)` — `a.start < b.end && b.start < a.end`. Touching shifts "
          "are fine, any real overlap is still a conflict. Standard for time ranges.\n"
          "- **B: keep closed intervals and special-case equal endpoints** in `conflicts` — same result today, "
          "but every other caller of `overlaps` has to know about the special case.\n"
          "- **C: a grace period** (say 15 min) so short overlaps at handover are allowed — some sites do "
          "overlap on purpose for handover, but it would also hide real double bookings.\n\nI'd pick A.")
    s.user("yes, A")
    s.edit("src/time.ts", "  return a.start <= b.end && b.start <= a.end;\n",
           "  // half-open [start, end): a shift ending at 14:00 and one starting at 14:00 do not overlap\n"
           "  return a.start < b.end && b.start < a.end;\n")
    s.edit("test/time.test.ts", "test(\"an eight hour shift\", () => {\n",
           "test(\"back-to-back shifts do not overlap\", () => {\n"
           "  assert.ok(!overlaps({ start: d(\"2026-03-02T06:00Z\"), end: d(\"2026-03-02T14:00Z\") },\n"
           "                      { start: d(\"2026-03-02T14:00Z\"), end: d(\"2026-03-02T22:00Z\") }));\n});\n\n"
           "test(\"an eight hour shift\", () => {\n")
    s.bash("npm test", node_tests(["overlapping shifts", "back-to-back shifts do not overlap", "an eight hour shift"]),
           description="Run the tests")
    s.say("`overlaps` is half-open now; back-to-back shifts pass the conflict check, and there's a test for it.")
    return [s]


@scenario("roster-utc-restated", "roster",
          "verbose person settles storage in UTC instants (rejecting local wall-clock storage), restated a "
          "week later while adding display formatting",
          [exp("decision", "src/time.ts:parseLocal", "UTC instant", ["local wall-clock times"])])
def _roster_utc(files):
    a = Session("roster-tz-1", "2026-11-11T12:10:09.000Z", files)
    a.user("I looked into the Lisbon shift bug from the standup. parseLocal ignores its timezone argument "
           "completely — it builds a Date from a string without an offset, so it gets interpreted in the "
           "server's own timezone, which is UTC in production and Europe/Berlin on my laptop. That's why Lisbon "
           "shifts show up an hour off depending on where you run it.\n\n"
           "I'd like to settle this properly rather than patch it. Every shift is stored as a UTC instant, full "
           "stop, and the site's timezone is used only at the edges: when we parse a manager's input and when we "
           "render a time for display. We did discuss storing local wall-clock times plus the timezone name "
           "instead, the way the old PHP app did, but that meant every overlap check needed a conversion and we "
           "had DST bugs for two years. So: UTC instants inside, local time only at input and display. Could you "
           "make parseLocal actually use the tz?")
    a.read("src/time.ts")
    a.say("Agreed. The platform can do this without a date library: the way to get a zone's offset is `Intl.DateTimeFormat` with `timeZone`: "
          "format an instant in that zone, read the parts back as if they were UTC, and the difference is the "
          "offset. `parseLocal` then treats the wall-clock time as if it were UTC and subtracts the zone's offset.")
    a.edit("src/time.ts",
           "/** A wall-clock date and time at a site, e.g. (\"2026-03-29\", \"06:00\", \"Europe/Berlin\"). */\n"
           "export function parseLocal(day: string, time: string, _tz: string): Date {\n"
           "  return new Date(`${day}T${time}:00`);\n}\n",
           "/** A wall-clock date and time at a site, e.g. (\"2026-03-29\", \"06:00\", \"Europe/Berlin\"), as a UTC instant. */\n"
           "export function parseLocal(day: string, time: string, tz: string): Date {\n"
           "  const asUtc = Date.parse(`${day}T${time}:00Z`);\n"
           "  const first = asUtc - offsetMinutes(new Date(asUtc), tz) * 60_000;\n"
           "  return new Date(asUtc - offsetMinutes(new Date(first), tz) * 60_000);\n}\n\n"
           "function offsetMinutes(at: Date, tz: string): number {\n"
           "  const fmt = new Intl.DateTimeFormat(\"en-US\", { timeZone: tz, hourCycle: \"h23\", year: \"numeric\",\n"
           "    month: \"2-digit\", day: \"2-digit\", hour: \"2-digit\", minute: \"2-digit\", second: \"2-digit\" });\n"
           "  const p = Object.fromEntries(fmt.formatToParts(at).map((x) => [x.type, x.value]));\n"
           "  const wall = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);\n"
           "  return (wall - at.getTime()) / 60_000;\n}\n")
    a.edit("test/time.test.ts", "import { durationHours, overlaps } from \"../src/time\";\n",
           "import { durationHours, overlaps, parseLocal } from \"../src/time\";\n")
    a.edit("test/time.test.ts", "test(\"an eight hour shift\", () => {\n",
           "test(\"Lisbon summer time is UTC+1\", () => {\n"
           "  assert.equal(parseLocal(\"2026-07-01\", \"08:00\", \"Europe/Lisbon\").toISOString(), "
           "\"2026-07-01T07:00:00.000Z\");\n});\n\n"
           "test(\"the morning the clocks go forward in Berlin\", () => {\n"
           "  assert.equal(parseLocal(\"2026-03-29\", \"06:00\", \"Europe/Berlin\").toISOString(), "
           "\"2026-03-29T04:00:00.000Z\");\n});\n\n"
           "test(\"an eight hour shift\", () => {\n")
    a.bash("npm test", node_tests(["overlapping shifts", "Lisbon summer time is UTC+1",
                                   "the morning the clocks go forward in Berlin", "an eight hour shift"]),
           description="Run the tests")
    a.bash("TZ=Europe/Berlin npm test", node_tests(["overlapping shifts", "Lisbon summer time is UTC+1",
                                                    "the morning the clocks go forward in Berlin",
                                                    "an eight hour shift"], ms="440.2"),
           description="Run the tests with a Berlin machine timezone")
    a.say("`parseLocal` now honours the site's zone, and the result no longer depends on the machine's timezone "
          "(same results with `TZ=Europe/Berlin`). The store keeps receiving UTC instants.")
    a.user("Perfect. That's the behaviour I wanted.")

    b = Session("roster-tz-2", "2026-11-18T09:26:47.000Z", files)
    b.user("Next piece of the timezone work: the SMS reminder should mention the shift's start time in the "
           "site's local time, e.g. \"Mon 2 Mar, 06:00\". Please keep in mind what we agreed last week — shifts "
           "are UTC instants in the store, local time only at input and display — so do the conversion in a "
           "formatter, and don't add any local-time field to Shift or to the store. A small reminderText "
           "function in notify.ts would be enough for now.")
    b.read("src/notify.ts")
    b.edit("src/time.ts", "export function overlaps(a: Interval, b: Interval): boolean {\n",
           "/** ``at`` as the site's wall-clock time, for people to read. */\n"
           "export function formatLocal(at: Date, tz: string): string {\n"
           "  return new Intl.DateTimeFormat(\"en-GB\", { timeZone: tz, weekday: \"short\", day: \"numeric\",\n"
           "    month: \"short\", hour: \"2-digit\", minute: \"2-digit\" }).format(at);\n}\n\n"
           "export function overlaps(a: Interval, b: Interval): boolean {\n")
    b.edit("src/notify.ts", "export interface SmsClient {\n",
           "import type { Shift } from \"./store\";\nimport { formatLocal } from \"./time\";\n\n"
           "export interface SmsClient {\n")
    b.edit("src/notify.ts", "  await sms.send(phone, text);\n}\n",
           "  await sms.send(phone, text);\n}\n\n"
           "export function reminderText(shift: Shift, tz: string): string {\n"
           "  return `Reminder: your ${shift.role} shift starts ${formatLocal(shift.start, tz)}.`;\n}\n",
           text="The shift stays a UTC instant; only the text is local.")
    b.bash("npx tsc --noEmit -p .", "", description="Type-check")
    b.say("Added `formatLocal(at, tz)` in `time.ts` and `reminderText(shift, tz)` in `notify.ts`, e.g. "
          "\"Reminder: your nurse shift starts Mon 2 Mar, 06:00.\" Nothing local is stored.")
    return [a, b]


@scenario("roster-ratelimit-revert", "roster",
          "terse senior agrees to a sliding window, then has it reverted to the token bucket with bigger "
          "buckets for managers",
          [exp("decision", "src/rateLimit.ts:TokenBucket", "token bucket", ["sliding window"])])
def _roster_rate(files):
    s = Session("roster-ratelimit", "2026-11-12T16:44:30.000Z", files)
    s.user("managers get 429 during bulk roster import. 200 shifts per import, bucket is 30. thoughts")
    s.read("src/rateLimit.ts")
    s.read("src/server.ts", limit=14)
    s.say("The bucket holds 30 and refills at 0.5/s, so an import of 200 creates needs ~6 minutes. Options: make "
          "the bucket bigger, or switch to a sliding window log — e.g. 300 writes per rolling minute per user. "
          "The window is exact and easy to explain (\"300 per minute\"), so I'd go with that.")
    s.user("ok try it")
    s.write("src/rateLimit.ts",
            "/** Per-user limit on write requests: at most ``limit`` in any rolling ``windowMs``. */\n"
            "export class SlidingWindowLog {\n  private log = new Map<string, number[]>();\n\n"
            "  constructor(private limit = 300, private windowMs = 60_000) {}\n\n"
            "  take(key: string, now = Date.now()): boolean {\n"
            "    const recent = (this.log.get(key) ?? []).filter((t) => t > now - this.windowMs);\n"
            "    this.log.set(key, recent);\n    if (recent.length >= this.limit) return false;\n"
            "    recent.push(now);\n    return true;\n  }\n}\n")
    s.edit("src/server.ts", "import { TokenBucket } from \"./rateLimit\";\n",
           "import { SlidingWindowLog } from \"./rateLimit\";\n")
    s.edit("src/server.ts", "const limiter = new TokenBucket();\n", "const limiter = new SlidingWindowLog();\n")
    s.bash("npx tsc --noEmit -p . && npm test", node_tests(TIME_TESTS), description="Type-check and test")
    s.say("Swapped in `SlidingWindowLog(300, 60_000)`; type-check and tests pass.")
    s.user("hm. that keeps every timestamp per user. 300 numbers × every user, forever, in one node process. no. "
           "back to token bucket. managers get a bigger one, 250 cap, refill 2/s. workers stay 30")
    s.say("Reverting to `TokenBucket` and picking the bucket by role.")
    s.write("src/rateLimit.ts",
            "/** Per-user limit on write requests; managers bulk-edit rosters, so bursts are normal. */\n"
            "export class TokenBucket {\n  private buckets = new Map<string, { tokens: number; at: number }>();\n\n"
            "  constructor(private capacity = 30, private perSecond = 0.5) {}\n\n"
            "  take(key: string, now = Date.now()): boolean {\n"
            "    const b = this.buckets.get(key) ?? { tokens: this.capacity, at: now };\n"
            "    b.tokens = Math.min(this.capacity, b.tokens + ((now - b.at) / 1000) * this.perSecond);\n"
            "    b.at = now;\n    this.buckets.set(key, b);\n    if (b.tokens < 1) return false;\n"
            "    b.tokens -= 1;\n    return true;\n  }\n}\n\n"
            "// a roster import is ~200 writes at once; workers only ever touch their own shifts\n"
            "export const LIMITS = {\n  worker: new TokenBucket(30, 0.5),\n  manager: new TokenBucket(250, 2),\n"
            "  admin: new TokenBucket(250, 2),\n};\n")
    s.edit("src/server.ts", "import { SlidingWindowLog } from \"./rateLimit\";\n",
           "import { LIMITS } from \"./rateLimit\";\n")
    s.edit("src/server.ts", "const limiter = new SlidingWindowLog();\n", "")
    s.edit("src/server.ts", "!limiter.take(claims.sub)", "!LIMITS[claims.role].take(claims.sub)")
    s.bash("npx tsc --noEmit -p . && npm test", node_tests(TIME_TESTS), description="Type-check and test")
    s.say("Back on the token bucket: managers and admins 250 with 2/s refill, workers 30 with 0.5/s. A 200-shift "
          "import goes through in one burst.")
    return [s]


@scenario("roster-roles-correction", "roster",
          "the agent starts a fix (short token lifetime), the person corrects it with a rule; the agent's edit "
          "is undone",
          [exp("invariant", "src/auth.ts:withCurrentRole", "never from the token", ["token lifetime"])])
def _roster_roles(files):
    s = Session("roster-roles", "2026-11-13T10:31:00.000Z", files)
    s.user("when we promote someone to manager in the admin panel it only takes effect after they log in again, "
           "tokens live 12h. same for demotions, which is worse")
    s.read("src/auth.ts")
    s.say("The role is a claim inside the token, so it's frozen for the token's lifetime. The quickest "
          "improvement is to shorten the token lifetime to 15 minutes: `verifyToken` rejects tokens issued more "
          "than 15 minutes ago and the app refreshes them.")
    s.edit("src/auth.ts", "  role: \"worker\" | \"manager\" | \"admin\";\n  exp: number;\n",
           "  role: \"worker\" | \"manager\" | \"admin\";\n  iat: number;\n  exp: number;\n")
    s.edit("src/auth.ts", "  if (claims.exp * 1000 < Date.now()) throw new HttpError(401, \"token expired\", \"auth\");\n",
           "  if (claims.exp * 1000 < Date.now()) throw new HttpError(401, \"token expired\", \"auth\");\n"
           "  if (claims.iat * 1000 < Date.now() - 15 * 60_000) throw new HttpError(401, \"token too old\", \"auth\");\n")
    s.user("no — stop. the role must come from the users table on every request, never from the token. the "
           "token only says who you are. a shorter lifetime just makes the window smaller, a fired manager can "
           "still approve stuff for 15 min")
    s.say("Understood: the token proves identity, the users table decides permissions, looked up per request. "
          "Undoing the lifetime change first.")
    s.edit("src/auth.ts", "  if (claims.iat * 1000 < Date.now() - 15 * 60_000) throw new HttpError(401, \"token too old\", "
           "\"auth\");\n", "")
    s.edit("src/auth.ts", "  iat: number;\n", "")
    s.edit("src/auth.ts", "export function requireRole(",
           "/** The caller's current role from the users table: the token's own role claim is never trusted. */\n"
           "export function withCurrentRole(claims: Claims, users: UserTable): Claims {\n"
           "  const user = users.byId(claims.sub);\n"
           "  if (!user) throw new HttpError(401, \"unknown user\", \"auth\");\n"
           "  return { ...claims, role: user.role };\n}\n\nexport function requireRole(")
    s.edit("src/auth.ts", "import { HttpError } from \"./errors\";\n",
           "import { HttpError } from \"./errors\";\nimport type { UserTable } from \"./users\";\n")
    s.edit("src/server.ts",
           "    const claims = verifyToken((req.headers.authorization ?? \"\").replace(/^Bearer /, \"\"), SECRET);\n",
           "    const token = verifyToken((req.headers.authorization ?? \"\").replace(/^Bearer /, \"\"), SECRET);\n"
           "    const claims = withCurrentRole(token, users);\n")
    s.edit("src/server.ts", "import { verifyToken } from \"./auth\";\n",
           "import { verifyToken, withCurrentRole } from \"./auth\";\n")
    s.bash("npx tsc --noEmit -p . && npm test", node_tests(TIME_TESTS), description="Type-check and test")
    s.say("Done:\n- `withCurrentRole(claims, users)` replaces the token's role with the one in the users table "
          "and rejects ids that no longer exist;\n- `server.ts` calls it right after `verifyToken`, so every "
          "`requireRole` sees the current role;\n- the 15-minute change is gone, tokens keep their 12h.")
    return [s]


@scenario("roster-swap-boundary", "roster",
          "non-native speaker leaves cross-site swaps out for now",
          [exp("boundary", "src/routes/shifts.ts:swapShift", "swap across sites")])
def _roster_swap(files):
    s = Session("roster-swap-sites", "2026-11-16T13:02:12.000Z", files)
    s.user("workers ask to swap shifts with colleague from other site (Berlin <-> Lisbon, for the remote "
           "support role). for now we leave out the swap across sites, is complicated with the contracts and "
           "the overtime rules are different. please make swapShift refuse it when the other worker is from "
           "other site, with clear message for the app")
    s.read("src/routes/shifts.ts")
    s.read("src/users.ts")
    s.say("`swapShift` doesn't know users yet; I'll pass the `UserTable` in and compare the target worker's "
          "`siteId` with the shift's.")
    s.edit("src/routes/shifts.ts",
           "export function swapShift(store: ShiftStore, claims: Claims, id: string, toWorker: string) {\n"
           "  const shift = store.get(id);\n  if (!shift) throw new HttpError(404, \"no such shift\");\n"
           "  if (shift.workerId !== claims.sub) requireRole(claims, \"manager\", \"admin\");\n",
           "export function swapShift(store: ShiftStore, users: UserTable, claims: Claims, id: string, toWorker: string) {\n"
           "  const shift = store.get(id);\n  if (!shift) throw new HttpError(404, \"no such shift\");\n"
           "  if (shift.workerId !== claims.sub) requireRole(claims, \"manager\", \"admin\");\n"
           "  // swaps across sites are left out for now: contracts and overtime rules differ per site\n"
           "  if (users.byId(toWorker)?.siteId !== shift.siteId) {\n"
           "    throw new HttpError(422, \"shifts can only be swapped with a colleague from the same site\", "
           "\"cross_site_swap\");\n  }\n")
    s.edit("src/routes/shifts.ts", "import { ShiftStore } from \"../store\";\n",
           "import { ShiftStore } from \"../store\";\nimport type { UserTable } from \"../users\";\n")
    s.edit("src/server.ts", "swapShift(store, claims, swap[1], body.to)", "swapShift(store, users, claims, swap[1], body.to)")
    s.bash("npx tsc --noEmit -p . && npm test", node_tests(TIME_TESTS), description="Type-check and test")
    s.say("Done. A swap with someone from another site now answers 422 with code `cross_site_swap` and the "
          "message \"shifts can only be swapped with a colleague from the same site\", which the app can show "
          "as is.")
    s.user("thank you, very good")
    return [s]


@scenario("roster-explain", "roster",
          "how-does-this-work questions with code quoted back; nothing to note",
          [])
def _roster_explain(files):
    s = Session("roster-explain", "2026-11-17T08:15:50.000Z", files)
    s.user("how does the swap route get matched in server.ts? there's no router")
    s.read("src/server.ts", offset=18)
    s.say("It's matched by hand. Before the `if` chain:\n\n```ts\nconst swap = "
          "url.pathname.match(/^\\/shifts\\/([^/]+)\\/swap$/);\n```\n\n"
          "`swap` is `null` for any other path; for `/shifts/sh_12/swap` it's an array with `swap[1] === "
          "\"sh_12\"`. The branch `req.method === \"POST\" && swap` then passes `swap[1]` as the shift id. The "
          "other routes compare `url.pathname` exactly; anything else falls through to the 404.")
    s.user("and what happens on a request without Authorization header at all")
    s.read("src/auth.ts", limit=20)
    s.say("`req.headers.authorization ?? \"\"` gives `\"\"`, so `verifyToken(\"\")` splits it into `body = \"\"` "
          "and `sig = undefined`. The HMAC of the empty string never equals `undefined`, so it throws "
          "`HttpError(401, \"bad token\")`, and the `catch` turns that into a 401 JSON response. It never reaches "
          "`JSON.parse`.")
    s.user("got it, thanks")
    return [s]


@scenario("roster-midnight-gotcha", "roster",
          "a new failing test, the cause (night shifts crossing midnight), the fix, the test passing",
          [exp("gotcha", "src/routes/shifts.ts:createShift", "midnight")])
def _roster_midnight(files):
    s = Session("roster-midnight", "2026-11-19T19:20:00.000Z", files)
    s.user("payroll export shows -16h for night shifts (22:00-06:00). can you check")
    s.read("src/routes/shifts.ts")
    s.write("test/shifts.test.ts",
            "import { strict as assert } from \"node:assert\";\nimport { test } from \"node:test\";\n"
            "import { createShift } from \"../src/routes/shifts\";\nimport { ShiftStore } from \"../src/store\";\n"
            "import { durationHours } from \"../src/time\";\n\n"
            "const manager = { sub: \"m1\", role: \"manager\" as const, exp: 0 };\n\n"
            "test(\"night shift ends the next morning\", () => {\n"
            "  const shift = createShift(new ShiftStore(), manager,\n"
            "    { siteId: \"ber\", day: \"2026-03-02\", from: \"22:00\", to: \"06:00\", role: \"nurse\" });\n"
            "  assert.equal(durationHours(shift), 8);\n});\n",
            text="Reproducing with a test first.")
    s.bash("npm test", node_tests(TIME_TESTS + ["night shift ends the next morning"], failed={
        "night shift ends the next morning":
            "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n-16 !== 8\n\n"
            "    at TestContext.<anonymous> (test/shifts.test.ts:12:10)\n"
            "  generatedMessage: true,\n  code: 'ERR_ASSERTION',\n  actual: -16,\n  expected: 8,\n"
            "  operator: 'strictEqual'"}), fail=True, description="Run the tests")
    s.say("Reproduced. `createShift` builds both ends from the same `day`, so a shift that crosses midnight "
          "ends 16 hours *before* it starts. The end belongs to the next day whenever it isn't after the start.")
    s.edit("src/routes/shifts.ts",
           "  const when = { start: parseLocal(input.day, input.from, tz), end: parseLocal(input.day, input.to, tz) };\n",
           "  const start = parseLocal(input.day, input.from, tz);\n"
           "  // a night shift (22:00-06:00) crosses midnight: its end is on the next day\n"
           "  const end = input.to > input.from ? parseLocal(input.day, input.to, tz)\n"
           "    : parseLocal(nextDay(input.day), input.to, tz);\n  const when = { start, end };\n")
    s.edit("src/routes/shifts.ts", "import { parseLocal } from \"../time\";\n",
           "import { nextDay, parseLocal } from \"../time\";\n")
    s.edit("src/time.ts", "export function overlaps(a: Interval, b: Interval): boolean {\n",
           "export function nextDay(day: string): string {\n  const d = new Date(`${day}T00:00:00Z`);\n"
           "  d.setUTCDate(d.getUTCDate() + 1);\n  return d.toISOString().slice(0, 10);\n}\n\n"
           "export function overlaps(a: Interval, b: Interval): boolean {\n")
    s.bash("npm test", node_tests(TIME_TESTS + ["night shift ends the next morning"]), description="Run the tests")
    s.say("Fixed: a shift whose `to` is not after its `from` now ends on the next day, so 22:00–06:00 is 8h. "
          "Shifts already stored with a negative length need their end moved by a day; "
          "`SELECT id FROM shifts WHERE end_at < start_at` on the payroll replica finds them.")
    return [s]


@scenario("roster-sms-workaround", "roster",
          "the agent explains odd-looking code it adds on purpose (GSM-7, one segment); the person turns down "
          "the proper fix for cost",
          [exp("workaround", "src/notify.ts:toSingleSegment", "GSM-7", ["concatenated SMS"])])
def _roster_sms(files):
    s = Session("roster-sms", "2026-11-20T14:48:03.000Z", files)
    s.user("some workers get cut off reminder SMS, like half the text missing. seems to be the ones with names "
           "like Łukasz or Zoë in them")
    s.read("src/notify.ts")
    s.say("That pattern fits how SMS encoding works. A message in the GSM-7 alphabet fits 160 characters in one "
          "segment. A single character outside GSM-7 (`Ł` is one; `ë` as well) switches the *whole* message to "
          "UCS-2, where one segment holds only 70 characters. Our provider account sends single segments only, "
          "so everything after character 70 is dropped.\n\n"
          "Two ways out:\n- enable concatenated SMS on the provider account — correct, but every reminder with "
          "a name like that costs 2–3 segments;\n- make the text GSM-7 ourselves: strip accents (`Zoë` → `Zoe`, "
          "`Łukasz` → `Lukasz`), replace what's left with `?`, and cut at 160 at a word boundary.")
    s.user("no budget for concatenated, finance already complains about the sms bill. do the second")
    s.say("OK. It will look like we're mangling names on purpose — we are — so the comment says why.")
    s.edit("src/notify.ts",
           "export async function notifyWorker(sms: SmsClient, phone: string, text: string): Promise<void> {\n"
           "  await sms.send(phone, text);\n}\n",
           "const GSM7 = /^[A-Za-z0-9 @£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ!\"#¤%&'()*+,\\-./:;<=>?¡ÄÖÑÜ§¿äöñüà\\n]$/;\n"
           "const NO_DECOMPOSITION: Record<string, string> = { Ł: \"L\", ł: \"l\", Đ: \"D\", đ: \"d\" };\n\n"
           "/** ``text`` in plain GSM-7, at most one 160-character segment. */\n"
           "export function toSingleSegment(text: string): string {\n"
           "  // One non-GSM-7 character makes the whole SMS UCS-2 (70 characters a segment) and our provider\n"
           "  // account sends single segments only, so the rest was cut off: strip accents, cut at 160 here.\n"
           "  const plain = [...text.normalize(\"NFD\").replace(/\\p{M}/gu, \"\")]\n"
           "    .map((c) => NO_DECOMPOSITION[c] ?? (GSM7.test(c) ? c : \"?\"))\n    .join(\"\");\n"
           "  return plain.length <= 160 ? plain : plain.slice(0, 157).replace(/\\s+\\S*$/, \"\") + \"...\";\n}\n\n"
           "export async function notifyWorker(sms: SmsClient, phone: string, text: string): Promise<void> {\n"
           "  await sms.send(phone, toSingleSegment(text));\n}\n")
    s.write("test/notify.test.ts",
            "import { strict as assert } from \"node:assert\";\nimport { test } from \"node:test\";\n"
            "import { toSingleSegment } from \"../src/notify\";\n\n"
            "test(\"names become GSM-7\", () => {\n"
            "  assert.equal(toSingleSegment(\"Hi Łukasz, Zoë swapped with you\"), \"Hi Lukasz, Zoe swapped with you\");\n"
            "});\n\ntest(\"long text is cut at a word\", () => {\n"
            "  const out = toSingleSegment(\"shift \".repeat(40));\n  assert.ok(out.length <= 160 && out.endsWith(\"...\"));\n"
            "});\n")
    s.bash("npm test", node_tests(TIME_TESTS + ["names become GSM-7", "long text is cut at a word"]),
           description="Run the tests")
    s.say("Done: `notifyWorker` sends `toSingleSegment(text)` — GSM-7 only, at most 160 characters. Both new "
          "tests pass.")
    s.user("ugh. fine")
    return [s]


@scenario("roster-misleading", "roster",
          "thinking out loud, a colleague's practice asked about, a process instruction, a failed Edit, a "
          "sub-agent that muses about Redis: nothing to note",
          [])
def _roster_misleading(files):
    s = Session("roster-misleading", "2026-11-24T10:05:33.000Z", files)
    s.user("just thinking out loud, not asking you to change anything: if we moved ShiftStore to redis at some "
           "point, what would break?")
    s.read("src/store.ts")
    s.say("Mostly the synchronous API. `add`, `get`, `byWorker`, `conflicts` and `assign` all return values "
          "directly; with Redis they'd become `async`, and so would `createShift`, `swapShift` and `listShifts`. "
          "`conflicts` filters all of a worker's shifts in memory — in Redis you'd want a sorted set per worker "
          "keyed by start time. And `seq` would have to be `INCR` on a key, or two processes hand out the same "
          "id.")
    s.user("ok. my colleague Tomás says we should always answer 404 instead of 403 for other people's shifts so "
           "we don't leak which ids exist. is that a common thing?")
    s.say("Yes, it's a known practice — GitHub does it for private repositories. It matters when ids are "
          "guessable; ours are sequential (`sh_1`, `sh_2`, …), so a 403 does confirm that a shift exists. Whether "
          "that's worth hiding is your call; nothing in the code does it today.")
    s.subagent("Find where the rate limiting for write requests is configured and which limits apply.",
               "Rate limiting lives in `src/rateLimit.ts` (`TokenBucket`, capacity 30, refill 0.5/s) and is "
               "applied in `src/server.ts` to every non-GET request, keyed by `claims.sub`. One shared limiter for "
               "all roles. We should probably move this to Redis if the API ever runs more than one process, "
               "since the buckets are in memory.")
    s.say("For reference: writes are limited in `server.ts` with one in-memory `TokenBucket` (30, 0.5/s) per "
          "user, the same for all roles.")
    s.user("k. run the tests first, then add a test:coverage script to package.json with "
           "--experimental-test-coverage")
    s.bash("npm test", node_tests(TIME_TESTS), description="Run the tests")
    s.failed_edit("package.json", "\"test\": \"node --test test/*.test.ts\"\n",
                  "\"test\": \"node --import tsx --test test/*.test.ts\",\n    \"test:coverage\": \"node --import tsx "
                  "--test --experimental-test-coverage test/*.test.ts\"\n")
    s.read("package.json")
    s.edit("package.json", "    \"test\": \"node --import tsx --test test/*.test.ts\"\n",
           "    \"test\": \"node --import tsx --test test/*.test.ts\",\n"
           "    \"test:coverage\": \"node --import tsx --test --experimental-test-coverage test/*.test.ts\"\n")
    s.bash("npm run test:coverage 2>&1 | tail -4",
           "ℹ file          | line % | branch % | funcs % | uncovered lines\n"
           "ℹ src/time.ts   |  92.31 |    83.33 |  100.00 | 8\n"
           "ℹ all files     |  92.31 |    83.33 |  100.00 |\nℹ end of coverage report",
           description="Run the coverage script")
    s.say("Added `npm run test:coverage`. (My first edit missed: I had guessed the test script without `--import tsx`.)")
    return [s]


@scenario("roster-validation-options", "roster",
          "non-native speaker asks for options, the agent lists three, the person agrees (\"go with that\")",
          [exp("decision", "src/validate.ts:parseShiftInput", "hand-written", ["zod", "io-ts"])])
def _roster_validate(files):
    s = Session("roster-validate", "2026-11-25T11:30:00.000Z", files)
    s.user("parseShiftInput accept anything. yesterday somebody create a shift with day '2026-13-45' and from "
           "'morning' and the app crashed. we need real validation. what are the options?")
    s.read("src/validate.ts")
    s.read("package.json")
    s.say("Three realistic options:\n\n"
          "1. **zod** — declarative schema, good error messages, inferred TypeScript types. Adds a runtime "
          "dependency (~60 kB); right now the API has zero runtime dependencies.\n"
          "2. **io-ts** — same idea, more functional style (`Either`, `pipe`); steeper for the team, plus "
          "fp-ts as a second dependency.\n"
          "3. **hand-written checks** in `parseShiftInput` — ~25 lines with a `requireString` helper and two "
          "regexes (day, HH:MM). No dependency; messages exactly as we want them.\n\n"
          "With six fields I'd write it by hand.")
    s.user("ok i agree, no dependency is important for us because the deploy is just copy the dist folder to the "
           "server, no npm install there. go with that")
    s.edit("src/validate.ts",
           "export function parseShiftInput(body: any): ShiftInput {\n"
           "  if (!body || typeof body !== \"object\") throw new HttpError(400, \"body must be a JSON object\");\n"
           "  const { siteId, day, from, to, role, workerId } = body;\n"
           "  return { siteId, day, from, to, role, workerId };\n}\n",
           "const DAY = /^\\d{4}-\\d{2}-\\d{2}$/;\nconst HHMM = /^([01]\\d|2[0-3]):[0-5]\\d$/;\n\n"
           "function requireString(body: Record<string, unknown>, key: string, pattern?: RegExp, hint = \"\"): string {\n"
           "  const v = body[key];\n"
           "  if (typeof v !== \"string\" || v === \"\") throw new HttpError(400, `${key} is required`, \"invalid\");\n"
           "  if (pattern && !pattern.test(v)) {\n"
           "    throw new HttpError(400, `${key} must be ${hint}, not ${JSON.stringify(v)}`, \"invalid\");\n  }\n"
           "  return v;\n}\n\n"
           "// hand-written on purpose: the API ships without runtime dependencies (deploy = copy dist/)\n"
           "export function parseShiftInput(body: any): ShiftInput {\n"
           "  if (!body || typeof body !== \"object\") throw new HttpError(400, \"body must be a JSON object\");\n"
           "  const day = requireString(body, \"day\", DAY, \"YYYY-MM-DD\");\n"
           "  if (Number.isNaN(Date.parse(`${day}T00:00:00Z`))) throw new HttpError(400, `no such day ${day}`, \"invalid\");\n"
           "  return {\n    siteId: requireString(body, \"siteId\"),\n    day,\n"
           "    from: requireString(body, \"from\", HHMM, \"HH:MM\"),\n    to: requireString(body, \"to\", HHMM, \"HH:MM\"),\n"
           "    role: requireString(body, \"role\"),\n"
           "    workerId: body.workerId === undefined ? undefined : requireString(body, \"workerId\"),\n  };\n}\n")
    s.write("test/validate.test.ts",
            "import { strict as assert } from \"node:assert\";\nimport { test } from \"node:test\";\n"
            "import { parseShiftInput } from \"../src/validate\";\n\n"
            "const ok = { siteId: \"ber\", day: \"2026-03-02\", from: \"06:00\", to: \"14:00\", role: \"nurse\" };\n\n"
            "test(\"a good shift passes\", () => assert.deepEqual(parseShiftInput(ok), { ...ok, workerId: undefined }));\n"
            "test(\"month 13 is refused\", () => assert.throws(() => parseShiftInput({ ...ok, day: \"2026-13-45\" }), /no such day/));\n"
            "test(\"'morning' is not a time\", () => assert.throws(() => parseShiftInput({ ...ok, from: \"morning\" }), /HH:MM/));\n")
    s.bash("npm test", node_tests(TIME_TESTS + ["a good shift passes", "month 13 is refused", "'morning' is not a time"]),
           description="Run the tests")
    s.say("Done — `parseShiftInput` checks every field and answers 400 with a message naming the field, e.g. "
          "`from must be HH:MM, not \"morning\"`. No new dependency.")
    return [s]


# == output and checks ==================================================================================

def conversation(sessions) -> str:
    """What people and the agent said (prompts and text blocks), lower case."""
    said = []
    for s in sessions:
        for rec in s.lines:
            content = rec.get("message", {}).get("content") if rec.get("type") in ("user", "assistant") else None
            if isinstance(content, str):
                said.append(content)
            elif isinstance(content, list):
                said += [b["text"] for b in content if b.get("type") == "text"]
    return "\n".join(said).lower()


def has_anchor(root: Path, anchor: str) -> bool:
    if any(c in anchor for c in "*?["):
        return any(glob_match(anchor, p.relative_to(root).as_posix()) for p in root.rglob("*") if p.is_file())
    path, _, name = anchor.partition(":")
    f = root / path
    if not f.is_file():
        return False
    return not name or name in {d.qualname for d in SourceFile(f.read_text(encoding="utf-8"), for_path(path)).defs}


def check(sc: dict, sessions, final: dict[str, str]) -> list[str]:
    """Problems with one scenario: an edit that does not replay, an end state that differs from the
    builder's, an anchor that names nothing, a phrase nobody said."""
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        shutil.copytree(HERE / "repos" / sc["repo"], root)
        for s in sessions:
            path = Path(tmp) / f"{s.name}.jsonl"
            path.write_text(s.jsonl().replace(PLACEHOLDER, json.dumps(str(root))[1:-1]), encoding="utf-8")
            try:
                for _event, change in hook_events(path, root):
                    if change is not None:
                        change()
            except AssertionError as e:
                problems.append(f"{s.name}: {e}")
        for rel, text in final.items():
            if (root / rel).read_text(encoding="utf-8") != text:
                problems.append(f"replayed {rel} differs from the session's end state")
            tree = SourceFile(text, for_path(rel)).tree
            if tree is not None and tree.root_node.has_error:
                problems.append(f"{rel} does not parse at the end")
        said = conversation(sessions)
        for e in sc["expected"]:
            if not has_anchor(root, e["anchor"]):
                problems.append(f"anchor {e['anchor']} names nothing in the final state")
            for phrase in [e["phrase"], *e["rejected"]]:
                if phrase.lower() not in said:
                    problems.append(f"{phrase!r} is never said")
    return problems


def build() -> None:
    out, problems, names = [], [], set()
    (HERE / "sessions").mkdir(exist_ok=True)
    for old in (HERE / "sessions").glob("*.jsonl"):
        old.unlink()
    for sc in SCENARIOS:
        files = read_repo(sc["repo"])
        sessions = sc["fn"](files)
        for s in sessions:
            assert s.name not in names, f"two sessions named {s.name}"
            names.add(s.name)
            (HERE / "sessions" / f"{s.name}.jsonl").write_text(s.jsonl(), encoding="utf-8")
        problems += [f"{sc['name']}: {p}" for p in check(sc, sessions, files)]
        out.append({"name": sc["name"], "repo": sc["repo"], "sessions": [f"{s.name}.jsonl" for s in sessions],
                    "note": sc["note"], "expected": sc["expected"]})
    (HERE / "expected.json").write_text(json.dumps({"set": SET, "scenarios": out}, indent=2, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    exps = [e for sc in out for e in sc["expected"]]
    print(f"{len(out)} scenarios, {len(names)} sessions, {len(exps)} expected candidates "
          f"({sum(1 for e in exps if e['rejected'])} with rejected options), "
          f"{sum(1 for sc in out if not sc['expected'])} scenarios with none, "
          f"{sum(1 for sc in out if len(sc['sessions']) > 1)} restated across sessions")
    if problems:
        sys.exit("\n".join(problems))


if __name__ == "__main__":
    build()
