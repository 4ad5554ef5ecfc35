// Route tables: nested route definitions, resolved to the chain of matches for a path.

import { compilePattern, matchPattern, type Params } from "./pattern.js";
import type { Guard } from "./guards.js";

export interface RouteDef {
  path: string;
  name?: string;
  component?: unknown;
  children?: RouteDef[];
  beforeEnter?: Guard | Guard[];
  meta?: Record<string, unknown>;
}

export interface RouteMatch {
  route: RouteDef;
  params: Params;
  /** The full pattern, parents' paths joined. */
  fullPath: string;
}

function join(parent: string, child: string): string {
  if (child.startsWith("/")) return child;
  const base = parent.endsWith("/") ? parent.slice(0, -1) : parent;
  return `${base}/${child}`;
}

function bySpecificity(routes: RouteDef[], parent: string): RouteDef[] {
  return [...routes].sort(
    (a, b) => compilePattern(join(parent, b.path)).score - compilePattern(join(parent, a.path)).score,
  );
}

/** The chain of matches (outermost first) for a path, or null when nothing matches. */
export function resolve(routes: RouteDef[], path: string, parent = "", parentParams: Params = {}): RouteMatch[] | null {
  for (const route of bySpecificity(routes, parent)) {
    const fullPath = join(parent, route.path);
    const isLeaf = !route.children || route.children.length === 0;
    const m = matchPattern(fullPath, path, isLeaf);
    if (!m) continue;
    const params = { ...parentParams, ...m.params };
    const here: RouteMatch = { route, params, fullPath };
    if (isLeaf) return [here];
    const rest = resolve(route.children!, path, fullPath, params);
    if (rest) return [here, ...rest];
    if (matchPattern(fullPath, path, true)) return [here];
  }
  return null;
}

export function findByName(routes: RouteDef[], name: string, parent = ""): string | null {
  for (const route of routes) {
    const fullPath = join(parent, route.path);
    if (route.name === name) return fullPath;
    if (route.children) {
      const found = findByName(route.children, name, fullPath);
      if (found) return found;
    }
  }
  return null;
}
