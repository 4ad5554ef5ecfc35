import { describe, expect, it } from "vitest";
import { deepMerge } from "../src/merge.js";

describe("deepMerge", () => {
  it("overrides scalars", () => {
    expect(deepMerge({ a: 1, b: 2 }, { b: 3 })).toEqual({ a: 1, b: 3 });
  });
  it("merges nested tables", () => {
    expect(deepMerge({ rules: { x: "warn" } }, { rules: { y: "error" } })).toEqual({ rules: { x: "warn", y: "error" } });
  });
});
