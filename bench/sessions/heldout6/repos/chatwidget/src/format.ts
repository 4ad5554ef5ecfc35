// Markdown-lite: **bold**, _italic_, `code` and bare http(s) links, nothing else.
// Output is an HTML string for MessageList to put into a bubble.

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const BOLD = /\*\*(.+?)\*\*/g;
const ITALIC = /(^|\W)_(.+?)_(?=\W|$)/g;
const CODE = /`([^`]+)`/g;
const URL = /\bhttps?:\/\/[^\s<]+[^\s<.,;:!?)]/g;

export function linkify(html: string): string {
  return html.replace(URL, (url) => `<a href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>`);
}

export function formatMessage(text: string): string {
  let html = text;
  html = html.replace(CODE, (_m, code: string) => `<code>${code}</code>`);
  html = html.replace(BOLD, "<strong>$1</strong>");
  html = html.replace(ITALIC, "$1<em>$2</em>");
  html = linkify(html);
  return html.replace(/\n/g, "<br>");
}

export function plainText(text: string): string {
  return text.replace(BOLD, "$1").replace(CODE, "$1").replace(ITALIC, "$1$2");
}

// A one-line preview for notifications: markers dropped, whitespace collapsed, cut at a word.
export function preview(text: string, max = 80): string {
  const flat = plainText(text).replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : cut) + "…";
}
