import { compareKeys, keyBetween } from "./fractional";
import { Board, BoardError, Card, CardId, Column, ColumnId } from "./types";

let counter = 0;
export function newId(prefix: string): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}${counter.toString(36)}`;
}

export function createBoard(name: string): Board {
  return { id: newId("b"), name, columns: {}, cards: {}, revision: 0 };
}

export function orderedColumns(board: Board): Column[] {
  return Object.values(board.columns).sort((x, y) => x.rank.localeCompare(y.rank));
}

export function cardsIn(board: Board, columnId: ColumnId): Card[] {
  return Object.values(board.cards)
    .filter((c) => c.columnId === columnId && !c.archived)
    .sort((x, y) => compareKeys(x.rank, y.rank));
}

export function addColumn(board: Board, name: string, wipLimit?: number): Column {
  const cols = orderedColumns(board);
  const last = cols[cols.length - 1];
  const column: Column = { id: newId("col"), name, rank: keyBetween(last?.rank ?? null, null), wipLimit };
  board.columns[column.id] = column;
  board.revision += 1;
  return column;
}

export function addCard(board: Board, columnId: ColumnId, title: string): Card {
  if (!board.columns[columnId]) throw new BoardError(`no column ${columnId}`, "no-column");
  const cards = cardsIn(board, columnId);
  const last = cards[cards.length - 1];
  const card: Card = {
    id: newId("card"), title, columnId, rank: keyBetween(last?.rank ?? null, null), archived: false, labels: [],
  };
  board.cards[card.id] = card;
  board.revision += 1;
  return card;
}

/** Moves ``cardId`` into ``toColumn`` at position ``index`` (0 = top). */
export function moveCard(board: Board, cardId: CardId, toColumn: ColumnId, index: number): Card {
  const card = board.cards[cardId];
  if (!card) throw new BoardError(`no card ${cardId}`, "no-card");
  if (!board.columns[toColumn]) throw new BoardError(`no column ${toColumn}`, "no-column");
  const others = cardsIn(board, toColumn).filter((c) => c.id !== cardId);
  const clamped = Math.max(0, Math.min(index, others.length));
  const before = others[clamped - 1]?.rank ?? null;
  const after = others[clamped]?.rank ?? null;
  card.rank = keyBetween(before, after);
  card.columnId = toColumn;
  board.revision += 1;
  return card;
}

export function archiveCard(board: Board, cardId: CardId): void {
  const card = board.cards[cardId];
  if (!card) throw new BoardError(`no card ${cardId}`, "no-card");
  card.archived = true;
  board.revision += 1;
}

export function archiveColumn(board: Board, columnId: ColumnId): number {
  if (!board.columns[columnId]) throw new BoardError(`no column ${columnId}`, "no-column");
  let n = 0;
  for (const card of Object.values(board.cards)) {
    if (card.columnId === columnId && !card.archived) {
      card.archived = true;
      n += 1;
    }
  }
  delete board.columns[columnId];
  board.revision += 1;
  return n;
}
