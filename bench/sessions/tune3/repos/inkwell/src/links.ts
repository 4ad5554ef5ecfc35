export interface BrokenLink {
  page: string;
  href: string;
}

const HREF = /<(?:a|img|link)\b[^>]*?(?:href|src)="([^"]+)"/g;

export function internalTarget(href: string): string | null {
  if (/^[a-z]+:/i.test(href) || href.startsWith("//") || href.startsWith("#")) return null;
  let target = href.split("#")[0].split("?")[0];
  if (target.endsWith("/")) target += "index.html";
  return target;
}

export function checkLinks(pages: Map<string, string>, files: Set<string>): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const [page, html] of pages) {
    for (const m of html.matchAll(HREF)) {
      const target = internalTarget(m[1]);
      if (target !== null && !files.has(target)) broken.push({ page, href: m[1] });
    }
  }
  return broken;
}
