// The shapes every other module agrees on. A GameState is plain data plus one Map (the
// inventory), so that it can be cloned for undo and written to a save slot.

export type Faction = "red" | "blue";

export interface Hex {
  q: number;
  r: number;
}

export interface Unit {
  id: string;
  faction: Faction;
  kind: "scout" | "pike" | "archer";
  pos: Hex;
  hp: number;
  moved: boolean;
}

export interface GameState {
  turn: number;
  active: Faction;
  units: Unit[];
  inventory: Map<string, number>;
  seed: number;
  log: string[];
}

export type Action =
  | { type: "move"; unitId: string; to: Hex }
  | { type: "attack"; unitId: string; targetId: string }
  | { type: "use"; item: string; unitId: string }
  | { type: "endTurn" };

export const UNIT_STATS: Record<Unit["kind"], { hp: number; range: number; damage: number; speed: number }> = {
  scout: { hp: 6, range: 1, damage: 2, speed: 4 },
  pike: { hp: 10, range: 1, damage: 4, speed: 2 },
  archer: { hp: 7, range: 3, damage: 3, speed: 2 },
};

export function hexDistance(a: Hex, b: Hex): number {
  const dq = a.q - b.q;
  const dr = a.r - b.r;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}
