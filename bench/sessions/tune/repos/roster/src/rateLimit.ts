/** Per-user limit on write requests; managers bulk-edit rosters, so bursts are normal. */
export class TokenBucket {
  private buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private capacity = 30, private perSecond = 0.5) {}

  take(key: string, now = Date.now()): boolean {
    const b = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    b.tokens = Math.min(this.capacity, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}
