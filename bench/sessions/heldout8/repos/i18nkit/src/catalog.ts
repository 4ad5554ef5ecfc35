// Catalogs on disk: one JSON file per locale, locales/<locale>.json, flat keys.

import { readFileSync, writeFileSync, readdirSync, existsSync } from "node:fs";
import { join, basename } from "node:path";

export type Message = string | Record<string, string>;
export type Catalog = Record<string, Message>;
export type Catalogs = Record<string, Catalog>;

export function readCatalog(path: string): Catalog {
  const text = readFileSync(path, "utf8");
  const data: unknown = JSON.parse(text);
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new Error(`${path}: a catalog must be a JSON object`);
  }
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== "string" && (typeof value !== "object" || value === null)) {
      throw new Error(`${path}: "${key}" is neither a string nor a plural object`);
    }
  }
  return data as Catalog;
}

export function readCatalogs(dir: string): Catalogs {
  const out: Catalogs = {};
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".json")) continue;
    out[basename(name, ".json")] = readCatalog(join(dir, name));
  }
  return out;
}

export function writeCatalog(path: string, catalog: Catalog): void {
  writeFileSync(path, JSON.stringify(catalog, null, 2));
}

export function mergeKeys(catalog: Catalog, keys: Iterable<string>): { catalog: Catalog; added: string[] } {
  const out: Catalog = { ...catalog };
  const added: string[] = [];
  for (const key of keys) {
    if (!(key in out)) {
      out[key] = "";
      added.push(key);
    }
  }
  return { catalog: out, added };
}
