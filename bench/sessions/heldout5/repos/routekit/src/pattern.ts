// Path patterns: "/users/:id", "/files/*", "/posts/:slug?" compiled to regular expressions.

export interface CompiledPattern {
  pattern: string;
  regex: RegExp;
  keys: string[];
  /** Higher is more specific; used to order sibling routes. */
  score: number;
}

export type Params = Record<string, string>;

const cache = new Map<string, CompiledPattern>();

function escape(text: string): string {
  return text.replace(/[.+^${}()|[\]\\]/g, "\\$&");
}

export function compilePattern(pattern: string, end = true): CompiledPattern {
  const cacheKey = `${pattern}|${end}`;
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  const keys: string[] = [];
  let score = 0;
  let source = "";
  const segments = pattern.split("/").filter((s) => s !== "");
  for (const seg of segments) {
    if (seg === "*") {
      keys.push("*");
      source += "(?:/(.*))?";
      score += 1;
    } else if (seg.startsWith(":")) {
      const optional = seg.endsWith("?");
      const name = seg.slice(1, optional ? -1 : undefined);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        throw new Error(`routekit: bad param name "${name}" in "${pattern}"`);
      }
      keys.push(name);
      source += optional ? "(?:/([^/]+))?" : "/([^/]+)";
      score += optional ? 2 : 3;
    } else {
      source += "/" + escape(seg);
      score += 4;
    }
  }
  const regex = new RegExp("^" + (source || "/") + (end ? "$" : "(?=/|$)"), "i");
  const compiled = { pattern, regex, keys, score };
  cache.set(cacheKey, compiled);
  return compiled;
}

export function matchPattern(pattern: string, path: string, end = true): { params: Params; matched: string } | null {
  const { regex, keys } = compilePattern(pattern, end);
  const m = regex.exec(path);
  if (!m) return null;
  const params: Params = {};
  keys.forEach((key, i) => {
    const value = m[i + 1];
    if (value !== undefined) params[key] = decodeURIComponent(value);
  });
  return { params, matched: m[0] };
}

export function buildPath(pattern: string, params: Params = {}): string {
  const out = pattern
    .split("/")
    .map((seg) => {
      if (seg === "*") return params["*"] ?? "";
      if (!seg.startsWith(":")) return seg;
      const optional = seg.endsWith("?");
      const name = seg.slice(1, optional ? -1 : undefined);
      const value = params[name];
      if (value === undefined) {
        if (optional) return "";
        throw new Error(`routekit: missing param "${name}" for "${pattern}"`);
      }
      return encodeURIComponent(value);
    })
    .filter((seg, i) => i === 0 || seg !== "")
    .join("/");
  return out || "/";
}
