// Built-in functions. Each receives its evaluated arguments (a range arrives as an array).

import { CellError, isError, toNumber, toText, type Value } from "./evaluator.js";

export type Fn = (args: Array<Value | Value[]>) => Value;

function flatten(args: Array<Value | Value[]>): Value[] {
  return args.flatMap((a) => (Array.isArray(a) ? a : [a]));
}

function numbers(args: Array<Value | Value[]>): number[] | CellError {
  let out: number[] = [];
  for (const v of flatten(args)) {
    if (isError(v)) return v;
    if (typeof v === "number") out.push(v);
  }
  return out;
}

function arity(name: string, args: unknown[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    throw new Error(`${name} takes ${min === max ? min : `${min} to ${max}`} arguments, got ${args.length}`);
  }
}

export const FUNCTIONS: Record<string, Fn> = {
  SUM: (args) => {
    const ns = numbers(args);
    return isError(ns) ? ns : ns.reduce((s, n) => s + n, 0);
  },
  AVERAGE: (args) => {
    const ns = numbers(args);
    if (isError(ns)) return ns;
    if (ns.length === 0) return new CellError("#DIV/0!", "AVERAGE of nothing");
    return ns.reduce((s, n) => s + n, 0) / ns.length;
  },
  MIN: (args) => {
    const ns = numbers(args);
    return isError(ns) ? ns : ns.length ? Math.min(...ns) : 0;
  },
  MAX: (args) => {
    const ns = numbers(args);
    return isError(ns) ? ns : ns.length ? Math.max(...ns) : 0;
  },
  COUNT: (args) => flatten(args).filter((v) => typeof v === "number").length,
  ABS: (args) => {
    arity("ABS", args, 1);
    const v = args[0];
    if (Array.isArray(v)) return new CellError("#VALUE!");
    return isError(v) ? v : Math.abs(toNumber(v));
  },
  ROUND: (args) => {
    arity("ROUND", args, 1, 2);
    const [v, d] = args;
    if (Array.isArray(v) || Array.isArray(d)) return new CellError("#VALUE!");
    if (isError(v)) return v;
    if (d !== undefined && isError(d)) return d;
    const digits = d === undefined ? 0 : toNumber(d);
    const f = Math.pow(10, digits);
    return Math.round(toNumber(v) * f) / f;
  },
  IF: (args) => {
    arity("IF", args, 2, 3);
    const [cond, then, otherwise] = args;
    if (Array.isArray(cond)) return new CellError("#VALUE!");
    if (isError(cond)) return cond;
    const pick = toNumber(cond) !== 0 ? then : otherwise ?? false;
    return Array.isArray(pick) ? new CellError("#VALUE!") : pick;
  },
  CONCAT: (args) => {
    let s = "";
    for (const v of flatten(args)) {
      if (isError(v)) return v;
      s += toText(v);
    }
    return s;
  },
};
