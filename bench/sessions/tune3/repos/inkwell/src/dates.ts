export class DateError extends Error {}

export function parsePostDate(value: string, file: string): Date {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new DateError(`${file}: cannot read date "${value}"`);
  return d;
}

export function formatDisplayDate(d: Date): string {
  return d.toLocaleDateString("en-GB", { year: "numeric", month: "long", day: "numeric" });
}

export function rfc822(d: Date): string {
  return d.toUTCString();
}
