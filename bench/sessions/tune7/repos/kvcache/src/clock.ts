/** Time for the cache: injectable so tests don't sleep. */

export interface Clock {
  now(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
};

export class ManualClock implements Clock {
  constructor(private t = 0) {}

  now(): number {
    return this.t;
  }

  advance(ms: number): void {
    this.t += ms;
  }
}

/** The absolute expiry of an entry set at `now` with `ttlMs`, or Infinity for no TTL. */
export function expiryOf(now: number, ttlMs: number | undefined): number {
  if (ttlMs === undefined || ttlMs <= 0) return Infinity;
  return now + ttlMs;
}

export function isExpired(expiresAt: number, now: number): boolean {
  return expiresAt <= now;
}
