// History adapters: the browser's History API, and an in-memory one for tests and SSR.

export interface HistoryLocation {
  path: string;
  search: string;
  hash: string;
  /** Unique per history entry; scroll positions are stored under it. */
  key: string;
}

export type HistoryListener = (location: HistoryLocation, action: "push" | "replace" | "pop") => void;

export interface RouterHistory {
  readonly location: HistoryLocation;
  push(url: string): void;
  replace(url: string): void;
  go(delta: number): void;
  listen(listener: HistoryListener): () => void;
}

let counter = 0;
function newKey(): string {
  counter += 1;
  return `${Date.now().toString(36)}-${counter}`;
}

function parse(url: string, key: string): HistoryLocation {
  const u = new URL(url, "http://routekit.local");
  return { path: u.pathname, search: u.search, hash: u.hash, key };
}

export class BrowserHistory implements RouterHistory {
  private listeners = new Set<HistoryListener>();
  location: HistoryLocation;

  constructor() {
    const key = (window.history.state && window.history.state.key) || newKey();
    this.location = parse(window.location.pathname + window.location.search + window.location.hash, key);
    window.addEventListener("popstate", (event: PopStateEvent) => {
      const k = (event.state && event.state.key) || newKey();
      this.location = parse(window.location.pathname + window.location.search + window.location.hash, k);
      this.emit("pop");
    });
  }

  push(url: string): void {
    const key = newKey();
    window.history.pushState({ key }, "", url);
    this.location = parse(url, key);
    this.emit("push");
  }

  replace(url: string): void {
    const key = this.location.key;
    window.history.replaceState({ key }, "", url);
    this.location = parse(url, key);
    this.emit("replace");
  }

  go(delta: number): void {
    window.history.go(delta);
  }

  listen(listener: HistoryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(action: "push" | "replace" | "pop"): void {
    for (const l of this.listeners) l(this.location, action);
  }
}

export class MemoryHistory implements RouterHistory {
  private entries: HistoryLocation[];
  private index = 0;
  private listeners = new Set<HistoryListener>();

  constructor(initial = "/") {
    this.entries = [parse(initial, newKey())];
  }

  get location(): HistoryLocation {
    return this.entries[this.index];
  }

  push(url: string): void {
    this.entries = this.entries.slice(0, this.index + 1);
    this.entries.push(parse(url, newKey()));
    this.index += 1;
    this.emit("push");
  }

  replace(url: string): void {
    this.entries[this.index] = parse(url, this.location.key);
    this.emit("replace");
  }

  go(delta: number): void {
    const next = Math.max(0, Math.min(this.entries.length - 1, this.index + delta));
    if (next === this.index) return;
    this.index = next;
    this.emit("pop");
  }

  listen(listener: HistoryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(action: "push" | "replace" | "pop"): void {
    for (const l of this.listeners) l(this.location, action);
  }
}
