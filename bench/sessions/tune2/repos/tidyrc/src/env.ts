const VAR = /\$\{?([A-Z_][A-Z0-9_]*)\}?/g;

export function expandEnv(value: string, env: NodeJS.ProcessEnv = process.env): string {
  return value.replace(VAR, (_m, name: string) => env[name] ?? "");
}
