import type { Point } from "./types";

export interface PointerCallbacks {
  start(at: Point, ev: PointerEvent): void;
  move(at: Point, ev: PointerEvent): void;
  end(at: Point, ev: PointerEvent): void;
  cancel(): void;
}

/** Follows one pointer from pointerdown to pointerup on a handle element. */
export class PointerTracker {
  private pointerId: number | null = null;
  private origin: Point | null = null;
  private dragging = false;

  constructor(private handle: HTMLElement, private cb: PointerCallbacks) {
    this.onDown = this.onDown.bind(this);
    this.onMove = this.onMove.bind(this);
    this.onUp = this.onUp.bind(this);
    this.onCancel = this.onCancel.bind(this);
    handle.addEventListener("pointerdown", this.onDown);
  }

  private onDown(ev: PointerEvent): void {
    if (this.pointerId !== null || ev.button !== 0) return;
    this.pointerId = ev.pointerId;
    this.origin = { x: ev.clientX, y: ev.clientY };
    this.handle.setPointerCapture(ev.pointerId);
    this.handle.addEventListener("pointermove", this.onMove);
    this.handle.addEventListener("pointerup", this.onUp);
    this.handle.addEventListener("pointercancel", this.onCancel);
    this.dragging = true;
    this.cb.start(this.origin, ev);
  }

  private onMove(ev: PointerEvent): void {
    if (ev.pointerId !== this.pointerId || !this.dragging) return;
    this.cb.move({ x: ev.clientX, y: ev.clientY }, ev);
  }

  private onUp(ev: PointerEvent): void {
    if (ev.pointerId !== this.pointerId) return;
    const wasDragging = this.dragging;
    this.release();
    if (wasDragging) this.cb.end({ x: ev.clientX, y: ev.clientY }, ev);
  }

  private onCancel(ev: PointerEvent): void {
    if (ev.pointerId !== this.pointerId) return;
    const wasDragging = this.dragging;
    this.release();
    if (wasDragging) this.cb.cancel();
  }

  private release(): void {
    if (this.pointerId !== null && this.handle.hasPointerCapture(this.pointerId)) {
      this.handle.releasePointerCapture(this.pointerId);
    }
    this.handle.removeEventListener("pointermove", this.onMove);
    this.handle.removeEventListener("pointerup", this.onUp);
    this.handle.removeEventListener("pointercancel", this.onCancel);
    this.pointerId = null;
    this.origin = null;
    this.dragging = false;
  }

  destroy(): void {
    this.release();
    this.handle.removeEventListener("pointerdown", this.onDown);
  }
}
