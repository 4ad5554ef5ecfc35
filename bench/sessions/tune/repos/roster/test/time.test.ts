import { strict as assert } from "node:assert";
import { test } from "node:test";
import { durationHours, overlaps } from "../src/time";

const d = (s: string) => new Date(s);

test("overlapping shifts", () => {
  assert.ok(overlaps({ start: d("2026-03-02T08:00Z"), end: d("2026-03-02T16:00Z") },
                     { start: d("2026-03-02T12:00Z"), end: d("2026-03-02T20:00Z") }));
});

test("an eight hour shift", () => {
  assert.equal(durationHours({ start: d("2026-03-02T08:00Z"), end: d("2026-03-02T16:00Z") }), 8);
});
