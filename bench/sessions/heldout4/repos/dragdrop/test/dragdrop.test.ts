// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AutoScroller } from "../src/autoscroll";
import { constrain, lockAxis, snap } from "../src/constraints";
import { acceptingZones, registerZone } from "../src/dropzone";
import { createGhost, moveGhost } from "../src/ghost";
import type { DragItem } from "../src/types";

function box(id: string): HTMLElement {
  const el = document.createElement("div");
  el.id = id;
  document.body.appendChild(el);
  return el;
}

beforeEach(() => {
  document.body.innerHTML = "";
});

describe("constraints", () => {
  it("locks an axis", () => {
    expect(lockAxis({ x: 10, y: 10 }, { x: 50, y: 80 }, "x")).toEqual({ x: 50, y: 10 });
  });
  it("snaps to a grid", () => {
    expect(snap({ x: 13, y: 27 }, 10)).toEqual({ x: 10, y: 30 });
  });
  it("applies axis then grid", () => {
    expect(constrain({ x: 0, y: 0 }, { x: 17, y: 40 }, { axis: "x", grid: 5 }, { width: 10, height: 10 }))
      .toEqual({ x: 15, y: 0 });
  });
});

describe("drop zones", () => {
  it("lists accepting zones in document order", () => {
    const a = box("a");
    const b = box("b");
    registerZone(b, { accepts: ["card"] });
    registerZone(a, { accepts: ["card"] });
    const item: DragItem = { el: box("item"), data: null, type: "card" };
    expect(acceptingZones(item)).toEqual([a, b]);
  });
});

describe("ghost", () => {
  it("follows the pointer keeping the grab offset", () => {
    const src = box("src");
    const g = createGhost(src, { x: 5, y: 5 });
    moveGhost(g, { x: 100, y: 50 });
    expect(g.el.style.transform).toBe("translate3d(95px, 45px, 0)");
    expect(g.el.id).toBe("");
  });
});

describe("autoscroll", () => {
  it("scrolls only near an edge", () => {
    const s = new AutoScroller({ edge: 40, speed: 12 });
    expect(s.speedFor(100)).toBe(0);
    expect(s.speedFor(10)).toBe(12);
  });
});
