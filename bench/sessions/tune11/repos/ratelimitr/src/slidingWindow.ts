import type { Store } from "./store.js";
import type { Decision } from "./tokenBucket.js";

export interface SlidingWindowOptions {
  limit: number;
  windowMs: number;
}

/**
 * Sliding-window counter: the count of the current fixed window plus the previous window's
 * count weighted by how much of it still overlaps the sliding window.
 */
export class SlidingWindow {
  constructor(private readonly store: Store, private readonly opts: SlidingWindowOptions) {}

  async hit(key: string, now: number = Date.now()): Promise<Decision> {
    const { limit, windowMs } = this.opts;
    const win = Math.floor(now / windowMs);
    const elapsed = now - win * windowMs;
    const prevRaw = await this.store.get(`sw:${key}:${win - 1}`);
    const prev = prevRaw === undefined ? 0 : Number(prevRaw);
    const currRaw = await this.store.get(`sw:${key}:${win}`);
    const curr = currRaw === undefined ? 0 : Number(currRaw);
    const weighted = Math.floor(prev * ((windowMs - elapsed) / windowMs));
    const estimate = weighted + curr;
    const resetAt = (win + 1) * windowMs;
    if (estimate >= limit) {
      return { allowed: false, limit, remaining: 0, resetAt };
    }
    await this.store.incr(`sw:${key}:${win}`, 1, windowMs * 2);
    return { allowed: true, limit, remaining: Math.max(0, limit - estimate - 1), resetAt };
  }
}
