// How many bytes of audio the device may keep offline.

export const DEFAULT_BUDGET_BYTES = 500 * 1024 * 1024;

/** A share of the quota is left to the rest of the app (maps, images, the CMS cache). */
const AUDIO_SHARE = 0.6;

export interface StorageInfo {
  quota: number;
  usage: number;
}

/** Reads the browser's storage estimate; null when the API is missing. */
export async function readStorage(): Promise<StorageInfo | null> {
  const storage = (globalThis.navigator as Navigator | undefined)?.storage;
  if (!storage?.estimate) return null;
  const estimate = await storage.estimate();
  return { quota: estimate.quota ?? 0, usage: estimate.usage ?? 0 };
}

/** The audio budget in bytes for this device. */
export function storageBudget(info: StorageInfo | null): number {
  if (info === null || info.quota <= 0) return DEFAULT_BUDGET_BYTES;
  return Math.floor(info.quota * AUDIO_SHARE);
}

/** Human-readable size for the settings screen. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
