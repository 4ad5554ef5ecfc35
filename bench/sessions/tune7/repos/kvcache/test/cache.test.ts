import { describe, expect, it } from "vitest";
import { Cache, ManualClock, WriteThroughCache, dump, restore, sizeOf } from "../src/index.js";
import type { BackingStore } from "../src/index.js";

class MemoryStore<V> implements BackingStore<V> {
  data = new Map<string, V>();
  async read(key: string) {
    return this.data.get(key);
  }
  async write(key: string, value: V) {
    this.data.set(key, value);
  }
  async remove(key: string) {
    this.data.delete(key);
  }
}

describe("Cache", () => {
  it("evicts the least recently used", () => {
    const c = new Cache<number>({ maxEntries: 2 });
    c.set("a", 1).set("b", 2);
    c.get("a");
    c.set("c", 3);
    expect([...c.entries()].map(([k]) => k)).toEqual(["c", "a"]);
    expect(c.stats.evictions).toBe(1);
  });

  it("expires entries after their ttl", () => {
    const clock = new ManualClock(1000);
    const c = new Cache<string>({ ttlMs: 50, clock });
    c.set("k", "v");
    clock.advance(49);
    expect(c.get("k")).toBe("v");
    clock.advance(1);
    expect(c.get("k")).toBeUndefined();
    expect(c.stats.expirations).toBe(1);
  });

  it("keeps total size under maxSize", () => {
    const c = new Cache<string>({ maxSize: 200 });
    c.set("a", "x".repeat(60)).set("b", "y".repeat(60));
    expect(c.size).toBe(1);
    expect(c.bytes).toBeLessThanOrEqual(200);
  });

  it("counts hits and misses", () => {
    const c = new Cache<number>();
    c.set("a", 1);
    c.get("a");
    c.get("nope");
    expect(c.stats.snapshot()).toMatchObject({ hits: 1, misses: 1, hitRate: 0.5 });
  });
});

describe("sizeOf", () => {
  it("charges strings by length", () => {
    expect(sizeOf("abcd")).toBe(sizeOf("") + 4);
  });
});

describe("WriteThroughCache", () => {
  it("writes to the store and the cache", async () => {
    const store = new MemoryStore<number>();
    const wt = new WriteThroughCache(new Cache<number>(), store);
    await wt.set("a", 1);
    expect(store.data.get("a")).toBe(1);
    expect(wt.cache.get("a")).toBe(1);
  });

  it("reads through on a miss", async () => {
    const store = new MemoryStore<number>();
    store.data.set("b", 2);
    const wt = new WriteThroughCache(new Cache<number>(), store);
    expect(await wt.get("b")).toBe(2);
    expect(wt.cache.has("b")).toBe(true);
  });
});

describe("serialize", () => {
  it("round-trips entries in recency order", () => {
    const a = new Cache<number>();
    a.set("x", 1).set("y", 2);
    const b = new Cache<number>();
    restore(b, dump(a));
    expect([...b.entries()].map(([k]) => k)).toEqual(["y", "x"]);
  });
});
