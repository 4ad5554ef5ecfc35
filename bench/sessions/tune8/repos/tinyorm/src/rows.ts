// Mapping between database rows (snake_case, SQLite storage classes) and row objects
// (camelCase, JS types).

import type { Column, Table } from "./schema.js";

export type Row = Record<string, unknown>;

export function toCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());
}

export function toSnake(name: string): string {
  return name.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);
}

export function toBool(value: unknown): boolean | null {
  if (value === null || value === undefined) return null;
  if (value === 1 || value === "1" || value === "t") return true;
  if (value === 0 || value === "0" || value === "f") return false;
  throw new Error(`not a boolean: ${String(value)}`);
}

function decode(col: Column, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (col.type) {
    case "boolean":
      return toBool(value);
    case "datetime":
      return new Date(String(value));
    case "json":
      return JSON.parse(String(value));
    default:
      return value;
  }
}

export function fromDb(table: Table, raw: Row): Row {
  const out: Row = {};
  for (const col of table.columns) {
    if (col.name in raw) out[toCamel(col.name)] = decode(col, raw[col.name]);
  }
  return out;
}

export function toDb(table: Table, row: Row): Row {
  const out: Row = {};
  for (const col of table.columns) {
    const key = toCamel(col.name);
    if (!(key in row)) continue;
    const value = row[key];
    if (value instanceof Date) out[col.name] = value.toISOString();
    else if (col.type === "json") out[col.name] = JSON.stringify(value);
    else if (typeof value === "boolean") out[col.name] = value ? 1 : 0;
    else out[col.name] = value;
  }
  return out;
}
