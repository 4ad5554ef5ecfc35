// Undo/redo: a stack of reversible commands.

export interface Command {
  label: string;
  undo(): void;
  redo(): void;
}

export class History {
  private done: Command[] = [];
  private undone: Command[] = [];
  private listeners: Array<() => void> = [];

  push(cmd: Command): void {
    this.done.push(cmd);
    this.undone = [];
    this.emit();
  }

  undo(): boolean {
    const cmd = this.done.pop();
    if (!cmd) return false;
    cmd.undo();
    this.undone.push(cmd);
    this.emit();
    return true;
  }

  redo(): boolean {
    const cmd = this.undone.pop();
    if (!cmd) return false;
    cmd.redo();
    this.done.push(cmd);
    this.emit();
    return true;
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  private emit(): void {
    for (const fn of this.listeners) fn();
  }
}
