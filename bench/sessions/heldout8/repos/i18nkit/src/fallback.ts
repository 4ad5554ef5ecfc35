// Locale fallback: pt-BR -> pt -> default.

import type { Catalogs, Message } from "./catalog.js";

export function normalize(locale: string): string {
  const parts = locale.replace(/_/g, "-").split("-");
  return parts
    .map((p, i) => (i === 0 ? p.toLowerCase() : p.length === 2 ? p.toUpperCase() : p[0].toUpperCase() + p.slice(1).toLowerCase()))
    .join("-");
}

export function fallbackChain(locale: string): string[] {
  const parts = normalize(locale).split("-");
  const chain: string[] = [];
  for (let i = parts.length; i > 0; i--) {
    chain.push(parts.slice(0, i).join("-"));
  }
  return chain;
}

export function resolveMessage(catalogs: Catalogs, locale: string, key: string): { locale: string; message: Message } | undefined {
  for (const loc of fallbackChain(locale)) {
    const message = catalogs[loc]?.[key];
    if (message !== undefined) return { locale: loc, message };
  }
  return undefined;
}
