// A tooltip: one absolutely positioned <div> over the chart's container.

import { Theme } from "./theme.js";

export interface TooltipContent {
  title: string;
  rows: { label: string; value: string; color: string }[];
}

export class Tooltip {
  private el: HTMLDivElement;
  private offset = 12;

  constructor(private container: HTMLElement, private theme: Theme) {
    this.el = document.createElement("div");
    this.el.className = "chartlite-tooltip";
    Object.assign(this.el.style, {
      position: "absolute",
      pointerEvents: "none",
      display: "none",
      background: theme.background,
      color: theme.text,
      border: `1px solid ${theme.grid}`,
      font: `${theme.fontSize}px ${theme.fontFamily}`,
      padding: "4px 6px",
    });
    container.appendChild(this.el);
  }

  show(content: TooltipContent, x: number, y: number): void {
    this.el.replaceChildren();
    const title = document.createElement("div");
    title.textContent = content.title;
    title.style.fontWeight = "600";
    this.el.appendChild(title);
    for (const row of content.rows) {
      const line = document.createElement("div");
      const swatch = document.createElement("span");
      swatch.style.cssText = `display:inline-block;width:8px;height:8px;margin-right:4px;background:${row.color}`;
      line.append(swatch, `${row.label}: ${row.value}`);
      this.el.appendChild(line);
    }
    this.el.style.display = "block";
    this.position(x, y);
  }

  position(x: number, y: number): void {
    this.el.style.left = `${x + this.offset}px`;
    this.el.style.top = `${y + this.offset}px`;
  }

  hide(): void {
    this.el.style.display = "none";
  }

  destroy(): void {
    this.el.remove();
  }
}
