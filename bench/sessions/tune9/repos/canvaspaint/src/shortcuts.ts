// Keyboard shortcuts: "ctrl+z"-style bindings to actions.

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

export interface Binding {
  combo: string;
  action: string;
}

export const DEFAULT_BINDINGS: Binding[] = [
  { combo: "ctrl+z", action: "undo" },
  { combo: "ctrl+shift+z", action: "redo" },
  { combo: "ctrl+y", action: "redo" },
  { combo: "b", action: "tool.brush" },
  { combo: "e", action: "tool.eraser" },
  { combo: "g", action: "tool.fill" },
  { combo: "ctrl+shift+n", action: "layer.new" },
];

interface Combo {
  key: string;
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
}

export function parseCombo(combo: string): Combo {
  const parts = combo.toLowerCase().split("+");
  const key = parts.pop() ?? "";
  return { key, ctrl: parts.includes("ctrl"), shift: parts.includes("shift"), alt: parts.includes("alt") };
}

export function matches(event: KeyLike, combo: string): boolean {
  const c = parseCombo(combo);
  return event.key === c.key && event.ctrlKey === c.ctrl && event.shiftKey === c.shift && event.altKey === c.alt;
}

export class Shortcuts {
  constructor(private bindings: Binding[] = DEFAULT_BINDINGS, private run: (action: string) => void = () => {}) {}

  handle(event: KeyLike): boolean {
    const hit = this.bindings.find((b) => matches(event, b.combo));
    if (!hit) return false;
    this.run(hit.action);
    return true;
  }

  bind(combo: string, action: string): void {
    this.bindings = this.bindings.filter((b) => b.combo !== combo).concat({ combo, action });
  }
}
