export type CardId = string;
export type ColumnId = string;

export interface Card {
  id: CardId;
  title: string;
  columnId: ColumnId;
  /** Fractional index: cards in a column are ordered by this key. */
  rank: string;
  archived: boolean;
  assignee?: string;
  labels: string[];
}

export interface Column {
  id: ColumnId;
  name: string;
  rank: string;
  /** Work-in-progress limit; undefined means no limit. */
  wipLimit?: number;
}

export interface Board {
  id: string;
  name: string;
  columns: Record<ColumnId, Column>;
  cards: Record<CardId, Card>;
  /** Bumped on every change; the sync layer uses it to detect stale writes. */
  revision: number;
}

export type Role = "owner" | "editor" | "commenter" | "viewer";

export interface User {
  id: string;
  roles: Record<string, Role>; // board id -> role
}

export class BoardError extends Error {
  constructor(message: string, readonly code: string) {
    super(message);
    this.name = "BoardError";
  }
}
