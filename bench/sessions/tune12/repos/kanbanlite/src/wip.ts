import { Board, BoardError, ColumnId } from "./types";

export interface WipStatus {
  columnId: ColumnId;
  count: number;
  limit?: number;
  over: boolean;
}

/** How many cards count against the column's limit. */
export function countActive(board: Board, columnId: ColumnId): number {
  let n = 0;
  for (const card of Object.values(board.cards)) {
    if (card.columnId === columnId) n += 1;
  }
  return n;
}

export function wipStatus(board: Board, columnId: ColumnId): WipStatus {
  const column = board.columns[columnId];
  if (!column) throw new BoardError(`no column ${columnId}`, "no-column");
  const count = countActive(board, columnId);
  const limit = column.wipLimit;
  return { columnId, count, limit, over: limit !== undefined && count > limit };
}

/** Whether a card may be dropped into ``columnId`` (the card is not in it yet). */
export function canDrop(board: Board, columnId: ColumnId): boolean {
  const { count, limit } = wipStatus(board, columnId);
  return limit === undefined || count + 1 <= limit;
}

export function boardWip(board: Board): WipStatus[] {
  return Object.keys(board.columns).map((id) => wipStatus(board, id));
}

export function setWipLimit(board: Board, columnId: ColumnId, limit: number | undefined): void {
  const column = board.columns[columnId];
  if (!column) throw new BoardError(`no column ${columnId}`, "no-column");
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new BoardError(`WIP limit must be a positive integer, got ${limit}`, "bad-limit");
  }
  column.wipLimit = limit;
  board.revision += 1;
}
