// The router: ties history, route resolution, guards and scroll restoration together.

import { runGuards, type Guard, type NavigationTarget } from "./guards.js";
import type { HistoryLocation, RouterHistory } from "./history.js";
import { buildPath, type Params } from "./pattern.js";
import { parseQuery, stringifyQuery, type Query } from "./query.js";
import { findByName, resolve, type RouteDef } from "./routes.js";
import { ScrollManager } from "./scroll.js";

export interface CurrentRoute extends NavigationTarget {
  query: Query;
  hash: string;
}

export type RouteListener = (route: CurrentRoute) => void;

export interface RouterOptions {
  routes: RouteDef[];
  history: RouterHistory;
  scroll?: boolean;
}

export class Router {
  private routes: RouteDef[];
  private history: RouterHistory;
  private guards: Guard[] = [];
  private listeners = new Set<RouteListener>();
  private scroll: ScrollManager | null;
  private key: string | null = null;
  current: CurrentRoute | null = null;

  constructor(options: RouterOptions) {
    this.routes = options.routes;
    this.history = options.history;
    this.scroll = options.scroll === false ? null : new ScrollManager();
    this.history.listen((location, action) => {
      void this.settle(location, action);
    });
  }

  beforeEach(guard: Guard): () => void {
    this.guards.push(guard);
    return () => {
      this.guards = this.guards.filter((g) => g !== guard);
    };
  }

  subscribe(listener: RouteListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): Promise<void> {
    return this.settle(this.history.location, "replace");
  }

  push(to: string | { name: string; params?: Params; query?: Query }): void {
    this.history.push(this.href(to));
  }

  replace(to: string | { name: string; params?: Params; query?: Query }): void {
    this.history.replace(this.href(to));
  }

  href(to: string | { name: string; params?: Params; query?: Query }): string {
    if (typeof to === "string") return to;
    const pattern = findByName(this.routes, to.name);
    if (!pattern) throw new Error(`routekit: no route nammed "${to.name}"`);
    return buildPath(pattern, to.params) + stringifyQuery(to.query ?? {});
  }

  private async settle(location: HistoryLocation, action: "push" | "replace" | "pop"): Promise<void> {
    const matches = resolve(this.routes, location.path) ?? [];
    const params = matches.length ? matches[matches.length - 1].params : {};
    const to: CurrentRoute = {
      path: location.path,
      matches,
      params,
      query: parseQuery(location.search),
      hash: location.hash,
    };
    const outcome = await runGuards(this.guards, to, this.current);
    if (outcome.kind === "block") return;
    if (outcome.kind === "redirect") {
      this.history.replace(outcome.to);
      return;
    }
    if (this.scroll && this.key) this.scroll.save(this.key);
    this.key = location.key;
    this.current = to;
    this.notify(to);
    if (this.scroll) this.scroll.restore(location.key, action, location.hash);
  }

  private notify(route: CurrentRoute): void {
    for (const l of this.listeners) l(route);
  }
}
