// Line and bar series: SVG path data and rect geometry from data points and scales.

import { BandScale, LinearScale } from "./scale.js";

export interface Point {
  x: number;
  y: number;
}

export interface Bar {
  key: string;
  value: number;
}

export function linePath(points: Point[], x: LinearScale, y: LinearScale): string {
  let d = "";
  let pen = false;
  for (const p of points) {
    if (!Number.isFinite(p.y)) {
      pen = false; // a gap in the data breaks the line
      continue;
    }
    d += `${pen ? "L" : "M"}${x(p.x).toFixed(2)},${y(p.y).toFixed(2)}`;
    pen = true;
  }
  return d;
}

export interface BarRect {
  key: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export function barRects(bars: Bar[], x: BandScale, y: LinearScale): BarRect[] {
  const base = y(0);
  return bars.map((b) => {
    const top = y(b.value);
    return {
      key: b.key,
      x: x(b.key),
      y: Math.min(top, base),
      width: x.bandwidth,
      height: Math.abs(base - top),
    };
  });
}

export function nearestPoint(points: Point[], x: LinearScale, px: number): Point | undefined {
  let best: Point | undefined;
  let bestDist = Infinity;
  for (const p of points) {
    const dist = Math.abs(x(p.x) - px);
    if (dist < bestDist) {
      best = p;
      bestDist = dist;
    }
  }
  return best;
}
