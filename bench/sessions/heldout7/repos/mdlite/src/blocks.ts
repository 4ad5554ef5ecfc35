// Block parser: classified lines -> block tree.

import { Line, tokenize } from "./tokenizer.js";

export type Block =
  | { type: "heading"; level: number; text: string }
  | { type: "paragraph"; text: string }
  | { type: "code"; lang: string; text: string }
  | { type: "quote"; children: Block[] }
  | { type: "list"; ordered: boolean; start: number; items: Block[][] }
  | { type: "html"; raw: string };

function collectFence(lines: Line[], i: number): [Block, number] {
  const lang = lines[i].text;
  const body: string[] = [];
  i++;
  while (i < lines.length && lines[i].kind !== "fence") {
    body.push(lines[i].text);
    i++;
  }
  return [{ type: "code", lang, text: body.join("\n") }, i + 1];
}

function collectList(lines: Line[], i: number): [Block, number] {
  const ordered = lines[i].kind === "ordered";
  const start = lines[i].level ?? 1;
  const items: Block[][] = [];
  while (i < lines.length && lines[i].kind === (ordered ? "ordered" : "bullet")) {
    const item = [lines[i].text];
    i++;
    while (i < lines.length && lines[i].kind === "text" && lines[i].indent >= 2) {
      item.push(lines[i].text.trim());
      i++;
    }
    items.push(parseBlocks(item.join("\n")));
  }
  return [{ type: "list", ordered, start, items }, i];
}

export function parseBlocks(source: string): Block[] {
  const lines = tokenize(source);
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    switch (line.kind) {
      case "blank":
        i++;
        break;
      case "heading":
        out.push({ type: "heading", level: line.level ?? 1, text: line.text });
        i++;
        break;
      case "fence": {
        const [b, next] = collectFence(lines, i);
        out.push(b);
        i = next;
        break;
      }
      case "quote": {
        const body: string[] = [];
        while (i < lines.length && lines[i].kind === "quote") body.push(lines[i++].text);
        out.push({ type: "quote", children: parseBlocks(body.join("\n")) });
        break;
      }
      case "bullet":
      case "ordered": {
        const [b, next] = collectList(lines, i);
        out.push(b);
        i = next;
        break;
      }
      case "html": {
        const raw: string[] = [];
        while (i < lines.length && lines[i].kind !== "blank") raw.push(lines[i++].text);
        out.push({ type: "html", raw: raw.join("\n") });
        break;
      }
      default: {
        const para: string[] = [];
        while (i < lines.length && (lines[i].kind === "text" || lines[i].kind === "pipe")) para.push(lines[i++].text.trim());
        out.push({ type: "paragraph", text: para.join("\n") });
      }
    }
  }
  return out;
}
