import type { Draft, ServerDraft } from "./types";
import { ChangeQueue } from "./queue";
import { DraftStore } from "./storage";
import { resolveConflict } from "./conflict";
import { HttpError, withRetry } from "./retry";

export interface Transport {
  fetchDraft(formId: string): Promise<ServerDraft>;
  pushDraft(draft: Draft): Promise<ServerDraft>;
}

export interface SyncReport {
  formId: string;
  pushed: number;
  overwritten: string[];
}

export class SyncClient {
  constructor(
    private readonly store: DraftStore,
    private readonly queue: ChangeQueue,
    private readonly transport: Transport,
  ) {}

  async push(formId: string): Promise<SyncReport> {
    const draft = this.store.load(formId);
    if (!draft) return { formId, pushed: 0, overwritten: [] };
    const pending = this.queue.peek(formId);
    try {
      const saved = await withRetry(() => this.transport.pushDraft(draft));
      this.store.save({ ...draft, baseRevision: saved.revision });
      this.queue.ack(pending.map((c) => c.id));
      return { formId, pushed: pending.length, overwritten: [] };
    } catch (err) {
      if (err instanceof HttpError && err.status === 409) {
        const server = await this.transport.fetchDraft(formId);
        const { draft: merged, overwritten } = resolveConflict(draft, server);
        this.store.save(merged);
        return { formId, pushed: 0, overwritten };
      }
      throw err;
    }
  }

  async pushAll(): Promise<SyncReport[]> {
    const reports: SyncReport[] = [];
    for (const formId of this.store.list()) {
      reports.push(await this.push(formId));
    }
    return reports;
  }
}
