import type { LanguageCode, PlaylistItem, Tour, TourStop, TrackVariant } from "./types.js";

/** Stops in the order they are walked: by the code printed on the wall label. */
export function orderStops(stops: TourStop[]): TourStop[] {
  return [...stops].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

/** The recording of a stop in the visitor's language, if there is one. */
export function pickVariant(stop: TourStop, language: LanguageCode): TrackVariant | null {
  const exact = stop.variants.find((v) => v.language === language);
  if (exact) return exact;
  const base = language.split("-")[0];
  return stop.variants.find((v) => v.language.split("-")[0] === base) ?? null;
}

export interface PlaylistOptions {
  language: LanguageCode;
  /** Stops the visitor already heard; they are not queued again. */
  heard?: ReadonlySet<string>;
}

/** The playlist of a tour for one visitor: ordered, in their language, without what they heard. */
export function buildPlaylist(tour: Tour, options: PlaylistOptions): PlaylistItem[] {
  const heard = options.heard ?? new Set<string>();
  const items: PlaylistItem[] = [];
  for (const stop of orderStops(tour.stops)) {
    if (heard.has(stop.code)) continue;
    const variant = pickVariant(stop, options.language);
    if (variant === null) continue;
    items.push({
      stopCode: stop.code,
      title: stop.title,
      trackUrl: variant.trackUrl,
      seconds: variant.seconds,
    });
  }
  return items;
}

/** Total listening time of a playlist, for the "about 40 minutes" line on the start screen. */
export function totalMinutes(items: PlaylistItem[]): number {
  const seconds = items.reduce((sum, item) => sum + item.seconds, 0);
  return Math.round(seconds / 60);
}

/** The item to play when the visitor types a code on the keypad. */
export function findByCode(items: PlaylistItem[], code: string): PlaylistItem | null {
  const wanted = code.trim().toLowerCase();
  return items.find((item) => item.stopCode.toLowerCase() === wanted) ?? null;
}
