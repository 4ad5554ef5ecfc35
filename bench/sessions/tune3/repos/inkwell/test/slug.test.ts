import { describe, expect, it } from "vitest";
import { slugify, uniqueSlug } from "../src/slug.js";

describe("slugify", () => {
  it("lowercases and dashes", () => {
    expect(slugify("Hello, World!")).toBe("hello-world");
  });
  it("trims dashes", () => {
    expect(slugify("  -- Notes --  ")).toBe("notes");
  });
});

describe("uniqueSlug", () => {
  it("numbers repeats", () => {
    const taken = new Set<string>(["notes"]);
    expect(uniqueSlug("notes", taken)).toBe("notes-2");
  });
});
