// Query strings: "?a=1&b=two" <-> { a: "1", b: "two" }.

export type QueryValue = string | string[];
export type Query = Record<string, QueryValue>;

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

export function parseQuery(search: string): Query {
  const query: Query = {};
  const text = search.startsWith("?") ? search.slice(1) : search;
  if (!text) return query;
  for (const part of text.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const key = decode(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? "" : decode(part.slice(eq + 1));
    query[key] = value;
  }
  return query;
}

export function stringifyQuery(query: Query): string {
  const parts: string[] = [];
  for (const key of Object.keys(query).sort()) {
    const value = query[key];
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      parts.push(encodeURIComponent(key) + (v === "" ? "" : "=" + encodeURIComponent(v)));
    }
  }
  return parts.length ? "?" + parts.join("&") : "";
}

export function splitUrl(url: string): { path: string; search: string; hash: string } {
  let rest = url;
  let hash = "";
  const h = rest.indexOf("#");
  if (h !== -1) {
    hash = rest.slice(h);
    rest = rest.slice(0, h);
  }
  const q = rest.indexOf("?");
  const search = q === -1 ? "" : rest.slice(q);
  const path = q === -1 ? rest : rest.slice(0, q);
  return { path: path || "/", search, hash };
}
