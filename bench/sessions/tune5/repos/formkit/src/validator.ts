import { format } from "./messages.js";
import type { Rule, Value } from "./rules.js";

export type AsyncValidator = (value: Value) => Promise<string | null>;

export interface FieldSchema {
  rules: Rule[];
  async?: AsyncValidator[];
}

export type Schema = Record<string, FieldSchema>;

export interface FieldState {
  errors: string[];
  pending: boolean;
}

export class FormValidator {
  readonly state: Record<string, FieldState> = {};

  constructor(private schema: Schema, private locale = "en") {
    for (const name of Object.keys(schema)) this.state[name] = { errors: [], pending: false };
  }

  async validateField(name: string, value: Value): Promise<string[]> {
    const field = this.schema[name];
    if (!field) throw new Error(`unknown field: ${name}`);
    const errors: string[] = [];
    for (const rule of field.rules) {
      const r = rule(value);
      if (!r.ok) errors.push(format(this.locale, r.code ?? "invalid", r.params));
    }
    if (errors.length === 0 && field.async?.length) {
      this.state[name].pending = true;
      const results = await Promise.all(field.async.map((v) => v(value)));
      for (const msg of results) if (msg) errors.push(msg);
      this.state[name].pending = false;
    }
    this.state[name].errors = errors;
    return errors;
  }

  async validateAll(values: Record<string, Value>): Promise<boolean> {
    const names = Object.keys(this.schema);
    const all = await Promise.all(names.map((n) => this.validateField(n, values[n])));
    return all.every((e) => e.length === 0);
  }
}
