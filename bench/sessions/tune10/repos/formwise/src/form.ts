// A form: field states, sync and async validation, submit.

import { AsyncRunner } from "./async";
import { debounce, type Debounced } from "./debounce";
import { runRules } from "./rules";
import { compile, type FieldSpec, type Schema } from "./schema";
import { FieldState, snapshot } from "./state";

export interface FormOptions {
  debounceMs?: number;
  onChange?: (name: string, state: FieldState) => void;
}

export class Form {
  readonly fields = new Map<string, FieldState>();
  private readonly specs: Record<string, FieldSpec>;
  private readonly runners = new Map<string, AsyncRunner>();
  private readonly pending = new Map<string, Debounced<[]>>();

  constructor(schema: Schema, private readonly options: FormOptions = {}) {
    this.specs = compile(schema);
    for (const [name, spec] of Object.entries(this.specs)) {
      this.fields.set(name, new FieldState(name, spec.initial));
      this.runners.set(name, new AsyncRunner(spec.asyncRules));
      this.pending.set(name, debounce(() => void this.validateField(name), options.debounceMs));
    }
  }

  field(name: string): FieldState {
    const f = this.fields.get(name);
    if (!f) throw new Error(`unknown field: ${name}`);
    return f;
  }

  handleChange(name: string, value: unknown): void {
    this.field(name).setValue(value);
    this.pending.get(name)!();
    this.options.onChange?.(name, this.field(name));
  }

  handleBlur(name: string): void {
    const f = this.field(name);
    queueMicrotask(() => {
      f.markTouched();
      void this.validateField(name);
    });
  }

  async validateField(name: string): Promise<boolean> {
    const f = this.field(name);
    f.error = runRules(this.specs[name].rules, f.value);
    if (f.error) return false;
    f.validating = true;
    const outcome = await this.runners.get(name)!.run(f.value);
    f.validating = false;
    if (!outcome.stale) f.error = outcome.error;
    this.options.onChange?.(name, f);
    return !f.error;
  }

  async submit(onValid: (values: Record<string, unknown>) => void | Promise<void>): Promise<boolean> {
    for (const d of this.pending.values()) d.cancel();
    const results = await Promise.all([...this.fields.keys()].map((n) => this.validateField(n)));
    for (const f of this.fields.values()) f.markTouched();
    if (results.every(Boolean)) {
      await onValid(snapshot(this.fields));
      return true;
    }
    return false;
  }

  get dirty(): boolean {
    return [...this.fields.values()].some((f) => f.dirty);
  }
}

export function createForm(schema: Schema, options?: FormOptions): Form {
  return new Form(schema, options);
}
