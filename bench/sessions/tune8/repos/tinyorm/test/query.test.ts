import { describe, expect, it } from "vitest";
import { column, createTableSQL, defineTable } from "../src/schema.js";
import { from } from "../src/query.js";
import { fromDb, toDb, toBool } from "../src/rows.js";
import { Pool, type Connection } from "../src/pool.js";

const users = defineTable("users", [
  column("id", "integer", { primaryKey: true }),
  column("email", "text"),
  column("is_admin", "boolean"),
  column("created_at", "datetime"),
]);

describe("schema", () => {
  it("rejects camelCase column names", () => {
    expect(() => column("createdAt", "datetime")).toThrow(/snake_case/);
  });
  it("renders CREATE TABLE", () => {
    expect(createTableSQL(users)).toContain('"is_admin" INTEGER NOT NULL');
  });
});

describe("select builder", () => {
  it("selects everything by default", () => {
    expect(from(users).toSQL()).toEqual({ sql: 'SELECT "users".* FROM "users"', params: [] });
  });
  it("binds where values", () => {
    const q = from(users).select("id", "email").where("is_admin", "=", true).where("id", ">", 10).toSQL();
    expect(q.sql).toBe('SELECT "users"."id", "users"."email" FROM "users" WHERE "users"."is_admin" = ? AND "users"."id" > ?');
    expect(q.params).toEqual([1, 10]);
  });
  it("rejects unknown columns", () => {
    expect(() => from(users).where("nope", "=", 1)).toThrow(/no column nope/);
  });
});

describe("rows", () => {
  it("maps snake_case to camelCase and decodes", () => {
    const row = fromDb(users, { id: 1, email: "a@b.c", is_admin: 0, created_at: "2024-05-01T00:00:00.000Z" });
    expect(row).toEqual({ id: 1, email: "a@b.c", isAdmin: false, createdAt: new Date("2024-05-01T00:00:00.000Z") });
  });
  it("encodes back", () => {
    expect(toDb(users, { isAdmin: true, email: "x" })).toEqual({ email: "x", is_admin: 1 });
  });
  it("toBool", () => {
    expect(toBool(1)).toBe(true);
    expect(toBool(null)).toBe(null);
    expect(() => toBool("yes")).toThrow();
  });
});

describe("pool", () => {
  const fake = (): Connection => ({
    run: async () => ({ changes: 0 }),
    all: async () => [],
    close: async () => {},
  });
  it("reuses released connections", async () => {
    let opened = 0;
    const pool = new Pool({ open: async () => (opened++, fake()), max: 2 });
    const a = await pool.acquire();
    pool.release(a);
    const b = await pool.acquire();
    expect(b).toBe(a);
    expect(opened).toBe(1);
  });
});
