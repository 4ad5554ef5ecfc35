import { describe, expect, it } from "vitest";
import { buildPlaylist, findByCode, MemoryBlobStore, OfflineCache, totalMinutes } from "../src/index.js";
import type { Tour } from "../src/index.js";

const track = (language: string, name: string, seconds = 90) => ({
  language,
  trackUrl: `https://cdn.vanmeer.nl/audio/${name}.${language}.m4a`,
  bytes: 1_000_000,
  seconds,
});

const tour: Tour = {
  id: "highlights",
  name: "Highlights",
  stops: [
    { code: "3", title: "The Night Watch (copy)", gallery: "G2", variants: [track("en", "s3"), track("nl", "s3")] },
    { code: "1", title: "Welcome hall", gallery: "G1", variants: [track("en", "s1"), track("nl", "s1")] },
    { code: "2", title: "Delftware", gallery: "G1", variants: [track("nl", "s2")] },
  ],
};

describe("buildPlaylist", () => {
  it("orders stops by their code", () => {
    const items = buildPlaylist(tour, { language: "nl" });
    expect(items.map((i) => i.stopCode)).toEqual(["1", "2", "3"]);
  });

  it("skips stops already heard", () => {
    const items = buildPlaylist(tour, { language: "nl", heard: new Set(["1"]) });
    expect(items.map((i) => i.stopCode)).toEqual(["2", "3"]);
  });

  it("adds up the listening time", () => {
    expect(totalMinutes(buildPlaylist(tour, { language: "nl" }))).toBe(5);
  });

  it("finds a stop by the code typed on the keypad", () => {
    const items = buildPlaylist(tour, { language: "en" });
    expect(findByCode(items, " 3 ")?.title).toBe("The Night Watch (copy)");
  });
});

describe("OfflineCache", () => {
  it("frees space down to its budget", async () => {
    const cache = new OfflineCache(new MemoryBlobStore(), 2_000);
    for (let i = 0; i < 3; i++) {
      await cache.put(`t${i}`, new Blob([new Uint8Array(1_000)]), { tourId: "highlights", stopIndex: i });
    }
    const removed = await cache.evict(0);
    expect(removed).toHaveLength(1);
    expect(cache.usedBytes).toBe(2_000);
  });
});
