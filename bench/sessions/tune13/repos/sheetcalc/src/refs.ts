// A1-style cell references and rectangular ranges.

export interface CellRef {
  col: number; // 0-based
  row: number; // 0-based
  absCol: boolean;
  absRow: boolean;
}

export interface RangeRef {
  start: CellRef;
  end: CellRef;
}

const REF = /^(\$?)([A-Z]{1,3})(\$?)([0-9]+)$/;
export const MAX_ROWS = 1_048_576;
export const MAX_COLS = 16_384;

export function colToIndex(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

export function indexToCol(index: number): string {
  let s = "";
  let n = index + 1;
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

export function parseRef(text: string): CellRef {
  const m = REF.exec(text.toUpperCase());
  if (!m) throw new Error(`not a cell reference: ${text}`);
  const col = colToIndex(m[2]);
  const row = Number(m[4]) - 1;
  if (row < 0 || row >= MAX_ROWS || col >= MAX_COLS) throw new Error(`reference out of bounds: ${text}`);
  return { col, row, absCol: m[1] === "$", absRow: m[3] === "$" };
}

export function refKey(ref: CellRef): string {
  return `${indexToCol(ref.col)}${ref.row + 1}`;
}

export function parseRange(text: string): RangeRef {
  const [a, b, extra] = text.split(":");
  if (b === undefined || extra !== undefined) throw new Error(`not a range: ${text}`);
  const start = parseRef(a);
  const end = parseRef(b);
  if (end.col < start.col || end.row < start.row) {
    throw new Error(`range end before start: ${text}`);
  }
  return { start, end };
}

export function cellsInRange(range: RangeRef): string[] {
  const keys: string[] = [];
  for (let r = range.start.row; r <= range.end.row; r++) {
    for (let c = range.start.col; c <= range.end.col; c++) {
      keys.push(`${indexToCol(c)}${r + 1}`);
    }
  }
  return keys;
}

export function rangeSize(range: RangeRef): number {
  return (range.end.row - range.start.row + 1) * (range.end.col - range.start.col + 1);
}
