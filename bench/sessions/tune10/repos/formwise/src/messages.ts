// Message catalogs: rule keys to human text, per locale.

export type Catalog = Record<string, string>;

const catalogs = new Map<string, Catalog>();

catalogs.set("en", {
  required: "This field is required",
  pattern: "Invalid format",
  number: "Must be a number",
  range: "Must be between {min} and {max}",
});

let current = "en";

export function registerCatalog(locale: string, catalog: Catalog): void {
  catalogs.set(locale, { ...(catalogs.get(locale) ?? {}), ...catalog });
}

export function setLocale(locale: string): void {
  current = locale;
}

export function getLocale(): string {
  return current;
}

function interpolate(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

export function translate(key: string, params?: Record<string, string | number>, locale = current): string {
  const template = catalogs.get(locale)?.[key] ?? catalogs.get("en")?.[key] ?? key;
  return interpolate(template, params);
}
