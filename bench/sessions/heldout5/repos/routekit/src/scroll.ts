// Scroll restoration: remember the scroll position of each history entry, restore it on back/forward.

export interface ScrollPosition {
  x: number;
  y: number;
}

export class ScrollManager {
  private positions = new Map<string, ScrollPosition>();
  private limit: number;

  constructor(limit = 50) {
    this.limit = limit;
  }

  save(key: string): void {
    this.positions.delete(key);
    this.positions.set(key, { x: window.scrollX, y: window.scrollY });
    while (this.positions.size > this.limit) {
      const oldest = this.positions.keys().next().value as string;
      this.positions.delete(oldest);
    }
  }

  /** On back/forward: the saved position; on a new navigation: the top, or the anchor in the hash. */
  restore(key: string, action: "push" | "replace" | "pop", hash = ""): void {
    if (action === "replace") return;
    const saved = action === "pop" ? this.positions.get(key) : undefined;
    if (saved) {
      window.scrollTo(saved.x, saved.y);
      return;
    }
    if (hash) {
      const el = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (el) {
        el.scrollIntoView();
        return;
      }
    }
    window.scrollTo(0, 0);
  }

  forget(key: string): void {
    this.positions.delete(key);
  }
}
