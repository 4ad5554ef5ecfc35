import assert from "node:assert/strict";
import { test } from "node:test";
import { computeDelay } from "../src/backoff.js";

test("delay grows and stops at the cap", () => {
  assert.equal(computeDelay(1), 1_000);
  assert.ok(computeDelay(3) > computeDelay(2));
  assert.equal(computeDelay(10_000), 5 * 60_000);
});
