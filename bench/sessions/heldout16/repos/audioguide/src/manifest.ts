import type { Manifest, Tour, TourStop, TrackVariant } from "./types.js";

export const SUPPORTED_MANIFEST_VERSION = 3;

export class ManifestError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(`${path}: ${message}`);
    this.name = "ManifestError";
  }
}

function expectString(value: unknown, path: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new ManifestError("expected a non-empty string", path);
  }
  return value;
}

function expectNumber(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new ManifestError("expected a non-negative number", path);
  }
  return value;
}

function parseVariant(raw: any, path: string): TrackVariant {
  return {
    language: expectString(raw?.language, `${path}.language`),
    trackUrl: expectString(raw?.trackUrl, `${path}.trackUrl`),
    bytes: expectNumber(raw?.bytes, `${path}.bytes`),
    seconds: expectNumber(raw?.seconds, `${path}.seconds`),
  };
}

function parseVariants(raw: unknown, path: string): TrackVariant[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new ManifestError("expected at least one recording", path);
  }
  return raw.map((v, i) => parseVariant(v, `${path}[${i}]`));
}

function parseStop(raw: any, path: string): TourStop {
  return {
    code: expectString(raw?.code, `${path}.code`),
    title: expectString(raw?.title, `${path}.title`),
    gallery: expectString(raw?.gallery, `${path}.gallery`),
    variants: parseVariants(raw?.variants, `${path}.variants`),
  };
}

function parseTour(raw: any, path: string): Tour {
  if (!Array.isArray(raw?.stops)) {
    throw new ManifestError("expected a list of stops", `${path}.stops`);
  }
  return {
    id: expectString(raw.id, `${path}.id`),
    name: expectString(raw.name, `${path}.name`),
    stops: raw.stops.map((s: unknown, i: number) => parseStop(s, `${path}.stops[${i}]`)),
  };
}

/** Checks a manifest fetched from the CMS; older devices refuse a newer version. */
export function parseManifest(json: string): Manifest {
  let raw: any;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    throw new ManifestError(`not JSON (${(err as Error).message})`, "manifest");
  }
  const version = expectNumber(raw?.version, "manifest.version");
  if (version > SUPPORTED_MANIFEST_VERSION) {
    throw new ManifestError(
      `version ${version} is newer than this app understands (${SUPPORTED_MANIFEST_VERSION})`,
      "manifest.version",
    );
  }
  if (!Array.isArray(raw.tours)) {
    throw new ManifestError("expected a list of tours", "manifest.tours");
  }
  return {
    version,
    publishedAt: expectString(raw.publishedAt, "manifest.publishedAt"),
    introTrack: parseVariants(raw.introTrack, "manifest.introTrack"),
    emergencyTrack: parseVariants(raw.emergencyTrack, "manifest.emergencyTrack"),
    tours: raw.tours.map((t: unknown, i: number) => parseTour(t, `manifest.tours[${i}]`)),
  };
}

/** True when the CMS published something newer than what the device holds. */
export function isNewer(candidate: Manifest, current: Manifest | null): boolean {
  if (current === null) return true;
  if (candidate.version !== current.version) return candidate.version > current.version;
  return Date.parse(candidate.publishedAt) > Date.parse(current.publishedAt);
}
