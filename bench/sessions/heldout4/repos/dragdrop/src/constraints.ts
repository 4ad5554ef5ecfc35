import type { Point } from "./types";

export interface Constraints {
  axis?: "x" | "y";
  /** keep the ghost inside this element's box */
  bounds?: HTMLElement;
  /** snap to a grid of this many px */
  grid?: number;
}

export function lockAxis(origin: Point, at: Point, axis?: "x" | "y"): Point {
  if (axis === "x") return { x: at.x, y: origin.y };
  if (axis === "y") return { x: origin.x, y: at.y };
  return at;
}

export function clampTo(at: Point, bounds: DOMRect, size: { width: number; height: number }): Point {
  return {
    x: Math.min(Math.max(at.x, bounds.left), bounds.right - size.width),
    y: Math.min(Math.max(at.y, bounds.top), bounds.bottom - size.height),
  };
}

export function snap(at: Point, grid?: number): Point {
  if (!grid || grid <= 1) return at;
  return { x: Math.round(at.x / grid) * grid, y: Math.round(at.y / grid) * grid };
}

export function constrain(
  origin: Point,
  at: Point,
  c: Constraints,
  size: { width: number; height: number },
): Point {
  let p = lockAxis(origin, at, c.axis);
  if (c.bounds) p = clampTo(p, c.bounds.getBoundingClientRect(), size);
  return snap(p, c.grid);
}
