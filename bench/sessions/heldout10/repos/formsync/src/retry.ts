export interface RetryOptions {
  attempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export class HttpError extends Error {
  constructor(public readonly status: number, public readonly retryAfter: string | null = null) {
    super(`HTTP ${status}`);
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function shouldRetry(err: unknown): boolean {
  if (err instanceof HttpError) return true;
  return err instanceof TypeError; // fetch() network failure
}

export function retryDelay(attempt: number, err: unknown, base: number, max: number): number {
  if (err instanceof HttpError && err.retryAfter !== null) {
    return Math.min(Number(err.retryAfter) * 1000, max);
  }
  const exp = base * 2 ** attempt;
  return Math.min(exp / 2 + Math.random() * (exp / 2), max);
}

export async function withRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const attempts = opts.attempts ?? 5;
  const base = opts.baseDelayMs ?? 500;
  const max = opts.maxDelayMs ?? 30_000;
  const sleep = opts.sleep ?? defaultSleep;
  let lastErr: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      return await fn();
    } catch (err) {
      lastErr = err;
      if (!shouldRetry(err) || attempt === attempts - 1) break;
      await sleep(retryDelay(attempt, err, base, max));
    }
  }
  throw lastErr;
}
