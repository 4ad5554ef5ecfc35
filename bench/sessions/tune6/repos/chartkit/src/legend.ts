// The legend: a swatch and a name per series, laid out in a row that wraps.

import { el, text } from "./svg";

export interface LegendItem {
  name: string;
  color: string;
  hidden?: boolean;
}

export interface LegendOptions {
  width: number;
  swatch?: number;
  gap?: number;
  fontSize?: number;
}

export function itemWidth(name: string, fontSize: number, swatch: number): number {
  return swatch + 6 + Math.ceil(name.length * fontSize * 0.6);
}

export function renderLegend(items: LegendItem[], opts: LegendOptions): string {
  const { width, swatch = 10, gap = 16, fontSize = 12 } = opts;
  const parts: string[] = [];
  let x = 0;
  let y = 0;
  for (const item of items) {
    const w = itemWidth(item.name, fontSize, swatch);
    if (x > 0 && x + w > width) {
      x = 0;
      y += fontSize + 8;
    }
    parts.push(el("g", { class: item.hidden ? "ck-legend-item ck-hidden" : "ck-legend-item",
                         transform: `translate(${x},${y})`, "data-series": item.name }, [
      el("rect", { width: swatch, height: swatch, y: -swatch + 1, fill: item.color }),
      text(swatch + 6, 0, item.name, { "font-size": fontSize }),
    ]));
    x += w + gap;
  }
  return el("g", { class: "ck-legend" }, parts);
}
