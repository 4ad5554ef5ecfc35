#!/usr/bin/env node
// i18nkit extract <src...> | i18nkit check <src...> | i18nkit init <locale>

import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { extractFromFiles } from "./extract.js";
import { readCatalogs, readCatalog, writeCatalog, mergeKeys } from "./catalog.js";
import { findMissing, formatReport } from "./missing.js";

const LOCALES_DIR = process.env.I18NKIT_LOCALES ?? "locales";

function sourceFiles(paths: string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p)) {
        if (name === "node_modules" || name.startsWith(".")) continue;
        out.push(...sourceFiles([join(p, name)]));
      }
    } else if (/\.(ts|tsx|js|jsx)$/.test(p)) {
      out.push(p);
    }
  }
  return out;
}

export function main(argv: string[]): number {
  const [command, ...args] = argv;
  switch (command) {
    case "extract": {
      const used = extractFromFiles(sourceFiles(args));
      const path = join(LOCALES_DIR, "en.json");
      const { catalog, added } = mergeKeys(readCatalog(path), used.keys());
      writeCatalog(path, catalog);
      console.log(`added ${added.length} key(s) to ${path}`);
      return 0;
    }
    case "check": {
      const used = extractFromFiles(sourceFiles(args));
      const catalogs = readCatalogs(LOCALES_DIR);
      const missing = findMissing(used, catalogs, Object.keys(catalogs));
      console.log(formatReport(missing));
      return missing.length ? 1 : 0;
    }
    default:
      console.error("usage: i18nkit extract|check <paths...>");
      return 2;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(main(process.argv.slice(2)));
}
