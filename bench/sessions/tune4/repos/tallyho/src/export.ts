import { Request, Response } from "express";
import { store } from "./store.js";
import { formatAmount } from "./money.js";

const HEADER = ["date", "description", "paid by", "amount", "split between"];

export function csvCell(value: string): string {
  if (/[",\n]/.test(value)) {
    return `"${value.replace(/"/g, '""')}"`;
  }
  return value;
}

export function exportCsv(req: Request, res: Response) {
  const group = store.group(req.params.groupId);
  const names = new Map(group.members.map((m) => [m.id, m.name]));
  const rows = store.expensesOf(group.id).map((e) => [
    e.createdAt.slice(0, 10),
    e.description,
    names.get(e.paidBy) ?? e.paidBy,
    formatAmount(e.amount),
    e.splitBetween.map((id) => names.get(id) ?? id).join("; "),
  ]);
  const body = [HEADER, ...rows].map((r) => r.map(csvCell).join(",")).join("\r\n");
  res.setHeader("Content-Type", "text/csv; charset=utf-8");
  res.setHeader("Content-Disposition", `attachment; filename="${group.name}.csv"`);
  res.send(body + "\r\n");
}
