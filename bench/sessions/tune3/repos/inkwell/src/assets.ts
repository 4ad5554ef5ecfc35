import { promises as fs } from "node:fs";
import path from "node:path";

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

export async function copyAsset(src: string, dest: string): Promise<void> {
  await fs.mkdir(path.dirname(dest), { recursive: true });
  await fs.copyFile(src, dest);
}

/** Copies every file under srcDir to outDir; returns the site paths ("/img/a.png") it wrote. */
export async function copyAssets(srcDir: string, outDir: string): Promise<string[]> {
  const written: string[] = [];
  for (const file of await walk(srcDir)) {
    const rel = path.relative(srcDir, file);
    await copyAsset(file, path.join(outDir, rel));
    written.push("/" + rel.split(path.sep).join("/"));
  }
  return written;
}
