import type { CachedTrack } from "./types.js";

/** Where the bytes live: the Cache API on devices, a Map in tests. */
export interface BlobStore {
  get(url: string): Promise<Blob | null>;
  put(url: string, blob: Blob): Promise<void>;
  delete(url: string): Promise<void>;
}

export class MemoryBlobStore implements BlobStore {
  private blobs = new Map<string, Blob>();
  async get(url: string) {
    return this.blobs.get(url) ?? null;
  }
  async put(url: string, blob: Blob) {
    this.blobs.set(url, blob);
  }
  async delete(url: string) {
    this.blobs.delete(url);
  }
}

export interface PutOptions {
  tourId?: string | null;
  stopIndex?: number;
  pinned?: boolean;
}

/** The offline audio of one device, kept under a byte budget. */
export class OfflineCache {
  private entries = new Map<string, CachedTrack>();

  constructor(
    private store: BlobStore,
    private budgetBytes: number,
    private now: () => number = Date.now,
  ) {}

  get usedBytes(): number {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.bytes;
    return total;
  }

  has(trackUrl: string): boolean {
    return this.entries.has(trackUrl);
  }

  async put(trackUrl: string, blob: Blob, options: PutOptions = {}): Promise<void> {
    await this.store.put(trackUrl, blob);
    this.entries.set(trackUrl, {
      trackUrl,
      bytes: blob.size,
      tourId: options.tourId ?? null,
      stopIndex: options.stopIndex ?? -1,
      lastPlayed: this.now(),
      pinned: options.pinned ?? false,
    });
  }

  async play(trackUrl: string): Promise<Blob | null> {
    const entry = this.entries.get(trackUrl);
    if (!entry) return null;
    entry.lastPlayed = this.now();
    return this.store.get(trackUrl);
  }

  /** Frees space until the cache fits its budget. */
  async evict(currentStopIndex: number): Promise<string[]> {
    const removed: string[] = [];
    const candidates = [...this.entries.values()];
    while (this.usedBytes > this.budgetBytes && candidates.length > 0) {
      const victim = candidates.shift()!;
      await this.remove(victim.trackUrl);
      removed.push(victim.trackUrl);
    }
    return removed;
  }

  private async remove(trackUrl: string): Promise<void> {
    await this.store.delete(trackUrl);
    this.entries.delete(trackUrl);
  }

  /** What the settings screen lists, most recently played first. */
  list(): CachedTrack[] {
    return [...this.entries.values()].sort((a, b) => b.lastPlayed - a.lastPlayed);
  }
}
