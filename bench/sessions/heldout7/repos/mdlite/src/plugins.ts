// The plugin hook: plugins get the rendered HTML of the document and may rewrite it.

export interface Plugin {
  name: string;
  transform(html: string): string;
}

const registry: Plugin[] = [];

export function use(plugin: Plugin): void {
  if (registry.some((p) => p.name === plugin.name)) {
    throw new Error(`plugin ${plugin.name} is already registered`);
  }
  registry.push(plugin);
}

export function clearPlugins(): void {
  registry.length = 0;
}

export function runPlugins(html: string): string {
  let out = html;
  for (const p of registry) out = p.transform(out);
  return out;
}
