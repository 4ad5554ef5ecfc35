// Field rules: synchronous checks on a single value.

export interface RuleResult {
  key: string;
  params?: Record<string, string | number>;
}

export type Rule = (value: unknown) => RuleResult | string | null;

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);

export function required(): Rule {
  return (v) => (isEmpty(v) ? { key: "required" } : null);
}

export function minLength(n: number): Rule {
  return (v) => {
    if (isEmpty(v)) return null;
    const len = String(v).length;
    return len < n ? `Must be at least ${n} characters` : null;
  };
}

export function maxLength(n: number): Rule {
  return (v) => {
    if (isEmpty(v)) return null;
    return String(v).length > n ? `Must be at most ${n} characters` : null;
  };
}

export function pattern(re: RegExp, key = "pattern"): Rule {
  return (v) => (isEmpty(v) || re.test(String(v)) ? null : { key });
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function email(): Rule {
  return (v) => (isEmpty(v) || EMAIL.test(String(v)) ? null : "Not a valid email address");
}

export function range(min: number, max: number): Rule {
  return (v) => {
    if (isEmpty(v)) return null;
    const n = Number(v);
    if (Number.isNaN(n)) return { key: "number" };
    return n < min || n > max ? { key: "range", params: { min, max } } : null;
  };
}

export function runRules(rules: Rule[], value: unknown): RuleResult | string | null {
  for (const rule of rules) {
    const result = rule(value);
    if (result) return result;
  }
  return null;
}
