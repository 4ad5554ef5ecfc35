export * from "./types";
export { DraftStore, draftKey } from "./storage";
export { ChangeQueue } from "./queue";
export { resolveConflict } from "./conflict";
export { migrateDraft, CURRENT_VERSION } from "./migrate";
export { withRetry, shouldRetry, HttpError } from "./retry";
export { SyncClient } from "./sync";
