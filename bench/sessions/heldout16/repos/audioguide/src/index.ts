export type {
  CachedTrack,
  LanguageCode,
  Manifest,
  PlaylistItem,
  Tour,
  TourStop,
  TrackVariant,
} from "./types.js";
export { ManifestError, SUPPORTED_MANIFEST_VERSION, isNewer, parseManifest } from "./manifest.js";
export { buildPlaylist, findByCode, orderStops, pickVariant, totalMinutes } from "./playlist.js";
export type { PlaylistOptions } from "./playlist.js";
export { MemoryBlobStore, OfflineCache } from "./cache.js";
export type { BlobStore, PutOptions } from "./cache.js";
export { DEFAULT_BUDGET_BYTES, formatBytes, readStorage, storageBudget } from "./quota.js";
