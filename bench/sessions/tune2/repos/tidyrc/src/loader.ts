import * as fs from "node:fs";
import * as path from "node:path";
import { parse as parseToml } from "smol-toml";

import { deepMerge, Json } from "./merge.js";
import { resolvePath } from "./paths.js";
import { Config, ConfigError, validate } from "./schema.js";

const NAMES = [".tidyrc.toml", ".tidyrc.json", "tidy.config.js"];

export function findConfigFile(start: string): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    for (const name of NAMES) {
      const candidate = path.join(dir, name);
      if (fs.existsSync(candidate)) return candidate;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function readRaw(file: string): Json {
  const text = fs.readFileSync(file, "utf8");
  if (file.endsWith(".toml")) return parseToml(text) as Json;
  if (file.endsWith(".json")) return JSON.parse(text);
  throw new ConfigError(file, "unsupported config format");
}

export function loadConfig(file: string): Config {
  let raw = readRaw(file);
  const ext = (raw as any).extends;
  if (typeof ext === "string") {
    const parent = loadConfig(resolvePath(path.dirname(file), ext));
    raw = deepMerge(parent as unknown as Json, raw);
  }
  return validate(file, raw);
}
