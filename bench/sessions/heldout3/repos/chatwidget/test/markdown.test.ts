import { describe, expect, it } from "vitest";
import { escapeHtml, renderMarkdown } from "../src/markdown";

describe("renderMarkdown", () => {
  it("escapes html", () => {
    expect(escapeHtml("<b>x</b>")).toBe("&lt;b&gt;x&lt;/b&gt;");
  });

  it("renders bold and links", () => {
    expect(renderMarkdown("**hi** [docs](https://example.com)")).toBe(
      '<strong>hi</strong> <a href="https://example.com" target="_blank" rel="noopener">docs</a>',
    );
  });
});
