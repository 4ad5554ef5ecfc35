import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { CrashBudget } from "../../src/pure/crash";

describe("the crash budget", () => {
    it("allows max restarts within the window, then refuses", () => {
        let now = 0;
        const b = new CrashBudget(3, 1000, () => now);
        assert.deepEqual([b.crashed(), b.crashed(), b.crashed(), b.crashed()], [true, true, true, false]);
        assert.equal(b.recent, 4);
    });

    it("forgets crashes older than the window", () => {
        let now = 0;
        const b = new CrashBudget(2, 1000, () => now);
        b.crashed();
        b.crashed();
        now = 1500;
        assert.equal(b.recent, 0);
        assert.equal(b.crashed(), true);
    });

    it("starts afresh after a restart the user asked for", () => {
        const b = new CrashBudget(1, 1000, () => 0);
        b.crashed();
        assert.equal(b.crashed(), false);
        b.reset();
        assert.equal(b.crashed(), true);
    });
});
