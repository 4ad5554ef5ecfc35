import { Clock, expiryOf, isExpired, systemClock } from "./clock.js";
import { LruList, LruNode } from "./lru.js";
import { entrySize, Sizer } from "./size.js";
import { Stats } from "./stats.js";

export interface CacheOptions<V> {
  /** Most entries kept; the least recently used go first. */
  maxEntries?: number;
  /** Most total size kept (see size.ts). */
  maxSize?: number;
  /** Default time to live in ms; 0 or undefined for none. */
  ttlMs?: number;
  sizer?: Sizer<V>;
  clock?: Clock;
}

export interface SetOptions {
  ttlMs?: number;
}

export class Cache<V> {
  private readonly map = new Map<string, LruNode<string, V>>();
  private readonly lru = new LruList<string, V>();
  private readonly clock: Clock;
  private totalSize = 0;
  readonly stats = new Stats();

  constructor(private readonly opts: CacheOptions<V> = {}) {
    this.clock = opts.clock ?? systemClock;
  }

  get size(): number {
    return this.map.size;
  }

  get bytes(): number {
    return this.totalSize;
  }

  get(key: string): V | undefined {
    const node = this.map.get(key);
    if (!node) {
      this.stats.miss();
      return undefined;
    }
    if (isExpired(node.expiresAt, this.clock.now())) {
      this.drop(node);
      this.stats.expired();
      this.stats.miss();
      return undefined;
    }
    this.lru.moveToFront(node);
    this.stats.hit();
    return node.value;
  }

  has(key: string): boolean {
    const node = this.map.get(key);
    return node !== undefined && !isExpired(node.expiresAt, this.clock.now());
  }

  set(key: string, value: V, options: SetOptions = {}): this {
    const size = entrySize(key, value, this.opts.sizer);
    const existing = this.map.get(key);
    if (existing) this.drop(existing);
    const node: LruNode<string, V> = {
      key,
      value,
      size,
      expiresAt: expiryOf(this.clock.now(), options.ttlMs ?? this.opts.ttlMs),
      prev: null,
      next: null,
    };
    this.map.set(key, node);
    this.lru.pushFront(node);
    this.totalSize += size;
    this.stats.set();
    this.evict();
    return this;
  }

  delete(key: string): boolean {
    const node = this.map.get(key);
    if (!node) return false;
    this.drop(node);
    return true;
  }

  clear(): void {
    this.map.clear();
    while (this.lru.popBack()) {
      /* drain */
    }
    this.totalSize = 0;
  }

  *entries(): IterableIterator<[string, V, number]> {
    const now = this.clock.now();
    for (const node of this.lru.entries()) {
      if (!isExpired(node.expiresAt, now)) yield [node.key, node.value, node.expiresAt];
    }
  }

  private drop(node: LruNode<string, V>): void {
    this.map.delete(node.key);
    this.lru.remove(node);
    this.totalSize -= node.size;
  }

  private evict(): void {
    const { maxEntries = Infinity, maxSize = Infinity } = this.opts;
    while (this.map.size > maxEntries || this.totalSize > maxSize) {
      const victim = this.lru.popBack();
      if (!victim) break;
      this.map.delete(victim.key);
      this.totalSize -= victim.size;
      this.stats.evicted();
    }
  }
}
