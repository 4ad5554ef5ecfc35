// The websocket to the helpdesk server: JSON frames in and out, reconnects when the line drops.

export type Frame =
  | { type: "message"; id: string; author: string; text: string; sentAt: number }
  | { type: "typing"; author: string; active: boolean }
  | { type: "ack"; id: string }
  | { type: "system"; text: string };

export type SocketState = "connecting" | "open" | "reconnecting" | "closed";

export interface SocketOptions {
  url: string;
  token: string;
  onFrame: (frame: Frame) => void;
  onState?: (state: SocketState) => void;
}

export class ChatSocket {
  private ws: WebSocket | null = null;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private queue: string[] = [];
  state: SocketState = "closed";

  constructor(private readonly opts: SocketOptions) {}

  connect(): void {
    this.setState(this.attempts === 0 ? "connecting" : "reconnecting");
    const ws = new WebSocket(`${this.opts.url}?token=${encodeURIComponent(this.opts.token)}`);
    ws.onopen = () => {
      this.attempts = 0;
      this.setState("open");
      for (const data of this.queue.splice(0)) ws.send(data);
    };
    ws.onmessage = (ev) => {
      try {
        this.opts.onFrame(JSON.parse(String(ev.data)) as Frame);
      } catch {
        // ignore frames we cannot parse
      }
    };
    ws.onclose = () => {
      this.ws = null;
      this.scheduleReconnect();
    };
    this.ws = ws;
  }

  send(frame: Frame): void {
    const data = JSON.stringify(frame);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(data);
    else this.queue.push(data);
  }

  scheduleReconnect(): void {
    this.attempts += 1;
    this.setState("reconnecting");
    this.timer = setTimeout(() => this.connect(), 1000);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.ws?.close();
    this.setState("closed");
  }

  private setState(state: SocketState): void {
    this.state = state;
    this.opts.onState?.(state);
  }
}
