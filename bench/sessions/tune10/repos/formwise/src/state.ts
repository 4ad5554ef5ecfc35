// Per-field state: value, initial value, dirty/touched flags, current error.

import type { RuleResult } from "./rules";

export class FieldState<T = unknown> {
  value: T;
  touched = false;
  error: RuleResult | string | null = null;
  validating = false;
  private changed = false;

  constructor(readonly name: string, readonly initial: T) {
    this.value = initial;
  }

  get dirty(): boolean {
    return this.changed;
  }

  setValue(value: T): void {
    this.value = value;
    this.changed = true;
  }

  markTouched(): void {
    this.touched = true;
  }

  reset(): void {
    this.value = this.initial;
    this.changed = false;
    this.touched = false;
    this.error = null;
  }
}

export function snapshot(fields: Map<string, FieldState>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of fields) out[name] = f.value;
  return out;
}
