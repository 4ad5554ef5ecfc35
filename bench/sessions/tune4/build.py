"""Writes the tune4 set: ``sessions/*.jsonl`` and ``expected.json`` from the scenarios below.

Two repositories of its own under ``repos/``: ``tallyho`` (TypeScript, an expense-splitting web
API) and ``harvest`` (Python, a scraping / ETL job). Sessions are written with the ``Session``
builder of ``tests/fixtures/transcripts/build.py``; run ``python3 build.py`` after changing a
scenario (outputs are committed). ``PYTHONPATH=<worktree>/server python3 build.py --check`` also
replays every scenario on a copy of its repository (every edit must apply) and checks, with
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


def vitest(passed: int, files: int = 1, failed: str = "") -> str:
    head = "\n RUN  v1.5.0 /home/dev/tallyho\n\n"
    if failed:
        return head + failed
    return head + f" ✓ test/money.test.ts ({passed} tests) 6ms\n\n Test Files  {files} passed ({files})\n" \
                  f"      Tests  {passed} passed ({passed})\n   Start at  10:12:03\n   Duration  412ms\n"


def pytest_ok(n: int, secs: str = "0.21") -> str:
    return ("============================= test session starts ==============================\n"
            "platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0\nrootdir: /home/dev/harvest\n"
            f"collected {n} items\n\ntests/test_parser.py {'.' * n}{' ' * (40 - n)}[100%]\n\n"
            f"============================== {n} passed in {secs}s ===============================")


# == tallyho (TypeScript) ===========================================================================


@scenario("split-leftover-cents", "tallyho",
          "a decision reached over four turns: the agent's options in a table, the person thinking out loud, a "
          "colleague's hearsay about another app (not a decision), a digression about vitest, then the choice",
          [exp("decision", "src/money.ts:splitEvenly", "order they joined", ["the payer", "random"])])
def _split(files):
    s = Session("split-leftover-cents", "2026-11-09T09:41:00.000Z", files)
    s.user("ok so a bug report from the beta: someone split a 100 euro dinner three ways and the balances page "
           "says everyone owes 33.333333333333336. which, lol. but before you slap a toFixed on it I want to think "
           "about where the leftover cent goes, because that is actually the product question here, not a "
           "formatting one. read money.ts and balances.ts first and tell me what you see")
    s.read("src/money.ts")
    s.read("src/balances.ts")
    s.say("Here's what's going on:\n\n- `splitEvenly` divides the float total by the head count, so a 100.00 "
          "split three ways gives three shares of `33.333…`. `computeBalances` then subtracts those raw floats, "
          "which is where `33.333333333333336` comes from.\n- Rounding each share for display doesn't fix it: "
          "3 × 33.33 = 99.99, so the balances stop summing to zero and settle-up leaves a cent hanging.\n\n"
          "The split has to happen in whole cents, and one or two cents will always be left over. Where they go "
          "is the choice:\n\n"
          "| option | 100.00 / 3 | catch |\n"
          "|---|---|---|\n"
          "| leftover to the payer | payer 33.34, others 33.33 | the payer isn't always in `splitBetween` (paying for others) |\n"
          "| leftover to the first people in the group (join order) | first joiner 33.34 | someone is always the unlucky one, but predictably |\n"
          "| random member | anyone 33.34 | has to be seeded per expense or the export and the balances page disagree |\n"
          "| spread by largest remainder | same as join order for equal splits | only matters once we have uneven splits |\n\n"
          "Which way do you want it?")
    s.user("hmm. my gut says the payer, since they're the one who typed the number in and they can eat a cent. "
           "but priya mentioned splitwise apparently gives it to a random person and nobody ever complains — no "
           "idea if that's true, she read it in some blog post about their rounding. random kind of scares me "
           "though, the csv export has to match what the screen says")
    s.say("Two things worth weighing:\n\n1. **Random** can be made stable by seeding it with the expense id, so "
          "export and screen would agree. But then the rule is invisible: nobody can predict or explain why "
          "Sam paid 33.34 this time.\n2. **Payer** breaks exactly in the case you have in the data already — "
          "`addExpense` accepts a `splitBetween` that doesn't include `paidBy` (someone buys the tickets for "
          "the others). Then there's no payer share to put the cent on and we need a second rule anyway.")
    s.user("oh wait, unrelated, while I think — does vitest run in watch mode by default? my terminal keeps "
           "hanging on the tests")
    s.say("`vitest` on its own starts in watch mode when it sees a TTY; `vitest run` runs once and exits. Your "
          "`package.json` has `\"test\": \"vitest run\"`, so `npm test` shouldn't hang — if you typed `npx "
          "vitest` that would explain it.")
    s.user("yep that's it, I've been typing npx vitest like an animal. ok back to cents. the paying-for-others "
           "case kills the payer idea, and random I don't want to explain in the FAQ. so: leftover cents go one "
           "each to the people in the split, in the order they joined the group. deterministic, and explainable "
           "in one sentence. do that")
    s.edit("src/money.ts",
           "export function splitEvenly(total: Amount, people: string[]): Map<string, Amount> {\n"
           "  const share = total.value / people.length;\n"
           "  const out = new Map<string, Amount>();\n"
           "  for (const p of people) {\n"
           "    out.set(p, { value: share, currency: total.currency });\n"
           "  }\n"
           "  return out;\n"
           "}\n",
           "// Shares in whole cents. The cents that don't divide evenly go one each to the first people\n"
           "// in `people`, which callers pass in the order members joined the group, so one expense\n"
           "// always splits the same way (balances page and CSV export agree).\n"
           "export function splitEvenly(total: Amount, people: string[]): Map<string, Amount> {\n"
           "  const cents = Math.round(total.value * 100);\n"
           "  const base = Math.floor(cents / people.length);\n"
           "  let leftover = cents - base * people.length;\n"
           "  const out = new Map<string, Amount>();\n"
           "  for (const p of people) {\n"
           "    const extra = leftover > 0 ? 1 : 0;\n"
           "    leftover -= extra;\n"
           "    out.set(p, { value: (base + extra) / 100, currency: total.currency });\n"
           "  }\n"
           "  return out;\n"
           "}\n")
    s.read("src/expenses.ts", 6, 20)
    s.edit("src/expenses.ts",
           "    return res.status(400).json({ error: \"splitBetween has someone outside the group\" });\n  }\n",
           "    return res.status(400).json({ error: \"splitBetween has someone outside the group\" });\n  }\n"
           "  const joinOrder = group.members.map((m) => m.id);\n"
           "  between.sort((a, b) => joinOrder.indexOf(a) - joinOrder.indexOf(b));\n",
           text="`splitEvenly` trusts the order it's given, so `addExpense` sorts the split by join order "
                "before storing it:")
    s.edit("test/money.test.ts",
           "    expect([...shares.values()].map((s) => s.value)).toEqual([10, 10, 10]);\n  });\n",
           "    expect([...shares.values()].map((s) => s.value)).toEqual([10, 10, 10]);\n  });\n\n"
           "  it(\"gives the leftover cents to the first people\", () => {\n"
           "    const shares = splitEvenly({ value: 100, currency: \"EUR\" }, [\"ann\", \"bo\", \"cy\"]);\n"
           "    expect([...shares.values()].map((s) => s.value)).toEqual([33.34, 33.33, 33.33]);\n"
           "    const two = splitEvenly({ value: 0.05, currency: \"EUR\" }, [\"ann\", \"bo\", \"cy\"]);\n"
           "    expect([...two.values()].map((s) => s.value)).toEqual([0.02, 0.02, 0.01]);\n"
           "  });\n")
    s.bash("npm test", "\n> tallyho@0.4.0 test\n> vitest run\n" + vitest(4), description="Run the test suite")
    s.say("Done. 100.00 / 3 → 33.34, 33.33, 33.33 with the extra cent on whoever joined first; 0.05 / 3 → "
          "0.02, 0.02, 0.01. Balances now sum to zero. The shares are still stored as decimals in `Amount.value` "
          "— I left that alone since it's a bigger change.")
    s.user("good, thanks. yeah leave the storage thing, separate PR")
    return [s]


@scenario("minor-units", "tallyho",
          "an invariant the person states unprompted with its reason, restated a week later in a new session "
          "about other code (a PATCH endpoint), where a second, smaller decision is taken on the agent's question",
          [exp("invariant", "src/money.ts:parseAmount", "minor units"),
           exp("decision", "src/money.ts:parseAmount", "reject it", ["round half-up"])])
def _minor(files):
    a = Session("minor-units-1", "2026-11-10T14:02:00.000Z", files)
    a.user("we added JPY to the currency list yesterday and now a 1500 yen expense shows as \"1500.00 JPY\" "
           "which is nonsense, yen have no decimals. while you're in money.ts I want to fix the actual root of "
           "this, not just the formatting: amounts are integer minor units everywhere. cents for EUR/USD/GBP/CHF, "
           "plain yen for JPY. a decimal only exists at the HTTP edge — parseAmount converts it once and nothing "
           "downstream ever sees a fraction. reason being we already had the 33.333 thing in balances and I'm "
           "not doing that dance again with every new currency")
    a.read("src/money.ts")
    a.say("Plan:\n\n- a `MINOR_DIGITS` table per currency (2, JPY 0)\n- `parseAmount` parses the decimal "
          "**string** itself instead of going through `Number` and multiplying — `Number(\"0.29\") * 100` is "
          "`28.999999999999996`, which is exactly the kind of thing you're trying to get rid of\n- `formatAmount` "
          "divides back out for display\n- tests updated to minor units\n\nGoing ahead.")
    a.edit("src/money.ts",
           "export interface Amount {\n  value: number;\n  currency: Currency;\n}\n",
           "// `value` is an integer count of the currency's minor unit (cents; yen for JPY).\n"
           "export interface Amount {\n  value: number;\n  currency: Currency;\n}\n\n"
           "const MINOR_DIGITS: Record<Currency, number> = { EUR: 2, USD: 2, GBP: 2, CHF: 2, JPY: 0 };\n")
    a.edit("src/money.ts",
           "export function parseAmount(input: string | number, currency: Currency): Amount {\n"
           "  const value = typeof input === \"number\" ? input : Number(input.trim());\n"
           "  if (!Number.isFinite(value)) {\n"
           "    throw new Error(`not an amount: ${input}`);\n"
           "  }\n"
           "  return { value, currency };\n"
           "}\n\n"
           "export function formatAmount(a: Amount): string {\n"
           "  return `${a.value.toFixed(2)} ${a.currency}`;\n"
           "}\n",
           "// The only place a decimal amount is read: from here on it is an integer of minor units.\n"
           "export function parseAmount(input: string | number, currency: Currency): Amount {\n"
           "  const m = /^(-?)(\\d+)(?:\\.(\\d+))?$/.exec(String(input).trim());\n"
           "  if (!m) {\n"
           "    throw new Error(`not an amount: ${input}`);\n"
           "  }\n"
           "  const digits = MINOR_DIGITS[currency];\n"
           "  const frac = (m[3] ?? \"\").padEnd(digits, \"0\").slice(0, digits);\n"
           "  const value = Number(m[2] + frac) * (m[1] ? -1 : 1);\n"
           "  return { value, currency };\n"
           "}\n\n"
           "export function formatAmount(a: Amount): string {\n"
           "  const digits = MINOR_DIGITS[a.currency];\n"
           "  const abs = Math.abs(a.value);\n"
           "  const whole = Math.floor(abs / 10 ** digits);\n"
           "  const frac = digits ? \".\" + String(abs % 10 ** digits).padStart(digits, \"0\") : \"\";\n"
           "  return `${a.value < 0 ? \"-\" : \"\"}${whole}${frac} ${a.currency}`;\n"
           "}\n")
    a.write("test/money.test.ts",
            "import { describe, expect, it } from \"vitest\";\n"
            "import { formatAmount, parseAmount, splitEvenly } from \"../src/money.js\";\n\n"
            "describe(\"money\", () => {\n"
            "  it(\"parses to minor units\", () => {\n"
            "    expect(parseAmount(\"12.50\", \"EUR\")).toEqual({ value: 1250, currency: \"EUR\" });\n"
            "    expect(parseAmount(\"0.29\", \"EUR\")).toEqual({ value: 29, currency: \"EUR\" });\n"
            "    expect(parseAmount(\"1500\", \"JPY\")).toEqual({ value: 1500, currency: \"JPY\" });\n"
            "  });\n\n"
            "  it(\"formats with the currency's decimals\", () => {\n"
            "    expect(formatAmount({ value: 300, currency: \"GBP\" })).toBe(\"3.00 GBP\");\n"
            "    expect(formatAmount({ value: -5, currency: \"EUR\" })).toBe(\"-0.05 EUR\");\n"
            "    expect(formatAmount({ value: 1500, currency: \"JPY\" })).toBe(\"1500 JPY\");\n"
            "  });\n\n"
            "  it(\"splits between people\", () => {\n"
            "    const shares = splitEvenly({ value: 3000, currency: \"EUR\" }, [\"a\", \"b\", \"c\"]);\n"
            "    expect([...shares.values()].map((s) => s.value)).toEqual([1000, 1000, 1000]);\n"
            "  });\n"
            "});\n")
    a.bash("npx vitest run", vitest(3), description="Run tests")
    a.say("Green. `1500 JPY` now prints as `1500 JPY`, and `0.29` parses to `29` rather than `28.999…`. "
          "Everything stored on an `Expense` is an integer from now on.")
    a.user("lovely, thanks")

    b = Session("minor-units-2", "2026-11-17T10:25:00.000Z", files)
    b.user("next thing on the board: people want to fix a typo'd amount without deleting the expense and "
           "re-adding it (which also reshuffles the list, annoying). so a PATCH on an expense that can change "
           "amount and description. reminder because it matters here: amounts are integer minor units, the "
           "body's number goes through parseAmount and nowhere else. don't just assign req.body.amount to the "
           "expense because it 'looks like a number'")
    b.read("src/expenses.ts")
    b.read("src/money.ts", 15, 15)
    b.say("One thing I noticed in `parseAmount` before I wire it up: extra decimals are silently chopped — "
          "`\"12.345\"` in EUR becomes `1234`, i.e. 12.34. For the PATCH (and `addExpense`) do you want:\n\n"
          "- **round half-up** to the currency's decimals (12.345 → 12.35), or\n"
          "- **reject** it with a 400 (`too many decimals for EUR`)?")
    b.user("reject it. rounding someone's money silently is worse than a 400, they can retype it. and honestly "
           "chopping is even worse than rounding, good catch")
    b.edit("src/money.ts",
           "  const digits = MINOR_DIGITS[currency];\n"
           "  const frac = (m[3] ?? \"\").padEnd(digits, \"0\").slice(0, digits);\n",
           "  const digits = MINOR_DIGITS[currency];\n"
           "  if ((m[3] ?? \"\").length > digits) {\n"
           "    throw new Error(`too many decimals for ${currency}: ${input}`);\n"
           "  }\n"
           "  const frac = (m[3] ?? \"\").padEnd(digits, \"0\");\n")
    b.edit("src/expenses.ts",
           "export function listExpenses(req: Request, res: Response) {\n",
           "export function updateExpense(req: Request, res: Response) {\n"
           "  const e = store.expenses.get(req.params.expenseId);\n"
           "  if (!e || e.groupId !== req.params.groupId) {\n"
           "    return res.status(404).json({ error: \"no such expense\" });\n"
           "  }\n"
           "  const { amount, description } = req.body ?? {};\n"
           "  if (amount !== undefined) {\n"
           "    try {\n"
           "      e.amount = parseAmount(amount, e.amount.currency);\n"
           "    } catch (err) {\n"
           "      return res.status(400).json({ error: (err as Error).message });\n"
           "    }\n"
           "  }\n"
           "  if (description !== undefined) {\n"
           "    e.description = String(description);\n"
           "  }\n"
           "  res.json(e);\n"
           "}\n\n"
           "export function listExpenses(req: Request, res: Response) {\n")
    b.edit("src/server.ts",
           "import { addExpense, deleteExpense, listExpenses } from \"./expenses.js\";\n",
           "import { addExpense, deleteExpense, listExpenses, updateExpense } from \"./expenses.js\";\n")
    b.edit("src/server.ts",
           "app.delete(\"/groups/:groupId/expenses/:expenseId\", deleteExpense);\n",
           "app.patch(\"/groups/:groupId/expenses/:expenseId\", updateExpense);\n"
           "app.delete(\"/groups/:groupId/expenses/:expenseId\", deleteExpense);\n")
    b.edit("test/money.test.ts",
           "    expect(parseAmount(\"1500\", \"JPY\")).toEqual({ value: 1500, currency: \"JPY\" });\n  });\n",
           "    expect(parseAmount(\"1500\", \"JPY\")).toEqual({ value: 1500, currency: \"JPY\" });\n  });\n\n"
           "  it(\"rejects more decimals than the currency has\", () => {\n"
           "    expect(() => parseAmount(\"12.345\", \"EUR\")).toThrow(/too many decimals/);\n"
           "    expect(() => parseAmount(\"100.5\", \"JPY\")).toThrow(/too many decimals/);\n"
           "  });\n")
    b.bash("npx vitest run && npx tsc --noEmit", vitest(4), description="Tests and typecheck")
    b.say("PATCH `/groups/:groupId/expenses/:expenseId` is in; the amount goes through `parseAmount` (currency "
          "stays the expense's own — changing currency on an edit felt like a different feature, say if you "
          "want it). `12.345 EUR` and `100.5 JPY` are now 400s instead of being chopped.\n\nNote `addExpense` "
          "still lets the exception from `parseAmount` bubble to the 500 handler — want me to give it the same "
          "400 treatment?")
    b.user("yes please, same try/catch")
    b.edit("src/expenses.ts",
           "  const expense: Expense = {\n    id: randomUUID(),\n    groupId: group.id,\n    paidBy,\n"
           "    amount: parseAmount(amount, currency),\n",
           "  let parsed;\n  try {\n    parsed = parseAmount(amount, currency);\n  } catch (err) {\n"
           "    return res.status(400).json({ error: (err as Error).message });\n  }\n"
           "  const expense: Expense = {\n    id: randomUUID(),\n    groupId: group.id,\n    paidBy,\n"
           "    amount: parsed,\n")
    b.bash("npx tsc --noEmit", "", description="Typecheck")
    b.say("Done, typechecks clean.")
    return [a, b]


BALANCES_PER_CURRENCY = """import { Request, Response } from "express";
import { store, Expense } from "./store.js";
import { splitEvenly } from "./money.js";

export interface Transfer {
  from: string;
  to: string;
  value: number;
  currency: string;
}

// Net balance per member for expenses of one currency: positive means the group owes them.
export function computeBalances(expenses: Expense[]): Map<string, number> {
  const net = new Map<string, number>();
  for (const e of expenses) {
    net.set(e.paidBy, (net.get(e.paidBy) ?? 0) + e.amount.value);
    for (const [member, share] of splitEvenly(e.amount, e.splitBetween)) {
      net.set(member, (net.get(member) ?? 0) - share.value);
    }
  }
  return net;
}

export function byCurrency(expenses: Expense[]): Map<string, Expense[]> {
  const out = new Map<string, Expense[]>();
  for (const e of expenses) {
    out.set(e.amount.currency, [...(out.get(e.amount.currency) ?? []), e]);
  }
  return out;
}

// Settle-up runs per currency and never converts: we have no exchange-rate source we trust, and
// the app shouldn't pick a rate for people. Owing in two currencies means two transfers.
export function suggestSettlements(expenses: Expense[]): Transfer[] {
  const out: Transfer[] = [];
  for (const [currency, same] of byCurrency(expenses)) {
    const net = computeBalances(same);
    const debtors = [...net].filter(([, v]) => v < 0).map(([id, v]) => ({ id, v: -v }));
    const creditors = [...net].filter(([, v]) => v > 0).map(([id, v]) => ({ id, v }));
    for (const d of debtors) {
      for (const c of creditors) {
        if (d.v <= 0) break;
        const pay = Math.min(d.v, c.v);
        if (pay <= 0) continue;
        out.push({ from: d.id, to: c.id, value: pay, currency });
        d.v -= pay;
        c.v -= pay;
      }
    }
  }
  return out;
}

export function getBalances(req: Request, res: Response) {
  const expenses = store.expensesOf(req.params.groupId);
  const balances: Record<string, Record<string, number>> = {};
  for (const [currency, same] of byCurrency(expenses)) {
    balances[currency] = Object.fromEntries(computeBalances(same));
  }
  res.json({ balances, settleUp: suggestSettlements(expenses) });
}
"""


@scenario("settle-per-currency", "tallyho",
          "the agent is told to fix it its own way, picks currency conversion and implements it; the person "
          "comes back, says 'actually, scratch that' and the final choice is settling per currency",
          [exp("decision", "src/balances.ts:suggestSettlements", "per currency", ["convert"])])
def _settle(files):
    s = Session("settle-per-currency", "2026-11-12T12:48:00.000Z", files)
    s.user("settle-up suggestions are wrong for mixed-currency groups. we had a ski trip group with CHF and EUR "
           "expenses and it told Lena to pay Tom \"412\" of... something. it just takes the first expense's "
           "currency and adds CHF to EUR as if they're the same. fix it however you think is sensible, I'm in "
           "meetings till 3, I'll look after")
    s.read("src/balances.ts")
    s.read("src/money.ts", 1, 12)
    s.say("The cause: `computeBalances` sums `e.amount.value` across all expenses regardless of currency, "
          "and `suggestSettlements` labels the result with `expenses[0]`'s currency.\n\nI'll normalise "
          "everything to EUR before netting: a small `rates.ts` with a rate per currency, `computeBalances` "
          "converts each amount and share, and suggestions come out in EUR. That keeps the greedy matching as "
          "it is and gives one transfer per pair of people.",
          thinking="Mixed currencies. Simplest fix keeping one net balance per person: convert to a base "
                   "currency. Static table for now.")
    s.write("src/rates.ts",
            "import { Currency } from \"./money.js\";\n\n"
            "// Mid-market rates to EUR, updated by hand. Close enough for settle-up suggestions.\n"
            "export const TO_EUR: Record<Currency, number> = { EUR: 1, USD: 0.92, GBP: 1.17, CHF: 1.04, JPY: 0.0061 };\n\n"
            "export function toEur(value: number, currency: Currency): number {\n"
            "  return value * TO_EUR[currency];\n"
            "}\n")
    s.edit("src/balances.ts", "import { splitEvenly } from \"./money.js\";\n",
           "import { splitEvenly } from \"./money.js\";\nimport { toEur } from \"./rates.js\";\n")
    s.edit("src/balances.ts",
           "    net.set(e.paidBy, (net.get(e.paidBy) ?? 0) + e.amount.value);\n"
           "    for (const [member, share] of splitEvenly(e.amount, e.splitBetween)) {\n"
           "      net.set(member, (net.get(member) ?? 0) - share.value);\n",
           "    net.set(e.paidBy, (net.get(e.paidBy) ?? 0) + toEur(e.amount.value, e.amount.currency));\n"
           "    for (const [member, share] of splitEvenly(e.amount, e.splitBetween)) {\n"
           "      net.set(member, (net.get(member) ?? 0) - toEur(share.value, share.currency));\n")
    s.edit("src/balances.ts", "  const currency = expenses[0]?.amount.currency ?? \"EUR\";\n",
           "  const currency = \"EUR\"; // computeBalances converts everything to EUR\n")
    s.bash("npx tsc --noEmit && npx vitest run", vitest(3), description="Typecheck and test")
    s.say("Fixed: balances are netted in EUR via `rates.ts`, so the ski group now gets proper EUR amounts. "
          "The rates are a hand-maintained table — fine for suggestions, but worth a cron job against an "
          "API at some point.")
    s.user("ok I'm back. hmm, I see you went with conversion. I get why, it's the tidy answer, but actually, "
           "scratch that — we don't have a rate source we'd trust, a table you typed in today is wrong next "
           "week, and people get really touchy when an app decides the exchange rate for them (Tom would "
           "absolutely argue about 1.04). keep the balances per currency and suggest settlements per currency, "
           "separately. if Lena owes in CHF and in EUR she gets two transfers, that's fine, that's what "
           "actually happened on the trip. and get rid of rates.ts")
    s.say("Understood — no conversion anywhere. I'll rewrite `balances.ts` so each currency is netted and "
          "settled on its own, and the balances response is keyed by currency.")
    s.write("src/balances.ts", BALANCES_PER_CURRENCY)
    s.bash("git rm -q src/rates.ts && npx tsc --noEmit && npx vitest run", vitest(3),
           description="Remove rates.ts, typecheck, test")
    s.say("Done:\n\n- `rates.ts` is gone\n- `suggestSettlements` groups expenses by currency and runs the "
          "matching per group; each transfer carries its own currency\n- `GET /balances` now returns "
          "`{ balances: { CHF: {...}, EUR: {...} }, settleUp: [...] }` — **this changes the response shape**, "
          "the frontend reads `balances[memberId]` today, so it'll need a small update")
    s.user("yep I'll tell Jae about the shape change. thanks")
    return [s]


@scenario("csv-formula-injection", "tallyho",
          "the agent explains a deliberate workaround (a leading single quote against spreadsheet formulas, only "
          "on free-text columns) in prose and in a code comment; a test failure on the agent's own test on the "
          "way, not worth a note",
          [exp("workaround", "src/export.ts:safeText", "single quote")])
def _csv(files):
    s = Session("csv-formula-injection", "2026-11-13T16:05:00.000Z", files)
    s.user("the security review came back and the one real finding is CSV injection in the export: an "
           "expense named =HYPERLINK(\"http://evil\",\"click\") turns into a live formula when someone opens the "
           "csv in excel. can you fix it? I skimmed a stackoverflow answer that said to just strip leading = "
           "signs but that seems like it would mangle legit descriptions, not sure")
    s.read("src/export.ts")
    s.say("Stripping isn't enough and it does mangle data: Excel also treats cells starting with `+`, `-`, "
          "`@`, tab and CR as formulas, and `-` is a perfectly normal way to start a description (\"- deposit "
          "back\").\n\nThe usual fix (it's OWASP's recommendation too) is to **prefix a single quote** to any "
          "cell starting with one of those characters. Excel, Sheets and LibreOffice all show the cell as text "
          "and hide the quote.\n\nOne wrinkle: our own amount column starts with `-` for refunds (`-12.00 "
          "EUR`). If I put the quote on every cell those would turn into text and people's SUM() columns break. "
          "So I'll apply it only to the free-text columns — description and member names — which are the ones "
          "a user can type into.")
    s.edit("src/export.ts",
           "export function exportCsv(req: Request, res: Response) {\n",
           "// Workaround for spreadsheet formula injection: Excel, Sheets and LibreOffice evaluate a cell that\n"
           "// starts with = + - @ (or a tab / CR) as a formula, even inside quotes. A leading single quote makes\n"
           "// them show it as text. Only for text people type (descriptions, names): our own date and amount\n"
           "// cells keep their form (\"-12.00 EUR\" for a refund) so they still sort and sum.\n"
           "export function safeText(value: string): string {\n"
           "  return /^[=+\\-@\\t\\r]/.test(value) ? `'${value}` : value;\n"
           "}\n\n"
           "export function exportCsv(req: Request, res: Response) {\n")
    s.edit("src/export.ts",
           "    e.description,\n    names.get(e.paidBy) ?? e.paidBy,\n    formatAmount(e.amount),\n"
           "    e.splitBetween.map((id) => names.get(id) ?? id).join(\"; \"),\n",
           "    safeText(e.description),\n    safeText(names.get(e.paidBy) ?? e.paidBy),\n    formatAmount(e.amount),\n"
           "    safeText(e.splitBetween.map((id) => names.get(id) ?? id).join(\"; \")),\n")
    s.write("test/export.test.ts",
            "import { describe, expect, it } from \"vitest\";\n"
            "import { csvCell, safeText } from \"../src/export.js\";\n\n"
            "describe(\"csv export\", () => {\n"
            "  it(\"neutralises formulas in text cells\", () => {\n"
            "    expect(csvCell(safeText('=HYPERLINK(\"http://evil\",\"click\")'))).toBe(\"'=HYPERLINK(\\\"http://evil\\\",\\\"click\\\")\");\n"
            "    expect(safeText(\"- deposit back\")).toBe(\"'- deposit back\");\n"
            "    expect(safeText(\"dinner\")).toBe(\"dinner\");\n"
            "  });\n"
            "});\n")
    s.bash("npx vitest run test/export.test.ts", vitest(0, failed=(
        " ❯ test/export.test.ts (1 test | 1 failed) 8ms\n   × csv export > neutralises formulas in text cells\n\n"
        "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n FAIL  test/export.test.ts > csv export > neutralises formulas in text cells\n"
        "AssertionError: expected '\"\\'=HYPERLINK(\"\"http://evil\"\",\"\"click\"\")\"' to be "
        "'\\'=HYPERLINK(\"http://evil\",\"click\")' // Object.is equality\n\n"
        "- Expected\n+ Received\n\n- '=HYPERLINK(\"http://evil\",\"click\")\n+ \"'=HYPERLINK(\"\"http://evil\"\",\"\"click\"\")\"\n\n"
        " ❯ test/export.test.ts:6:72\n\n Test Files  1 failed (1)\n      Tests  1 failed (1)\n")),
        fail=True, description="Run the export test")
    s.say("My test was wrong, not the code: the payload contains `\"` and `,`, so `csvCell` quotes it and "
          "doubles the inner quotes, as CSV requires. Fixing the expectation.")
    s.edit("test/export.test.ts",
           ".toBe(\"'=HYPERLINK(\\\"http://evil\\\",\\\"click\\\")\");\n",
           ".toBe('\"\\'=HYPERLINK(\"\"http://evil\"\",\"\"click\"\")\"');\n")
    s.bash("npx vitest run", vitest(4, files=2), description="Run all tests")
    s.say("All green. Summary:\n\n- `safeText()` prefixes `'` to text starting with `= + - @ \\t \\r`\n"
          "- used for description, payer and split-between names only\n- dates and amounts untouched\n"
          "- the reasoning is in a comment above `safeText` so nobody \"simplifies\" it onto every column later")
    s.user("makes sense, ship it")
    return [s]


@scenario("invite-tokens", "tallyho",
          "a person's rule with its reason (single-use tokens), a TTL change said in passing, and a scope boundary "
          "given in answer to the agent's offer to add email sending",
          [exp("invariant", "src/invites.ts:redeemInvite", "single use"),
           exp("boundary", "src/invites.ts:inviteHandler", "email")])
def _invites(files):
    s = Session("invite-tokens", "2026-11-14T08:30:00.000Z", files)
    s.user("let's talk invites. right now a token lives 30 days and can be redeemed by anyone any number of "
           "times, which, yikes — one link pasted in a big group chat and the whole group chat is in your "
           "dinner split, and we found a group with 41 \"guest\" members last week. so: an invite token is "
           "single use. the moment someone joins with it, it's dead, and a second click gets the same answer "
           "as a made-up token. the point of the link is one person, one seat. also 30 days is silly, make it "
           "48 hours")
    s.read("src/invites.ts")
    s.say("Makes sense. Changes:\n\n1. TTL 30 days → 48 hours\n2. `redeemInvite` deletes the token as it adds "
          "the member, so a second redeem is a 404 like an unknown token\n3. an expired token is deleted when "
          "someone tries it, so the map doesn't keep them forever")
    s.edit("src/invites.ts", "const INVITE_TTL_DAYS = 30;\n", "const INVITE_TTL_MS = 48 * 3_600_000;\n")
    s.edit("src/invites.ts",
           "  const expiresAt = new Date(Date.now() + INVITE_TTL_DAYS * 86_400_000).toISOString();\n",
           "  const expiresAt = new Date(Date.now() + INVITE_TTL_MS).toISOString();\n")
    s.edit("src/invites.ts",
           "  if (new Date(invite.expiresAt) < new Date()) {\n"
           "    return res.status(410).json({ error: \"invite expired\" });\n  }\n",
           "  if (new Date(invite.expiresAt) < new Date()) {\n"
           "    store.invites.delete(invite.token);\n"
           "    return res.status(410).json({ error: \"invite expired\" });\n  }\n"
           "  // single use: one link, one seat — gone before the member is added\n"
           "  store.invites.delete(invite.token);\n")
    s.bash("npx tsc --noEmit", "", description="Typecheck")
    s.say("Done and typechecks. A natural next step would be sending the invite by email from "
          "`inviteHandler` (nodemailer + SES, with the group name in the subject) instead of returning the bare "
          "URL — want me to sketch that?")
    s.user("no, leave email sending out for now. we're not setting up SES and bounce handling for a beta with "
           "200 users; people copy the link into whatsapp and that's fine. returning the url is the feature. "
           "maybe when we have real signups")
    s.say("Got it, the handler keeps returning the URL. I won't touch it.")
    s.user("one q — if two people click the same link at the exact same moment, can both get in?")
    s.say("Not with this server: Express runs handlers on one thread and `redeemInvite` has no `await` between "
          "the lookup and the delete, so the first request finishes before the second starts. It'd become a "
          "real race once the Postgres store lands and the lookup is async — then the delete needs to be a "
          "single `DELETE … RETURNING` that only one request can win.")
    s.user("ok good to know, fine for now")
    return [s]


@scenario("export-header-unicode", "tallyho",
          "failure → fix: a pasted Node stack trace, the agent reproduces it, finds the cause (non-ASCII in a "
          "header) and fixes it with an encoded filename",
          [exp("gotcha", "src/export.ts:contentDisposition", "non-ascii")])
def _header(files):
    s = Session("export-header-unicode", "2026-11-18T11:17:00.000Z", files)
    s.user("csv export 500s for one group only, the \"Café Zürich 🎿\" one. works for every other group I tried. "
           "from the prod log:\n\n```\nTypeError [ERR_INVALID_CHAR]: Invalid character in header content "
           "[\"Content-Disposition\"]\n    at ServerResponse.setHeader (node:_http_outgoing:662:3)\n"
           "    at exportCsv (/app/dist/export.js:24:9)\n    at Layer.handle [as handle_request] "
           "(/app/node_modules/express/lib/router/layer.js:95:5)\n    at next "
           "(/app/node_modules/express/lib/router/route.js:149:13)\n    at Route.dispatch "
           "(/app/node_modules/express/lib/router/route.js:119:3)\n  code: 'ERR_INVALID_CHAR'\n}\n```")
    s.read("src/export.ts")
    s.bash("node -e 'require(\"http\").createServer((q,r)=>{r.setHeader(\"Content-Disposition\",\"attachment; "
           "filename=\\\"Café Zürich 🎿.csv\\\"\");r.end()}).listen(0,function(){require(\"http\").get(\"http://localhost:\"+"
           "this.address().port,()=>process.exit())})'",
           "node:_http_outgoing:662\n    throw new ERR_INVALID_CHAR('header content', name);\n    ^\n\n"
           "TypeError [ERR_INVALID_CHAR]: Invalid character in header content [\"Content-Disposition\"]\n"
           "    at ServerResponse.setHeader (node:_http_outgoing:662:3)\n  code: 'ERR_INVALID_CHAR'\n}\n\n"
           "Node.js v20.12.2", fail=True, description="Reproduce with a bare http server")
    s.say("Reproduced. The group name goes straight into `Content-Disposition`, and Node refuses non-ASCII "
          "characters in header values — the emoji here (é and ü alone would slip through as latin-1 but "
          "come out garbled). Every other group just happens to have an ASCII name.\n\nFix: the standard "
          "RFC 6266 form — an ASCII fallback in `filename=` plus the real name percent-encoded in "
          "`filename*=UTF-8''…`, which all current browsers prefer.")
    s.edit("src/export.ts",
           "export function exportCsv(req: Request, res: Response) {\n",
           "// Node refuses non-ASCII characters in header values (ERR_INVALID_CHAR) and group names are\n"
           "// whatever people type: an ASCII fallback in filename=, the real name encoded in filename*=.\n"
           "export function contentDisposition(name: string): string {\n"
           "  const ascii = name.normalize(\"NFKD\").replace(/[^\\x20-\\x7e]/g, \"\").replace(/[\"\\\\]/g, \"\").trim() || \"export\";\n"
           "  return `attachment; filename=\"${ascii}.csv\"; filename*=UTF-8''${encodeURIComponent(name + \".csv\")}`;\n"
           "}\n\n"
           "export function exportCsv(req: Request, res: Response) {\n")
    s.edit("src/export.ts",
           "  res.setHeader(\"Content-Disposition\", `attachment; filename=\"${group.name}.csv\"`);\n",
           "  res.setHeader(\"Content-Disposition\", contentDisposition(group.name));\n")
    s.write("test/export.test.ts",
            "import { describe, expect, it } from \"vitest\";\n"
            "import { contentDisposition } from \"../src/export.js\";\n\n"
            "describe(\"csv export\", () => {\n"
            "  it(\"keeps header values ASCII\", () => {\n"
            "    const h = contentDisposition(\"Café Zürich 🎿\");\n"
            "    expect(h).toMatch(/^[\\x20-\\x7e]*$/);\n"
            "    expect(h).toContain('filename=\"Cafe Zurich.csv\"');\n"
            "    expect(h).toContain(\"filename*=UTF-8''Caf%C3%A9%20Z%C3%BCrich%20%F0%9F%8E%BF.csv\");\n"
            "  });\n"
            "});\n")
    s.bash("npx vitest run", vitest(4, files=2), description="Run tests")
    s.say("Fixed: the export for that group now downloads as `Café Zürich 🎿.csv` in Chrome and Firefox, "
          "with `Cafe Zurich.csv` as the fallback for anything old. Test added.")
    s.user("nice, thx. deploying")
    return [s]


@scenario("explain-balances", "tallyho",
          "no decision: a new teammate's questions and long explanations full of 'must' and 'should', a "
          "hypothetical about percentage splits, nothing changed",
          [])
def _explain(files):
    s = Session("explain-balances", "2026-11-19T15:40:00.000Z", files)
    s.user("hi! I'm new on tallyho (started monday), trying to get my head around how the balances page gets "
           "its numbers before I touch anything. can you walk me through it? no changes please, just explain")
    s.read("src/balances.ts")
    s.read("src/store.ts")
    s.say("Sure. The flow for `GET /groups/:groupId/balances`:\n\n"
          "1. **`getBalances`** loads every expense of the group from the store.\n"
          "2. **`computeBalances`** builds a *net* number per member:\n"
          "   - the payer gets `+amount` (the group owes them that)\n"
          "   - each person in `splitBetween` gets `-share` (their part of the bill)\n"
          "   So a positive net means \"others owe you\", negative \"you owe\". Across the whole group the nets "
          "must add up to zero — if they don't, something upstream is off (that's usually the first thing to "
          "check when a bug report comes in).\n"
          "3. **`suggestSettlements`** turns the nets into transfers: it walks the debtors and pays off "
          "creditors greedily, `min(debt, credit)` at a time.\n\n"
          "A couple of things that aren't obvious:\n\n"
          "- The greedy walk is not guaranteed to find the *fewest* transfers (that's NP-hard in general); it "
          "gives at most n−1 transfers, which is good enough for groups of 4–10 people.\n"
          "- Balances are recomputed from scratch on every request; nothing is cached, so deleting an expense "
          "is immediately reflected.")
    s.user("ok that makes sense. follow-up: if we ever did percentage splits (like 60/40 for a couple who earn "
           "differently), where would that go? not planning it, just curious how the code would take it")
    s.say("It'd mostly land in two places:\n\n- `Expense` would need a weight per person instead of the bare "
          "`splitBetween: string[]` — e.g. `split: { member: string; weight: number }[]`.\n- `splitEvenly` "
          "would become a weighted split, and it should still hand out whole cents so the shares add up to the "
          "total exactly.\n\n`computeBalances` and `suggestSettlements` wouldn't have to change at all, since "
          "they only see shares. The CSV export would want a column for the weights.")
    s.user("cool. last one: why is the store a class with Maps instead of just a db? is that on purpose")
    s.say("It's a stopgap: the comment in `store.ts` says the Postgres adapter lives on another branch. The "
          "handlers only use `store.group()`, `store.expensesOf()` and the maps, so swapping it later is "
          "contained.")
    s.user("gotcha, thanks, super helpful")
    return [s]


@scenario("review-expenses", "tallyho",
          "no decision: a code review with suggestions nobody takes up, a colleague's rule reported second-hand "
          "and explicitly not adopted, a process instruction, and a typo fix",
          [])
def _review(files):
    s = Session("review-expenses", "2026-11-20T13:12:00.000Z", files)
    s.user("can you review src/expenses.ts like you would a PR? be honest. I wrote it at 1am")
    s.read("src/expenses.ts")
    s.say("Review of `src/expenses.ts`:\n\n**Bugs**\n- Error message typo: `\"paidBy is not a member of this "
          "grup\"`.\n- `addExpense` doesn't check `amount > 0`; a negative amount silently becomes a refund.\n\n"
          "**Robustness**\n- `parseAmount` throws on garbage and the error reaches the generic 500 handler; "
          "clients should get a 400 with the message.\n- `splitBetween` isn't de-duplicated — `[\"a\", \"a\"]` "
          "would charge `a` twice.\n\n**Style / maybe later**\n- The body is destructured without any schema; "
          "something like zod would make the validation declarative and give typed bodies.\n- `listExpenses` "
          "sorts on the ISO string, which works only because every `createdAt` is UTC with the same format.\n\n"
          "Overall it's readable and small; the dedupe and the negative amount are the two I'd fix first.")
    s.user("thanks. heads up, Marco's rule is that handlers should never throw and always return a Result "
           "type — he brings it up in every review. it's not our thing right now though, not touching that. "
           "the rest I'll think about over the weekend, some of it is deliberate (refunds are a feature kind of). "
           "for now just fix the typo, and run the tests first so we know we're starting green")
    s.bash("npx vitest run", vitest(3), description="Run tests before changing anything")
    s.edit("src/expenses.ts", "\"paidBy is not a member of this grup\"", "\"paidBy is not a member of this group\"")
    s.bash("npx vitest run", vitest(3), description="Run tests again")
    s.say("Typo fixed, tests green before and after.")
    s.user("ty")
    return [s]


# == harvest (Python) ===============================================================================


@scenario("retry-backoff", "harvest",
          "options as a bold markdown list, the person answers with one letter; a follow-up adds 429 to it",
          [exp("decision", "harvest/fetcher.py:Fetcher.get", "exponential backoff", ["fixed delay", "no retries"])])
def _retry(files):
    s = Session("retry-backoff", "2026-11-24T07:55:00.000Z", files)
    s.user("last night's run died on kleinanzeigen, they had some 503 storm for ~40 seconds and the fetcher "
           "gave up after 3 tries a second apart. what are our options")
    s.read("harvest/fetcher.py")
    s.say("`Fetcher.get` retries 5xx and transport errors 3 times with a flat 1s sleep, so a 40-second outage "
          "is over the budget after ~3 seconds. Options:\n\n"
          "**A. Fixed delay, more attempts** — e.g. 10 attempts × 5s. Trivial change, but every client that "
          "got the 503 comes back in lockstep, and we wait the full 5s even for a one-off blip.\n\n"
          "**B. Exponential backoff with full jitter** — sleep a random time in `[0, 2^attempt]` seconds, "
          "capped at 60s, and honour `Retry-After` when the server sends one. Covers a minute-long outage in "
          "~6 attempts and spreads our retries out.\n\n"
          "**C. No retries in the fetcher** — fail the page and let the next scheduled run pick it up. "
          "Simplest, but a nightly job then loses a whole day of that source for a 40s hiccup.\n\n"
          "I'd go with B.")
    s.user("B.")
    s.edit("harvest/fetcher.py", "import logging\nimport time\n", "import logging\nimport random\nimport time\n")
    s.edit("harvest/fetcher.py",
           "    def get(self, url: str) -> str:\n"
           "        if not self.robots.allowed(url):\n"
           "            raise Blocked(url)\n"
           "        for attempt in range(3):\n"
           "            self.requests_made += 1\n"
           "            try:\n"
           "                resp = self.client.get(url)\n"
           "            except httpx.TransportError as exc:\n"
           "                log.warning(\"fetch %s failed (%s), attempt %d\", url, exc, attempt + 1)\n"
           "                time.sleep(1)\n"
           "                continue\n"
           "            if resp.status_code >= 500:\n"
           "                time.sleep(1)\n"
           "                continue\n"
           "            resp.raise_for_status()\n"
           "            return resp.text\n"
           "        raise RuntimeError(f\"giving up on {url}\")\n",
           "    MAX_ATTEMPTS = 6\n"
           "    MAX_DELAY = 60.0\n\n"
           "    def _delay(self, attempt: int, resp: httpx.Response | None) -> float:\n"
           "        \"\"\"Exponential backoff with full jitter; the server's Retry-After wins when it sends one.\"\"\"\n"
           "        after = resp.headers.get(\"Retry-After\", \"\") if resp is not None else \"\"\n"
           "        if after.isdigit():\n"
           "            return min(float(after), self.MAX_DELAY)\n"
           "        return random.uniform(0, min(self.MAX_DELAY, 2.0 ** attempt))\n\n"
           "    def get(self, url: str) -> str:\n"
           "        if not self.robots.allowed(url):\n"
           "            raise Blocked(url)\n"
           "        for attempt in range(self.MAX_ATTEMPTS):\n"
           "            self.requests_made += 1\n"
           "            resp = None\n"
           "            try:\n"
           "                resp = self.client.get(url)\n"
           "            except httpx.TransportError as exc:\n"
           "                log.warning(\"fetch %s failed (%s), attempt %d\", url, exc, attempt + 1)\n"
           "            else:\n"
           "                if resp.status_code < 500:\n"
           "                    resp.raise_for_status()\n"
           "                    return resp.text\n"
           "            time.sleep(self._delay(attempt, resp))\n"
           "        raise RuntimeError(f\"giving up on {url} after {self.MAX_ATTEMPTS} attempts\")\n")
    s.bash("python -m pytest -q", "...\n3 passed in 0.19s", description="Run tests")
    s.say("Done — up to 6 attempts, sleeps drawn from [0, 1], [0, 2], [0, 4] … seconds capped at 60, "
          "`Retry-After` (in seconds) respected when present. Worst case before giving up is a bit over a "
          "minute per page.")
    s.user("oh and 429s — kleinanzeigen sends those with a Retry-After when we're too fast. right now a 429 "
           "hits raise_for_status and kills the source")
    s.edit("harvest/fetcher.py",
           "                if resp.status_code < 500:\n",
           "                if resp.status_code < 500 and resp.status_code != 429:\n")
    s.bash("python -m pytest -q", "...\n3 passed in 0.18s", description="Run tests")
    s.say("429 now goes through the same backoff path, so its `Retry-After` is honoured.")
    s.user("👍")
    return [s]


@scenario("robots-fail-closed", "harvest",
          "the agent's fix for a crash makes an unreachable robots.txt allow everything; the person corrects it "
          "('no — it must fail closed') with the reason and the 404 exception; restated a week later in a "
          "session that changes other code (the cache expiry)",
          [exp("invariant", "harvest/robots.py:RobotsCache._load", "fail closed", ["allow everything"])])
def _robots(files):
    s = Session("robots-fail-closed", "2026-11-25T09:12:00.000Z", files)
    s.user("the whole run crashed at 03:10 because one host's robots.txt timed out:\n\n```\nTraceback (most "
           "recent call last):\n  File \"/srv/harvest/harvest/pipeline.py\", line 24, in run_source\n    html = "
           "fetcher.get(url)\n  File \"/srv/harvest/harvest/fetcher.py\", line 24, in get\n    if not "
           "self.robots.allowed(url):\n  File \"/srv/harvest/harvest/robots.py\", line 31, in allowed\n    hit = "
           "(time.monotonic(), self._load(host_url))\n  File \"/srv/harvest/harvest/robots.py\", line 21, in "
           "_load\n    resp = self.client.get(f\"{host_url}/robots.txt\")\n  ...\nhttpx.ReadTimeout: The read "
           "operation timed out\n```\n\none flaky host shouldn't take down the other eight sources. fix pls")
    s.read("harvest/robots.py")
    s.say("`_load` lets any httpx error escape, and nothing above it catches it. I'll catch it there and "
          "treat an unreachable robots.txt as allow everything, so one flaky host doesn't kill the run.")
    s.edit("harvest/robots.py",
           "        rp = RobotFileParser()\n        resp = self.client.get(f\"{host_url}/robots.txt\")\n",
           "        rp = RobotFileParser()\n        try:\n            resp = self.client.get(f\"{host_url}/robots.txt\")\n"
           "        except httpx.HTTPError:\n            # unreachable robots.txt: allow everything rather than kill the run\n"
           "            rp.allow_all = True\n            return rp\n")
    s.user("no — it must fail closed. if we can't read robots.txt, whether it's a timeout or a 5xx, we treat "
           "the host as disallow-all until the cache entry expires and try again next hour. the only case "
           "where 'no robots.txt' means go ahead is an actual 404, because that's what the spec says. we're "
           "guests on these sites; scraping someone because their robots endpoint happened to be flaky is "
           "exactly how we got that angry email from funda's lawyers last spring. not crashing: yes. "
           "ignoring robots: never")
    s.say("Right, I had it backwards. New behaviour of `_load`:\n\n| robots.txt fetch | result |\n|---|---|\n"
          "| 200 | parse it |\n| 404 / 410 | allow everything (no robots.txt) |\n| timeout, connection error | "
          "disallow the whole host |\n| 5xx, 401, 403, anything else | disallow the whole host |\n\nThe "
          "disallow is cached like any other entry, so the host is retried after `TTL` (an hour). `pipeline` "
          "already logs `Blocked` and moves on to the next source, so the run continues either way.")
    s.edit("harvest/robots.py",
           "    def _load(self, host_url: str) -> RobotFileParser:\n        rp = RobotFileParser()\n"
           "        try:\n            resp = self.client.get(f\"{host_url}/robots.txt\")\n"
           "        except httpx.HTTPError:\n            # unreachable robots.txt: allow everything rather than kill the run\n"
           "            rp.allow_all = True\n            return rp\n        rp.parse(resp.text.splitlines())\n"
           "        return rp\n",
           "    def _load(self, host_url: str) -> RobotFileParser:\n"
           "        \"\"\"The host's robots.txt. Fails closed: when it can't be read (timeout, 5xx, 401/403) the\n"
           "        whole host is disallowed until the entry expires; only a 404/410 allows everything.\"\"\"\n"
           "        rp = RobotFileParser()\n"
           "        try:\n            resp = self.client.get(f\"{host_url}/robots.txt\")\n"
           "        except httpx.HTTPError:\n            rp.disallow_all = True\n            return rp\n"
           "        if resp.status_code in (404, 410):\n            rp.allow_all = True\n"
           "        elif resp.status_code != 200:\n            rp.disallow_all = True\n"
           "        else:\n            rp.parse(resp.text.splitlines())\n"
           "        return rp\n")
    s.write("tests/test_robots.py",
            "import httpx\n\nfrom harvest.robots import RobotsCache\n\n\n"
            "def cache(handler):\n"
            "    return RobotsCache(httpx.Client(transport=httpx.MockTransport(handler)), \"harvest-bot\")\n\n\n"
            "def test_timeout_disallows():\n"
            "    def boom(request):\n        raise httpx.ReadTimeout(\"slow\", request=request)\n"
            "    assert not cache(boom).allowed(\"https://example.nl/item/1\")\n\n\n"
            "def test_server_error_disallows():\n"
            "    assert not cache(lambda r: httpx.Response(503)).allowed(\"https://example.nl/item/1\")\n\n\n"
            "def test_missing_robots_allows():\n"
            "    assert cache(lambda r: httpx.Response(404)).allowed(\"https://example.nl/item/1\")\n\n\n"
            "def test_rules_apply():\n"
            "    body = \"User-agent: *\\nDisallow: /private/\\n\"\n"
            "    c = cache(lambda r: httpx.Response(200, text=body))\n"
            "    assert c.allowed(\"https://example.nl/item/1\")\n"
            "    assert not c.allowed(\"https://example.nl/private/x\")\n")
    s.bash("python -m pytest -q", ".......\n7 passed in 0.29s", description="Run tests")
    s.say("All 7 pass. The run survives a flaky host now, and that host is simply skipped for the hour.")
    s.user("good. ship it")

    b = Session("robots-fail-closed-2", "2026-12-02T08:05:00.000Z", files)
    b.user("follow-up on the robots thing from last week. funda's robots.txt 503'd for about five minutes at "
           "03:02 and because the failure is cached for the full hour we skipped funda for the whole night's "
           "run. can failed lookups be retried sooner, like after 10 minutes? and to be clear, this doesn't "
           "change the rule: it still fails closed. while robots.txt can't be read the host is off limits, a "
           "failure never turns into 'allowed', we just ask again sooner")
    b.read("harvest/robots.py")
    b.say("Sure. The cache entry already tells us whether the lookup failed — `_load` sets `disallow_all` "
          "exactly in the can't-read cases — so `allowed` can expire those entries after 10 minutes instead "
          "of an hour. Nothing else about `_load` changes.")
    b.edit("harvest/robots.py", "    TTL = 3600\n",
           "    TTL = 3600\n    FAILED_TTL = 600  # an unreadable robots.txt is asked again sooner; disallowed meanwhile\n")
    b.edit("harvest/robots.py",
           "        if hit is None or time.monotonic() - hit[0] > self.TTL:\n",
           "        if hit is None or time.monotonic() - hit[0] > (self.FAILED_TTL if hit[1].disallow_all else self.TTL):\n")
    b.edit("tests/test_robots.py",
           "def test_missing_robots_allows():\n",
           "def test_failure_is_retried_sooner(monkeypatch):\n"
           "    calls = []\n\n"
           "    def flaky(request):\n"
           "        calls.append(1)\n"
           "        return httpx.Response(503 if len(calls) == 1 else 404)\n"
           "    c = cache(flaky)\n"
           "    now = [1000.0]\n"
           "    monkeypatch.setattr(\"harvest.robots.time.monotonic\", lambda: now[0])\n"
           "    assert not c.allowed(\"https://example.nl/item/1\")\n"
           "    now[0] += 601\n"
           "    assert c.allowed(\"https://example.nl/item/1\")\n\n\n"
           "def test_missing_robots_allows():\n")
    b.bash("python -m pytest -q", "........\n8 passed in 0.30s", description="Run tests")
    b.say("Failed lookups now expire after 10 minutes (`FAILED_TTL`), successful ones after an hour. The host "
          "stays disallowed until the retry succeeds.")
    b.user("👌")
    return [s, b]


@scenario("dedup-key", "harvest",
          "a decision over several turns: the person thinks out loud, cites a blog post (not a decision), the "
          "agent lays the options out in prose, a digression about WAL mode that ends in 'not now', then the key; "
          "a one-off 'nuke the db' that is no note",
          [exp("decision", "harvest/store.py:RecordStore.upsert", "external_id", ["content hash"])])
def _dedup(files):
    s = Session("dedup-key", "2026-11-26T13:30:00.000Z", files)
    s.user("so the dedup is broken in a way that's annoying everyone in #listings. marktplaats started "
           "appending tracking junk to listing urls (?c=3f9a&previousPage=lr, different on every results page), "
           "and since the store dedupes on url, the same listing comes back as \"new\" every night and slack "
           "gets 300 \"new\" items of which like 12 are actually new.\n\nI read a blog post a while ago, the zyte "
           "one I think, saying you should dedupe scraped records on a hash of the content instead of the url, "
           "because urls lie. not sure I buy it for us though — if the price drops, the content hash changes and "
           "it'd show up as new, and price drops are exactly what people want to see as 'changed'. thoughts?")
    s.read("harvest/store.py")
    s.read("harvest/parser.py", 10, 20)
    s.say("You're right that a content hash is the wrong identity for us: it answers \"is this the same "
          "text?\", not \"is this the same listing?\". Every price drop or retitle would be a new row, and we'd "
          "lose the history that makes 'changed' work.\n\nThe realistic candidates are:\n\n"
          "1. Keep the url but normalise it — drop the query string and fragment before comparing. Cheap, but "
          "per-site: some sites carry the listing id *in* the query (`?id=123`), so a blanket strip would merge "
          "different listings.\n"
          "2. Key on `(source, external_id)` — the parser already reads `data-id` off every card, and that id "
          "is the site's own primary key, so it survives whatever they do to urls. A hash of title+price+location "
          "can still be kept, but only to decide *changed vs same*, not identity.\n\n"
          "I'd lean to 2, with 1 as a fallback for a site that has no ids.")
    s.user("hmm ok, I like 2. side question while I have you: someone on the team said sqlite's defaults are "
           "bad for this kind of thing and we should turn on WAL. is that a thing?")
    s.say("It's a thing, but for a different problem. WAL (`PRAGMA journal_mode=WAL`) lets readers keep reading "
          "while one writer writes, instead of the whole file being locked during a write. It matters when "
          "something reads the db while the nightly job writes — e.g. if the dashboard queried "
          "`harvest.sqlite3` directly. Today the job is the only process touching the file, so it wouldn't "
          "change anything you'd notice. It also leaves `-wal`/`-shm` files next to the db, which trips up "
          "people who copy just the `.sqlite3` file around.")
    s.user("ok, not now then. back to dedup — yeah: (source, external_id) is the identity, and the url "
           "without its query string is only the fallback for a site that has no id at all, which right now is "
           "none of them. go")
    s.edit("harvest/store.py",
           "    last_seen TEXT NOT NULL\n);\n\"\"\"\n",
           "    last_seen TEXT NOT NULL\n);\n"
           "CREATE UNIQUE INDEX IF NOT EXISTS listings_identity ON listings (source, external_id);\n\"\"\"\n\n\n"
           "def url_key(url: str) -> str:\n"
           "    \"\"\"The fallback identity of a listing from a site without ids: its url without query or fragment.\"\"\"\n"
           "    return \"url:\" + url.split(\"#\", 1)[0].split(\"?\", 1)[0]\n")
    s.edit("harvest/store.py",
           "        \"\"\"Store one listing; returns \"new\", \"changed\" or \"same\".\"\"\"\n"
           "        now = datetime.now(timezone.utc).isoformat()\n"
           "        row = self.db.execute(\"SELECT id, title, price FROM listings WHERE url = ?\", (item.url,)).fetchone()\n",
           "        \"\"\"Store one listing; returns \"new\", \"changed\" or \"same\".\n\n"
           "        A listing is identified by (source, external_id), the site's own id: urls carry tracking\n"
           "        parameters that change between pages. Title and price only decide changed vs same.\"\"\"\n"
           "        now = datetime.now(timezone.utc).isoformat()\n"
           "        key = item.external_id or url_key(item.url)\n"
           "        row = self.db.execute(\n"
           "            \"SELECT id, title, price FROM listings WHERE source = ? AND external_id = ?\", (item.source, key)\n"
           "        ).fetchone()\n")
    s.edit("harvest/store.py",
           "                (item.source, item.external_id, item.url, item.title, item.price, item.location, now, now),\n",
           "                (item.source, key, item.url, item.title, item.price, item.location, now, now),\n")
    s.edit("harvest/store.py",
           "            \"UPDATE listings SET title = ?, price = ?, location = ?, last_seen = ? WHERE id = ?\",\n"
           "            (item.title, item.price, item.location, now, row[0]),\n",
           "            \"UPDATE listings SET url = ?, title = ?, price = ?, location = ?, last_seen = ? WHERE id = ?\",\n"
           "            (item.url, item.title, item.price, item.location, now, row[0]),\n")
    s.bash("python -m pytest -q && harvest --config harvest.toml --once 2>&1 | tail -3",
           "...\n3 passed in 0.20s\nTraceback (most recent call last):\n  File \"/home/dev/harvest/harvest/store.py\", "
           "line 31, in __init__\n    self.db.executescript(SCHEMA)\nsqlite3.IntegrityError: UNIQUE constraint "
           "failed: listings.source, listings.external_id", fail=True, description="Tests, then a local run")
    s.say("Tests pass, but the local run shows the catch: your existing `harvest.sqlite3` already holds the "
          "duplicates (same listing, several urls), so the unique index can't be created on it. Either a "
          "one-off cleanup query that keeps the oldest row per `(source, external_id)`, or start from an empty "
          "db.")
    s.user("just nuke the db, it's rebuilt every night anyway and nobody reads the history yet")
    s.bash("rm harvest.sqlite3 && harvest --config harvest.toml --once 2>&1 | tail -3",
           "2026-11-26 13:52:10,114 INFO harvest: marktplaats: 12 pages, 284 new, 0 changed\n"
           "2026-11-26 13:52:31,870 INFO harvest: kleinanzeigen: 9 pages, 201 new, 0 changed\n"
           "2026-11-26 13:52:40,022 INFO harvest: funda: 4 pages, 77 new, 0 changed", description="Fresh local run")
    s.bash("harvest --config harvest.toml --once 2>&1 | tail -3",
           "2026-11-26 13:54:02,551 INFO harvest: marktplaats: 12 pages, 3 new, 5 changed\n"
           "2026-11-26 13:54:20,903 INFO harvest: kleinanzeigen: 9 pages, 0 new, 2 changed\n"
           "2026-11-26 13:54:29,310 INFO harvest: funda: 4 pages, 0 new, 0 changed", description="Second run")
    s.say("Second run right after: 3 new / 5 changed on marktplaats instead of ~280 \"new\". Identity is "
          "`(source, external_id)` with a unique index, `url_key` is the fallback for id-less sites, and the "
          "stored url is updated to the latest one on each sighting.")
    s.user("🙌 perfect")
    return [s]


@scenario("price-decimal-comma", "harvest",
          "failure → fix: a wrong price reported, the agent writes a test that fails (pytest output pasted), "
          "explains the cause and fixes the parser",
          [exp("gotcha", "harvest/parser.py:parse_price", "decimal comma")])
def _price(files):
    s = Session("price-decimal-comma", "2026-11-27T10:03:00.000Z", files)
    s.user("weird one: the weekly price report says a sofa on kleinanzeigen went for €1.30 and three people asked me about it. the listing "
           "says \"1.299,00 €\". can you add a test with that and see what parse_price does")
    s.read("harvest/parser.py", 20, 12)
    s.edit("tests/test_parser.py",
           "    assert parse_price(\"on request\") is None\n",
           "    assert parse_price(\"on request\") is None\n\n\n"
           "def test_parse_price_german():\n"
           "    assert parse_price(\"1.299,00 €\") == 1299.0\n"
           "    assert parse_price(\"12,50 €\") == 12.5\n"
           "    assert parse_price(\"1.299 €\") == 1299.0\n")
    s.bash("python -m pytest -q tests/test_parser.py",
           ".F..\n=================================== FAILURES ===================================\n"
           "___________________________ test_parse_price_german ____________________________\n\n"
           "    def test_parse_price_german():\n>       assert parse_price(\"1.299,00 €\") == 1299.0\n"
           "E       AssertionError: assert 1.299 == 1299.0\nE        +  where 1.299 = parse_price('1.299,00 €')\n\n"
           "tests/test_parser.py:24: AssertionError\n=========================== short test summary info "
           "============================\nFAILED tests/test_parser.py::test_parse_price_german - AssertionError: "
           "assert 1.299 == 1299.0\n1 failed, 3 passed in 0.22s", fail=True, description="Run the parser tests")
    s.say("There it is: `parse_price` keeps digits and dots and throws the comma away, so `1.299,00` becomes "
          "`1.29900` → 1.299. German and Dutch sites write a decimal comma and use the dot as the thousands "
          "separator — the opposite of what the function assumes.\n\nFix: treat the *last* separator as the "
          "decimal point when one or two digits follow it, and every other `.` or `,` as grouping. That reads "
          "`1.299,00`, `1,299.00`, `12,50` and `1.299` (thousands, no cents) all correctly.")
    s.edit("harvest/parser.py",
           "def parse_price(raw: str) -> float | None:\n"
           "    digits = re.sub(r\"[^\\d.]\", \"\", raw)\n"
           "    if not digits:\n"
           "        return None\n"
           "    return float(digits)\n",
           "def parse_price(raw: str) -> float | None:\n"
           "    digits = re.sub(r\"[^\\d.,]\", \"\", raw)\n"
           "    if not any(c.isdigit() for c in digits):\n"
           "        return None\n"
           "    # German and Dutch sites write a decimal comma and a dot for thousands (\"1.299,00\"): the last\n"
           "    # separator is the decimal one when 1-2 digits follow it, any other is grouping.\n"
           "    head, sep, tail = max(digits.rpartition(\".\"), digits.rpartition(\",\"), key=lambda p: len(p[0]))\n"
           "    if sep and len(tail) in (1, 2):\n"
           "        return float(re.sub(r\"[.,]\", \"\", head) + \".\" + tail)\n"
           "    return float(re.sub(r\"[.,]\", \"\", digits))\n")
    s.bash("python -m pytest -q tests/test_parser.py", "....\n4 passed in 0.19s", description="Run the parser tests")
    s.say("Passing. The sofa is €1299 again. Rows already stored with the wrong price will correct themselves "
          "on tonight's run (and show up once as 'changed').")
    s.user("ha, that'll confuse people for one more day but fine. thanks")
    return [s]


@scenario("slack-escape", "harvest",
          "an invariant the person states after the agent's fix ('nothing scraped goes to slack unescaped'); the "
          "agent's explanation of Slack's escaping rules on the way",
          [exp("invariant", "harvest/notify.py:SlackNotifier.summary_text", "unescaped")])
def _slack(files):
    s = Session("slack-escape", "2026-11-28T08:20:00.000Z", files)
    s.user("so uh. last night's slack summary pinged @channel in #listings at 3am. 140 people. because a "
           "listing was titled \"<!channel> GRATIS bank ophalen\". which is hilarious and also I'd like it to "
           "never happen again")
    s.read("harvest/notify.py")
    s.say("The titles go into the message text as-is, and Slack's mrkdwn treats `<…>` as control sequences: "
          "`<!channel>` is a mention, `<http://x|click>` a link, `<@U123>` a user ping. So a listing title "
          "can ping anyone.\n\nSlack's documented escaping is exactly three characters — `&` → `&amp;`, `<` → "
          "`&lt;`, `>` → `&gt;`. I'll add that, not `html.escape`: that one also turns quotes into `&quot;`, "
          "which Slack would show literally in titles like `Bike, 28\"`.")
    s.edit("harvest/notify.py",
           "log = logging.getLogger(__name__)\n",
           "log = logging.getLogger(__name__)\n\n\n"
           "def escape(text: str) -> str:\n"
           "    \"\"\"Slack's own escaping: only &, < and > are control characters in message text.\"\"\"\n"
           "    return text.replace(\"&\", \"&amp;\").replace(\"<\", \"&lt;\").replace(\">\", \"&gt;\")\n")
    s.edit("harvest/notify.py",
           "        lines = [f\"*{source}*: {len(new)} new, {len(changed)} changed\"]\n"
           "        lines += [f\"• {t}\" for t in new[:20]]\n"
           "        if changed:\n"
           "            lines.append(\"_changed:_\")\n"
           "            lines += [f\"• {t}\" for t in changed[:20]]\n",
           "        lines = [f\"*{escape(source)}*: {len(new)} new, {len(changed)} changed\"]\n"
           "        lines += [f\"• {escape(t)}\" for t in new[:20]]\n"
           "        if changed:\n"
           "            lines.append(\"_changed:_\")\n"
           "            lines += [f\"• {escape(t)}\" for t in changed[:20]]\n")
    s.say("Done — source names get it too, since they come from the config but nothing stops one containing `<`.")
    s.user("good. and make that a rule, not just this function: nothing scraped goes to slack unescaped, ever. "
           "titles, locations, whatever we add to the message later. if someone adds the price or the location "
           "to the summary next month they need to know")
    s.edit("harvest/notify.py",
           "    def summary_text(self, source: str, new: list[str], changed: list[str]) -> str:\n",
           "    def summary_text(self, source: str, new: list[str], changed: list[str]) -> str:\n"
           "        # Everything scraped goes through escape(): a title like \"<!channel> ...\" pinged 140 people.\n")
    s.write("tests/test_notify.py",
            "from harvest.notify import SlackNotifier\n\n\n"
            "def test_titles_cannot_mention_anyone():\n"
            "    text = SlackNotifier(None).summary_text(\"marktplaats\", [\"<!channel> GRATIS bank ophalen\"], [])\n"
            "    assert \"<!channel>\" not in text\n"
            "    assert \"&lt;!channel&gt; GRATIS bank ophalen\" in text\n\n\n"
            "def test_quotes_stay_readable():\n"
            "    text = SlackNotifier(None).summary_text(\"marktplaats\", ['Bike, 28\"'], [])\n"
            "    assert 'Bike, 28\"' in text\n")
    s.bash("python -m pytest -q", "....\n5 passed in 0.21s", description="Run tests")
    s.say("Comment above the message assembly and two tests that fail if a title reaches Slack raw.")
    return [s]


@scenario("scheduler-stagger", "harvest",
          "a scope boundary in the opening message with its reason ('leave cron expressions out for now'); the "
          "agent plans and implements a choice of its own, the person questions it and keeps it",
          [exp("boundary", "harvest/scheduler.py:Scheduler", "cron"),
           exp("decision", "harvest/scheduler.py:Scheduler.add", "hash of the job", ["random"])])
def _stagger(files):
    s = Session("scheduler-stagger", "2026-12-01T09:48:00.000Z", files)
    s.user("two scheduler things. first the real problem: after every deploy all nine sources start in the "
           "same second, because add() sets next_run to now for every job, and the VPS's one outbound IP "
           "hammers three of the sites at once — funda rate-limited us twice this week right after a deploy. "
           "spread the first runs out somehow.\n\nsecond, the non-problem: Ilse asked in standup whether we "
           "could do cron-style schedules, \"every weekday at 6\". leave cron expressions out for now — "
           "intervals are enough until a customer actually asks, and I don't want croniter plus timezone "
           "handling in here for a maybe")
    s.read("harvest/scheduler.py")
    s.say("Plan: stagger each job's *first* run by an offset between 0 and 10 minutes (or its interval, if "
          "shorter), derived from a hash of the job's name. After that the job keeps its rhythm, since "
          "`run_pending` schedules the next run from when it ran. Intervals stay `timedelta`s, no cron. "
          "Implementing.")
    s.edit("harvest/scheduler.py", "import logging\nimport time\n", "import logging\nimport time\nimport zlib\n")
    s.edit("harvest/scheduler.py",
           "    def add(self, job: Job) -> None:\n        job.next_run = self.clock()\n        self.jobs.append(job)\n",
           "    MAX_STAGGER = timedelta(minutes=10)\n\n"
           "    def add(self, job: Job) -> None:\n"
           "        # First runs are staggered by an offset from a hash of the job's name, so a deploy doesn't start\n"
           "        # every source in the same second, and a restart gives each job the same offset again.\n"
           "        window = int(min(job.every, self.MAX_STAGGER).total_seconds())\n"
           "        job.next_run = self.clock() + timedelta(seconds=zlib.crc32(job.name.encode()) % max(window, 1))\n"
           "        self.jobs.append(job)\n")
    s.write("tests/test_scheduler.py",
            "from datetime import datetime, timedelta, timezone\n\n"
            "from harvest.scheduler import Job, Scheduler\n\nT0 = datetime(2026, 12, 1, 3, 0, tzinfo=timezone.utc)\n\n\n"
            "def test_first_runs_are_spread_and_stable():\n"
            "    names = [\"marktplaats\", \"kleinanzeigen\", \"funda\", \"2dehands\"]\n"
            "    runs = []\n"
            "    for _ in range(2):\n"
            "        sched = Scheduler(clock=lambda: T0)\n"
            "        for n in names:\n"
            "            sched.add(Job(n, timedelta(days=1), lambda: None))\n"
            "        runs.append([j.next_run for j in sched.jobs])\n"
            "    assert runs[0] == runs[1]\n"
            "    assert len(set(runs[0])) == len(names)\n"
            "    assert all(T0 <= r < T0 + Scheduler.MAX_STAGGER for r in runs[0])\n")
    s.bash("python -m pytest -q", "....\n4 passed in 0.20s", description="Run tests")
    s.user("works. why a hash though, random.uniform(0, 600) would've been one line")
    s.say("Mostly restarts. With `random`, every restart reshuffles the offsets — and the box does restart "
          "in bursts (deploys, the OOM kill last month), so two of the heavy sources can land on top of each "
          "other again by bad luck, and you'd never be able to reproduce which. With the hash, "
          "`marktplaats` always starts at the same +N seconds, so the logs line up from night to night and "
          "the test above can assert it. The cost is that two names could hash close together; with nine "
          "jobs in a 600s window that's unlikely and easy to see.")
    s.user("ok fair, keep the hash")
    return [s]


@scenario("sqlite-threads", "harvest",
          "the agent parallelises the run, hits sqlite's same-thread check (traceback pasted) and explains a "
          "deliberate workaround with the condition for removing it; the person accepts it",
          [exp("workaround", "harvest/store.py:RecordStore.__init__", "check_same_thread")])
def _threads(files):
    s = Session("sqlite-threads", "2026-12-02T14:10:00.000Z", files)
    s.user("the nightly run takes 50 minutes now with nine sources, almost all of it waiting on the network. "
           "prod calls `harvest --once` from a systemd timer, the loop() mode is only for local dev. can we run "
           "the sources in parallel in --once, 4 at a time? every source is a different host so robots/politeness "
           "per host doesn't change")
    s.read("harvest/pipeline.py", 38, 20)
    s.edit("harvest/pipeline.py", "import argparse\nimport logging\n",
           "import argparse\nimport logging\nfrom concurrent.futures import ThreadPoolExecutor\n")
    s.edit("harvest/pipeline.py",
           "    if args.once:\n        sched.run_pending()\n        return\n",
           "    if args.once:\n        with ThreadPoolExecutor(max_workers=4) as pool:\n"
           "            for done in [pool.submit(job.run) for job in sched.jobs]:\n                done.result()\n"
           "        return\n")
    s.bash("harvest --config harvest.toml --once 2>&1 | tail -8",
           "Traceback (most recent call last):\n  File \"/home/dev/harvest/harvest/pipeline.py\", line 56, in main\n"
           "    done.result()\n  File \"/usr/lib/python3.12/concurrent/futures/_base.py\", line 449, in result\n"
           "    return self.__get_result()\n  File \"/home/dev/harvest/harvest/pipeline.py\", line 28, in run_source\n"
           "    status = store.upsert(item)\n  File \"/home/dev/harvest/harvest/store.py\", line 32, in upsert\n"
           "    row = self.db.execute(\"SELECT id, title, price FROM listings WHERE url = ?\", (item.url,)).fetchone()\n"
           "sqlite3.ProgrammingError: SQLite objects created in a thread can only be used in that same thread. The "
           "object was created in thread id 139872410289984 and this is thread id 139872381556416.",
           fail=True, description="Local run with 4 workers")
    s.say("As expected-ish: the workers share the one `RecordStore` connection, which was opened on the main "
          "thread, and `sqlite3` refuses that by default.\n\nTwo ways out:\n\n- **a connection per worker** — "
          "the clean version, but then four connections write the same file concurrently, and without WAL "
          "we'd trade this error for `database is locked` under load.\n- **share the connection, serialise "
          "access** — open it with `check_same_thread=False` and hold a lock around every use. The check is "
          "only a guard against *unsynchronised* use; with the lock it's safe, and the writes are tiny next to "
          "the network waits, so the lock costs nothing measurable.\n\nI'll do the second as a deliberate "
          "workaround and say so in the code, including when to remove it.")
    s.edit("harvest/store.py", "import sqlite3\n", "import sqlite3\nimport threading\n")
    s.edit("harvest/store.py",
           "        self.db = sqlite3.connect(path)\n",
           "        # Workaround: pipeline workers share this one connection. sqlite3 refuses use from other\n"
           "        # threads by default; check_same_thread=False is safe only because every use holds self.lock.\n"
           "        # Remove both if each worker gets its own connection (that needs WAL first).\n"
           "        self.db = sqlite3.connect(path, check_same_thread=False)\n"
           "        self.lock = threading.Lock()\n")
    s.edit("harvest/store.py",
           "    def upsert(self, item: Listing) -> str:\n        \"\"\"Store one listing; returns \"new\", \"changed\" or \"same\".\"\"\"\n",
           "    def upsert(self, item: Listing) -> str:\n        \"\"\"Store one listing; returns \"new\", \"changed\" or \"same\".\"\"\"\n"
           "        with self.lock:\n            return self._upsert(item)\n\n"
           "    def _upsert(self, item: Listing) -> str:\n")
    s.edit("harvest/store.py",
           "        return self.db.execute(\"SELECT count(*) FROM listings WHERE source = ?\", (source,)).fetchone()[0]\n",
           "        with self.lock:\n"
           "            return self.db.execute(\"SELECT count(*) FROM listings WHERE source = ?\", (source,)).fetchone()[0]\n")
    s.bash("python -m pytest -q && time harvest --config harvest.toml --once 2>&1 | tail -4",
           "...\n3 passed in 0.20s\n2026-12-02 14:31:02,118 INFO harvest: funda: 4 pages, 2 new, 1 changed\n"
           "2026-12-02 14:33:40,551 INFO harvest: marktplaats: 12 pages, 9 new, 4 changed\n"
           "2026-12-02 14:36:12,004 INFO harvest: kleinanzeigen: 9 pages, 3 new, 2 changed\n\n"
           "real\t14m12.337s\nuser\t0m21.402s\nsys\t0m1.118s", description="Tests, then a timed local run")
    s.say("14 minutes instead of ~50 locally. The lock and `check_same_thread=False` sit together in "
          "`RecordStore.__init__` with the comment, so whoever moves to per-worker connections knows to drop both.")
    s.user("nice. fine by me, keep the lock")
    return [s]


@scenario("two-machines-hypothetical", "harvest",
          "no decision: 'run the tests first', a what-if about two machines answered at length with 'you'd have "
          "to', a colleague's rule reported second-hand and not adopted, and a rename",
          [])
def _hypo(files):
    s = Session("two-machines-hypothetical", "2026-12-02T16:40:00.000Z", files)
    s.user("run the tests first please, I just pulled and want to know where we are")
    s.bash("python -m pytest -q", "...\n3 passed in 0.19s", description="Run tests")
    s.say("Green: 3 passed.")
    s.user("cool. thinking out loud: hypothetically, if we ran harvest on two boxes for redundancy, both on "
           "the same timer, what would break? not planning it this quarter, I just want to know how far off it is")
    s.read("harvest/store.py")
    s.read("harvest/pipeline.py")
    s.say("Quite a lot, in roughly this order:\n\n1. **The store.** Each box would have its own "
          "`harvest.sqlite3`, so both would see every listing as new and both would post it. To share state "
          "you'd have to move to a real server db (Postgres) — sqlite over NFS is asking for corrupted files.\n"
          "2. **Slack.** Even with a shared db, both boxes would race on `upsert` and could each decide a "
          "listing is `new` before the other commits; you'd need the insert itself to decide (an `INSERT … ON "
          "CONFLICT DO NOTHING` and only notify on rows you actually inserted).\n3. **Politeness.** Two IPs "
          "hitting each site at the same time doubles our load on them, and the robots cache is per process, "
          "so neither box knows what the other fetched.\n4. **Scheduling.** Nothing elects who runs; you'd "
          "want one box to hold a lock (a row in the db, or the systemd timer on only one machine with the "
          "other as a cold standby).\n\nThe cheapest form of redundancy is probably the cold standby: same "
          "deploy, timer disabled, switch it on when the main box is down.")
    s.user("yeah, that's roughly what I thought. Jonas says we should never scrape from more than one IP "
           "because sites fingerprint that and ban the whole range — no idea if that's true or just a thing he "
           "read, anyway it's moot since we're not doing it. ok unrelated small thing: rename requests_made to "
           "request_count in the fetcher, it reads weird")
    s.grep("requests_made", ["harvest/fetcher.py"])
    s.edit("harvest/fetcher.py", "        self.requests_made = 0\n", "        self.request_count = 0\n")
    s.edit("harvest/fetcher.py", "            self.requests_made += 1\n", "            self.request_count += 1\n")
    s.bash("python -m pytest -q", "...\n3 passed in 0.18s", description="Run tests")
    s.say("Renamed; it was only used in `fetcher.py`. Tests still green.")
    s.user("ta")
    return [s]


@scenario("refactor-run-source", "harvest",
          "no decision: the agent proposes a refactor plan and does it, the person says lgtm; an extra suggestion "
          "of the agent's that nobody takes up",
          [])
def _refactor(files):
    s = Session("refactor-run-source", "2026-12-03T10:05:00.000Z", files)
    s.user("run_source has gotten long-ish and I want to unit test the paging without a store and slack. tidy "
           "it up however makes sense, behaviour should stay exactly the same")
    s.read("harvest/pipeline.py", 18, 22)
    s.say("Plan:\n\n- pull the paging loop into a generator `crawl(src, fetcher)` that yields `(url, html)` "
          "per page and stops at `max_pages`, the last page, or a `Blocked`\n- `run_source` keeps the store "
          "and Slack bits and just iterates over `crawl(...)`\n- the `pages` count comes from the generator's "
          "output so the log line stays the same\n\nNo behaviour change.")
    s.edit("harvest/pipeline.py",
           "def run_source(src: config.Source, fetcher: Fetcher, store: RecordStore, slack: SlackNotifier) -> None:\n"
           "    url: str | None = src.start_url\n    new, changed = [], []\n    pages = 0\n"
           "    while url and pages < src.max_pages:\n        try:\n            html = fetcher.get(url)\n"
           "        except Blocked:\n            log.warning(\"%s: robots.txt disallows %s\", src.name, url)\n"
           "            break\n        for item in parse_listing_page(src.name, url, html):\n",
           "def crawl(src: config.Source, fetcher: Fetcher):\n"
           "    \"\"\"(url, html) of each listing page of a source, following rel=next up to max_pages.\"\"\"\n"
           "    url: str | None = src.start_url\n    pages = 0\n"
           "    while url and pages < src.max_pages:\n        try:\n            html = fetcher.get(url)\n"
           "        except Blocked:\n            log.warning(\"%s: robots.txt disallows %s\", src.name, url)\n"
           "            return\n        yield url, html\n        url = next_page_url(url, html)\n        pages += 1\n\n\n"
           "def run_source(src: config.Source, fetcher: Fetcher, store: RecordStore, slack: SlackNotifier) -> None:\n"
           "    new, changed = [], []\n    pages = 0\n"
           "    for url, html in crawl(src, fetcher):\n        pages += 1\n"
           "        for item in parse_listing_page(src.name, url, html):\n")
    s.edit("harvest/pipeline.py",
           "                changed.append(item.title)\n        url = next_page_url(url, html)\n        pages += 1\n",
           "                changed.append(item.title)\n")
    s.bash("python -m pytest -q && harvest --config harvest.toml --once 2>&1 | tail -3",
           "...\n3 passed in 0.19s\n2026-12-03 10:12:40,551 INFO harvest: marktplaats: 12 pages, 1 new, 3 changed\n"
           "2026-12-03 10:13:01,902 INFO harvest: kleinanzeigen: 9 pages, 0 new, 1 changed\n"
           "2026-12-03 10:13:09,004 INFO harvest: funda: 4 pages, 0 new, 0 changed",
           description="Tests and a local run")
    s.say("Same page counts as yesterday's run. `crawl()` can now be tested with a fake fetcher and no store.\n\n"
          "If you want to go further, the Slack call could move out of `run_source` into `main`, so a run "
          "posts one combined summary instead of one message per source — but that changes what people see, "
          "so I left it.")
    s.user("lgtm. leave slack as is")
    return [s]


# == build and check ================================================================================


def build() -> None:
    out = []
    (HERE / "sessions").mkdir(exist_ok=True)
    for old in (HERE / "sessions").glob("*.jsonl"):
        old.unlink()
    for sc in SCENARIOS:
        sessions = sc["fn"](repo_files(sc["repo"]))
        for s in sessions:
            (HERE / "sessions" / f"{s.name}.jsonl").write_text(s.jsonl(), encoding="utf-8")
        out.append({"name": sc["name"], "repo": sc["repo"], "sessions": [f"{s.name}.jsonl" for s in sessions],
                    "note": sc["note"], "expected": sc["expected"]})
    (HERE / "expected.json").write_text(json.dumps({"set": "tune4", "scenarios": out}, indent=2,
                                                   ensure_ascii=False) + "\n", encoding="utf-8")


def check() -> None:
    """Replays each scenario on a copy of its repository (every edit must apply) and checks with
    tether's parser that each expected anchor names a definition of the final state."""
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
                rel, _, name = e["anchor"].partition(":")
                src = SourceFile((root / rel).read_text(encoding="utf-8"), for_path(rel))
                assert not name or name in {d.qualname for d in src.defs}, (sc["name"], e["anchor"])
            text = "".join((HERE / "sessions" / n).read_text(encoding="utf-8") for n in sc["sessions"]).lower()
            for e in sc["expected"]:
                for phrase in [e["phrase"], *e["rejected"]]:
                    assert json.dumps(phrase.lower())[1:-1] in text, (sc["name"], phrase)
        print(f"ok  {sc['name']}: {len(sc['sessions'])} session(s), {len(sc['expected'])} expected")


if __name__ == "__main__":
    build()
    if "--check" in sys.argv:
        check()
