// Navigation guards: functions that may allow, block or redirect a navigation.

import type { RouteMatch } from "./routes.js";

export interface NavigationTarget {
  path: string;
  matches: RouteMatch[];
  params: Record<string, string>;
}

/** true/undefined: go on; false: block; a string: redirect there. */
export type GuardResult = boolean | string | void;

export type Guard = (to: NavigationTarget, from: NavigationTarget | null) => GuardResult | Promise<GuardResult>;

export type GuardOutcome = { kind: "allow" } | { kind: "block" } | { kind: "redirect"; to: string };

function guardsOf(target: NavigationTarget): Guard[] {
  const out: Guard[] = [];
  for (const m of target.matches) {
    const g = m.route.beforeEnter;
    if (!g) continue;
    out.push(...(Array.isArray(g) ? g : [g]));
  }
  return out;
}

function interpret(result: GuardResult): GuardOutcome | null {
  if (result === false) return { kind: "block" };
  if (typeof result === "string") return { kind: "redirect", to: result };
  return null;
}

export async function runGuards(
  global: Guard[],
  to: NavigationTarget,
  from: NavigationTarget | null,
): Promise<GuardOutcome> {
  for (const guard of [...global, ...guardsOf(to)]) {
    const outcome = interpret(await guard(to, from));
    if (outcome) return outcome;
  }
  return { kind: "allow" };
}
