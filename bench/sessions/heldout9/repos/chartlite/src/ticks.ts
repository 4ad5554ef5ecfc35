// Tick generation: "nice" round steps (1, 2, 5 x 10^n) covering a domain.

export function niceStep(span: number, count: number): number {
  const raw = span / Math.max(count, 1);
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const norm = raw / mag;
  const nice = norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10;
  return nice * mag;
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

export function niceDomain(min: number, max: number, count = 5): [number, number] {
  const step = niceStep(max - min, count);
  return [Math.floor(min / step) * step, Math.ceil(max / step) * step];
}

export function formatTick(value: number): string {
  if (Math.abs(value) >= 1000) return value.toFixed(0);
  if (Number.isInteger(value)) return String(value);
  return value.toFixed(2);
}

// Roughly one tick per 80px on a horizontal axis and per 40px on a vertical one, 2 at least.
export function tickCount(lengthPx: number, horizontal: boolean): number {
  const per = horizontal ? 80 : 40;
  return Math.max(2, Math.floor(lengthPx / per));
}

export function decimals(step: number): number {
  if (step >= 1) return 0;
  return Math.min(10, Math.ceil(-Math.log10(step)));
}
