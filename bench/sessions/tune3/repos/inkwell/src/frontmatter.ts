export interface FrontMatter {
  data: Record<string, string | string[] | boolean>;
  body: string;
}

export class FrontMatterError extends Error {}

function parseValue(raw: string): string | string[] | boolean {
  const v = raw.trim();
  if (v === "true" || v === "false") return v === "true";
  if (v.startsWith("[") && v.endsWith("]")) {
    return v.slice(1, -1).split(",").map((s) => s.trim()).filter(Boolean);
  }
  return v.replace(/^["']|["']$/g, "");
}

export function parseFrontMatter(text: string, file: string): FrontMatter {
  if (!text.startsWith("---\n")) return { data: {}, body: text };
  const end = text.indexOf("\n---", 4);
  if (end === -1) throw new FrontMatterError(`${file}: front matter is not closed`);
  const data: FrontMatter["data"] = {};
  text.slice(4, end).split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const colon = line.indexOf(":");
    if (colon === -1) throw new FrontMatterError(`${file}:${i + 2}: expected "key: value"`);
    data[line.slice(0, colon).trim()] = parseValue(line.slice(colon + 1));
  });
  return { data, body: text.slice(end + 4).replace(/^\n/, "") };
}
