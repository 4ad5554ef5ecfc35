// A fluent SELECT builder. Nothing here talks to the database: toSQL() returns the SQL text and
// the parameter values, and the connection (pool.ts) runs them.

import { Params, quoteIdent, qualified, type Param } from "./escape.js";
import { columnNamed, type Table } from "./schema.js";

export type Op = "=" | "!=" | "<" | "<=" | ">" | ">=" | "like";

interface Condition {
  column: string;
  op: Op;
  value: Param;
}

export interface Compiled {
  sql: string;
  params: Param[];
}

export class SelectBuilder {
  private columns: string[] = [];
  private conditions: Condition[] = [];
  private order: { column: string; dir: "asc" | "desc" }[] = [];

  constructor(private readonly table: Table) {}

  select(...columns: string[]): this {
    for (const c of columns) columnNamed(this.table, c);
    this.columns.push(...columns);
    return this;
  }

  where(column: string, op: Op, value: Param): this {
    columnNamed(this.table, column);
    this.conditions.push({ column, op, value });
    return this;
  }

  orderBy(column: string, dir: "asc" | "desc" = "asc"): this {
    this.order.push({ column, dir });
    return this;
  }

  toSQL(): Compiled {
    const params = new Params();
    const cols = this.columns.length
      ? this.columns.map((c) => qualified(this.table.name, c)).join(", ")
      : `${quoteIdent(this.table.name)}.*`;
    let sql = `SELECT ${cols} FROM ${quoteIdent(this.table.name)}`;
    if (this.conditions.length) {
      const parts = this.conditions.map((c) =>
        c.op === "like"
          ? `${qualified(this.table.name, c.column)} LIKE ${params.add(c.value)} ESCAPE '\\'`
          : `${qualified(this.table.name, c.column)} ${c.op} ${params.add(c.value)}`,
      );
      sql += ` WHERE ${parts.join(" AND ")}`;
    }
    if (this.order.length) {
      sql += ` ORDER BY ${this.order.map((o) => `${quoteIdent(o.column)} ${o.dir.toUpperCase()}`).join(", ")}`;
    }
    return { sql, params: params.values };
  }
}

export function from(table: Table): SelectBuilder {
  return new SelectBuilder(table);
}
