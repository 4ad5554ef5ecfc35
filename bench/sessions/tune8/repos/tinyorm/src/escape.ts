// Quoting of identifiers and the parameter list a query carries alongside its SQL text.

export type Param = string | number | bigint | boolean | null | Uint8Array;

export function quoteIdent(name: string): string {
  if (name.includes("\0")) throw new Error("identifier contains a NUL byte");
  return `"${name.replace(/"/g, '""')}"`;
}

export function qualified(table: string, column: string): string {
  return `${quoteIdent(table)}.${quoteIdent(column)}`;
}

export class Params {
  readonly values: Param[] = [];

  add(value: Param): string {
    this.values.push(typeof value === "boolean" ? (value ? 1 : 0) : value);
    return "?";
  }

  addAll(values: Param[]): string {
    return values.map((v) => this.add(v)).join(", ");
  }
}

export function likePattern(fragment: string): string {
  // escape LIKE wildcards; the query uses ESCAPE '\'
  return fragment.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}
