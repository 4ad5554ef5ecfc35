import { computeDelay } from "./backoff.js";
import { PermanentError } from "./errors.js";
import type { Logger } from "./logger.js";
import type { Job, Queue } from "./queue.js";

export type Handler = (job: Job, signal: AbortSignal) => Promise<void>;

export interface WorkerOptions {
  concurrency: number;
  pollMs: number;
  maxAttempts: number;
}

export class Worker {
  private running = false;
  private active = 0;
  private readonly controller = new AbortController();

  constructor(
    private readonly queue: Queue,
    private readonly handlers: Record<string, Handler>,
    private readonly log: Logger,
    private readonly opts: WorkerOptions,
  ) {}

  async start(): Promise<void> {
    this.running = true;
    while (this.running) {
      const busy = this.active >= this.opts.concurrency;
      if (busy || !(await this.tick())) await sleep(this.opts.pollMs);
    }
  }

  stop(): void {
    this.running = false;
    this.controller.abort();
  }

  async tick(now = Date.now()): Promise<boolean> {
    const job = await this.queue.reserve(now);
    if (!job) return false;
    this.active++;
    void this.run(job).finally(() => this.active--);
    return true;
  }

  private async run(job: Job): Promise<void> {
    const handler = this.handlers[job.kind];
    if (!handler) {
      await this.queue.bury(job, `no handler for kind ${job.kind}`);
      return;
    }
    try {
      await handler(job, this.controller.signal);
      await this.queue.ack(job.id);
      this.log.info("job done", { id: job.id, kind: job.kind });
    } catch (err) {
      await this.fail(job, err);
    }
  }

  private async fail(job: Job, err: unknown): Promise<void> {
    const attempt = job.attempts + 1;
    if (err instanceof PermanentError || attempt >= this.opts.maxAttempts) {
      await this.queue.bury(job, String(err));
      this.log.error("job buried", { id: job.id, attempt, err: String(err) });
      return;
    }
    const delay = computeDelay(attempt);
    await this.queue.retry(job, Date.now() + delay);
    this.log.warn("job failed, retrying", { id: job.id, attempt, delay });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
