// Fractional indexes: string keys that sort between their neighbours, so moving a card
// only rewrites that card's key. Digits are base 62 in ASCII order (0-9, A-Z, a-z).

export const DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BASE = DIGITS.length;

function digit(ch: string | undefined): number {
  if (ch === undefined) return 0;
  const d = DIGITS.indexOf(ch);
  if (d < 0) throw new Error(`invalid key character ${JSON.stringify(ch)}`);
  return d;
}

export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The midpoint of two keys, as a key strictly between them ("" means open end). */
function midpoint(a: string, b: string): string {
  let prefix = "";
  for (let i = 0; ; i++) {
    const da = digit(a[i]);
    const db = b === "" ? BASE : i < b.length ? digit(b[i]) : 0;
    if (da === db) {
      prefix += DIGITS[da];
      continue;
    }
    const mid = Math.floor((da + db) / 2);
    if (mid > da) return prefix + DIGITS[mid];
    // adjacent digits: keep a's digit and go one level deeper
    return prefix + DIGITS[da] + midpoint(a.slice(i + 1), "");
  }
}

/** A key between ``before`` and ``after``; either may be null for the start or end of the list. */
export function keyBetween(before: string | null, after: string | null): string {
  const a = before ?? "";
  const b = after ?? "";
  if (b !== "" && compareKeys(a, b) >= 0) {
    throw new Error(`keyBetween: ${JSON.stringify(a)} is not before ${JSON.stringify(b)}`);
  }
  return midpoint(a, b);
}

/** ``n`` evenly spread keys, for a fresh column or an import. */
export function initialKeys(n: number): string[] {
  const keys: string[] = [];
  let prev: string | null = null;
  for (let i = 0; i < n; i++) {
    prev = keyBetween(prev, null);
    keys.push(prev);
  }
  return keys;
}
