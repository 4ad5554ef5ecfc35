import express, { NextFunction, Request, Response } from "express";
import { NotFound } from "./store.js";
import { addMember, createGroup, getGroup } from "./groups.js";
import { addExpense, deleteExpense, listExpenses } from "./expenses.js";
import { getBalances } from "./balances.js";
import { exportCsv } from "./export.js";
import { inviteHandler, redeemInvite } from "./invites.js";

export const app = express();
app.use(express.json());

app.post("/groups", createGroup);
app.get("/groups/:groupId", getGroup);
app.post("/groups/:groupId/members", addMember);
app.post("/groups/:groupId/expenses", addExpense);
app.get("/groups/:groupId/expenses", listExpenses);
app.delete("/groups/:groupId/expenses/:expenseId", deleteExpense);
app.get("/groups/:groupId/balances", getBalances);
app.get("/groups/:groupId/export.csv", exportCsv);
app.post("/groups/:groupId/invites", inviteHandler);
app.post("/join/:token", redeemInvite);

app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
  if (err instanceof NotFound) {
    return res.status(404).json({ error: `${err.message} not found` });
  }
  console.error(err);
  res.status(500).json({ error: "internal error" });
});

if (process.env.NODE_ENV !== "test") {
  const port = Number(process.env.PORT ?? 3000);
  app.listen(port, () => console.log(`tallyho listening on :${port}`));
}
