import type { Rule, Value } from "./types.js";
import { isEmpty } from "./normalize.js";

const pass = { ok: true };

export function required(): Rule {
  return (value) => (isEmpty(value) ? { ok: false, code: "required" } : pass);
}

export function minLength(n: number): Rule {
  return (value) => {
    if (isEmpty(value)) return pass;
    return String(value).length >= n ? pass : { ok: false, code: "minLength", params: { n } };
  };
}

export function maxLength(n: number): Rule {
  return (value) => {
    if (isEmpty(value)) return pass;
    return String(value).length <= n ? pass : { ok: false, code: "maxLength", params: { n } };
  };
}

export function pattern(re: RegExp, code = "pattern"): Rule {
  return (value) => {
    if (isEmpty(value)) return pass;
    return re.test(String(value)) ? pass : { ok: false, code };
  };
}

export function email(): Rule {
  const re = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
  return (value) => {
    if (isEmpty(value)) return pass;
    return re.test(String(value)) ? pass : { ok: false, code: "email" };
  };
}

export function sameAs(other: string): Rule {
  return (value, all) => (value === all[other] ? pass : { ok: false, code: "sameAs", params: { other } });
}

export function numberBetween(min: number, max: number): Rule {
  return (value: Value) => {
    if (isEmpty(value)) return pass;
    const n = Number(value);
    if (Number.isNaN(n)) return { ok: false, code: "number" };
    return n >= min && n <= max ? pass : { ok: false, code: "range", params: { min, max } };
  };
}
