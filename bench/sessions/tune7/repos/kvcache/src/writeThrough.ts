import { Cache } from "./cache.js";

/** The store behind the cache: a database table, Redis, a file. */
export interface BackingStore<V> {
  read(key: string): Promise<V | undefined>;
  write(key: string, value: V): Promise<void>;
  remove(key: string): Promise<void>;
}

/** Reads through the cache, writes to both. */
export class WriteThroughCache<V> {
  constructor(
    readonly cache: Cache<V>,
    private readonly store: BackingStore<V>,
  ) {}

  async get(key: string): Promise<V | undefined> {
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const value = await this.store.read(key);
    if (value !== undefined) this.cache.set(key, value);
    return value;
  }

  async set(key: string, value: V): Promise<void> {
    this.cache.set(key, value);
    await this.store.write(key, value);
  }

  async delete(key: string): Promise<void> {
    this.cache.delete(key);
    await this.store.remove(key);
  }
}
