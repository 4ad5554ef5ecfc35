import type { IncomingMessage, ServerResponse } from "node:http";
import { Allowlist } from "./allowlist.js";
import { setHeaders } from "./headers.js";
import { clientIp, defaultKey, type KeyFn } from "./keys.js";
import { MemoryStore, type Store } from "./store.js";
import { TokenBucket, type Decision } from "./tokenBucket.js";
import { SlidingWindow } from "./slidingWindow.js";

export interface RateLimitOptions {
  algorithm: "token-bucket" | "sliding-window";
  limit: number;
  windowMs: number;
  store?: Store;
  key?: KeyFn;
  trustProxy?: boolean;
  allowlist?: string[];
  now?: () => number;
}

type Next = (err?: unknown) => void;

export function rateLimit(opts: RateLimitOptions) {
  const store = opts.store ?? new MemoryStore();
  const now = opts.now ?? Date.now;
  const trustProxy = opts.trustProxy ?? false;
  const key = opts.key ?? defaultKey({ trustProxy });
  const allow = new Allowlist(opts.allowlist ?? []);
  const limiter =
    opts.algorithm === "token-bucket"
      ? new TokenBucket(store, { capacity: opts.limit, refillAmount: opts.limit, refillIntervalMs: opts.windowMs })
      : new SlidingWindow(store, { limit: opts.limit, windowMs: opts.windowMs });

  const check = (k: string, t: number): Promise<Decision> =>
    limiter instanceof TokenBucket ? limiter.take(k, t) : limiter.hit(k, t);

  return async function rateLimitMiddleware(req: IncomingMessage, res: ServerResponse, next: Next): Promise<void> {
    if (allow.size > 0 && allow.has(clientIp(req, { trustProxy }))) return next();
    const t = now();
    const decision = await check(await key(req), t);
    setHeaders(res, decision, t);
    if (decision.allowed) return next();
    res.statusCode = 429;
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify({ error: "rate_limited", retryAt: new Date(decision.resetAt).toISOString() }));
  };
}
