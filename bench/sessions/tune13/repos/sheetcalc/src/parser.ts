// Tokens -> AST, by precedence climbing.

import { parseRange, parseRef, type CellRef, type RangeRef } from "./refs.js";
import { tokenize, type Token } from "./tokenizer.js";

export type Node =
  | { type: "num"; value: number }
  | { type: "str"; value: string }
  | { type: "bool"; value: boolean }
  | { type: "ref"; ref: CellRef }
  | { type: "range"; range: RangeRef }
  | { type: "call"; name: string; args: Node[] }
  | { type: "unary"; op: string; arg: Node }
  | { type: "binary"; op: string; left: Node; right: Node };

export class ParseError extends Error {}

const PRECEDENCE: Record<string, number> = {
  "=": 1, "<>": 1, "<": 1, ">": 1, "<=": 1, ">=": 1,
  "&": 2,
  "+": 3, "-": 3,
  "*": 4, "/": 4,
  "^": 5,
};
const RIGHT_ASSOC = new Set(["^"]);

export class Parser {
  private i = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): Node {
    const node = this.parseExpression(0);
    if (this.i < this.tokens.length) {
      throw new ParseError(`unexpected ${this.tokens[this.i].text} at ${this.tokens[this.i].pos}`);
    }
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private next(): Token {
    const t = this.tokens[this.i++];
    if (!t) throw new ParseError("unexpected end of formula");
    return t;
  }

  parseExpression(minPrec: number): Node {
    let left = this.parseUnary();
    for (;;) {
      const t = this.peek();
      if (!t || t.kind !== "op") break;
      const prec = PRECEDENCE[t.text];
      if (prec === undefined || prec < minPrec) break;
      this.i++;
      const right = this.parseExpression(RIGHT_ASSOC.has(t.text) ? prec : prec + 1);
      left = { type: "binary", op: t.text, left, right };
    }
    return left;
  }

  parseUnary(): Node {
    const t = this.peek();
    if (t && t.kind === "op" && (t.text === "-" || t.text === "+")) {
      this.i++;
      return { type: "unary", op: t.text, arg: this.parseUnary() };
    }
    return this.parsePrimary();
  }

  parsePrimary(): Node {
    const t = this.next();
    switch (t.kind) {
      case "number":
        return { type: "num", value: Number(t.text) };
      case "string":
        return { type: "str", value: t.text };
      case "bool":
        return { type: "bool", value: t.text === "TRUE" };
      case "ref": {
        const after = this.peek();
        if (after && after.kind === "colon") {
          this.i++;
          const end = this.next();
          if (end.kind !== "ref") throw new ParseError(`expected a cell after ':' at ${end.pos}`);
          return { type: "range", range: parseRange(`${t.text}:${end.text}`) };
        }
        return { type: "ref", ref: parseRef(t.text) };
      }
      case "ident":
        return this.parseCall(t);
      case "lparen": {
        const inner = this.parseExpression(0);
        if (this.next().kind !== "rparen") throw new ParseError(`expected ')' after ${t.pos}`);
        return inner;
      }
      default:
        throw new ParseError(`unexpected ${t.text} at ${t.pos}`);
    }
  }

  private parseCall(name: Token): Node {
    if (this.next().kind !== "lparen") throw new ParseError(`expected '(' after ${name.text}`);
    const args: Node[] = [];
    if (this.peek()?.kind === "rparen") {
      this.i++;
      return { type: "call", name: name.text, args };
    }
    for (;;) {
      args.push(this.parseExpression(0));
      const t = this.next();
      if (t.kind === "rparen") break;
      if (t.kind !== "comma") throw new ParseError(`expected ',' or ')' at ${t.pos}`);
    }
    return { type: "call", name: name.text, args };
  }
}

export function parseFormula(src: string): Node {
  return new Parser(tokenize(src)).parse();
}

export function collectRefs(node: Node, out: Array<CellRef | RangeRef> = []): Array<CellRef | RangeRef> {
  switch (node.type) {
    case "ref":
      out.push(node.ref);
      break;
    case "range":
      out.push(node.range);
      break;
    case "call":
      node.args.forEach((a) => collectRefs(a, out));
      break;
    case "unary":
      collectRefs(node.arg, out);
      break;
    case "binary":
      collectRefs(node.left, out);
      collectRefs(node.right, out);
      break;
  }
  return out;
}
