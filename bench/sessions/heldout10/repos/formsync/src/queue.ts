import type { Change, FieldValue, KeyValueStorage } from "./types";

const QUEUE_KEY = "fs1:queue";

let counter = 0;
function nextId(): string {
  counter += 1;
  return `${Date.now().toString(36)}-${counter}`;
}

export class ChangeQueue {
  private items: Change[];

  constructor(private readonly storage: KeyValueStorage) {
    const raw = storage.getItem(QUEUE_KEY);
    this.items = raw ? (JSON.parse(raw) as Change[]) : [];
  }

  enqueue(formId: string, field: string, value: FieldValue, at = Date.now()): Change {
    const change: Change = { id: nextId(), formId, field, value, at };
    this.items.push(change);
    this.persist();
    return change;
  }

  peek(formId: string): Change[] {
    return this.items.filter((c) => c.formId === formId);
  }

  ack(ids: string[]): void {
    const done = new Set(ids);
    this.items = this.items.filter((c) => !done.has(c.id));
    this.persist();
  }

  get size(): number {
    return this.items.length;
  }

  private persist(): void {
    this.storage.setItem(QUEUE_KEY, JSON.stringify(this.items));
  }
}
