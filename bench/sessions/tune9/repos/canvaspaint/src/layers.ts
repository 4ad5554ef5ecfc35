// Layers: RGBA pixel buffers stacked bottom to top.

import { RGBA, blend } from "./color";

export class Layer {
  readonly pixels: Uint8ClampedArray;
  visible = true;
  opacity = 1;

  constructor(readonly name: string, readonly width: number, readonly height: number) {
    this.pixels = new Uint8ClampedArray(width * height * 4);
  }

  get(x: number, y: number): RGBA {
    const i = (y * this.width + x) * 4;
    const p = this.pixels;
    return { r: p[i], g: p[i + 1], b: p[i + 2], a: p[i + 3] };
  }

  set(x: number, y: number, c: RGBA): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 4;
    this.pixels[i] = c.r;
    this.pixels[i + 1] = c.g;
    this.pixels[i + 2] = c.b;
    this.pixels[i + 3] = c.a;
  }

  snapshot(): Uint8ClampedArray {
    return this.pixels.slice();
  }

  restore(data: Uint8ClampedArray): void {
    this.pixels.set(data);
  }
}

export class LayerStack {
  readonly layers: Layer[] = [];
  active = 0;

  constructor(readonly width: number, readonly height: number) {
    this.add("Background");
  }

  add(name: string): Layer {
    const layer = new Layer(name, this.width, this.height);
    this.layers.push(layer);
    this.active = this.layers.length - 1;
    return layer;
  }

  remove(index: number): void {
    if (this.layers.length === 1) throw new Error("cannot remove the last layer");
    this.layers.splice(index, 1);
    this.active = Math.min(this.active, this.layers.length - 1);
  }

  move(from: number, to: number): void {
    const [layer] = this.layers.splice(from, 1);
    this.layers.splice(to, 0, layer);
  }

  current(): Layer {
    return this.layers[this.active];
  }

  /** The visible layers flattened into one pixel buffer. */
  composite(): Uint8ClampedArray {
    const out = new Layer("composite", this.width, this.height);
    for (const layer of this.layers) {
      if (!layer.visible) continue;
      for (let y = 0; y < this.height; y++) {
        for (let x = 0; x < this.width; x++) {
          const top = layer.get(x, y);
          top.a = Math.round(top.a * layer.opacity);
          out.set(x, y, blend(top, out.get(x, y)));
        }
      }
    }
    return out.pixels;
  }
}
