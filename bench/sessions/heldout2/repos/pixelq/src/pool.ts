export type Task<T> = () => Promise<T>;

export class WorkerPool {
  private running = 0;
  private waiting: Array<() => void> = [];

  constructor(readonly concurrency: number) {
    if (concurrency < 1) throw new Error("concurrency must be at least 1");
  }

  async run<T>(task: Task<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  get busy(): number {
    return this.running;
  }
}
