import { describe, expect, it } from "vitest";
import { bandScale, extent, linearScale } from "../src/scale.js";
import { barRects, linePath } from "../src/series.js";
import { formatTick, niceDomain, niceTicks } from "../src/ticks.js";

describe("scales", () => {
  it("maps linearly and inverts", () => {
    const s = linearScale([0, 100], [0, 500]);
    expect(s(50)).toBe(250);
    expect(s.invert(250)).toBe(50);
  });

  it("extent skips NaN", () => {
    expect(extent([3, NaN, -1, 7])).toEqual([-1, 7]);
  });

  it("band scale spaces keys evenly", () => {
    const b = bandScale(["a", "b"], [0, 100], 0.2);
    expect(b.bandwidth).toBe(40);
    expect(b("b")).toBe(55);
  });
});

describe("ticks", () => {
  it("nice ticks cover the domain", () => {
    expect(niceTicks(0, 10, 5)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(niceDomain(3, 97)).toEqual([0, 100]);
  });

  it("formats", () => {
    expect(formatTick(5)).toBe("5");
    expect(formatTick(0.25)).toBe("0.25");
  });
});

describe("series", () => {
  it("breaks the line at gaps", () => {
    const x = linearScale([0, 2], [0, 200]);
    const y = linearScale([0, 10], [100, 0]);
    expect(linePath([{ x: 0, y: 0 }, { x: 1, y: NaN }, { x: 2, y: 10 }], x, y)).toBe("M0.00,100.00M200.00,0.00");
  });

  it("bars grow from zero", () => {
    const x = bandScale(["a"], [0, 100], 0);
    const y = linearScale([0, 10], [100, 0]);
    expect(barRects([{ key: "a", value: 5 }], x, y)).toEqual([{ key: "a", x: 0, y: 50, width: 100, height: 50 }]);
  });
});
