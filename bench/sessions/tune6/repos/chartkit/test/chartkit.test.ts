import { describe, expect, it } from "vitest";
import { Chart } from "../src/chart";
import { formatNumber, formatPercent } from "../src/format";
import { extent, linearScale, niceTicks } from "../src/scale";
import { linePath } from "../src/series";

describe("scales", () => {
  it("maps domain to range and back", () => {
    const s = linearScale([0, 10], [0, 200]);
    expect(s(5)).toBe(100);
    expect(s.invert(50)).toBe(2.5);
  });

  it("pads a flat extent", () => {
    expect(extent([3, 3])).toEqual([2, 4]);
  });

  it("picks round ticks", () => {
    expect(niceTicks(0, 100, 5)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(-3, 7, 5)).toEqual([-2, 0, 2, 4, 6]);
  });
});

describe("format", () => {
  it("groups thousands", () => {
    expect(formatNumber(1234567.891, { decimals: 2 })).toBe("1,234,567.89");
    expect(formatPercent(0.1234)).toBe("12.3%");
  });
});

describe("series and chart", () => {
  it("breaks the line at gaps", () => {
    const s = linearScale([0, 2], [0, 20]);
    expect(linePath([{ x: 0, y: 0 }, { x: 1, y: NaN }, { x: 2, y: 2 }], s, s)).toBe("M0,0M20,20");
  });

  it("renders an svg", () => {
    const c = new Chart({ width: 300, height: 200 }).add({ kind: "line", name: "a", color: "#06c",
      points: [{ x: 0, y: 1 }, { x: 1, y: 3 }] });
    expect(c.render()).toMatch(/^<svg/);
  });
});
