import { describe, expect, it } from "vitest";
import { Game, IllegalAction, SaveError, newGame } from "../src/index";
import { createRng, pickLoot, rollDamage } from "../src/rng";
import { SAVE_VERSION, deserialize, loadGame, saveGame, serialize } from "../src/save";
import { applyAction } from "../src/state";
import type { Unit } from "../src/types";
import { UndoStack } from "../src/undo";

class MemoryStorage implements Storage {
  private data = new Map<string, string>();
  get length() { return this.data.size; }
  clear() { this.data.clear(); }
  getItem(key: string) { return this.data.get(key) ?? null; }
  key(i: number) { return [...this.data.keys()][i] ?? null; }
  removeItem(key: string) { this.data.delete(key); }
  setItem(key: string, value: string) { this.data.set(key, value); }
}

const units: Unit[] = [
  { id: "r1", faction: "red", kind: "pike", pos: { q: 0, r: 0 }, hp: 10, moved: false },
  { id: "r2", faction: "red", kind: "archer", pos: { q: 1, r: 0 }, hp: 7, moved: false },
  { id: "b1", faction: "blue", kind: "scout", pos: { q: 2, r: 0 }, hp: 6, moved: false },
];

describe("applyAction", () => {
  it("moves a unit and leaves the old state alone", () => {
    const before = newGame(7, units);
    const after = applyAction(before, { type: "move", unitId: "r1", to: { q: 0, r: 1 } });
    expect(after.units[0].pos).toEqual({ q: 0, r: 1 });
    expect(before.units[0].pos).toEqual({ q: 0, r: 0 });
  });

  it("refuses a second move in one turn", () => {
    const once = applyAction(newGame(7, units), { type: "move", unitId: "r1", to: { q: 0, r: 1 } });
    expect(() => applyAction(once, { type: "move", unitId: "r1", to: { q: 0, r: 2 } })).toThrow(IllegalAction);
  });

  it("hands the turn over and counts full rounds", () => {
    let state = newGame(7, units);
    state = applyAction(state, { type: "endTurn" });
    expect(state.active).toBe("blue");
    state = applyAction(state, { type: "endTurn" });
    expect([state.active, state.turn]).toEqual(["red", 2]);
  });

  it("uses up a potion", () => {
    const state = applyAction(newGame(7, units), { type: "use", item: "potion", unitId: "r1" });
    expect(state.inventory.get("potion")).toBe(1);
  });
});

describe("rng", () => {
  it("rolls damage within one of the base", () => {
    const rng = createRng(1);
    for (let i = 0; i < 50; i++) expect(Math.abs(rollDamage(rng, 3) - 3)).toBeLessThanOrEqual(1);
  });

  it("picks only items from the table", () => {
    const rng = createRng(2);
    for (let i = 0; i < 20; i++) expect(["gold", "potion"]).toContain(pickLoot(rng, [["gold", 3], ["potion", 1]]));
  });
});

describe("undo", () => {
  it("returns the state before the last action", () => {
    const game = new Game(newGame(7, units), new MemoryStorage());
    game.dispatch({ type: "move", unitId: "r1", to: { q: 0, r: 1 } });
    expect(game.undo()).toBe(true);
    expect(game.state.units[0].pos).toEqual({ q: 0, r: 0 });
  });

  it("drops the oldest entry past its limit", () => {
    const stack = new UndoStack(2);
    for (const turn of [1, 2, 3]) stack.push({ ...newGame(7, units), turn });
    expect(stack.depth).toBe(2);
    expect(stack.undo()?.turn).toBe(3);
  });
});

describe("save slots", () => {
  it("round-trips the turn and units", () => {
    const storage = new MemoryStorage();
    saveGame(storage, "a", newGame(7, units));
    const file = loadGame(storage, "a");
    expect(file?.version).toBe(SAVE_VERSION);
    expect(file?.state.units).toHaveLength(3);
  });

  it("migrates a version 1 save", () => {
    const v1 = JSON.stringify({ version: 1, savedAt: "2026-01-01T00:00:00Z", state: { turn: 4, seed: "9", units: [] } });
    const file = deserialize(v1);
    expect([file.version, file.state.seed, file.state.log]).toEqual([SAVE_VERSION, 9, []]);
  });

  it("reports an unreadable slot", () => {
    const storage = new MemoryStorage();
    storage.setItem("hexfall.save.b", "{not json");
    expect(() => loadGame(storage, "b")).toThrow(SaveError);
  });

  it("writes the version first", () => {
    expect(serialize(newGame(7, units)).startsWith(`{"version":${SAVE_VERSION}`)).toBe(true);
  });
});
