import type { IncomingMessage } from "node:http";

export type KeyFn = (req: IncomingMessage) => string | Promise<string>;

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The socket's peer address, with IPv4-mapped IPv6 ("::ffff:1.2.3.4") unwrapped. */
export function peerIp(req: IncomingMessage): string {
  const addr = req.socket.remoteAddress ?? "unknown";
  return addr.startsWith("::ffff:") ? addr.slice(7) : addr;
}

export interface ClientIpOptions {
  /** Honour X-Forwarded-For. Only set this behind a proxy you control. */
  trustProxy: boolean;
}

export function clientIp(req: IncomingMessage, opts: ClientIpOptions = { trustProxy: false }): string {
  if (!opts.trustProxy) return peerIp(req);
  const xff = header(req, "x-forwarded-for");
  if (!xff) return peerIp(req);
  return xff.split(",")[0].trim();
}

/** The API key from `Authorization: Bearer <key>` or `x-api-key`, or undefined. */
export function apiKey(req: IncomingMessage): string | undefined {
  const auth = header(req, "authorization");
  if (auth?.startsWith("Bearer ")) return auth.slice(7).trim() || undefined;
  return header(req, "x-api-key") || undefined;
}

/** Key by API key when present, else by client IP. */
export function defaultKey(opts: ClientIpOptions): KeyFn {
  return (req) => {
    const k = apiKey(req);
    return k ? `key:${k}` : `ip:${clientIp(req, opts)}`;
  };
}
