export type Value = string | number | boolean | null | undefined;

export interface RuleResult {
  ok: boolean;
  code?: string;
  params?: Record<string, string | number>;
}

export type Rule = (value: Value, all: Record<string, Value>) => RuleResult;

export interface FieldSpec {
  rules: Rule[];
  label?: string;
  trim?: boolean;
}

export type RuleSet = Record<string, FieldSpec>;

export interface FieldError {
  field: string;
  code: string;
  message: string;
}
