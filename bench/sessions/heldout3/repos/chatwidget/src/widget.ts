import { Connection } from "./connection";
import { t, pickLocale, Locale } from "./i18n";
import { renderMarkdown } from "./markdown";
import { OutboxQueue } from "./queue";
import { applyTheme, Theme } from "./theme";
import { UnreadCounter } from "./unread";

export interface WidgetConfig {
  endpoint: string;
  siteId: string;
  theme?: Partial<Theme>;
  locale?: Locale;
}

export class ChatWidget {
  private conn: Connection;
  private outbox = new OutboxQueue();
  private unread = new UnreadCounter();
  private locale: Locale;
  private list!: HTMLElement;
  private badge!: HTMLElement;
  private open = false;

  constructor(private host: HTMLElement, private config: WidgetConfig) {
    this.locale = config.locale ?? pickLocale(navigator.languages);
    this.conn = new Connection({
      url: `${config.endpoint}?site=${encodeURIComponent(config.siteId)}`,
      onMessage: (data) => this.receive(data as { text: string; from: string }),
      onStateChange: (s) => {
        if (s === "open") this.outbox.flush((m) => this.conn.send(m));
      },
    });
  }

  mount(): void {
    const root = document.createElement("div");
    root.className = "cw-root";
    applyTheme(root, this.config.theme);
    root.innerHTML = `<header>${t(this.locale, "header.title")}</header><ol class="cw-list"></ol>`;
    this.list = root.querySelector(".cw-list")!;
    this.badge = document.createElement("span");
    this.badge.className = "cw-badge";
    this.unread.onChange((n) => {
      this.badge.textContent = n > 0 ? t(this.locale, "unread.badge", { n }) : "";
    });
    root.appendChild(this.badge);
    this.host.appendChild(root);
    this.conn.connect();
  }

  toggle(): void {
    this.open = !this.open;
    this.host.classList.toggle("cw-open", this.open);
  }

  sendText(text: string): void {
    const msg = { clientId: crypto.randomUUID(), text, createdAt: Date.now() };
    if (!this.conn.send(msg)) this.outbox.enqueue(msg);
    this.append(text, "visitor");
  }

  private receive(data: { text: string; from: string }): void {
    this.append(data.text, data.from);
    this.unread.incoming(data.from === "visitor");
  }

  private append(text: string, from: string): void {
    const li = document.createElement("li");
    li.className = `cw-msg cw-${from}`;
    li.innerHTML = renderMarkdown(text);
    this.list.appendChild(li);
  }
}
