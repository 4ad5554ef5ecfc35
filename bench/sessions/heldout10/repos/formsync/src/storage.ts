import type { Draft, KeyValueStorage } from "./types";
import { CURRENT_VERSION, migrateDraft } from "./migrate";

const PREFIX = "fs1:draft:";

export function draftKey(formId: string): string {
  return PREFIX + formId;
}

export class DraftStore {
  constructor(private readonly storage: KeyValueStorage) {}

  load(formId: string): Draft | null {
    const raw = this.storage.getItem(draftKey(formId));
    if (raw === null) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return null;
    }
    const draft = migrateDraft(parsed as Record<string, unknown>);
    if (draft.schemaVersion !== CURRENT_VERSION) return null;
    return draft;
  }

  save(draft: Draft): void {
    this.storage.setItem(draftKey(draft.formId), JSON.stringify(draft));
  }

  remove(formId: string): void {
    this.storage.removeItem(draftKey(formId));
  }

  list(): string[] {
    const ids: string[] = [];
    for (let i = 0; i < this.storage.length; i++) {
      const key = this.storage.key(i);
      if (key !== null && key.startsWith(PREFIX)) ids.push(key.slice(PREFIX.length));
    }
    return ids.sort();
  }
}
