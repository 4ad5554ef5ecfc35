export interface Point {
  x: number;
  y: number;
}

export interface DragItem {
  el: HTMLElement;
  data: unknown;
  type: string;
}

export type DropHandler = (item: DragItem, zone: HTMLElement) => void;
