import { describe, expect, it } from "vitest";
import { ChangeQueue } from "../src/queue";
import { DraftStore, draftKey } from "../src/storage";
import { migrateDraft, CURRENT_VERSION } from "../src/migrate";
import { resolveConflict } from "../src/conflict";
import { HttpError, withRetry } from "../src/retry";
import type { Draft, KeyValueStorage } from "../src/types";

class MemoryStorage implements KeyValueStorage {
  private data = new Map<string, string>();
  getItem(k: string) { return this.data.has(k) ? this.data.get(k)! : null; }
  setItem(k: string, v: string) { this.data.set(k, v); }
  removeItem(k: string) { this.data.delete(k); }
  key(i: number) { return [...this.data.keys()][i] ?? null; }
  get length() { return this.data.size; }
}

const draft = (over: Partial<Draft> = {}): Draft => ({
  formId: "f1",
  schemaVersion: CURRENT_VERSION,
  fields: { name: "Ana", city: "Porto" },
  touched: { name: 1000, city: 1000 },
  baseRevision: 3,
  updatedAt: 1000,
  ...over,
});

describe("DraftStore", () => {
  it("round-trips a draft", () => {
    const store = new DraftStore(new MemoryStorage());
    store.save(draft());
    expect(store.load("f1")).toEqual(draft());
  });

  it("lists only drafts", () => {
    const mem = new MemoryStorage();
    mem.setItem("other", "x");
    const store = new DraftStore(mem);
    store.save(draft({ formId: "b" }));
    store.save(draft({ formId: "a" }));
    expect(store.list()).toEqual(["a", "b"]);
  });

  it("uses the fs1 key prefix", () => {
    expect(draftKey("f1")).toBe("fs1:draft:f1");
  });
});

describe("migrateDraft", () => {
  it("migrates v1", () => {
    const d = migrateDraft({ formId: "f1", values: { name: "Ana" }, savedAt: 500, rev: 2 });
    expect(d.schemaVersion).toBe(CURRENT_VERSION);
    expect(d.fields).toEqual({ name: "Ana" });
    expect(d.touched).toEqual({ name: 500 });
  });
});

describe("ChangeQueue", () => {
  it("persists and acks", () => {
    const mem = new MemoryStorage();
    const q = new ChangeQueue(mem);
    const c = q.enqueue("f1", "name", "Ana", 1);
    expect(new ChangeQueue(mem).size).toBe(1);
    q.ack([c.id]);
    expect(q.size).toBe(0);
  });
});

describe("resolveConflict", () => {
  it("takes the newer side", () => {
    const server = { formId: "f1", revision: 4, fields: { name: "Ana", city: "Lisboa" }, updatedAt: 2000 };
    const r = resolveConflict(draft(), server);
    expect(r.draft.fields.city).toBe("Lisboa");
    expect(r.overwritten).toEqual(["city"]);
  });
});

describe("withRetry", () => {
  it("retries a network error then succeeds", async () => {
    let n = 0;
    const result = await withRetry(async () => {
      n += 1;
      if (n < 3) throw new TypeError("Failed to fetch");
      return "ok";
    }, { sleep: async () => {} });
    expect(result).toBe("ok");
    expect(n).toBe(3);
  });

  it("gives up after the attempts", async () => {
    await expect(withRetry(async () => { throw new HttpError(503); }, { attempts: 2, sleep: async () => {} }))
      .rejects.toBeInstanceOf(HttpError);
  });
});
