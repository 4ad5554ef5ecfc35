import { Request, Response } from "express";
import { store, Expense } from "./store.js";
import { splitEvenly } from "./money.js";

export interface Transfer {
  from: string;
  to: string;
  value: number;
  currency: string;
}

// Net balance per member: positive means the group owes them.
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

export function suggestSettlements(expenses: Expense[]): Transfer[] {
  const net = computeBalances(expenses);
  const currency = expenses[0]?.amount.currency ?? "EUR";
  const debtors = [...net].filter(([, v]) => v < 0).map(([id, v]) => ({ id, v: -v }));
  const creditors = [...net].filter(([, v]) => v > 0).map(([id, v]) => ({ id, v }));
  const out: Transfer[] = [];
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
  return out;
}

export function getBalances(req: Request, res: Response) {
  const expenses = store.expensesOf(req.params.groupId);
  res.json({
    balances: Object.fromEntries(computeBalances(expenses)),
    settleUp: suggestSettlements(expenses),
  });
}
