export type FieldValue = string | number | boolean | null;

export interface Draft {
  formId: string;
  schemaVersion: number;
  fields: Record<string, FieldValue>;
  /** per-field edit time (ms since epoch, client clock) */
  touched: Record<string, number>;
  /** server revision this draft was last synced against, 0 if never */
  baseRevision: number;
  updatedAt: number;
}

export interface Change {
  id: string;
  formId: string;
  field: string;
  value: FieldValue;
  at: number;
}

export interface ServerDraft {
  formId: string;
  revision: number;
  fields: Record<string, FieldValue>;
  updatedAt: number;
}

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  key(index: number): string | null;
  readonly length: number;
}
