// Which extracted keys are missing from which locale's catalog.

import type { Catalogs } from "./catalog.js";
import type { Found } from "./extract.js";

export interface Missing {
  locale: string;
  key: string;
  usedAt: Found[];
}

export function findMissing(used: Map<string, Found[]>, catalogs: Catalogs, locales: string[]): Missing[] {
  const out: Missing[] = [];
  for (const locale of locales) {
    const catalog = catalogs[locale] ?? {};
    for (const [key, usedAt] of used) {
      const value = catalog[key];
      if (value === undefined || value === "") out.push({ locale, key, usedAt });
    }
  }
  return out;
}

export function formatReport(missing: Missing[]): string {
  if (missing.length === 0) return "No missing keys.";
  const lines = missing.map((m) => `${m.locale}\t${m.key}\t${m.usedAt[0].file}:${m.usedAt[0].line}`);
  return lines.join("\n");
}
