// A connection pool over any driver that can open a connection. Connections are handed out one
// caller at a time; withConnection() is the way most code should use it.

import type { Param } from "./escape.js";

export interface Connection {
  run(sql: string, params: Param[]): Promise<{ changes: number }>;
  all(sql: string, params: Param[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export interface PoolOptions {
  open: () => Promise<Connection>;
  max?: number;
}

export class Pool {
  private idle: Connection[] = [];
  private busy = new Set<Connection>();
  private readonly max: number;
  private closed = false;

  constructor(private readonly opts: PoolOptions) {
    this.max = opts.max ?? 4;
  }

  get size(): number {
    return this.idle.length + this.busy.size;
  }

  async acquire(): Promise<Connection> {
    if (this.closed) throw new Error("pool is closed");
    const conn = this.idle.pop();
    if (conn) {
      this.busy.add(conn);
      return conn;
    }
    if (this.size < this.max) {
      const fresh = await this.opts.open();
      this.busy.add(fresh);
      return fresh;
    }
    throw new Error(`pool exhausted (${this.max} connections in use)`);
  }

  release(conn: Connection): void {
    if (!this.busy.delete(conn)) throw new Error("connection does not belong to this pool");
    this.idle.push(conn);
  }

  async withConnection<T>(fn: (conn: Connection) => Promise<T>): Promise<T> {
    const conn = await this.acquire();
    try {
      return await fn(conn);
    } finally {
      this.release(conn);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.map((c) => c.close()));
    this.idle = [];
  }
}
