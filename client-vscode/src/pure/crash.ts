// How often a crashed server is restarted: at most `max` crashes within `windowMs`; past that
// it stays down until the user restarts it (one notification, not a restart loop).

export class CrashBudget {
    private crashes: number[] = [];

    constructor(readonly max = 4, readonly windowMs = 3 * 60_000, private readonly now: () => number = Date.now) {}

    /** A crash happened: true when the server may be restarted. */
    crashed(): boolean {
        const t = this.now();
        this.crashes = this.crashes.filter((c) => t - c < this.windowMs);
        this.crashes.push(t);
        return this.crashes.length <= this.max;
    }

    /** Crashes counted in the current window. */
    get recent(): number {
        const t = this.now();
        return this.crashes.filter((c) => t - c < this.windowMs).length;
    }

    /** A restart the user asked for starts a fresh budget. */
    reset(): void {
        this.crashes = [];
    }
}
