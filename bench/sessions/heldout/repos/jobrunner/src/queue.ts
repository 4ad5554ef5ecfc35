export interface Job<T = unknown> {
  id: string;
  kind: string;
  payload: T;
  attempts: number;
  runAt: number;
}

export type NewJob = Pick<Job, "id" | "kind" | "payload"> & { runAt?: number };

export interface Queue {
  enqueue(job: NewJob): Promise<void>;
  reserve(now: number): Promise<Job | undefined>;
  ack(id: string): Promise<void>;
  retry(job: Job, runAt: number): Promise<void>;
  bury(job: Job, reason: string): Promise<void>;
}

/** The queue the tests and `jobrunner run --memory` use; production uses the Postgres one. */
export class InMemoryQueue implements Queue {
  private ready: Job[] = [];
  private inflight = new Map<string, Job>();
  readonly dead: Array<{ job: Job; reason: string }> = [];

  async enqueue(job: NewJob): Promise<void> {
    this.ready.push({ attempts: 0, runAt: Date.now(), ...job });
  }

  async reserve(now: number): Promise<Job | undefined> {
    const i = this.ready.findIndex((j) => j.runAt <= now);
    if (i < 0) return undefined;
    const [job] = this.ready.splice(i, 1);
    this.inflight.set(job.id, job);
    return job;
  }

  async ack(id: string): Promise<void> {
    this.inflight.delete(id);
  }

  async retry(job: Job, runAt: number): Promise<void> {
    this.inflight.delete(job.id);
    this.ready.push({ ...job, attempts: job.attempts + 1, runAt });
  }

  async bury(job: Job, reason: string): Promise<void> {
    this.inflight.delete(job.id);
    this.dead.push({ job, reason });
  }

  size(): number {
    return this.ready.length + this.inflight.size;
  }
}
