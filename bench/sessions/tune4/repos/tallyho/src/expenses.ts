import { Request, Response } from "express";
import { randomUUID } from "node:crypto";
import { store, Expense } from "./store.js";
import { isCurrency, parseAmount } from "./money.js";

export function addExpense(req: Request, res: Response) {
  const group = store.group(req.params.groupId);
  const { paidBy, amount, currency, splitBetween, description } = req.body ?? {};
  if (!isCurrency(currency)) {
    return res.status(400).json({ error: `unknown currency: ${currency}` });
  }
  const memberIds = new Set(group.members.map((m) => m.id));
  if (!memberIds.has(paidBy)) {
    return res.status(400).json({ error: "paidBy is not a member of this grup" });
  }
  const between: string[] = Array.isArray(splitBetween) && splitBetween.length ? splitBetween : [...memberIds];
  if (between.some((id) => !memberIds.has(id))) {
    return res.status(400).json({ error: "splitBetween has someone outside the group" });
  }
  const expense: Expense = {
    id: randomUUID(),
    groupId: group.id,
    paidBy,
    amount: parseAmount(amount, currency),
    splitBetween: between,
    description: String(description ?? ""),
    createdAt: new Date().toISOString(),
  };
  store.expenses.set(expense.id, expense);
  res.status(201).json(expense);
}

export function listExpenses(req: Request, res: Response) {
  const items = store.expensesOf(req.params.groupId);
  items.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  res.json(items);
}

export function deleteExpense(req: Request, res: Response) {
  const e = store.expenses.get(req.params.expenseId);
  if (!e || e.groupId !== req.params.groupId) {
    return res.status(404).json({ error: "no such expense" });
  }
  store.expenses.delete(e.id);
  res.status(204).end();
}
