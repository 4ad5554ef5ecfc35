export type Catalog = Record<string, string>;

const en: Catalog = {
  required: "This field is required.",
  minLength: "Use at least {min} characters.",
  maxLength: "Use at most {max} characters.",
  pattern: "This doesn't look right.",
  email: "Enter an email address like name@example.com.",
};

const catalogs: Record<string, Catalog> = { en };

export function addLocale(locale: string, catalog: Catalog): void {
  catalogs[locale] = { ...catalogs[locale], ...catalog };
}

export function format(locale: string, code: string, params: Record<string, string | number> = {}): string {
  const template = catalogs[locale]?.[code] ?? code;
  return template.replace(/\{(\w+)\}/g, (_, key) => String(params[key] ?? `{${key}}`));
}
