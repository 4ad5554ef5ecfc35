// The Game facade the UI talks to: one state, its undo stack, the event bus and save slots.

import { Bus } from "./events";
import { loadGame, saveGame } from "./save";
import { applyAction } from "./state";
import type { Action, GameState } from "./types";
import { UndoStack } from "./undo";

export { Bus } from "./events";
export { SAVE_VERSION, SaveError, clearSlot, listSlots } from "./save";
export { IllegalAction, newGame } from "./state";
export type { Action, GameState, Hex, Unit } from "./types";

export class Game {
  readonly bus = new Bus();
  private readonly undoStack = new UndoStack();

  constructor(private current: GameState, private readonly storage: Storage) {}

  get state(): GameState {
    return this.current;
  }

  dispatch(action: Action): GameState {
    const next = applyAction(this.current, action);
    this.undoStack.push(this.current);
    this.current = next;
    this.bus.emit("applied", { action, state: next });
    return next;
  }

  undo(): boolean {
    const previous = this.undoStack.undo();
    if (!previous) return false;
    this.current = previous;
    this.bus.emit("undone", { state: previous });
    return true;
  }

  save(slot: string): void {
    const bytes = saveGame(this.storage, slot, this.current);
    this.bus.emit("saved", { slot, bytes });
  }

  load(slot: string): boolean {
    const file = loadGame(this.storage, slot);
    if (!file) return false;
    this.current = file.state;
    this.undoStack.clear();
    this.bus.emit("loaded", { slot, version: file.version });
    return true;
  }
}
