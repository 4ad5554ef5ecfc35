import type { Draft } from "./types";

export const CURRENT_VERSION = 2;

type Stored = Record<string, unknown>;
type Step = (d: Stored) => Stored;

// v1 kept field values in `values` and had no per-field timestamps
const v1ToV2: Step = (d) => {
  const values = (d.values ?? {}) as Record<string, unknown>;
  const at = typeof d.savedAt === "number" ? d.savedAt : 0;
  const touched: Record<string, number> = {};
  for (const k of Object.keys(values)) touched[k] = at;
  return {
    formId: d.formId,
    schemaVersion: 2,
    fields: values,
    touched,
    baseRevision: typeof d.rev === "number" ? d.rev : 0,
    updatedAt: at,
  };
};

const STEPS: Record<number, Step> = {
  1: v1ToV2,
};

export function migrateDraft(stored: Stored): Draft {
  let d = stored;
  let version = typeof d.schemaVersion === "number" ? d.schemaVersion : 1;
  while (version < CURRENT_VERSION) {
    const step = STEPS[version];
    if (!step) throw new Error(`no migration from schema v${version}`);
    d = step(d);
    version = d.schemaVersion as number;
  }
  return d as unknown as Draft;
}
