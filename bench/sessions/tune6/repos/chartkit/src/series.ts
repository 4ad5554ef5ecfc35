// Line and bar series rendered to SVG paths and rects.

import type { BandScale, LinearScale } from "./scale";
import { el, round2 } from "./svg";

export interface Point {
  x: number;
  y: number;
}

export interface LineSeries {
  kind: "line";
  name: string;
  color: string;
  points: Point[];
}

export interface BarSeries {
  kind: "bar";
  name: string;
  color: string;
  bars: { key: string; value: number }[];
}

export type Series = LineSeries | BarSeries;

export function linePath(points: Point[], x: LinearScale, y: LinearScale): string {
  let d = "";
  let pen = false;
  for (const p of points) {
    if (!Number.isFinite(p.y)) {
      pen = false; // a gap in the data breaks the line
      continue;
    }
    d += `${pen ? "L" : "M"}${round2(x(p.x))},${round2(y(p.y))}`;
    pen = true;
  }
  return d;
}

export function renderLine(s: LineSeries, x: LinearScale, y: LinearScale): string {
  return el("path", { d: linePath(s.points, x, y), fill: "none", stroke: s.color, "stroke-width": 2,
                      class: "ck-line", "data-series": s.name });
}

export function renderBars(s: BarSeries, x: BandScale, y: LinearScale): string {
  const zero = y(0);
  const rects = s.bars.map((b) => {
    const top = y(Math.max(0, b.value));
    const bottom = y(Math.min(0, b.value));
    return el("rect", { x: round2(x(b.key)), y: round2(Math.min(top, zero)), width: round2(x.bandwidth),
                        height: round2(Math.max(1, bottom - top)), fill: s.color });
  });
  return el("g", { class: "ck-bars", "data-series": s.name }, rects);
}

export function seriesValues(s: Series): number[] {
  return s.kind === "line" ? s.points.map((p) => p.y) : s.bars.map((b) => b.value);
}
