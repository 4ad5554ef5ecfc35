#!/usr/bin/env node
import { findConfigFile, loadConfig } from "./loader.js";
import { ConfigError } from "./schema.js";

export function main(argv: string[]): number {
  const cwd = argv[0] ?? process.cwd();
  const file = findConfigFile(cwd);
  if (!file) {
    console.error("tidy: no config found");
    return 1;
  }
  try {
    const cfg = loadConfig(file);
    console.log(JSON.stringify(cfg, null, 2));
    return 0;
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`tidy: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

process.exitCode = main(process.argv.slice(2));
