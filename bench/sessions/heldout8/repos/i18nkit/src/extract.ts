// Finds translation keys in source files: calls like t("key"), t('key'), i18n.t("key", {...}).

import { readFileSync } from "node:fs";

export interface Found {
  key: string;
  file: string;
  line: number;
}

const CALL = /t\(\s*(["'])((?:\\.|(?!\1).)+)\1/g;

export function extractKeys(source: string, file = "<input>"): Found[] {
  const found: Found[] = [];
  const lines = source.split("\n");
  lines.forEach((text, i) => {
    if (text.trimStart().startsWith("//")) return;
    for (const m of text.matchAll(CALL)) {
      found.push({ key: m[2].replace(/\\(.)/g, "$1"), file, line: i + 1 });
    }
  });
  return found;
}

export function extractFromFiles(files: string[]): Map<string, Found[]> {
  const byKey = new Map<string, Found[]>();
  for (const file of files) {
    for (const f of extractKeys(readFileSync(file, "utf8"), file)) {
      const list = byKey.get(f.key) ?? [];
      list.push(f);
      byKey.set(f.key, list);
    }
  }
  return byKey;
}
