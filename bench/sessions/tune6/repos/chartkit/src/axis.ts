// Axes: a domain line, tick marks and tick labels, as an SVG group.

import { tickFormatter } from "./format";
import type { LinearScale } from "./scale";
import { el, text } from "./svg";

export type Orient = "bottom" | "left";

export interface AxisOptions {
  ticks?: number;
  tickSize?: number;
  format?: (v: number) => string;
  label?: string;
}

export function crisp(px: number): number {
  return Math.round(px) + 0.5;
}

export function renderAxis(scale: LinearScale, orient: Orient, opts: AxisOptions = {}): string {
  const { ticks: count = 5, tickSize = 6, label } = opts;
  const values = scale.ticks(count);
  const format = opts.format ?? tickFormatter(values);
  const [r0, r1] = scale.range;
  const parts: string[] = [];
  if (orient === "bottom") {
    parts.push(el("line", { x1: r0, x2: r1, y1: 0.5, y2: 0.5, class: "ck-domain" }));
    for (const v of values) {
      const x = crisp(scale(v));
      parts.push(el("line", { x1: x, x2: x, y1: 0, y2: tickSize, class: "ck-tick" }));
      parts.push(text(x, tickSize + 12, format(v), { "text-anchor": "middle" }));
    }
    if (label) parts.push(text((r0 + r1) / 2, tickSize + 30, label, { "text-anchor": "middle", class: "ck-label" }));
  } else {
    parts.push(el("line", { x1: -0.5, x2: -0.5, y1: r0, y2: r1, class: "ck-domain" }));
    for (const v of values) {
      const y = crisp(scale(v));
      parts.push(el("line", { x1: -tickSize, x2: 0, y1: y, y2: y, class: "ck-tick" }));
      parts.push(text(-tickSize - 4, y + 4, format(v), { "text-anchor": "end" }));
    }
    if (label) parts.push(text(-40, (r0 + r1) / 2, label, { "text-anchor": "middle", class: "ck-label" }));
  }
  return el("g", { class: `ck-axis ck-axis-${orient}` }, parts);
}
