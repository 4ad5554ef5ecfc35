// Color utilities. A color is an RGBA tuple with channels 0-255.

export interface RGBA {
  r: number;
  g: number;
  b: number;
  a: number;
}

const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));

export function parseHex(hex: string): RGBA {
  let h = hex.trim().replace(/^#/, "");
  if (h.length === 3 || h.length === 4) {
    h = h.split("").map((c) => c + c).join("");
  }
  if (h.length === 6) h += "ff";
  if (!/^[0-9a-fA-F]{8}$/.test(h)) {
    throw new Error(`not a hex color: ${hex}`);
  }
  const n = parseInt(h, 16) >>> 0;
  return { r: (n >>> 24) & 255, g: (n >>> 16) & 255, b: (n >>> 8) & 255, a: n & 255 };
}

export function toHex(c: RGBA): string {
  const part = (v: number) => clamp(v).toString(16).padStart(2, "0");
  return "#" + part(c.r) + part(c.g) + part(c.b) + (c.a === 255 ? "" : part(c.a));
}

/** `top` drawn over `bottom` (straight alpha, source-over). */
export function blend(top: RGBA, bottom: RGBA): RGBA {
  const ta = top.a / 255;
  const ba = bottom.a / 255;
  const a = ta + ba * (1 - ta);
  if (a === 0) return { r: 0, g: 0, b: 0, a: 0 };
  const mix = (t: number, b: number) => (t * ta + b * ba * (1 - ta)) / a;
  return { r: clamp(mix(top.r, bottom.r)), g: clamp(mix(top.g, bottom.g)), b: clamp(mix(top.b, bottom.b)), a: clamp(a * 255) };
}

export function distance(x: RGBA, y: RGBA): number {
  return Math.max(Math.abs(x.r - y.r), Math.abs(x.g - y.g), Math.abs(x.b - y.b), Math.abs(x.a - y.a));
}
