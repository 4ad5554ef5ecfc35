import type { Value } from "./types.js";

const ZERO_WIDTH = /[\u200B-\u200D\uFEFF]/g;

/** Trim, drop zero-width characters and compose to NFC, so "é" typed two ways compares equal. */
export function normalizeString(raw: string): string {
  return raw.replace(ZERO_WIDTH, "").normalize("NFC").trim();
}

export function normalizeValue(value: Value, trim = true): Value {
  if (typeof value !== "string") return value;
  const cleaned = value.replace(ZERO_WIDTH, "").normalize("NFC");
  return trim ? cleaned.trim() : cleaned;
}

export function normalizeAll(values: Record<string, Value>): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [key, value] of Object.entries(values)) {
    out[key] = normalizeValue(value);
  }
  return out;
}

export function isEmpty(value: Value): boolean {
  return value === undefined || value === null || value === "";
}
