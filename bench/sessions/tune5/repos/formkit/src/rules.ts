export type Value = string | number | boolean | null | undefined;

export interface RuleResult {
  ok: boolean;
  code?: string;
  params?: Record<string, string | number>;
}

export type Rule = (value: Value) => RuleResult;

const ok: RuleResult = { ok: true };

export function required(): Rule {
  return (value) => (value === undefined || value === null || value === "" ? { ok: false, code: "required" } : ok);
}

export function minLength(min: number): Rule {
  return (value) =>
    typeof value === "string" && value.length < min ? { ok: false, code: "minLength", params: { min } } : ok;
}

export function maxLength(max: number): Rule {
  return (value) =>
    typeof value === "string" && value.length > max ? { ok: false, code: "maxLength", params: { max } } : ok;
}

export function pattern(re: RegExp, code = "pattern"): Rule {
  return (value) => (typeof value === "string" && value !== "" && !re.test(value) ? { ok: false, code } : ok);
}

export function email(): Rule {
  return pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "email");
}

const registry: Record<string, (...args: any[]) => Rule> = { required, minLength, maxLength, pattern, email };

export function getRule(name: string): ((...args: any[]) => Rule) | undefined {
  return registry[name];
}
