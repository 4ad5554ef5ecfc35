// Number formats: "General", "0", "0.00", "#,##0", "#,##0.00", "0%", "0.0%".

import { isError, type Value } from "./evaluator.js";

export type Pattern = "General" | string;

export function formatValue(v: Value, pattern: Pattern = "General"): string {
  if (v === null) return "";
  if (isError(v)) return v.code;
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (typeof v === "string") return v;
  return formatNumber(v, pattern);
}

export function formatNumber(n: number, pattern: Pattern = "General"): string {
  if (!Number.isFinite(n)) return "#NUM!";
  if (pattern === "General") return formatGeneral(n);
  const percent = pattern.endsWith("%");
  const body = percent ? pattern.slice(0, -1) : pattern;
  const value = percent ? n * 100 : n;
  const decimals = body.includes(".") ? body.length - body.indexOf(".") - 1 : 0;
  const grouped = body.includes(",");
  let text = Math.abs(value).toFixed(decimals);
  if (grouped) text = group(text);
  return (value < 0 && Number(text.replace(/,/g, "")) !== 0 ? "-" : "") + text + (percent ? "%" : "");
}

export function formatGeneral(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e11) return String(n);
  if (Math.abs(n) >= 1e11 || (n !== 0 && Math.abs(n) < 1e-9)) return n.toExponential(5).replace("e+", "E+").replace("e-", "E-");
  return String(n);
}

function group(fixed: string): string {
  const [int, frac] = fixed.split(".");
  const withCommas = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return frac === undefined ? withCommas : `${withCommas}.${frac}`;
}
