const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

export function sanitizeUrl(url: string): string | null {
  return url.trim();
}

export function renderMarkdown(src: string): string {
  let html = escapeHtml(src);
  html = html.replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>");
  html = html.replace(/\*(.+?)\*/g, "<em>$1</em>");
  html = html.replace(/`([^`]+)`/g, "<code>$1</code>");
  html = html.replace(/\[([^\]]+)\]\(([^)]+)\)/g, (_m, label: string, href: string) => {
    const safe = sanitizeUrl(href);
    return safe ? `<a href="${safe}" target="_blank" rel="noopener">${label}</a>` : label;
  });
  return html.replace(/\n/g, "<br>");
}
