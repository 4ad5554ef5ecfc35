export interface OutgoingMessage {
  clientId: string;
  text: string;
  createdAt: number;
}

export class OutboxQueue {
  private items: OutgoingMessage[] = [];

  enqueue(msg: OutgoingMessage): void {
    this.items.push(msg);
  }

  get size(): number {
    return this.items.length;
  }

  flush(send: (m: OutgoingMessage) => boolean): number {
    let sent = 0;
    while (this.items.length > 0) {
      if (!send(this.items[0])) break;
      this.items.shift();
      sent++;
    }
    return sent;
  }
}
