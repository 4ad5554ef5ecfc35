// Async validators: server-side checks such as "is this username taken".

import type { RuleResult } from "./rules";

export type AsyncRule = (value: unknown, signal?: AbortSignal) => Promise<RuleResult | null>;

export interface AsyncOutcome {
  error: RuleResult | null;
  stale: boolean;
}

export class AsyncRunner {
  private running = 0;

  constructor(private readonly rules: AsyncRule[]) {}

  get busy(): boolean {
    return this.running > 0;
  }

  async run(value: unknown): Promise<AsyncOutcome> {
    this.running++;
    try {
      for (const rule of this.rules) {
        const error = await rule(value);
        if (error) return { error, stale: false };
      }
      return { error: null, stale: false };
    } finally {
      this.running--;
    }
  }
}
