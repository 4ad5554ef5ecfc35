import { describe, expect, it } from "vitest";
import { Sheet } from "../src/sheet.js";
import { tokenize } from "../src/tokenizer.js";
import { parseFormula } from "../src/parser.js";
import { formatNumber } from "../src/format.js";
import { parseRange, cellsInRange } from "../src/refs.js";

describe("tokenizer and parser", () => {
  it("tokenizes refs, functions and operators", () => {
    expect(tokenize("SUM(A1:B2)*$C$3").map((t) => t.kind)).toEqual([
      "ident", "lparen", "ref", "colon", "ref", "rparen", "op", "ref",
    ]);
  });

  it("respects precedence and right-associative ^", () => {
    expect(parseFormula("1+2*3")).toMatchObject({ type: "binary", op: "+" });
    expect(parseFormula("2^3^2")).toMatchObject({ type: "binary", op: "^", right: { type: "binary", op: "^" } });
  });
});

describe("refs", () => {
  it("expands a range row by row", () => {
    expect(cellsInRange(parseRange("A1:B2"))).toEqual(["A1", "B1", "A2", "B2"]);
  });
});

describe("sheet", () => {
  it("recalculates dependents", () => {
    const s = new Sheet();
    s.set("A1", "2");
    s.set("B1", "=A1*10");
    s.set("C1", "=SUM(A1:B1)");
    expect(s.get("C1")).toBe(22);
    s.set("A1", "3");
    expect(s.get("B1")).toBe(30);
  });

  it("propagates errors from functions", () => {
    const s = new Sheet();
    s.set("A1", "=AVERAGE(B1:B3)");
    s.set("A2", "=A1+1");
    expect(String(s.get("A2"))).toBe("#DIV/0!");
  });
});

describe("format", () => {
  it("formats patterns", () => {
    expect(formatNumber(1234.5, "#,##0.00")).toBe("1,234.50");
    expect(formatNumber(0.256, "0.0%")).toBe("25.6%");
    expect(formatNumber(42)).toBe("42");
  });
});
