export interface BackoffOptions {
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1_000, capMs: 5 * 60_000 };

/** How long to wait before attempt number `attempt` (1 = the first retry). */
export function computeDelay(attempt: number, opts: BackoffOptions = DEFAULT_BACKOFF): number {
  return Math.min(opts.capMs, opts.baseMs * attempt);
}
