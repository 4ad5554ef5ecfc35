// Block tree -> HTML.

import { Block } from "./blocks.js";
import { escapeAttr, escapeHtml } from "./escape.js";
import { parseInline } from "./inline.js";

export interface RenderOptions {
  headingIds?: Map<Block, string>;
}

export function renderBlock(block: Block, opts: RenderOptions = {}): string {
  switch (block.type) {
    case "heading": {
      const id = opts.headingIds?.get(block);
      const attr = id ? ` id="${escapeAttr(id)}"` : "";
      return `<h${block.level}${attr}>${parseInline(block.text)}</h${block.level}>`;
    }
    case "paragraph":
      return `<p>${parseInline(block.text)}</p>`;
    case "code": {
      const cls = block.lang ? ` class="language-${escapeAttr(block.lang)}"` : "";
      return `<pre><code${cls}>${escapeHtml(block.text)}</code></pre>`;
    }
    case "quote":
      return `<blockquote>\n${renderBlocks(block.children, opts)}\n</blockquote>`;
    case "list": {
      const tag = block.ordered ? "ol" : "ul";
      const start = block.ordered && block.start !== 1 ? ` start="${block.start}"` : "";
      const items = block.items.map((item) => `<li>${renderTight(item, opts)}</li>`).join("\n");
      return `<${tag}${start}>\n${items}\n</${tag}>`;
    }
    case "html":
      return block.raw;
  }
}

function renderTight(blocks: Block[], opts: RenderOptions): string {
  if (blocks.length === 1 && blocks[0].type === "paragraph") return parseInline(blocks[0].text);
  return renderBlocks(blocks, opts);
}

export function renderBlocks(blocks: Block[], opts: RenderOptions = {}): string {
  return blocks.map((b) => renderBlock(b, opts)).join("\n");
}
