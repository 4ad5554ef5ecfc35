import { Board } from "./types";

/** A snapshot-based undo stack. Boards are small; snapshots are cheaper to get right than inverse ops. */
export interface Entry {
  label: string;
  before: string; // JSON of the board before the change
  at: number;
}

export class History {
  private undoStack: Entry[] = [];
  private redoStack: Entry[] = [];

  constructor(private readonly limit = 100, private readonly now: () => number = Date.now) {}

  /** Call before mutating ``board``; ``label`` is shown in the undo menu. */
  record(board: Board, label: string): void {
    this.undoStack.push({ label, before: JSON.stringify(board), at: this.now() });
    if (this.undoStack.length > this.limit) this.undoStack.shift();
    this.redoStack = [];
  }

  canUndo(): boolean {
    return this.undoStack.length > 0;
  }

  canRedo(): boolean {
    return this.redoStack.length > 0;
  }

  undo(current: Board): Board | null {
    const entry = this.undoStack.pop();
    if (!entry) return null;
    this.redoStack.push({ label: entry.label, before: JSON.stringify(current), at: this.now() });
    return JSON.parse(entry.before) as Board;
  }

  redo(current: Board): Board | null {
    const entry = this.redoStack.pop();
    if (!entry) return null;
    this.undoStack.push({ label: entry.label, before: JSON.stringify(current), at: this.now() });
    return JSON.parse(entry.before) as Board;
  }

  labels(): string[] {
    return this.undoStack.map((e) => e.label).reverse();
  }
}
