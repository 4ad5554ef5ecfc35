import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY, nextDelay } from "../src/retry.js";

describe("nextDelay", () => {
  it("gives up after maxAttempts", () => {
    expect(nextDelay(DEFAULT_RETRY.maxAttempts)).toBeNull();
  });
  it("waits before a retry", () => {
    expect(nextDelay(1)).toBeGreaterThan(0);
  });
});
