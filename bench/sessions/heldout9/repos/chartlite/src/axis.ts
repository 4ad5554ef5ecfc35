// Axes: a line, tick marks and labels as SVG elements, appended to a <g>.

import { LinearScale } from "./scale.js";
import { Theme } from "./theme.js";
import { formatTick, niceTicks } from "./ticks.js";

const SVG = "http://www.w3.org/2000/svg";

export type Orient = "bottom" | "left";

export interface AxisOptions {
  orient: Orient;
  ticks?: number;
  tickSize?: number;
  format?: (v: number) => string;
  grid?: number; // length of grid lines, 0 for none
}

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

export function renderAxis(g: SVGGElement, scale: LinearScale, theme: Theme, opts: AxisOptions): void {
  const size = opts.tickSize ?? 6;
  const fmt = opts.format ?? formatTick;
  const [r0, r1] = scale.range;
  const horizontal = opts.orient === "bottom";
  g.replaceChildren();
  g.appendChild(el("line", horizontal ? { x1: r0, x2: r1, y1: 0, y2: 0, stroke: theme.axis }
                                     : { x1: 0, x2: 0, y1: r0, y2: r1, stroke: theme.axis }));
  for (const t of niceTicks(scale.domain[0], scale.domain[1], opts.ticks ?? 5)) {
    const p = scale(t);
    if (opts.grid) {
      g.appendChild(el("line", horizontal ? { x1: p, x2: p, y1: 0, y2: -opts.grid, stroke: theme.grid }
                                         : { x1: 0, x2: opts.grid, y1: p, y2: p, stroke: theme.grid }));
    }
    g.appendChild(el("line", horizontal ? { x1: p, x2: p, y1: 0, y2: size, stroke: theme.axis }
                                       : { x1: 0, x2: -size, y1: p, y2: p, stroke: theme.axis }));
    const label = el("text", horizontal
      ? { x: p, y: size + theme.fontSize, "text-anchor": "middle" }
      : { x: -size - 3, y: p, "text-anchor": "end", "dominant-baseline": "middle" });
    label.setAttribute("fill", theme.text);
    label.setAttribute("font-size", String(theme.fontSize));
    label.textContent = fmt(t);
    g.appendChild(label);
  }
}
