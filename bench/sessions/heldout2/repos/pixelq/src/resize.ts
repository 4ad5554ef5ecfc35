import sharp from "sharp";
import type { Preset } from "./presets.js";

export async function resizeImage(input: Uint8Array, preset: Preset): Promise<Uint8Array> {
  let img = sharp(input, { failOn: "error" }).rotate();
  img = img.resize({ width: preset.width, height: preset.height, fit: preset.fit });
  img = preset.format === "webp" ? img.webp({ quality: preset.quality }) : img.jpeg({ quality: preset.quality, mozjpeg: true });
  return new Uint8Array(await img.toBuffer());
}
