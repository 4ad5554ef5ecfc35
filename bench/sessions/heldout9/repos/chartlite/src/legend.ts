// Legend: one swatch and label per series; clicking toggles the series.

import { Theme, seriesColor } from "./theme.js";

export interface LegendItem {
  name: string;
  visible: boolean;
}

export interface LegendOptions {
  onToggle?: (name: string, visible: boolean) => void;
}

export function renderLegend(container: HTMLElement, items: LegendItem[], theme: Theme,
                             opts: LegendOptions = {}): void {
  container.replaceChildren();
  container.setAttribute("role", "list");
  items.forEach((item, i) => {
    const entry = document.createElement("button");
    entry.type = "button";
    entry.setAttribute("role", "listitem");
    entry.setAttribute("aria-pressed", String(item.visible));
    entry.style.cssText = `font:${theme.fontSize}px ${theme.fontFamily};color:${theme.text};`
      + "background:none;border:0;cursor:pointer;margin-right:12px";
    const swatch = document.createElement("span");
    swatch.style.cssText = `display:inline-block;width:10px;height:10px;margin-right:4px;`
      + `background:${seriesColor(theme, i)}`;
    entry.append(swatch, item.name);
    entry.addEventListener("click", () => {
      item.visible = !item.visible;
      entry.setAttribute("aria-pressed", String(item.visible));
      opts.onToggle?.(item.name, item.visible);
    });
    container.appendChild(entry);
  });
}

export function legendItems(names: string[], hidden: Set<string> = new Set()): LegendItem[] {
  return names.map((name) => ({ name, visible: !hidden.has(name) }));
}

export function visibleNames(items: LegendItem[]): string[] {
  return items.filter((i) => i.visible).map((i) => i.name);
}
