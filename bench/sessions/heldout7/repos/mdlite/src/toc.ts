// Table of contents: heading ids and a nested list of links.

import { Block } from "./blocks.js";
import { escapeAttr, escapeHtml } from "./escape.js";
import { parseInline } from "./inline.js";

export interface TocEntry {
  level: number;
  id: string;
  title: string;
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .trim()
    .replace(/\s+/g, "-");
}

export function buildToc(blocks: Block[], maxLevel = 3): { entries: TocEntry[]; ids: Map<Block, string> } {
  const entries: TocEntry[] = [];
  const ids = new Map<Block, string>();
  const seen = new Map<string, number>();
  for (const b of blocks) {
    if (b.type !== "heading") continue;
    const title = parseInline(b.text);
    let id = slugify(title) || "section";
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    if (n > 0) id = `${id}-${n}`;
    ids.set(b, id);
    if (b.level <= maxLevel) entries.push({ level: b.level, id, title });
  }
  return { entries, ids };
}

export function renderToc(entries: TocEntry[]): string {
  if (entries.length === 0) return "";
  const items = entries.map(
    (e) => `<li class="toc-${e.level}"><a href="#${escapeAttr(e.id)}">${e.title}</a></li>`,
  );
  return `<nav class="toc"><ul>\n${items.join("\n")}\n</ul></nav>`;
}

export function plainTitle(html: string): string {
  return escapeHtml(html.replace(/<[^>]+>/g, ""));
}
