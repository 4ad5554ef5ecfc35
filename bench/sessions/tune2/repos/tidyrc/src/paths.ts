import * as path from "node:path";

export function resolvePath(configDir: string, p: string): string {
  return path.isAbsolute(p) ? p : path.join(configDir, p);
}

export function samePath(a: string, b: string): boolean {
  return path.resolve(a) === path.resolve(b);
}
