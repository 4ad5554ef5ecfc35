import { rfc822 } from "./dates.js";
import type { Post, SiteConfig } from "./types.js";

function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function postUrl(site: SiteConfig, post: Post): string {
  return `${site.baseUrl.replace(/\/$/, "")}/posts/${post.slug}/`;
}

export function feedItem(site: SiteConfig, post: Post): string {
  const url = postUrl(site, post);
  return [
    "<item>",
    `<title>${escapeXml(post.title)}</title>`,
    `<link>${url}</link>`,
    `<pubDate>${rfc822(post.date)}</pubDate>`,
    `<description>${escapeXml(post.html)}</description>`,
    "</item>",
  ].join("\n");
}

export function buildFeed(site: SiteConfig, posts: Post[]): string {
  const items = posts
    .filter((p) => !p.draft)
    .sort((a, b) => b.date.getTime() - a.date.getTime())
    .slice(0, 20)
    .map((p) => feedItem(site, p));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0">',
    "<channel>",
    `<title>${escapeXml(site.title)}</title>`,
    `<link>${site.baseUrl}</link>`,
    ...items,
    "</channel>",
    "</rss>",
  ].join("\n");
}
