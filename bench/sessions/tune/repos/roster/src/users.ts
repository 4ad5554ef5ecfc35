import { readFileSync } from "node:fs";

export interface User {
  id: string;
  name: string;
  phone: string;
  siteId: string;
  role: "worker" | "manager" | "admin";
}

export class UserTable {
  constructor(private rows: Map<string, User>) {}

  static fromFile(path: string): UserTable {
    const list = JSON.parse(readFileSync(path, "utf8")) as User[];
    return new UserTable(new Map(list.map((u) => [u.id, u])));
  }

  byId(id: string): User | undefined {
    return this.rows.get(id);
  }
}
