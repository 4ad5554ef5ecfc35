// Number formatting for tick labels, tooltips and the legend.

export interface FormatOptions {
  decimals?: number;
  prefix?: string;
  suffix?: string;
}

function group(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export function formatNumber(value: number, opts: FormatOptions = {}): string {
  if (!Number.isFinite(value)) return "–";
  const { decimals = 0, prefix = "", suffix = "" } = opts;
  const fixed = Math.abs(value).toFixed(decimals);
  const [int, frac] = fixed.split(".");
  const body = frac ? `${group(int)}.${frac}` : group(int);
  const sign = value < 0 && Number(fixed) !== 0 ? "-" : "";
  return `${sign}${prefix}${body}${suffix}`;
}

export function formatPercent(value: number, decimals = 1): string {
  return formatNumber(value * 100, { decimals, suffix: "%" });
}

export function decimalsFor(step: number): number {
  if (!Number.isFinite(step) || step <= 0) return 0;
  return Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
}

export function tickFormatter(ticks: number[]): (v: number) => string {
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) : 1;
  const decimals = decimalsFor(step);
  return (v) => formatNumber(v, { decimals });
}
