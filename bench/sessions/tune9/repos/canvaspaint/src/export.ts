// Export: the layer stack as a PNG data URL.

import { LayerStack } from "./layers";

export interface ExportOptions {
  /** Fill transparent pixels with this CSS color (JPEG-style flattening); none by default. */
  background?: string;
  scale?: number;
}

function makeCanvas(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

export function toPngDataUrl(stack: LayerStack, options: ExportOptions = {}): string {
  const scale = options.scale ?? 1;
  const out = makeCanvas(stack.width * scale, stack.height * scale);
  const ctx = out.getContext("2d");
  if (!ctx) throw new Error("2d context unavailable");
  if (options.background) {
    ctx.fillStyle = options.background;
    ctx.fillRect(0, 0, out.width, out.height);
  }
  ctx.imageSmoothingEnabled = false;
  for (const layer of stack.layers) {
    if (!layer.visible) continue;
    const image = new ImageData(new Uint8ClampedArray(layer.pixels), stack.width, stack.height);
    ctx.globalAlpha = layer.opacity;
    ctx.putImageData(image, 0, 0);
  }
  return out.toDataURL("image/png");
}

export function dataUrlBytes(url: string): number {
  const comma = url.indexOf(",");
  const b64 = url.slice(comma + 1);
  const pad = b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0;
  return (b64.length * 3) / 4 - pad;
}
