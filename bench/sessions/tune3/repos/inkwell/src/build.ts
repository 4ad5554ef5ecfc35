import { promises as fs } from "node:fs";
import path from "node:path";
import { marked } from "marked";
import { copyAssets } from "./assets.js";
import { parsePostDate } from "./dates.js";
import { parseFrontMatter } from "./frontmatter.js";
import { checkLinks } from "./links.js";
import { buildFeed } from "./rss.js";
import { slugify, uniqueSlug } from "./slug.js";
import type { Post, SiteConfig } from "./types.js";

export async function loadPosts(site: SiteConfig): Promise<Post[]> {
  const taken = new Set<string>();
  const posts: Post[] = [];
  for (const name of (await fs.readdir(site.contentDir)).filter((n) => n.endsWith(".md")).sort()) {
    const sourcePath = path.join(site.contentDir, name);
    const { data, body } = parseFrontMatter(await fs.readFile(sourcePath, "utf8"), sourcePath);
    const title = String(data.title ?? name.replace(/\.md$/, ""));
    posts.push({
      title,
      slug: uniqueSlug(typeof data.slug === "string" ? data.slug : slugify(title), taken),
      date: parsePostDate(String(data.date), sourcePath),
      tags: Array.isArray(data.tags) ? data.tags : [],
      draft: data.draft === true,
      html: await marked.parse(body),
      sourcePath,
    });
  }
  return posts;
}

export async function buildSite(site: SiteConfig): Promise<{ pages: number; broken: number }> {
  const posts = await loadPosts(site);
  const pages = new Map<string, string>();
  for (const post of posts.filter((p) => !p.draft)) {
    const rel = `/posts/${post.slug}/index.html`;
    const html = `<article><h1>${post.title}</h1>${post.html}</article>`;
    pages.set(rel, html);
    await fs.mkdir(path.join(site.outDir, "posts", post.slug), { recursive: true });
    await fs.writeFile(path.join(site.outDir, rel), html);
  }
  await fs.writeFile(path.join(site.outDir, "feed.xml"), buildFeed(site, posts));
  const assets = await copyAssets(site.assetsDir, site.outDir);
  const files = new Set([...pages.keys(), ...assets, "/feed.xml"]);
  const broken = checkLinks(pages, files);
  for (const b of broken) console.warn(`broken link on ${b.page}: ${b.href}`);
  return { pages: pages.size, broken: broken.length };
}
