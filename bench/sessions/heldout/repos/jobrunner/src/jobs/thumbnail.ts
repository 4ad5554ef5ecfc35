import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import sharp from "sharp";
import type { Job } from "../queue.js";

export interface ThumbnailPayload {
  source: string;
  target: string;
  width: number;
}

export async function makeThumbnail(job: Job): Promise<void> {
  const p = job.payload as ThumbnailPayload;
  await mkdir(dirname(p.target), { recursive: true });
  await sharp(p.source).resize({ width: p.width, withoutEnlargement: true }).webp({ quality: 80 }).toFile(p.target);
}
