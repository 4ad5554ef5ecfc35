export type Locale = "en" | "de" | "fr" | "nl";

const STRINGS: Record<Locale, Record<string, string>> = {
  en: {
    "header.title": "Chat with us",
    "input.placeholder": "Type a message…",
    "status.offline": "You're offline. We'll send your messages when you're back.",
    "status.reconnecting": "Reconnecting…",
    "unread.badge": "{n} new",
  },
  de: {
    "header.title": "Schreiben Sie uns",
    "input.placeholder": "Nachricht eingeben…",
    "status.reconnecting": "Verbindung wird wiederhergestellt…",
  },
  fr: {
    "header.title": "Discutons",
    "input.placeholder": "Écrivez un message…",
  },
  nl: {
    "header.title": "Chat met ons",
  },
};

export function pickLocale(preferred: readonly string[]): Locale {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split("-")[0];
    if (base in STRINGS) return base as Locale;
  }
  return "en";
}

export function t(locale: Locale, key: string, vars: Record<string, string | number> = {}): string {
  const raw = STRINGS[locale][key];
  return raw.replace(/\{(\w+)\}/g, (_m, name: string) => String(vars[name] ?? ""));
}
