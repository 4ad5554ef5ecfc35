// Plural categories (CLDR: zero, one, two, few, many, other) and choosing a message variant.

export type PluralCategory = "zero" | "one" | "two" | "few" | "many" | "other";

export function pluralCategory(locale: string, n: number): PluralCategory {
  // TODO: real CLDR rules; English-style for now
  void locale;
  return n === 1 ? "one" : "other";
}

/** A plural message is an object of variants, e.g. {"one": "# file", "other": "# files"}. */
export function selectPlural(locale: string, variants: Partial<Record<PluralCategory, string>>, n: number): string {
  const exact = variants[`=${n}` as PluralCategory];
  if (exact !== undefined) return exact.replace(/#/g, String(n));
  const cat = pluralCategory(locale, n);
  const chosen = variants[cat] ?? variants.other;
  if (chosen === undefined) {
    throw new Error(`plural message has no "${cat}" or "other" variant`);
  }
  return chosen.replace(/#/g, String(n));
}
