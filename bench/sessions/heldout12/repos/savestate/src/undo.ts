// Undo for the local player. Each applied action pushes a copy of the state it replaced.

import type { GameState } from "./types";

export function cloneState(state: GameState): GameState {
  return structuredClone(state);
}

export class UndoStack {
  private past: GameState[] = [];

  constructor(private readonly limit = 200) {}

  push(state: GameState): void {
    this.past.push(cloneState(state));
    if (this.past.length > this.limit) this.past.shift();
  }

  undo(): GameState | undefined {
    return this.past.pop();
  }

  clear(): void {
    this.past = [];
  }

  get depth(): number {
    return this.past.length;
  }
}
