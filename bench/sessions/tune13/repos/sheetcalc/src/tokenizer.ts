// Formula source -> tokens. The leading "=" is stripped by the caller (Sheet.setFormula).

export type TokenKind = "number" | "string" | "ref" | "ident" | "op" | "lparen" | "rparen" | "comma" | "colon" | "bool";

export interface Token {
  kind: TokenKind;
  text: string;
  pos: number;
}

export class TokenizeError extends Error {
  constructor(message: string, readonly pos: number) {
    super(`${message} at ${pos}`);
  }
}

const OPERATORS = ["<=", ">=", "<>", "+", "-", "*", "/", "^", "&", "=", "<", ">"];
const REF = /^\$?[A-Za-z]{1,3}\$?[0-9]+/;
const NUMBER = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_.]*/;

export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (ch === " " || ch === "\t" || ch === "\n") {
      i++;
      continue;
    }
    const rest = src.slice(i);
    let m = NUMBER.exec(rest);
    if (m) {
      tokens.push({ kind: "number", text: m[0], pos: i });
      i += m[0].length;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      let text = "";
      while (j < src.length) {
        if (src[j] === '"' && src[j + 1] === '"') {
          text += '"';
          j += 2;
        } else if (src[j] === '"') {
          break;
        } else {
          text += src[j++];
        }
      }
      if (j >= src.length) throw new TokenizeError("unterminated string", i);
      tokens.push({ kind: "string", text, pos: i });
      i = j + 1;
      continue;
    }
    m = REF.exec(rest);
    if (m && !/^[A-Za-z0-9_(]/.test(rest.slice(m[0].length))) {
      tokens.push({ kind: "ref", text: m[0].toUpperCase(), pos: i });
      i += m[0].length;
      continue;
    }
    m = IDENT.exec(rest);
    if (m) {
      const upper = m[0].toUpperCase();
      const kind: TokenKind = upper === "TRUE" || upper === "FALSE" ? "bool" : "ident";
      tokens.push({ kind, text: upper, pos: i });
      i += m[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (op) {
      tokens.push({ kind: "op", text: op, pos: i });
      i += op.length;
      continue;
    }
    const single: Record<string, TokenKind> = { "(": "lparen", ")": "rparen", ",": "comma", ":": "colon" };
    if (ch in single) {
      tokens.push({ kind: single[ch], text: ch, pos: i });
      i++;
      continue;
    }
    throw new TokenizeError(`unexpected character ${JSON.stringify(ch)}`, i);
  }
  return tokens;
}
