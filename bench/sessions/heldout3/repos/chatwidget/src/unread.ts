export class UnreadCounter {
  private count = 0;
  private listeners: Array<(n: number) => void> = [];

  onChange(fn: (n: number) => void): void {
    this.listeners.push(fn);
  }

  incoming(fromVisitor: boolean): void {
    if (fromVisitor) return;
    this.count++;
    this.emit();
  }

  markSeen(): void {
    this.count = 0;
    this.emit();
  }

  get value(): number {
    return this.count;
  }

  private emit(): void {
    for (const fn of this.listeners) fn(this.count);
  }
}
