import type { DragItem, DropHandler } from "./types";

export interface ZoneOptions {
  accepts?: string[];
  onDrop?: DropHandler;
  activeClass?: string;
}

interface Zone {
  el: HTMLElement;
  opts: ZoneOptions;
}

const zones: Zone[] = [];

export function registerZone(el: HTMLElement, opts: ZoneOptions = {}): () => void {
  const zone = { el, opts };
  zones.push(zone);
  return () => {
    const i = zones.indexOf(zone);
    if (i >= 0) zones.splice(i, 1);
  };
}

export function accepts(zone: Zone, item: DragItem): boolean {
  return !zone.opts.accepts || zone.opts.accepts.includes(item.type);
}

/** The innermost registered zone under the point that accepts the item. */
export function zoneAt(x: number, y: number, item: DragItem): Zone | null {
  let el = document.elementFromPoint(x, y);
  while (el) {
    const zone = zones.find((z) => z.el === el);
    if (zone && accepts(zone, item)) return zone;
    el = el.parentElement;
  }
  return null;
}

export function highlight(zone: Zone | null, previous: Zone | null): void {
  if (zone === previous) return;
  if (previous) previous.el.classList.remove(previous.opts.activeClass ?? "dd-over");
  if (zone) zone.el.classList.add(zone.opts.activeClass ?? "dd-over");
}

export function dropOn(zone: Zone, item: DragItem): void {
  zone.el.classList.remove(zone.opts.activeClass ?? "dd-over");
  zone.opts.onDrop?.(item, zone.el);
}

/** Zones in document order that accept the item (for keyboard navigation). */
export function acceptingZones(item: DragItem): HTMLElement[] {
  return zones
    .filter((z) => accepts(z, item))
    .map((z) => z.el)
    .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
}

export type { Zone };
