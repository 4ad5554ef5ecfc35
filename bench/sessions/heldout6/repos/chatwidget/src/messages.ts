// The message list: one bubble per message, grouped by day, newest at the bottom.

import { escapeHtml, formatMessage } from "./format";

export interface Message {
  id: string;
  author: string;
  fromVisitor: boolean;
  text: string;
  sentAt: number;
  pending?: boolean;
}

export function dayKey(ts: number): string {
  const d = new Date(ts);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

export function groupByDay(messages: Message[]): Map<string, Message[]> {
  const groups = new Map<string, Message[]>();
  for (const m of [...messages].sort((a, b) => a.sentAt - b.sentAt)) {
    const key = dayKey(m.sentAt);
    const list = groups.get(key) ?? [];
    list.push(m);
    groups.set(key, list);
  }
  return groups;
}

export class MessageList {
  private messages: Message[] = [];

  constructor(private readonly container: HTMLElement) {}

  add(message: Message): void {
    const existing = this.messages.findIndex((m) => m.id === message.id);
    if (existing >= 0) this.messages[existing] = message;
    else this.messages.push(message);
    this.render();
  }

  ack(id: string): void {
    const m = this.messages.find((x) => x.id === id);
    if (m) {
      m.pending = false;
      this.render();
    }
  }

  render(): void {
    const parts: string[] = [];
    for (const [day, list] of groupByDay(this.messages)) {
      parts.push(`<li class="cw-day" role="separator">${day}</li>`);
      for (const m of list) {
        const cls = `cw-msg ${m.fromVisitor ? "cw-mine" : "cw-theirs"}${m.pending ? " cw-pending" : ""}`;
        parts.push(
          `<li class="${cls}" data-id="${escapeHtml(m.id)}">` +
            `<span class="cw-author">${m.author}</span>` +
            `<div class="cw-body">${formatMessage(m.text)}</div></li>`,
        );
      }
    }
    this.container.innerHTML = parts.join("");
    this.scrollToBottom();
  }

  scrollToBottom(): void {
    this.container.scrollTop = this.container.scrollHeight;
  }
}
