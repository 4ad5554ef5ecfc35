import { readFileSync } from "node:fs";

export interface Config {
  databaseUrl: string;
  concurrency: number;
  pollMs: number;
  maxAttempts: number;
}

const DEFAULTS: Omit<Config, "databaseUrl"> = { concurrency: 4, pollMs: 500, maxAttempts: 8 };

export function loadConfig(path = "jobrunner.json"): Config {
  let raw: Partial<Config>;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new Error(`cannot read config ${path}: ${(err as Error).message}`);
  }
  if (!raw.databaseUrl) throw new Error(`${path}: databaseUrl is required`);
  return { ...DEFAULTS, ...raw } as Config;
}
