// Shared shapes of the audio guide: what the manifest describes and what a device caches.

export type LanguageCode = string; // BCP 47, e.g. "en", "nl", "pt-BR"

/** One recording of a stop in one language. */
export interface TrackVariant {
  language: LanguageCode;
  trackUrl: string;
  bytes: number;
  seconds: number;
}

/** A numbered stop on the floor: the visitor types its code on the keypad. */
export interface TourStop {
  code: string; // printed on the wall label: "1", "12", "12a"
  title: string;
  gallery: string;
  variants: TrackVariant[];
}

export interface Tour {
  id: string;
  name: string;
  stops: TourStop[];
}

/** The whole published guide, as served by the collection CMS. */
export interface Manifest {
  version: number;
  publishedAt: string; // ISO 8601
  introTrack: TrackVariant[];
  emergencyTrack: TrackVariant[];
  tours: Tour[];
}

/** One entry of a visitor's playlist: what plays when they reach a stop. */
export interface PlaylistItem {
  stopCode: string;
  title: string;
  trackUrl: string;
  seconds: number;
}

export interface CachedTrack {
  trackUrl: string;
  bytes: number;
  tourId: string | null; // null for the intro and the emergency announcement
  stopIndex: number; // position in its tour, -1 outside a tour
  lastPlayed: number; // epoch ms
  pinned: boolean;
}
