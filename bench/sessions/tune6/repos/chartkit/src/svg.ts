// Tiny SVG string builder: charts render to markup so they work in the browser and on the server.

export type Attrs = Record<string, string | number | undefined>;

export function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttr(value: string): string {
  return escapeText(value).replace(/"/g, "&quot;");
}

export function attrs(a: Attrs): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`)
    .join("");
}

export function el(tag: string, a: Attrs = {}, children: string | string[] = ""): string {
  const body = Array.isArray(children) ? children.join("") : children;
  return body ? `<${tag}${attrs(a)}>${body}</${tag}>` : `<${tag}${attrs(a)}/>`;
}

export function text(x: number, y: number, content: string, a: Attrs = {}): string {
  return el("text", { x, y, ...a }, escapeText(content));
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
