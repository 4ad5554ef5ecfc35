import { createServer, IncomingMessage } from "node:http";
import { verifyToken } from "./auth";
import { toResponse } from "./errors";
import { TokenBucket } from "./rateLimit";
import { createShift, listShifts, swapShift } from "./routes/shifts";
import { ShiftStore } from "./store";
import { UserTable } from "./users";

const store = new ShiftStore();
const limiter = new TokenBucket();
const users = UserTable.fromFile(process.env.ROSTER_USERS ?? "users.json");
const SECRET = process.env.ROSTER_SECRET ?? "dev-secret";

async function readJson(req: IncomingMessage): Promise<unknown> {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  return raw ? JSON.parse(raw) : undefined;
}

export const server = createServer(async (req, res) => {
  try {
    const claims = verifyToken((req.headers.authorization ?? "").replace(/^Bearer /, ""), SECRET);
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method !== "GET" && !limiter.take(claims.sub)) {
      res.writeHead(429).end();
      return;
    }
    let out: unknown;
    const swap = url.pathname.match(/^\/shifts\/([^/]+)\/swap$/);
    if (req.method === "GET" && url.pathname === "/me") {
      out = users.byId(claims.sub) ?? null;
    } else if (req.method === "GET" && url.pathname === "/shifts") {
      out = listShifts(store, claims, { worker: url.searchParams.get("worker") ?? undefined });
    } else if (req.method === "POST" && url.pathname === "/shifts") {
      out = createShift(store, claims, await readJson(req));
    } else if (req.method === "POST" && swap) {
      const body = (await readJson(req)) as { to: string };
      out = swapShift(store, claims, swap[1], body.to);
    } else {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(out));
  } catch (err) {
    const { status, body } = toResponse(err);
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  }
});
