// Currency amounts for groups and expenses.

export type Currency = "EUR" | "USD" | "GBP" | "CHF" | "JPY";

export const CURRENCIES: Currency[] = ["EUR", "USD", "GBP", "CHF", "JPY"];

export interface Amount {
  value: number;
  currency: Currency;
}

export function isCurrency(code: string): code is Currency {
  return (CURRENCIES as string[]).includes(code);
}

export function parseAmount(input: string | number, currency: Currency): Amount {
  const value = typeof input === "number" ? input : Number(input.trim());
  if (!Number.isFinite(value)) {
    throw new Error(`not an amount: ${input}`);
  }
  return { value, currency };
}

export function formatAmount(a: Amount): string {
  return `${a.value.toFixed(2)} ${a.currency}`;
}

export function splitEvenly(total: Amount, people: string[]): Map<string, Amount> {
  const share = total.value / people.length;
  const out = new Map<string, Amount>();
  for (const p of people) {
    out.set(p, { value: share, currency: total.currency });
  }
  return out;
}
