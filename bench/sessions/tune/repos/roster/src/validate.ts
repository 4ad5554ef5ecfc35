import { HttpError } from "./errors";

export interface ShiftInput {
  siteId: string;
  day: string;
  from: string;
  to: string;
  role: string;
  workerId?: string;
}

export function parseShiftInput(body: any): ShiftInput {
  if (!body || typeof body !== "object") throw new HttpError(400, "body must be a JSON object");
  const { siteId, day, from, to, role, workerId } = body;
  return { siteId, day, from, to, role, workerId };
}
