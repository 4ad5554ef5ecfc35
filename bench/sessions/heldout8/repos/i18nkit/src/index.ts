export { extractKeys, extractFromFiles } from "./extract.js";
export { pluralCategory, selectPlural } from "./plural.js";
export { interpolate } from "./interpolate.js";
export { fallbackChain, resolveMessage } from "./fallback.js";
export { findMissing, formatReport } from "./missing.js";
export { readCatalog, writeCatalog } from "./catalog.js";
export type { Catalog, Catalogs } from "./catalog.js";
