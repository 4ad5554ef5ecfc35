export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(v: Json): v is { [key: string]: Json } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function deepMerge(base: Json, over: Json): Json {
  if (!isObject(base) || !isObject(over)) {
    return over === undefined ? base : over;
  }
  const out: { [key: string]: Json } = { ...base };
  for (const [k, v] of Object.entries(over)) {
    out[k] = k in base ? deepMerge(base[k], v) : v;
  }
  return out;
}
