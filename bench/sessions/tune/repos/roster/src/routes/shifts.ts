import { Claims, requireRole } from "../auth";
import { HttpError } from "../errors";
import { ShiftStore } from "../store";
import { parseLocal } from "../time";
import { parseShiftInput } from "../validate";

const TZ_BY_SITE: Record<string, string> = { ber: "Europe/Berlin", lis: "Europe/Lisbon", hel: "Europe/Helsinki" };

export function listShifts(store: ShiftStore, claims: Claims, query: { worker?: string }) {
  const worker = query.worker ?? claims.sub;
  if (worker !== claims.sub) requireRole(claims, "manager", "admin");
  return store.byWorker(worker);
}

export function createShift(store: ShiftStore, claims: Claims, body: unknown) {
  requireRole(claims, "manager", "admin");
  const input = parseShiftInput(body);
  const tz = TZ_BY_SITE[input.siteId];
  if (!tz) throw new HttpError(400, `unknown site ${input.siteId}`);
  const when = { start: parseLocal(input.day, input.from, tz), end: parseLocal(input.day, input.to, tz) };
  if (input.workerId && store.conflicts(input.workerId, when).length) {
    throw new HttpError(409, "worker already has a shift then", "conflict");
  }
  return store.add({ ...when, siteId: input.siteId, workerId: input.workerId ?? null, role: input.role });
}

export function swapShift(store: ShiftStore, claims: Claims, id: string, toWorker: string) {
  const shift = store.get(id);
  if (!shift) throw new HttpError(404, "no such shift");
  if (shift.workerId !== claims.sub) requireRole(claims, "manager", "admin");
  if (store.conflicts(toWorker, shift).length) throw new HttpError(409, "the other worker is busy", "conflict");
  return store.assign(id, toWorker);
}
