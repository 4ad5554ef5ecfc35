import { Cache } from "./cache.js";

export interface SnapshotEntry<V> {
  key: string;
  value: V;
  expiresAt: number;
}

/** The live entries of `cache`, most recently used first. */
export function dump<V>(cache: Cache<V>): string {
  const entries: SnapshotEntry<V>[] = [];
  for (const [key, value, expiresAt] of cache.entries()) {
    entries.push({ key, value, expiresAt });
  }
  return JSON.stringify(entries);
}

/** Loads a `dump` into `cache`, oldest first so recency order is kept. */
export function restore<V>(cache: Cache<V>, text: string): number {
  const entries = JSON.parse(text) as SnapshotEntry<V>[];
  let n = 0;
  for (const e of entries.reverse()) {
    cache.set(e.key, e.value);
    n++;
  }
  return n;
}
