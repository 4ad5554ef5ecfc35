import type { Value } from "./types.js";
import { formatMessage } from "./messages.js";

export type Check = (value: Value, signal: AbortSignal) => Promise<boolean>;

export interface AsyncState {
  pending: boolean;
  error: string | null;
}

/** Runs a server-side check (e.g. "is this username free?") as the user types. */
export class AsyncValidator {
  private state: AsyncState = { pending: false, error: null };
  private listeners = new Set<(s: AsyncState) => void>();
  private controller: AbortController | null = null;

  constructor(private readonly check: Check, private readonly label: string, private readonly code = "taken") {}

  subscribe(listener: (s: AsyncState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async run(value: Value): Promise<AsyncState> {
    this.controller = new AbortController();
    this.set({ pending: true, error: this.state.error });
    try {
      const ok = await this.check(value, this.controller.signal);
      this.set({ pending: false, error: ok ? null : formatMessage(this.code, { label: this.label }) });
    } catch (err) {
      this.set({ pending: false, error: null });
    }
    return this.state;
  }

  private set(next: AsyncState): void {
    this.state = next;
    for (const listener of this.listeners) listener(next);
  }
}
