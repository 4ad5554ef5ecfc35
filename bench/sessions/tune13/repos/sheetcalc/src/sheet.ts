// A sheet: cells holding values or formulas, recalculated when something they read changes.

import { CellError, evaluate, isError, type Value } from "./evaluator.js";
import { DependencyGraph } from "./graph.js";
import { collectRefs, parseFormula, type Node } from "./parser.js";
import { cellsInRange, parseRef, refKey } from "./refs.js";

interface Cell {
  raw: string;
  formula?: Node;
  value: Value;
}

export class Sheet {
  private cells = new Map<string, Cell>();
  readonly graph = new DependencyGraph();

  get(key: string): Value {
    return this.cells.get(key.toUpperCase())?.value ?? null;
  }

  raw(key: string): string {
    return this.cells.get(key.toUpperCase())?.raw ?? "";
  }

  /** Whatever the user typed: a formula if it starts with "=", else a number, boolean or text. */
  set(key: string, input: string): void {
    if (input.startsWith("=")) this.setFormula(key, input.slice(1));
    else this.setValue(key, input);
  }

  setValue(key: string, input: string): void {
    key = refKey(parseRef(key));
    this.graph.clear(key);
    this.cells.set(key, { raw: input, value: literal(input) });
    this.recalculate(key);
  }

  setFormula(key: string, src: string): void {
    key = refKey(parseRef(key));
    let formula: Node;
    try {
      formula = parseFormula(src);
    } catch (e) {
      this.graph.clear(key);
      this.cells.set(key, { raw: `=${src}`, value: new CellError("#NAME?", (e as Error).message) });
      this.recalculate(key);
      return;
    }
    const deps = collectRefs(formula).flatMap((r) => ("start" in r ? cellsInRange(r) : [refKey(r)]));
    this.graph.setDependencies(key, deps);
    const cell: Cell = { raw: `=${src}`, formula, value: null };
    this.cells.set(key, cell);
    cell.value = this.compute(cell);
    this.recalculate(key);
  }

  /** Recompute every formula that reads `changed`, directly or through other cells. */
  recalculate(changed: string): void {
    const queue = this.graph.dependentsOf(changed);
    const seen = new Set(queue);
    while (queue.length) {
      const key = queue.shift()!;
      const cell = this.cells.get(key);
      if (cell?.formula) cell.value = this.compute(cell);
      for (const d of this.graph.dependentsOf(key)) {
        if (!seen.has(d)) {
          seen.add(d);
          queue.push(d);
        }
      }
    }
  }

  private compute(cell: Cell): Value {
    const v = evaluate(cell.formula!, { get: (k) => this.get(k) });
    if (Array.isArray(v)) return v.length === 1 ? v[0] : new CellError("#VALUE!", "range in a cell");
    return v;
  }

  errors(): Array<[string, string]> {
    return [...this.cells].filter(([, c]) => isError(c.value)).map(([k, c]) => [k, String(c.value)]);
  }
}

function literal(input: string): Value {
  const t = input.trim();
  if (t === "") return null;
  if (/^(true|false)$/i.test(t)) return t.toLowerCase() === "true";
  const n = Number(t);
  return Number.isNaN(n) ? input : n;
}
