export type Catalog = Record<string, string>;

export const en: Catalog = {
  required: "{label} is required.",
  minLength: "{label} must be at least {n} characters.",
  maxLength: "{label} must be at most {n} characters.",
  pattern: "{label} has an invalid format.",
  email: "{label} must be a valid email address.",
  sameAs: "{label} must match {other}.",
  number: "{label} must be a number.",
  range: "{label} must be between {min} and {max}.",
  taken: "{label} is already taken.",
};

let active: Catalog = en;

export function useCatalog(catalog: Catalog): void {
  active = { ...en, ...catalog };
}

export function formatMessage(code: string, params: Record<string, string | number> = {}): string {
  const template = active[code] ?? code;
  return template.replace(/\{(\w+)\}/g, (_, key: string) =>
    key in params ? String(params[key]) : `{${key}}`,
  );
}
