export interface Preset {
  name: string;
  width: number;
  height?: number;
  fit: "cover" | "inside";
  format: "jpeg" | "webp";
  quality: number;
}

export const PRESETS: Record<string, Preset> = {
  thumb: { name: "thumb", width: 160, height: 160, fit: "cover", format: "webp", quality: 70 },
  card: { name: "card", width: 480, height: 320, fit: "cover", format: "webp", quality: 78 },
  full: { name: "full", width: 1920, fit: "inside", format: "jpeg", quality: 85 },
};

export function getPreset(name: string): Preset {
  const p = PRESETS[name];
  if (!p) throw new Error(`unknown preset: ${name}`);
  return p;
}
