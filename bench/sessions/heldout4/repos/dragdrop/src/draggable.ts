import { AutoScroller, type AutoScrollOptions } from "./autoscroll";
import { constrain, type Constraints } from "./constraints";
import { dropOn, highlight, zoneAt, type Zone } from "./dropzone";
import { createGhost, moveGhost, removeGhost, type Ghost } from "./ghost";
import { KeyboardDrag } from "./keyboard";
import { PointerTracker } from "./pointer";
import type { DragItem, Point } from "./types";

export interface DraggableOptions {
  type?: string;
  data?: unknown;
  handle?: HTMLElement;
  constraints?: Constraints;
  autoScroll?: AutoScrollOptions | false;
  onDragStart?: (item: DragItem) => void;
  onDragEnd?: (item: DragItem, dropped: boolean) => void;
}

export function makeDraggable(el: HTMLElement, opts: DraggableOptions = {}): () => void {
  const item: DragItem = { el, data: opts.data, type: opts.type ?? "default" };
  const scroller = opts.autoScroll === false ? null : new AutoScroller(opts.autoScroll);
  let ghost: Ghost | null = null;
  let over: Zone | null = null;
  let origin: Point = { x: 0, y: 0 };

  const finish = (dropped: boolean) => {
    if (ghost) removeGhost(ghost);
    ghost = null;
    highlight(null, over);
    over = null;
    scroller?.stop();
    el.classList.remove("dd-dragging");
    opts.onDragEnd?.(item, dropped);
  };

  const tracker = new PointerTracker(opts.handle ?? el, {
    start(at) {
      origin = at;
      ghost = createGhost(el, at);
      scroller?.start(el);
      el.classList.add("dd-dragging");
      opts.onDragStart?.(item);
    },
    move(at) {
      if (!ghost) return;
      const rect = ghost.el.getBoundingClientRect();
      const p = opts.constraints ? constrain(origin, at, opts.constraints, rect) : at;
      moveGhost(ghost, p);
      scroller?.update(at);
      const zone = zoneAt(at.x, at.y, item);
      highlight(zone, over);
      over = zone;
    },
    end() {
      const zone = over;
      if (zone) dropOn(zone, item);
      finish(zone !== null);
    },
    cancel() {
      finish(false);
    },
  });

  const keyboard = new KeyboardDrag(item, {
    drop(zoneEl) {
      const zone = zoneAt(zoneEl.getBoundingClientRect().x + 1, zoneEl.getBoundingClientRect().y + 1, item);
      if (zone) dropOn(zone, item);
      opts.onDragEnd?.(item, zone !== null);
    },
    cancel() {
      opts.onDragEnd?.(item, false);
    },
  });

  return () => {
    tracker.destroy();
    keyboard.destroy();
    scroller?.stop();
  };
}
