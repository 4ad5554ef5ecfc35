import { describe, expect, it } from "vitest";
import { render } from "../src/index.js";
import { parseInline } from "../src/inline.js";
import { buildToc } from "../src/toc.js";
import { parseBlocks } from "../src/blocks.js";

describe("inline", () => {
  it("escapes text", () => {
    expect(parseInline("a < b & c")).toBe("a &lt; b &amp; c");
  });
  it("renders code spans verbatim", () => {
    expect(parseInline("`<b>`")).toBe("<code>&lt;b&gt;</code>");
  });
  it("renders links", () => {
    expect(parseInline("[x](https://e.com)")).toBe('<a href="https://e.com">x</a>');
  });
});

describe("blocks", () => {
  it("parses headings and paragraphs", () => {
    expect(render("# Hi\n\ntext")).toBe('<h1 id="hi">Hi</h1>\n<p>text</p>');
  });
  it("parses lists", () => {
    expect(render("- a\n- b")).toBe("<ul>\n<li>a</li>\n<li>b</li>\n</ul>");
  });
});

describe("toc", () => {
  it("dedupes ids", () => {
    const { entries } = buildToc(parseBlocks("# A\n\n# A"));
    expect(entries.map((e) => e.id)).toEqual(["a", "a-1"]);
  });
});
