// Inline parser: emphasis, code spans, links, images, hard breaks. Returns HTML.

import { escapeAttr, escapeHtml, unescapeMd } from "./escape.js";

const CODE = /`([^`]+)`/y;
const LINK = /\[([^\]]*)\]\(([^)\s]*)(?:\s+"([^"]*)")?\)/y;
const IMAGE = /!\[([^\]]*)\]\(([^)\s]*)(?:\s+"([^"]*)")?\)/y;
const STRONG = /\*\*([^*]+)\*\*/y;
const EM = /\*([^*]+)\*|_([^_]+)_/y;

function at(re: RegExp, text: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(text);
}

export function renderLink(label: string, href: string, title?: string): string {
  const t = title ? ` title="${escapeAttr(title)}"` : "";
  return `<a href="${escapeAttr(href)}"${t}>${parseInline(label)}</a>`;
}

export function renderImage(alt: string, src: string, title?: string): string {
  const t = title ? ` title="${escapeAttr(title)}"` : "";
  return `<img src="${escapeAttr(src)}" alt="${escapeAttr(alt)}"${t}>`;
}

export function parseInline(text: string): string {
  let out = "";
  let plain = "";
  const flush = () => {
    out += escapeHtml(unescapeMd(plain));
    plain = "";
  };
  let i = 0;
  while (i < text.length) {
    let m: RegExpExecArray | null;
    if (text[i] === "\\" && i + 1 < text.length) {
      plain += text.slice(i, i + 2);
      i += 2;
    } else if ((m = at(CODE, text, i))) {
      flush();
      out += `<code>${escapeHtml(m[1])}</code>`;
      i += m[0].length;
    } else if ((m = at(IMAGE, text, i))) {
      flush();
      out += renderImage(m[1], m[2], m[3]);
      i += m[0].length;
    } else if ((m = at(LINK, text, i))) {
      flush();
      out += renderLink(m[1], m[2], m[3]);
      i += m[0].length;
    } else if ((m = at(STRONG, text, i))) {
      flush();
      out += `<strong>${parseInline(m[1])}</strong>`;
      i += m[0].length;
    } else if ((m = at(EM, text, i))) {
      flush();
      out += `<em>${parseInline(m[1] ?? m[2])}</em>`;
      i += m[0].length;
    } else if (text.startsWith("  \n", i)) {
      flush();
      out += "<br>\n";
      i += 3;
    } else {
      plain += text[i];
      i++;
    }
  }
  flush();
  return out;
}
