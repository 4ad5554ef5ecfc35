// Unsent text per conversation, so a reload doesn't lose what the visitor was typing.

const PREFIX = "chatwidget:draft:";

export interface Draft {
  text: string;
  savedAt: number;
}

export class DraftStore {
  constructor(private readonly conversationId: string) {}

  private get key(): string {
    return PREFIX + this.conversationId;
  }

  save(text: string): void {
    if (!text.trim()) {
      this.clear();
      return;
    }
    const draft: Draft = { text, savedAt: Date.now() };
    try {
      window.localStorage.setItem(this.key, JSON.stringify(draft));
    } catch {
      // quota exceeded or storage disabled: drafts are best effort
    }
  }

  load(): string {
    const raw = window.localStorage.getItem(this.key);
    if (!raw) return "";
    try {
      const draft = JSON.parse(raw) as Draft;
      return typeof draft.text === "string" ? draft.text : "";
    } catch {
      return "";
    }
  }

  clear(): void {
    window.localStorage.removeItem(this.key);
  }
}
