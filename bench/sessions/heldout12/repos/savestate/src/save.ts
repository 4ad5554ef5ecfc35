// Save slots in localStorage. A save is {version, state}; older versions are migrated on load.

import type { GameState } from "./types";

export const SAVE_VERSION = 3;
const PREFIX = "hexfall.save.";

export interface SaveFile {
  version: number;
  savedAt: string;
  state: GameState;
}

export class SaveError extends Error {
  constructor(public readonly slot: string, reason: string) {
    super(`save slot "${slot}": ${reason}`);
  }
}

export function serialize(state: GameState, now = new Date()): string {
  const file: SaveFile = { version: SAVE_VERSION, savedAt: now.toISOString(), state };
  return JSON.stringify(file);
}

export function deserialize(text: string): SaveFile {
  const file = JSON.parse(text) as SaveFile;
  return migrate(file);
}

/** Brings an older save up to SAVE_VERSION, one version at a time. */
export function migrate(file: SaveFile): SaveFile {
  let current = file;
  while (current.version < SAVE_VERSION) {
    const step = MIGRATIONS[current.version];
    if (!step) throw new Error(`no migration from save version ${current.version}`);
    current = step(current);
  }
  return current;
}

const MIGRATIONS: Record<number, (file: SaveFile) => SaveFile> = {
  // v1 had no log
  1: (file) => ({ ...file, version: 2, state: { ...file.state, log: [] } }),
  // v2 stored the seed as a string
  2: (file) => ({ ...file, version: 3, state: { ...file.state, seed: Number(file.state.seed) } }),
};

export function saveGame(storage: Storage, slot: string, state: GameState): number {
  const text = serialize(state);
  storage.setItem(PREFIX + slot, text);
  return text.length;
}

export function loadGame(storage: Storage, slot: string): SaveFile | null {
  const text = storage.getItem(PREFIX + slot);
  if (text === null) return null;
  try {
    return deserialize(text);
  } catch (err) {
    storage.removeItem(PREFIX + slot);
    throw new SaveError(slot, `unreadable, removed (${(err as Error).message})`);
  }
}

export function listSlots(storage: Storage): string[] {
  const slots: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith(PREFIX)) slots.push(key.slice(PREFIX.length));
  }
  return slots.sort();
}

export function clearSlot(storage: Storage, slot: string): void {
  storage.removeItem(PREFIX + slot);
}
