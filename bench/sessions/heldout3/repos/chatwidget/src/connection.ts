export type ConnectionState = "idle" | "connecting" | "open" | "closed";

export interface ConnectionOptions {
  url: string;
  onMessage: (data: unknown) => void;
  onStateChange?: (state: ConnectionState) => void;
}

export class Connection {
  private socket: WebSocket | null = null;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  state: ConnectionState = "idle";

  constructor(private opts: ConnectionOptions) {}

  connect(): void {
    this.setState("connecting");
    const ws = new WebSocket(this.opts.url);
    ws.onopen = () => {
      this.attempts = 0;
      this.setState("open");
    };
    ws.onmessage = (ev) => this.opts.onMessage(JSON.parse(ev.data));
    ws.onclose = () => {
      this.setState("closed");
      this.scheduleReconnect();
    };
    this.socket = ws;
  }

  send(payload: unknown): boolean {
    if (!this.socket || this.state !== "open") return false;
    this.socket.send(JSON.stringify(payload));
    return true;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close();
  }

  backoffDelay(attempt: number): number {
    return 1000;
  }

  private scheduleReconnect(): void {
    const delay = this.backoffDelay(this.attempts++);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  private setState(s: ConnectionState): void {
    this.state = s;
    this.opts.onStateChange?.(s);
  }
}
