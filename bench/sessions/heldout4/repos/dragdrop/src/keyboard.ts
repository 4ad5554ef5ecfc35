import { acceptingZones } from "./dropzone";
import type { DragItem } from "./types";

export interface KeyboardCallbacks {
  drop(zone: HTMLElement): void;
  cancel(): void;
}

/** Space picks the item up, arrows move between accepting zones, Space drops. */
export class KeyboardDrag {
  private active = false;
  private index = -1;
  private targets: HTMLElement[] = [];

  constructor(private item: DragItem, private cb: KeyboardCallbacks) {
    this.onKeyDown = this.onKeyDown.bind(this);
    item.el.tabIndex = item.el.tabIndex < 0 ? 0 : item.el.tabIndex;
    item.el.setAttribute("aria-roledescription", "draggable");
    item.el.addEventListener("keydown", this.onKeyDown);
  }

  private onKeyDown(ev: KeyboardEvent): void {
    if (ev.key === " " || ev.key === "Enter") {
      ev.preventDefault();
      if (!this.active) this.pickUp();
      else this.drop();
      return;
    }
    if (!this.active) return;
    if (ev.key === "ArrowDown" || ev.key === "ArrowRight") {
      ev.preventDefault();
      this.focusTarget(this.index + 1);
    } else if (ev.key === "ArrowUp" || ev.key === "ArrowLeft") {
      ev.preventDefault();
      this.focusTarget(this.index - 1);
    }
  }

  private pickUp(): void {
    this.targets = acceptingZones(this.item);
    if (!this.targets.length) return;
    this.active = true;
    this.item.el.setAttribute("aria-grabbed", "true");
    this.focusTarget(0);
  }

  private focusTarget(i: number): void {
    const n = this.targets.length;
    this.index = ((i % n) + n) % n;
    this.targets.forEach((t, j) => t.classList.toggle("dd-over", j === this.index));
  }

  private drop(): void {
    const target = this.targets[this.index];
    this.reset();
    if (target) this.cb.drop(target);
  }

  private reset(): void {
    this.targets.forEach((t) => t.classList.remove("dd-over"));
    this.active = false;
    this.index = -1;
    this.targets = [];
    this.item.el.removeAttribute("aria-grabbed");
  }

  destroy(): void {
    this.reset();
    this.item.el.removeEventListener("keydown", this.onKeyDown);
  }
}
