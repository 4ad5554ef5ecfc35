// Painting tools: brush, eraser and flood fill, working on the active layer.

import { RGBA, blend, distance } from "./color";
import { History } from "./history";
import { Layer } from "./layers";

export interface Point {
  x: number;
  y: number;
}

function dab(layer: Layer, at: Point, size: number, paint: (x: number, y: number) => void): void {
  const r = size / 2;
  for (let y = Math.floor(at.y - r); y <= Math.ceil(at.y + r); y++) {
    for (let x = Math.floor(at.x - r); x <= Math.ceil(at.x + r); x++) {
      if ((x - at.x) ** 2 + (y - at.y) ** 2 <= r * r) paint(x, y);
    }
  }
}

export class BrushTool {
  constructor(public color: RGBA, public size = 4) {}

  dab(layer: Layer, at: Point): void {
    dab(layer, at, this.size, (x, y) => {
      if (x < 0 || y < 0 || x >= layer.width || y >= layer.height) return;
      layer.set(x, y, blend(this.color, layer.get(x, y)));
    });
  }

  stroke(layer: Layer, points: Point[], history: History): void {
    const before = layer.snapshot();
    for (const p of points) this.dab(layer, p);
    const after = layer.snapshot();
    history.push({ label: "brush", undo: () => layer.restore(before), redo: () => layer.restore(after) });
  }
}

export class EraserTool {
  constructor(public size = 8) {}

  stroke(layer: Layer, points: Point[], history: History): void {
    const before = layer.snapshot();
    for (const p of points) {
      dab(layer, p, this.size, (x, y) => layer.set(x, y, { r: 0, g: 0, b: 0, a: 0 }));
    }
    const after = layer.snapshot();
    history.push({ label: "eraser", undo: () => layer.restore(before), redo: () => layer.restore(after) });
  }
}

/** Fill the region of pixels like the one at `start` (within `tolerance`) with `color`. */
export function floodFill(layer: Layer, start: Point, color: RGBA, tolerance = 0): number {
  const target = layer.get(start.x, start.y);
  if (distance(target, color) === 0) return 0;
  const seen = new Uint8Array(layer.width * layer.height);
  let filled = 0;
  const visit = (x: number, y: number): void => {
    if (x < 0 || y < 0 || x >= layer.width || y >= layer.height) return;
    const i = y * layer.width + x;
    if (seen[i]) return;
    seen[i] = 1;
    if (distance(layer.get(x, y), target) > tolerance) return;
    layer.set(x, y, color);
    filled++;
    visit(x + 1, y);
    visit(x - 1, y);
    visit(x, y + 1);
    visit(x, y - 1);
  };
  visit(start.x, start.y);
  return filled;
}
