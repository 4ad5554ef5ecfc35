// Replaces {name} placeholders in a message. {{ and }} are literal braces.

export type Values = Record<string, string | number | Date>;

const PLACEHOLDER = /\{\{|\}\}|\{\s*([A-Za-z_][\w.]*)\s*\}/g;

function show(value: string | number | Date, locale: string): string {
  if (value instanceof Date) return value.toLocaleDateString(locale);
  if (typeof value === "number") return value.toLocaleString(locale);
  return value;
}

export function interpolate(message: string, values: Values = {}, locale = "en"): string {
  return message.replace(PLACEHOLDER, (match, name: string | undefined) => {
    if (match === "{{") return "{";
    if (match === "}}") return "}";
    const value = values[name as string];
    if (value === undefined) return "";
    return show(value, locale);
  });
}

export function placeholders(message: string): string[] {
  const names: string[] = [];
  for (const m of message.matchAll(PLACEHOLDER)) {
    if (m[1] && !names.includes(m[1])) names.push(m[1]);
  }
  return names;
}
