import { Board, BoardError, Card, Column } from "./types";

export const FORMAT_VERSION = 2;

export interface SavedBoard {
  version: number;
  board: Board;
}

export function toJSON(board: Board): string {
  const saved: SavedBoard = { version: FORMAT_VERSION, board };
  return JSON.stringify(saved);
}

function checkCard(raw: Record<string, unknown>): Card {
  if (typeof raw.id !== "string" || typeof raw.columnId !== "string" || typeof raw.rank !== "string") {
    throw new BoardError(`bad card ${JSON.stringify(raw).slice(0, 80)}`, "bad-format");
  }
  return {
    id: raw.id,
    title: String(raw.title ?? ""),
    columnId: raw.columnId,
    rank: raw.rank,
    archived: Boolean(raw.archived),
    assignee: typeof raw.assignee === "string" ? raw.assignee : undefined,
    labels: Array.isArray(raw.labels) ? raw.labels.map(String) : [],
  };
}

function checkColumn(raw: Record<string, unknown>): Column {
  if (typeof raw.id !== "string" || typeof raw.rank !== "string") {
    throw new BoardError(`bad column ${JSON.stringify(raw).slice(0, 80)}`, "bad-format");
  }
  return {
    id: raw.id,
    name: String(raw.name ?? ""),
    rank: raw.rank,
    wipLimit: typeof raw.wipLimit === "number" ? raw.wipLimit : undefined,
  };
}

export function fromJSON(text: string): Board {
  const saved = JSON.parse(text) as { version?: unknown; board?: Record<string, unknown> };
  const version = Number(saved.version);
  if (!saved.board || !Number.isFinite(version)) throw new BoardError("not a saved board", "bad-format");
  if (version > FORMAT_VERSION) {
    throw new BoardError(`board was saved by a newer version (${version})`, "too-new");
  }
  const raw = saved.board;
  const columns: Record<string, Column> = {};
  for (const c of Object.values((raw.columns ?? {}) as Record<string, Record<string, unknown>>)) {
    const col = checkColumn(c);
    columns[col.id] = col;
  }
  const cards: Record<string, Card> = {};
  for (const c of Object.values((raw.cards ?? {}) as Record<string, Record<string, unknown>>)) {
    const card = checkCard(c);
    cards[card.id] = card;
  }
  return {
    id: String(raw.id),
    name: String(raw.name ?? ""),
    columns,
    cards,
    revision: Number(raw.revision ?? 0),
  };
}
