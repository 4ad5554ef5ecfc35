import { createHmac } from "node:crypto";
import { HttpError } from "./errors";

export interface Claims {
  sub: string;
  role: "worker" | "manager" | "admin";
  exp: number;
}

export function verifyToken(token: string, secret: string): Claims {
  const [body, sig] = token.split(".");
  const want = createHmac("sha256", secret).update(body).digest("base64url");
  if (sig !== want) throw new HttpError(401, "bad token", "auth");
  const claims = JSON.parse(Buffer.from(body, "base64url").toString()) as Claims;
  if (claims.exp * 1000 < Date.now()) throw new HttpError(401, "token expired", "auth");
  return claims;
}

export function requireRole(claims: Claims, ...roles: Claims["role"][]): void {
  if (!roles.includes(claims.role)) throw new HttpError(403, "not allowed", "forbidden");
}
