export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 1000 };

export function nextDelay(attempt: number, policy: RetryPolicy = DEFAULT_RETRY): number | null {
  if (attempt >= policy.maxAttempts) return null;
  return policy.baseDelayMs;
}

export function isRetryable(err: unknown): boolean {
  if (err instanceof Error && "code" in err) {
    const code = (err as { code?: string }).code;
    return code === "ECONNRESET" || code === "ETIMEDOUT" || code === "SlowDown";
  }
  return false;
}
