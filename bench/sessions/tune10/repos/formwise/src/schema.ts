// Schema builder: field("email").required().email() and schema({...}).

import { email, maxLength, minLength, pattern, range, required, type Rule } from "./rules";
import type { AsyncRule } from "./async";

export interface FieldSpec {
  rules: Rule[];
  asyncRules: AsyncRule[];
  initial: unknown;
}

export class FieldBuilder {
  constructor(private readonly spec: FieldSpec = { rules: [], asyncRules: [], initial: "" }) {}

  private with(rule: Rule): FieldBuilder {
    return new FieldBuilder({ ...this.spec, rules: [...this.spec.rules, rule] });
  }

  required(): FieldBuilder {
    return this.with(required());
  }

  min(n: number): FieldBuilder {
    return this.with(minLength(n));
  }

  max(n: number): FieldBuilder {
    return this.with(maxLength(n));
  }

  matches(re: RegExp, key?: string): FieldBuilder {
    return this.with(pattern(re, key));
  }

  email(): FieldBuilder {
    return this.with(email());
  }

  between(lo: number, hi: number): FieldBuilder {
    return this.with(range(lo, hi));
  }

  check(rule: AsyncRule): FieldBuilder {
    return new FieldBuilder({ ...this.spec, asyncRules: [...this.spec.asyncRules, rule] });
  }

  initial(value: unknown): FieldBuilder {
    this.spec.initial = value;
    return this;
  }

  build(): FieldSpec {
    return { ...this.spec, rules: [...this.spec.rules], asyncRules: [...this.spec.asyncRules] };
  }
}

export function field(): FieldBuilder {
  return new FieldBuilder();
}

export type Schema = Record<string, FieldBuilder>;

export function compile(schema: Schema): Record<string, FieldSpec> {
  const out: Record<string, FieldSpec> = {};
  for (const [name, b] of Object.entries(schema)) out[name] = b.build();
  return out;
}
