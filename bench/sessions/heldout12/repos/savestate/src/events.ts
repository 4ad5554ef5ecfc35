// A tiny typed event bus: the renderer and the sound layer listen here instead of polling state.

import type { Action, GameState } from "./types";

export interface GameEvents {
  applied: { action: Action; state: GameState };
  undone: { state: GameState };
  saved: { slot: string; bytes: number };
  loaded: { slot: string; version: number };
}

type Handler<T> = (payload: T) => void;

export class Bus {
  private handlers: { [K in keyof GameEvents]?: Array<Handler<GameEvents[K]>> } = {};

  on<K extends keyof GameEvents>(name: K, handler: Handler<GameEvents[K]>): () => void {
    const list = (this.handlers[name] ??= []) as Array<Handler<GameEvents[K]>>;
    list.push(handler);
    return () => this.off(name, handler);
  }

  off<K extends keyof GameEvents>(name: K, handler: Handler<GameEvents[K]>): void {
    const list = this.handlers[name] as Array<Handler<GameEvents[K]>> | undefined;
    if (!list) return;
    const i = list.indexOf(handler);
    if (i >= 0) list.splice(i, 1);
  }

  emit<K extends keyof GameEvents>(name: K, payload: GameEvents[K]): void {
    const list = this.handlers[name] as Array<Handler<GameEvents[K]>> | undefined;
    for (const handler of [...(list ?? [])]) {
      try {
        handler(payload);
      } catch (err) {
        console.error(`savestate: a "${name}" handler threw`, err);
      }
    }
  }
}
