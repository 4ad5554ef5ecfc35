import { describe, expect, it } from "vitest";
import type { IncomingMessage } from "node:http";
import { Allowlist, parseCidr } from "../src/allowlist.js";
import { apiKey, clientIp } from "../src/keys.js";
import { MemoryStore } from "../src/store.js";
import { SlidingWindow } from "../src/slidingWindow.js";
import { TokenBucket } from "../src/tokenBucket.js";
import { retryAfterSeconds } from "../src/headers.js";

function req(headers: Record<string, string>, remoteAddress = "10.0.0.9"): IncomingMessage {
  return { headers, socket: { remoteAddress } } as unknown as IncomingMessage;
}

describe("TokenBucket", () => {
  it("allows up to capacity then refuses", async () => {
    const tb = new TokenBucket(new MemoryStore(() => 0), { capacity: 3, refillAmount: 3, refillIntervalMs: 1000 });
    const results = [];
    for (let i = 0; i < 4; i++) results.push((await tb.take("a", 0)).allowed);
    expect(results).toEqual([true, true, true, false]);
  });
});

describe("SlidingWindow", () => {
  it("counts hits in the current window", async () => {
    const sw = new SlidingWindow(new MemoryStore(() => 0), { limit: 2, windowMs: 1000 });
    expect((await sw.hit("a", 10)).allowed).toBe(true);
    expect((await sw.hit("a", 20)).allowed).toBe(true);
    expect((await sw.hit("a", 30)).allowed).toBe(false);
  });
});

describe("keys", () => {
  it("uses the peer address unless trustProxy", () => {
    expect(clientIp(req({ "x-forwarded-for": "1.2.3.4" }))).toBe("10.0.0.9");
  });
  it("unwraps IPv4-mapped addresses", () => {
    expect(clientIp(req({}, "::ffff:10.1.2.3"))).toBe("10.1.2.3");
  });
  it("reads bearer keys", () => {
    expect(apiKey(req({ authorization: "Bearer abc" }))).toBe("abc");
  });
});

describe("Allowlist", () => {
  it("matches CIDRs", () => {
    const a = new Allowlist(["10.0.0.0/8", "192.168.1.7"]);
    expect(a.has("10.200.3.4")).toBe(true);
    expect(a.has("192.168.1.8")).toBe(false);
  });
  it("rejects garbage", () => {
    expect(() => parseCidr("example.com")).toThrow();
  });
});

describe("headers", () => {
  it("never says retry after 0", () => {
    expect(retryAfterSeconds(1000, 1000)).toBe(1);
  });
});
