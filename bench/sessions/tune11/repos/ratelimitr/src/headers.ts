import type { ServerResponse } from "node:http";
import type { Decision } from "./tokenBucket.js";

export function retryAfterSeconds(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt - now) / 1000));
}

/** Legacy X-RateLimit-* headers, as most clients still read them. */
export function setHeaders(res: ServerResponse, d: Decision, now: number = Date.now()): void {
  res.setHeader("X-RateLimit-Limit", String(d.limit));
  res.setHeader("X-RateLimit-Remaining", String(d.remaining));
  res.setHeader("X-RateLimit-Reset", String(Math.ceil(d.resetAt / 1000)));
  if (!d.allowed) {
    res.setHeader("Retry-After", String(retryAfterSeconds(d.resetAt, now)));
  }
}
