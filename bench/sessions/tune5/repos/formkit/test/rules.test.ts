import { describe, expect, it } from "vitest";
import { email, minLength, required } from "../src/rules.js";

describe("rules", () => {
  it("required rejects empty", () => {
    expect(required()("").ok).toBe(false);
    expect(required()("x").ok).toBe(true);
  });
  it("minLength", () => {
    expect(minLength(3)("ab")).toEqual({ ok: false, code: "minLength", params: { min: 3 } });
  });
  it("email", () => {
    expect(email()("a@b.co").ok).toBe(true);
    expect(email()("nope").ok).toBe(false);
  });
});
