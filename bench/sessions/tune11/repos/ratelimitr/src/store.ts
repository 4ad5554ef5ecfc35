/** Where limiter state lives. Async so that a networked store can implement it. */
export interface Store {
  get(key: string): Promise<string | undefined>;
  /** Set `key` to `value`, expiring after `ttlMs`. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Add `by` to the integer at `key` (0 if missing) and return the new value; sets the ttl on creation. */
  incr(key: string, by: number, ttlMs: number): Promise<number>;
}

interface Entry {
  value: string;
  expiresAt: number;
}

export class MemoryStore implements Store {
  private entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  async get(key: string): Promise<string | undefined> {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
  }

  async incr(key: string, by: number, ttlMs: number): Promise<number> {
    const current = await this.get(key);
    const next = (current === undefined ? 0 : Number(current)) + by;
    const expiresAt = current === undefined ? this.now() + ttlMs : this.entries.get(key)!.expiresAt;
    this.entries.set(key, { value: String(next), expiresAt });
    return next;
  }

  get size(): number {
    return this.entries.size;
  }
}
