// Scales map data values to pixels. Ranges are [start, end] in SVG user units.

export interface LinearScale {
  (value: number): number;
  domain: [number, number];
  range: [number, number];
  invert(px: number): number;
}

export function linearScale(domain: [number, number], range: [number, number]): LinearScale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  const scale = ((value: number) => r0 + ((value - d0) / span) * (r1 - r0)) as LinearScale;
  scale.domain = domain;
  scale.range = range;
  scale.invert = (px: number) => d0 + ((px - r0) / (r1 - r0)) * span;
  return scale;
}

export function extent(values: number[]): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : [0, 1];
}

export interface BandScale {
  (key: string): number;
  bandwidth: number;
  keys: string[];
}

export function bandScale(keys: string[], range: [number, number], padding = 0.2): BandScale {
  const [r0, r1] = range;
  const step = (r1 - r0) / Math.max(keys.length, 1);
  const bandwidth = step * (1 - padding);
  const index = new Map(keys.map((k, i) => [k, i]));
  const scale = ((key: string) => r0 + (index.get(key) ?? 0) * step + (step - bandwidth) / 2) as BandScale;
  scale.bandwidth = bandwidth;
  scale.keys = keys;
  return scale;
}
