// Which cells read which: precedents (what a formula reads) and dependents (who reads a cell).

export class DependencyGraph {
  private precedents = new Map<string, Set<string>>();
  private dependents = new Map<string, Set<string>>();

  setDependencies(cell: string, deps: Iterable<string>): void {
    this.clear(cell);
    const set = new Set(deps);
    this.precedents.set(cell, set);
    for (const d of set) {
      if (!this.dependents.has(d)) this.dependents.set(d, new Set());
      this.dependents.get(d)!.add(cell);
    }
  }

  clear(cell: string): void {
    for (const d of this.precedents.get(cell) ?? []) this.dependents.get(d)?.delete(cell);
    this.precedents.delete(cell);
  }

  precedentsOf(cell: string): string[] {
    return [...(this.precedents.get(cell) ?? [])];
  }

  dependentsOf(cell: string): string[] {
    return [...(this.dependents.get(cell) ?? [])];
  }

  /** A cycle through `start` (the cells in order, `start` first), or null. */
  findCycle(start: string): string[] | null {
    const path: string[] = [];
    const seen = new Set<string>();
    const visit = (cell: string): boolean => {
      for (const p of this.precedents.get(cell) ?? []) {
        if (p === start) {
          path.push(cell);
          return true;
        }
        if (seen.has(p)) continue;
        seen.add(p);
        if (visit(p)) {
          path.push(cell);
          return true;
        }
      }
      return false;
    };
    return visit(start) ? path.reverse() : null;
  }

  /** Every cell that depends on `roots`, directly or not, each after all of its precedents. */
  topoOrder(roots: Iterable<string>): string[] {
    const affected = new Set<string>();
    const stack = [...roots];
    while (stack.length) {
      const c = stack.pop()!;
      for (const d of this.dependents.get(c) ?? []) {
        if (!affected.has(d)) {
          affected.add(d);
          stack.push(d);
        }
      }
    }
    const order: string[] = [];
    const done = new Set<string>();
    const visit = (c: string) => {
      if (done.has(c)) return;
      done.add(c);
      for (const p of this.precedents.get(c) ?? []) if (affected.has(p)) visit(p);
      order.push(c);
    };
    for (const c of affected) visit(c);
    return order;
  }
}
