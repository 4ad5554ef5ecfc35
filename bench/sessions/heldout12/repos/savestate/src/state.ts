// The rules of a turn: applyAction takes a state and an action and returns the next state.
// It returns new objects for whatever it changes; the undo stack keeps the old ones.

import { createRng, rollDamage } from "./rng";
import { type Action, type GameState, type Hex, type Unit, UNIT_STATS, hexDistance } from "./types";

export class IllegalAction extends Error {
  constructor(public readonly action: Action, reason: string) {
    super(`${action.type}: ${reason}`);
  }
}

export function newGame(seed: number, units: Unit[]): GameState {
  return {
    turn: 1,
    active: "red",
    units: units.map((u) => ({ ...u, pos: { ...u.pos } })),
    inventory: new Map([["potion", 2]]),
    seed,
    log: [],
  };
}

function unitById(state: GameState, id: string, action: Action): Unit {
  const unit = state.units.find((u) => u.id === id);
  if (!unit) throw new IllegalAction(action, `no unit ${id}`);
  return unit;
}

function replaceUnit(state: GameState, unit: Unit): Unit[] {
  return state.units.map((u) => (u.id === unit.id ? unit : u));
}

function moveUnit(state: GameState, action: Action & { type: "move" }): GameState {
  const unit = unitById(state, action.unitId, action);
  if (unit.faction !== state.active) throw new IllegalAction(action, "not your unit");
  if (unit.moved) throw new IllegalAction(action, "already moved this turn");
  if (hexDistance(unit.pos, action.to) > UNIT_STATS[unit.kind].speed) throw new IllegalAction(action, "too far");
  if (state.units.some((u) => u.hp > 0 && sameHex(u.pos, action.to))) throw new IllegalAction(action, "occupied");
  const moved: Unit = { ...unit, pos: { ...action.to }, moved: true };
  return { ...state, units: replaceUnit(state, moved), log: [...state.log, `${unit.id} moves`] };
}

function attack(state: GameState, action: Action & { type: "attack" }): GameState {
  const unit = unitById(state, action.unitId, action);
  const target = unitById(state, action.targetId, action);
  if (unit.faction === target.faction) throw new IllegalAction(action, "friendly target");
  if (hexDistance(unit.pos, target.pos) > UNIT_STATS[unit.kind].range) throw new IllegalAction(action, "out of range");
  const rng = createRng(state.seed + state.log.length);
  const damage = rollDamage(rng, UNIT_STATS[unit.kind].damage);
  const hit: Unit = { ...target, hp: Math.max(target.hp - damage, 0) };
  return { ...state, units: replaceUnit(state, hit), log: [...state.log, `${unit.id} hits ${target.id} for ${damage}`] };
}

function useItem(state: GameState, action: Action & { type: "use" }): GameState {
  const count = state.inventory.get(action.item) ?? 0;
  if (count <= 0) throw new IllegalAction(action, `no ${action.item} left`);
  const unit = unitById(state, action.unitId, action);
  const healed: Unit = { ...unit, hp: Math.min(unit.hp + 4, UNIT_STATS[unit.kind].hp) };
  const inventory = new Map(state.inventory);
  inventory.set(action.item, count - 1);
  return { ...state, inventory, units: replaceUnit(state, healed), log: [...state.log, `${unit.id} uses ${action.item}`] };
}

function endTurn(state: GameState): GameState {
  const active = state.active === "red" ? "blue" : "red";
  return {
    ...state,
    active,
    turn: active === "red" ? state.turn + 1 : state.turn,
    units: state.units.map((u) => (u.moved ? { ...u, moved: false } : u)),
    log: [...state.log, `${state.active} ends turn`],
  };
}

export function applyAction(state: GameState, action: Action): GameState {
  switch (action.type) {
    case "move":
      return moveUnit(state, action);
    case "attack":
      return attack(state, action);
    case "use":
      return useItem(state, action);
    case "endTurn":
      return endTurn(state);
  }
}

function sameHex(a: Hex, b: Hex): boolean {
  return a.q === b.q && a.r === b.r;
}
