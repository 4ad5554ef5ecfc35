import type { FieldError, RuleSet, Value } from "./types.js";
import { normalizeValue } from "./normalize.js";
import { formatMessage } from "./messages.js";

export function validateField(
  name: string,
  value: Value,
  schema: RuleSet,
  all: Record<string, Value>,
): FieldError | null {
  const spec = schema[name];
  if (!spec) return null;
  for (const rule of spec.rules) {
    const result = rule(value, all);
    if (!result.ok) {
      const code = result.code ?? "invalid";
      const label = spec.label ?? name;
      return { field: name, code, message: formatMessage(code, { label, ...result.params }) };
    }
  }
  return null;
}

export function validateForm(schema: RuleSet, values: Record<string, Value>): FieldError[] {
  const normalized: Record<string, Value> = {};
  for (const [name, spec] of Object.entries(schema)) {
    normalized[name] = normalizeValue(values[name], spec.trim ?? true);
  }
  const errors: FieldError[] = [];
  for (const name of Object.keys(schema)) {
    const error = validateField(name, normalized[name], schema, normalized);
    if (error) errors.push(error);
  }
  return errors;
}
