export interface Config {
  extends?: string;
  include: string[];
  exclude: string[];
  rules: Record<string, "off" | "warn" | "error">;
}

const LEVELS = new Set(["off", "warn", "error"]);

export class ConfigError extends Error {
  constructor(public file: string, message: string) {
    super(`${file}: ${message}`);
  }
}

export function validate(file: string, raw: any): Config {
  if (typeof raw !== "object" || raw === null) throw new ConfigError(file, "expected a table at the top level");
  const rules = raw.rules ?? {};
  for (const [name, level] of Object.entries(rules)) {
    if (!LEVELS.has(level as string)) throw new ConfigError(file, `rule ${name}: unknown level ${String(level)}`);
  }
  return { extends: raw.extends, include: raw.include ?? ["**/*"], exclude: raw.exclude ?? [], rules: rules as Config["rules"] };
}
