// Splits markdown source into classified lines for the block parser.

export type LineKind = "blank" | "heading" | "fence" | "quote" | "bullet" | "ordered" | "html" | "pipe" | "text";

export interface Line {
  kind: LineKind;
  text: string;
  indent: number;
  level?: number;
}

const TAB = "    ";

export function expandTabs(line: string): string {
  let i = 0;
  while (i < line.length && line[i] === "\t") i++;
  return TAB.repeat(i) + line.slice(i);
}

function indentOf(line: string): number {
  let n = 0;
  while (n < line.length && line[n] === " ") n++;
  return n;
}

export function classify(raw: string): Line {
  const line = expandTabs(raw);
  const indent = indentOf(line);
  const body = line.slice(indent);
  if (body.trim() === "") return { kind: "blank", text: "", indent };
  const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(body);
  if (h && indent < 4) return { kind: "heading", text: h[2], indent, level: h[1].length };
  if (/^(```|~~~)/.test(body)) return { kind: "fence", text: body.slice(3).trim(), indent };
  if (body.startsWith(">")) return { kind: "quote", text: body.replace(/^>\s?/, ""), indent };
  if (/^[-*+]\s+/.test(body)) return { kind: "bullet", text: body.replace(/^[-*+]\s+/, ""), indent };
  const o = /^(\d{1,9})[.)]\s+(.*)$/.exec(body);
  if (o) return { kind: "ordered", text: o[2], indent, level: Number(o[1]) };
  if (/^<\/?[a-zA-Z][^>]*>/.test(body) && indent < 4) return { kind: "html", text: line, indent };
  if (body.startsWith("|")) return { kind: "pipe", text: body, indent };
  return { kind: "text", text: line, indent };
}

export function tokenize(source: string): Line[] {
  return source.replace(/\r\n?/g, "\n").split("\n").map(classify);
}
