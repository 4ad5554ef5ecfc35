import { describe, expect, it } from "vitest";
import { blend, parseHex, toHex } from "../src/color";
import { History } from "../src/history";
import { LayerStack } from "../src/layers";
import { matches } from "../src/shortcuts";
import { BrushTool, floodFill } from "../src/tools";

const key = (k: string, mods: Partial<{ ctrl: boolean; shift: boolean }> = {}) => ({
  key: k, ctrlKey: !!mods.ctrl, shiftKey: !!mods.shift, altKey: false, metaKey: false,
});

describe("color", () => {
  it("parses and prints hex", () => {
    expect(parseHex("#f80")).toEqual({ r: 255, g: 136, b: 0, a: 255 });
    expect(toHex(parseHex("#12345678"))).toBe("#12345678");
  });
  it("blends opaque over anything", () => {
    expect(blend(parseHex("#ff0000"), parseHex("#00ff00"))).toEqual({ r: 255, g: 0, b: 0, a: 255 });
  });
});

describe("history", () => {
  it("undoes and redoes a brush stroke", () => {
    const stack = new LayerStack(8, 8);
    const h = new History();
    new BrushTool(parseHex("#000"), 2).stroke(stack.current(), [{ x: 4, y: 4 }], h);
    expect(stack.current().get(4, 4).a).toBe(255);
    h.undo();
    expect(stack.current().get(4, 4).a).toBe(0);
    h.redo();
    expect(stack.current().get(4, 4).a).toBe(255);
  });
});

describe("fill", () => {
  it("fills a closed region", () => {
    const stack = new LayerStack(4, 4);
    expect(floodFill(stack.current(), { x: 0, y: 0 }, parseHex("#00f"))).toBe(16);
  });
});

describe("shortcuts", () => {
  it("matches ctrl+z", () => {
    expect(matches(key("z", { ctrl: true }), "ctrl+z")).toBe(true);
    expect(matches(key("z"), "ctrl+z")).toBe(false);
  });
});
