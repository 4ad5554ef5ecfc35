import type { Point } from "./types";

export interface AutoScrollOptions {
  /** distance from an edge, in px, at which scrolling starts */
  edge?: number;
  /** px per frame */
  speed?: number;
}

export function findScrollContainer(el: HTMLElement | null): HTMLElement | null {
  while (el && el !== document.body) {
    const style = getComputedStyle(el);
    if (/(auto|scroll)/.test(style.overflowY + style.overflowX) &&
        (el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth)) {
      return el;
    }
    el = el.parentElement;
  }
  return document.scrollingElement as HTMLElement | null;
}

/** Scrolls the container under the pointer while a drag is near one of its edges. */
export class AutoScroller {
  private frame = 0;
  private pointer: Point | null = null;
  private container: HTMLElement | null = null;
  private edge: number;
  private speed: number;

  constructor(opts: AutoScrollOptions = {}) {
    this.edge = opts.edge ?? 40;
    this.speed = opts.speed ?? 12;
  }

  start(source: HTMLElement): void {
    this.container = findScrollContainer(source.parentElement);
  }

  update(at: Point): void {
    this.pointer = at;
    if (!this.frame) this.frame = requestAnimationFrame(() => this.tick());
  }

  speedFor(distance: number): number {
    return distance < this.edge ? this.speed : 0;
  }

  private tick(): void {
    this.frame = 0;
    const c = this.container;
    const p = this.pointer;
    if (!c || !p) return;
    const r = c.getBoundingClientRect();
    const dy = this.speedFor(r.bottom - p.y) - this.speedFor(p.y - r.top);
    const dx = this.speedFor(r.right - p.x) - this.speedFor(p.x - r.left);
    if (dx || dy) {
      c.scrollBy(dx, dy);
      this.frame = requestAnimationFrame(() => this.tick());
    }
  }

  stop(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.pointer = null;
    this.container = null;
  }
}
