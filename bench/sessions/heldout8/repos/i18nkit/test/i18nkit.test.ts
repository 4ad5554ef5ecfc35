import { describe, expect, it } from "vitest";
import { extractKeys } from "../src/extract.js";
import { selectPlural } from "../src/plural.js";
import { interpolate } from "../src/interpolate.js";
import { fallbackChain, resolveMessage } from "../src/fallback.js";
import { findMissing, formatReport } from "../src/missing.js";

describe("extract", () => {
  it("finds t() calls with either quote", () => {
    const src = `const a = t("home.title");\nconst b = i18n.t('home.body', { n });`;
    expect(extractKeys(src).map((f) => f.key)).toEqual(["home.title", "home.body"]);
  });
  it("skips commented lines", () => {
    expect(extractKeys(`// t("old.key")`)).toEqual([]);
  });
});

describe("plural", () => {
  it("picks one/other in English", () => {
    expect(selectPlural("en", { one: "# file", other: "# files" }, 1)).toBe("1 file");
    expect(selectPlural("en", { one: "# file", other: "# files" }, 3)).toBe("3 files");
  });
});

describe("interpolate", () => {
  it("replaces placeholders and keeps escaped braces", () => {
    expect(interpolate("Hi {name} {{x}}", { name: "Ana" })).toBe("Hi Ana {x}");
  });
});

describe("fallback", () => {
  it("walks from region to language", () => {
    expect(fallbackChain("pt_br")).toEqual(["pt-BR", "pt"]);
  });
  it("resolves from the first catalog that has the key", () => {
    const catalogs = { pt: { hello: "Olá" }, "pt-BR": {} };
    expect(resolveMessage(catalogs, "pt-BR", "hello")).toEqual({ locale: "pt", message: "Olá" });
  });
});

describe("missing", () => {
  it("reports keys absent or empty in a locale", () => {
    const used = new Map([["a", [{ key: "a", file: "x.ts", line: 1 }]]]);
    const missing = findMissing(used, { en: { a: "A" }, de: { a: "" } }, ["en", "de"]);
    expect(missing.map((m) => m.locale)).toEqual(["de"]);
    expect(formatReport(missing)).toContain("de\ta");
  });
});
