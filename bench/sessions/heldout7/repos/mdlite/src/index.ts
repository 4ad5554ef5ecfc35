// Public entry point.

import { parseBlocks } from "./blocks.js";
import { runPlugins, use, clearPlugins, Plugin } from "./plugins.js";
import { renderBlocks } from "./render.js";
import { buildToc, renderToc } from "./toc.js";

export interface Options {
  toc?: boolean;
  tocMaxLevel?: number;
}

export function render(markdown: string, options: Options = {}): string {
  const blocks = parseBlocks(markdown);
  const { entries, ids } = buildToc(blocks, options.tocMaxLevel ?? 3);
  let html = renderBlocks(blocks, { headingIds: ids });
  if (options.toc) html = renderToc(entries) + "\n" + html;
  return runPlugins(html);
}

export { use, clearPlugins };
export type { Plugin };
