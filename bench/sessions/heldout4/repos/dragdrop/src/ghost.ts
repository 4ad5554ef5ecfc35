import type { Point } from "./types";

export interface Ghost {
  el: HTMLElement;
  offset: Point;
}

/** A copy of the dragged element that follows the pointer. */
export function createGhost(source: HTMLElement, grabAt: Point): Ghost {
  const rect = source.getBoundingClientRect();
  const el = source.cloneNode(true) as HTMLElement;
  el.removeAttribute("id");
  el.classList.add("dd-ghost");
  Object.assign(el.style, {
    position: "fixed",
    left: "0px",
    top: "0px",
    width: `${rect.width}px`,
    height: `${rect.height}px`,
    margin: "0",
    zIndex: "2147483647",
    opacity: "0.85",
  });
  source.parentElement!.appendChild(el);
  const ghost = { el, offset: { x: grabAt.x - rect.left, y: grabAt.y - rect.top } };
  moveGhost(ghost, grabAt);
  return ghost;
}

export function moveGhost(ghost: Ghost, at: Point): void {
  const x = at.x - ghost.offset.x;
  const y = at.y - ghost.offset.y;
  ghost.el.style.transform = `translate3d(${x}px, ${y}px, 0)`;
}

export function removeGhost(ghost: Ghost): void {
  ghost.el.remove();
}
