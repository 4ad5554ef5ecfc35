#!/usr/bin/env node
import { promises as fs } from "node:fs";
import { buildSite } from "./build.js";
import type { SiteConfig } from "./types.js";

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== "build") {
    console.error("usage: inkwell build [--out DIR]");
    return 2;
  }
  const site: SiteConfig = JSON.parse(await fs.readFile("inkwell.json", "utf8"));
  const out = rest.indexOf("--out");
  if (out !== -1 && rest[out + 1]) site.outDir = rest[out + 1];
  const { pages, broken } = await buildSite(site);
  console.log(`built ${pages} pages, ${broken} broken links`);
  return broken > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then((code) => process.exit(code));
