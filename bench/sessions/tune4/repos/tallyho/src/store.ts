import { Amount } from "./money.js";

export interface Member {
  id: string;
  name: string;
  joinedAt: string;
}

export interface Group {
  id: string;
  name: string;
  members: Member[];
  createdAt: string;
}

export interface Expense {
  id: string;
  groupId: string;
  paidBy: string;
  amount: Amount;
  splitBetween: string[];
  description: string;
  createdAt: string;
}

export interface Invite {
  token: string;
  groupId: string;
  createdBy: string;
  expiresAt: string;
}

// In-memory for now; the Postgres adapter lives on another branch.
export class Store {
  groups = new Map<string, Group>();
  expenses = new Map<string, Expense>();
  invites = new Map<string, Invite>();

  group(id: string): Group {
    const g = this.groups.get(id);
    if (!g) throw new NotFound(`group ${id}`);
    return g;
  }

  expensesOf(groupId: string): Expense[] {
    return [...this.expenses.values()].filter((e) => e.groupId === groupId);
  }
}

export class NotFound extends Error {}

export const store = new Store();
