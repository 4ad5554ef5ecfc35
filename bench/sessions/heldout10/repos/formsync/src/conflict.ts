import type { Draft, ServerDraft } from "./types";

export interface Resolution {
  draft: Draft;
  /** fields whose local value was replaced by the server's */
  overwritten: string[];
}

/**
 * Called when the server's revision moved on since the draft's baseRevision.
 */
export function resolveConflict(local: Draft, server: ServerDraft): Resolution {
  const overwritten: string[] = [];
  if (server.updatedAt > local.updatedAt) {
    for (const k of Object.keys(local.fields)) {
      if (local.fields[k] !== server.fields[k]) overwritten.push(k);
    }
    return {
      draft: { ...local, fields: { ...server.fields }, baseRevision: server.revision, updatedAt: server.updatedAt },
      overwritten,
    };
  }
  return { draft: { ...local, baseRevision: server.revision }, overwritten };
}
