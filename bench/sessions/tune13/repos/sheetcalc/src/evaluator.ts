// AST -> value, reading other cells through an EvalContext.

import type { Node } from "./parser.js";
import { cellsInRange, refKey } from "./refs.js";
import { FUNCTIONS } from "./functions.js";

export type ErrorCode = "#DIV/0!" | "#VALUE!" | "#REF!" | "#NAME?" | "#NUM!" | "#N/A" | "#CYCLE!";

export class CellError {
  constructor(readonly code: ErrorCode, readonly detail?: string) {}
  toString(): string {
    return this.code;
  }
}

export type Scalar = number | string | boolean | null;
export type Value = Scalar | CellError;

export interface EvalContext {
  get(key: string): Value;
}

export function isError(v: unknown): v is CellError {
  return v instanceof CellError;
}

export function toNumber(v: Value): number {
  if (typeof v === "number") return v;
  if (v === null || v === "") return 0;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") {
    const n = Number(v.trim());
    if (Number.isNaN(n)) throw new TypeError(`not a number: ${JSON.stringify(v)}`);
    return n;
  }
  throw new TypeError(`not a number: ${String(v)}`);
}

export function toText(v: Value): string {
  if (v === null) return "";
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  return String(v);
}

function compare(op: string, a: Value, b: Value): boolean {
  const x = typeof a === "string" ? a.toLowerCase() : a;
  const y = typeof b === "string" ? b.toLowerCase() : b;
  switch (op) {
    case "=": return x === y;
    case "<>": return x !== y;
    case "<": return (x as number) < (y as number);
    case ">": return (x as number) > (y as number);
    case "<=": return (x as number) <= (y as number);
    default: return (x as number) >= (y as number);
  }
}

export function evaluate(node: Node, ctx: EvalContext): Value | Value[] {
  switch (node.type) {
    case "num":
    case "str":
    case "bool":
      return node.value;
    case "ref":
      return ctx.get(refKey(node.ref));
    case "range":
      return cellsInRange(node.range).map((k) => ctx.get(k));
    case "call": {
      const fn = FUNCTIONS[node.name];
      if (!fn) return new CellError("#NAME?", node.name);
      return fn(node.args.map((a) => evaluate(a, ctx)));
    }
    case "unary": {
      const v = scalar(evaluate(node.arg, ctx));
      if (isError(v)) return v;
      return node.op === "-" ? -toNumber(v) : toNumber(v);
    }
    case "binary": {
      const a = scalar(evaluate(node.left, ctx));
      if (isError(a)) return a;
      const b = scalar(evaluate(node.right, ctx));
      if (isError(b)) return b;
      if (node.op === "&") return toText(a) + toText(b);
      if (["=", "<>", "<", ">", "<=", ">="].includes(node.op)) return compare(node.op, a, b);
      const x = toNumber(a);
      const y = toNumber(b);
      switch (node.op) {
        case "+": return x + y;
        case "-": return x - y;
        case "*": return x * y;
        case "/":
          if (y === 0) throw new Error("division by zero");
          return x / y;
        case "^": return Math.pow(x, y);
      }
      return new CellError("#VALUE!", node.op);
    }
  }
}

function scalar(v: Value | Value[]): Value {
  if (Array.isArray(v)) return v.length === 1 ? v[0] : new CellError("#VALUE!", "range used as a value");
  return v;
}
