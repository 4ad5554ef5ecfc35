import { randomUUID } from "node:crypto";
import { JobEvents } from "./events.js";
import { WorkerPool } from "./pool.js";
import { getPreset } from "./presets.js";
import { resizeImage } from "./resize.js";
import { isRetryable, nextDelay } from "./retry.js";
import { originalKey, type Storage } from "./storage.js";
import { validateUpload, type Upload } from "./validate.js";

export interface Job {
  id: string;
  upload: Upload;
  presets: string[];
  attempt: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class JobQueue {
  readonly events = new JobEvents();
  private pool: WorkerPool;

  constructor(private storage: Storage, concurrency = 4) {
    this.pool = new WorkerPool(concurrency);
  }

  submit(upload: Upload, presets: string[]): string {
    validateUpload(upload);
    const job: Job = { id: randomUUID(), upload, presets, attempt: 0 };
    this.events.emit({ type: "queued", jobId: job.id });
    void this.pool.run(() => this.process(job));
    return job.id;
  }

  private async process(job: Job): Promise<void> {
    for (;;) {
      try {
        const outputs = await this.resizeAll(job);
        this.events.emit({ type: "completed", jobId: job.id, outputs });
        return;
      } catch (err) {
        job.attempt++;
        const delay = isRetryable(err) ? nextDelay(job.attempt) : null;
        if (delay === null) {
          this.events.emit({ type: "failed", jobId: job.id, error: String(err) });
          return;
        }
        this.events.emit({ type: "retrying", jobId: job.id, attempt: job.attempt, delayMs: delay, error: String(err) });
        await sleep(delay);
      }
    }
  }

  private async resizeAll(job: Job): Promise<Record<string, string>> {
    const key = originalKey(job.id, job.upload.filename);
    await this.storage.put(key, job.upload.bytes, job.upload.contentType);
    const outputs: Record<string, string> = {};
    for (const [i, name] of job.presets.entries()) {
      const preset = getPreset(name);
      const out = await resizeImage(job.upload.bytes, preset);
      const outKey = `derived/${job.id}/${name}.${preset.format}`;
      await this.storage.put(outKey, out, `image/${preset.format}`);
      outputs[name] = this.storage.url(outKey);
      this.events.emit({ type: "progress", jobId: job.id, done: i + 1, total: job.presets.length });
    }
    return outputs;
  }
}
