// Typing indicators: tell the agent when the visitor types, show when the agent types.

import type { ChatSocket } from "./socket";

// if the other side's stop frame gets lost, don't show "typing" forever
const REMOTE_TIMEOUT_MS = 8000;

export class TypingIndicator {
  private remoteTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly socket: ChatSocket,
    private readonly author: string,
    private readonly el: HTMLElement,
  ) {}

  // called on every input event of the composer
  onInput(value: string): void {
    this.socket.send({ type: "typing", author: this.author, active: value.length > 0 });
  }

  // a typing frame from the other side
  showRemote(author: string, active: boolean): void {
    if (this.remoteTimer) clearTimeout(this.remoteTimer);
    if (!active) {
      this.hide();
      return;
    }
    this.el.textContent = `${author} is typing…`;
    this.el.hidden = false;
    this.remoteTimer = setTimeout(() => this.hide(), REMOTE_TIMEOUT_MS);
  }

  hide(): void {
    this.el.hidden = true;
    this.el.textContent = "";
  }

  dispose(): void {
    if (this.remoteTimer) clearTimeout(this.remoteTimer);
    this.hide();
  }
}
