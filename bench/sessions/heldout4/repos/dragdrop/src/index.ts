export { makeDraggable, type DraggableOptions } from "./draggable";
export { registerZone, type ZoneOptions } from "./dropzone";
export { AutoScroller, type AutoScrollOptions } from "./autoscroll";
export type { Constraints } from "./constraints";
export type { DragItem, DropHandler, Point } from "./types";
