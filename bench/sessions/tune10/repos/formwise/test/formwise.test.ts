import { describe, expect, it, vi } from "vitest";
import { createForm, field, registerCatalog, setLocale, translate } from "../src";
import { debounce } from "../src/debounce";

describe("rules", () => {
  it("required fails on empty string", async () => {
    const form = createForm({ name: field().required() });
    expect(await form.validateField("name")).toBe(false);
    expect(form.field("name").error).toEqual({ key: "required" });
  });

  it("range carries params", async () => {
    const form = createForm({ age: field().initial(200).between(0, 130) });
    await form.validateField("age");
    expect(form.field("age").error).toEqual({ key: "range", params: { min: 0, max: 130 } });
  });
});

describe("messages", () => {
  it("interpolates params", () => {
    expect(translate("range", { min: 1, max: 5 })).toBe("Must be between 1 and 5");
  });

  it("uses the registered locale", () => {
    registerCatalog("de", { required: "Pflichtfeld" });
    setLocale("de");
    expect(translate("required")).toBe("Pflichtfeld");
    setLocale("en");
  });
});

describe("debounce", () => {
  it("calls once after the wait", () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const d = debounce(fn, 100);
    d();
    d();
    vi.advanceTimersByTime(100);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
  });
});

describe("form", () => {
  it("submits valid values", async () => {
    const form = createForm({ email: field().initial("a@b.co").required().email() });
    const onValid = vi.fn();
    expect(await form.submit(onValid)).toBe(true);
    expect(onValid).toHaveBeenCalledWith({ email: "a@b.co" });
  });

  it("tracks dirty", () => {
    const form = createForm({ name: field() });
    expect(form.dirty).toBe(false);
    form.handleChange("name", "x");
    expect(form.dirty).toBe(true);
  });
});
