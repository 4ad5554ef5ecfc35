import { EventEmitter } from "node:events";

export type JobEvent =
  | { type: "queued"; jobId: string }
  | { type: "progress"; jobId: string; done: number; total: number }
  | { type: "retrying"; jobId: string; attempt: number; delayMs: number; error: string }
  | { type: "completed"; jobId: string; outputs: Record<string, string> }
  | { type: "failed"; jobId: string; error: string };

export class JobEvents {
  private emitter = new EventEmitter();

  emit(event: JobEvent): void {
    this.emitter.emit(event.jobId, event);
    this.emitter.emit("*", event);
  }

  on(jobId: string | "*", listener: (e: JobEvent) => void): () => void {
    this.emitter.on(jobId, listener);
    return () => this.emitter.off(jobId, listener);
  }
}
