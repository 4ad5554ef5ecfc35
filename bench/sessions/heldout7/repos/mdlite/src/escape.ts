// HTML escaping for text and attribute values.

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

export function escapeAttr(value: string): string {
  return escapeHtml(value).replace(/\n/g, "&#10;");
}

export function unescapeMd(text: string): string {
  return text.replace(/\\([\\`*_{}\[\]()#+\-.!|>])/g, "$1");
}
