import type { Store } from "./store.js";

export interface Decision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms at which the caller may try again (allowed or not). */
  resetAt: number;
}

export interface TokenBucketOptions {
  capacity: number;
  /** Tokens added per refill. */
  refillAmount: number;
  /** Milliseconds between refills. */
  refillIntervalMs: number;
}

interface BucketState {
  tokens: number;
  updatedAt: number;
}

export class TokenBucket {
  constructor(private readonly store: Store, private readonly opts: TokenBucketOptions) {
    if (opts.capacity < 1) throw new RangeError("capacity must be >= 1");
    if (opts.refillAmount <= 0 || opts.refillIntervalMs <= 0) throw new RangeError("refill must be positive");
  }

  private async load(key: string, now: number): Promise<BucketState> {
    const raw = await this.store.get(`tb:${key}`);
    if (raw === undefined) return { tokens: this.opts.capacity, updatedAt: now };
    return JSON.parse(raw) as BucketState;
  }

  async take(key: string, now: number = Date.now(), cost = 1): Promise<Decision> {
    const { capacity, refillAmount, refillIntervalMs } = this.opts;
    const state = await this.load(key, now);
    const intervals = Math.floor((now - state.updatedAt) / refillIntervalMs);
    let tokens = Math.min(capacity, state.tokens + intervals * refillAmount);
    const updatedAt = state.updatedAt + intervals * refillIntervalMs;
    const allowed = tokens >= cost;
    if (allowed) tokens -= cost;
    const ttl = Math.ceil((capacity / refillAmount) * refillIntervalMs);
    await this.store.set(`tb:${key}`, JSON.stringify({ tokens, updatedAt }), ttl);
    const missing = Math.max(0, cost - tokens);
    const resetAt = allowed ? now : updatedAt + Math.ceil(missing / refillAmount) * refillIntervalMs;
    return { allowed, limit: capacity, remaining: Math.floor(tokens), resetAt };
  }
}
