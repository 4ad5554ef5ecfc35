import { describe, expect, it } from "vitest";
import { formatAmount, parseAmount, splitEvenly } from "../src/money.js";

describe("money", () => {
  it("parses a plain amount", () => {
    expect(parseAmount("12.50", "EUR")).toEqual({ value: 12.5, currency: "EUR" });
  });

  it("formats with the currency code", () => {
    expect(formatAmount({ value: 3, currency: "GBP" })).toBe("3.00 GBP");
  });

  it("splits between people", () => {
    const shares = splitEvenly({ value: 30, currency: "EUR" }, ["a", "b", "c"]);
    expect([...shares.values()].map((s) => s.value)).toEqual([10, 10, 10]);
  });
});
