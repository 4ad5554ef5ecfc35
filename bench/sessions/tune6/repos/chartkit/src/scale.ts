// Scales map data values to pixels. Linear scales for numbers, band scales for categories.

export type Domain = [number, number];
export type Range = [number, number];

export interface LinearScale {
  (value: number): number;
  domain: Domain;
  range: Range;
  invert(px: number): number;
  ticks(count?: number): number[];
}

export interface BandScale {
  (key: string): number;
  domain: string[];
  range: Range;
  bandwidth: number;
}

export function extent(values: number[]): Domain {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min === Infinity) return [0, 1];
  return min === max ? [min - 1, max + 1] : [min, max];
}

function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  const err = raw / power;
  const factor = err >= 7.5 ? 10 : err >= 3.5 ? 5 : err >= 1.5 ? 2 : 1;
  return factor * power;
}

export function niceTicks(min: number, max: number, count = 5): number[] {
  if (min === max) return [min];
  const step = niceStep(max - min, count);
  const start = Math.ceil(min / step) * step;
  const ticks: number[] = [];
  for (let v = start; v <= max + step * 1e-9; v += step) {
    ticks.push(v);
  }
  return ticks;
}

export function linearScale(domain: Domain, range: Range): LinearScale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const scale = ((value: number) => r0 + (value - d0) * k) as LinearScale;
  scale.domain = domain;
  scale.range = range;
  scale.invert = (px: number) => (k === 0 ? d0 : d0 + (px - r0) / k);
  scale.ticks = (count = 5) => niceTicks(Math.min(d0, d1), Math.max(d0, d1), count);
  return scale;
}

export function bandScale(domain: string[], range: Range, padding = 0.1): BandScale {
  const [r0, r1] = range;
  const n = Math.max(1, domain.length);
  const step = (r1 - r0) / n;
  const index = new Map(domain.map((key, i) => [key, i]));
  const scale = ((key: string) => {
    const i = index.get(key);
    if (i === undefined) throw new Error(`unknown band: ${key}`);
    return r0 + i * step + (step * padding) / 2;
  }) as BandScale;
  scale.domain = domain;
  scale.range = range;
  scale.bandwidth = step * (1 - padding);
  return scale;
}
