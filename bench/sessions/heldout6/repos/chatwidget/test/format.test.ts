import { describe, expect, it } from "vitest";
import { escapeHtml, formatMessage, plainText } from "../src/format";

describe("formatMessage", () => {
  it("bolds and italicises", () => {
    expect(formatMessage("**hi** _there_")).toBe("<strong>hi</strong> <em>there</em>");
  });

  it("wraps code", () => {
    expect(formatMessage("run `npm i`")).toBe("run <code>npm i</code>");
  });

  it("links bare urls", () => {
    expect(formatMessage("see https://example.com/help.")).toBe(
      'see <a href="https://example.com/help" target="_blank" rel="noopener noreferrer">https://example.com/help</a>.',
    );
  });

  it("keeps line breaks", () => {
    expect(formatMessage("a\nb")).toBe("a<br>b");
  });
});

describe("escapeHtml", () => {
  it("escapes the five", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});

describe("plainText", () => {
  it("drops markers", () => {
    expect(plainText("**a** `b`")).toBe("a b");
  });
});
