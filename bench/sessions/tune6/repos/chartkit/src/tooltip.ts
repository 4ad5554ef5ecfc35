// The tooltip: the one part of chartkit that needs a browser. It follows the pointer over a
// rendered chart and shows the values of the nearest point.

import { formatNumber } from "./format";
import type { LinearScale } from "./scale";
import type { LineSeries } from "./series";

export interface TooltipOptions {
  x: LinearScale;
  y: LinearScale;
  series: LineSeries[];
  formatX?: (v: number) => string;
  formatY?: (v: number) => string;
}

export function nearestIndex(s: LineSeries, px: number, py: number, x: LinearScale, y: LinearScale): number {
  let best = -1;
  let bestDist = Infinity;
  s.points.forEach((p, i) => {
    if (!Number.isFinite(p.y)) return;
    const dx = x(p.x) - px;
    const dy = y(p.y) - py;
    const dist = dx * dx + dy * dy;
    if (dist < bestDist) {
      bestDist = dist;
      best = i;
    }
  });
  return best;
}

export class Tooltip {
  private box: HTMLDivElement;
  private onMove = (ev: PointerEvent) => this.move(ev);
  private onLeave = () => this.hide();

  constructor(private svg: SVGSVGElement, private opts: TooltipOptions) {
    this.box = document.createElement("div");
    this.box.className = "ck-tooltip";
    this.box.style.position = "absolute";
    this.box.style.pointerEvents = "none";
    this.box.hidden = true;
    (svg.parentElement ?? document.body).appendChild(this.box);
    svg.addEventListener("pointermove", this.onMove);
    svg.addEventListener("pointerleave", this.onLeave);
  }

  private move(ev: PointerEvent): void {
    const rect = this.svg.getBoundingClientRect();
    const px = ev.clientX - rect.left;
    const py = ev.clientY - rect.top;
    const fx = this.opts.formatX ?? ((v: number) => formatNumber(v));
    const fy = this.opts.formatY ?? ((v: number) => formatNumber(v, { decimals: 2 }));
    const lines: string[] = [];
    let at: number | undefined;
    for (const s of this.opts.series) {
      const i = nearestIndex(s, px, py, this.opts.x, this.opts.y);
      if (i < 0) continue;
      at ??= s.points[i].x;
      lines.push(`${s.name}: ${fy(s.points[i].y)}`);
    }
    if (at === undefined) return this.hide();
    this.box.textContent = [fx(at), ...lines].join("\n");
    this.box.style.left = `${px + 12}px`;
    this.box.style.top = `${py + 12}px`;
    this.box.hidden = false;
  }

  hide(): void {
    this.box.hidden = true;
  }

  destroy(): void {
    this.svg.removeEventListener("pointermove", this.onMove);
    this.svg.removeEventListener("pointerleave", this.onLeave);
    this.box.remove();
  }
}
