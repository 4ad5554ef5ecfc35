// A chart: series, scales fitted to them, axes and a legend, rendered to one SVG string.

import { renderAxis } from "./axis";
import { renderLegend } from "./legend";
import { bandScale, extent, linearScale, type LinearScale } from "./scale";
import { renderBars, renderLine, seriesValues, type Series } from "./series";
import { el } from "./svg";

export interface ChartOptions {
  width: number;
  height: number;
  margin?: { top: number; right: number; bottom: number; left: number };
  title?: string;
}

const DEFAULT_MARGIN = { top: 32, right: 16, bottom: 40, left: 56 };

export class Chart {
  private series: Series[] = [];

  constructor(private opts: ChartOptions) {}

  add(s: Series): this {
    if (this.series.some((x) => x.name === s.name)) throw new Error(`duplicate series: ${s.name}`);
    this.series.push(s);
    return this;
  }

  get margin() {
    return this.opts.margin ?? DEFAULT_MARGIN;
  }

  yDomain(): [number, number] {
    const values = this.series.flatMap(seriesValues);
    const [lo, hi] = extent(values);
    return [Math.min(0, lo), hi];
  }

  private xScale(): LinearScale {
    const xs = this.series.flatMap((s) => (s.kind === "line" ? s.points.map((p) => p.x) : []));
    const m = this.margin;
    return linearScale(extent(xs), [0, this.opts.width - m.left - m.right]);
  }

  render(): string {
    const m = this.margin;
    const innerW = this.opts.width - m.left - m.right;
    const innerH = this.opts.height - m.top - m.bottom;
    const y = linearScale(this.yDomain(), [innerH, 0]);
    const x = this.xScale();
    const body: string[] = [];
    for (const s of this.series) {
      if (s.kind === "line") {
        body.push(renderLine(s, x, y));
      } else {
        body.push(renderBars(s, bandScale(s.bars.map((b) => b.key), [0, innerW]), y));
      }
    }
    const legend = renderLegend(this.series.map((s) => ({ name: s.name, color: s.color })), { width: innerW });
    return el("svg", { xmlns: "http://www.w3.org/2000/svg", width: this.opts.width, height: this.opts.height,
                       class: "ck-chart" }, [
      el("g", { transform: `translate(${m.left},${m.top})` }, [
        ...body,
        el("g", { transform: `translate(0,${innerH})` }, renderAxis(x, "bottom")),
        renderAxis(y, "left"),
      ]),
      el("g", { transform: `translate(${m.left},14)` }, legend),
    ]);
  }
}
