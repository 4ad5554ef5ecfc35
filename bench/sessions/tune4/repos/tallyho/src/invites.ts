import { Request, Response } from "express";
import { randomBytes, randomUUID } from "node:crypto";
import { store } from "./store.js";

const INVITE_TTL_DAYS = 30;

export function createInviteToken(groupId: string, createdBy: string): string {
  const token = randomBytes(18).toString("base64url");
  const expiresAt = new Date(Date.now() + INVITE_TTL_DAYS * 86_400_000).toISOString();
  store.invites.set(token, { token, groupId, createdBy, expiresAt });
  return token;
}

export function inviteHandler(req: Request, res: Response) {
  const group = store.group(req.params.groupId);
  const token = createInviteToken(group.id, String(req.body?.createdBy ?? ""));
  res.status(201).json({ url: `${process.env.PUBLIC_URL ?? ""}/join/${token}` });
}

export function redeemInvite(req: Request, res: Response) {
  const invite = store.invites.get(req.params.token);
  if (!invite) {
    return res.status(404).json({ error: "invite not found" });
  }
  if (new Date(invite.expiresAt) < new Date()) {
    return res.status(410).json({ error: "invite expired" });
  }
  const group = store.group(invite.groupId);
  const member = { id: randomUUID(), name: String(req.body?.name ?? "guest"), joinedAt: new Date().toISOString() };
  group.members.push(member);
  res.status(201).json({ groupId: group.id, member });
}
