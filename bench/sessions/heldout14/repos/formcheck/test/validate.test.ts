import { describe, expect, it } from "vitest";
import { email, minLength, required, sameAs, validateForm, type RuleSet } from "../src/index.js";

const signup: RuleSet = {
  name: { label: "Name", rules: [required(), minLength(2)] },
  email: { label: "Email", rules: [required(), email()] },
  password: { label: "Password", rules: [required(), minLength(8)] },
  confirm: { label: "Confirmation", rules: [sameAs("password")] },
};

describe("validateForm", () => {
  it("accepts a valid form", () => {
    const errors = validateForm(signup, { name: "Ada", email: "ada@example.org", password: "hunter22!", confirm: "hunter22!" });
    expect(errors).toEqual([]);
  });

  it("reports the first failing rule per field", () => {
    const errors = validateForm(signup, { name: "", email: "nope", password: "short", confirm: "x" });
    expect(errors.map((e) => e.code)).toEqual(["required", "email", "minLength", "sameAs"]);
  });

  it("trims before checking", () => {
    const errors = validateForm(signup, { name: "  Ada ", email: " ada@example.org ", password: "hunter22!", confirm: "hunter22!" });
    expect(errors).toEqual([]);
  });

  it("formats messages with the label", () => {
    const [error] = validateForm(signup, { name: "A", email: "a@b.co", password: "hunter22!", confirm: "hunter22!" });
    expect(error.message).toBe("Name must be at least 2 characters.");
  });
});
