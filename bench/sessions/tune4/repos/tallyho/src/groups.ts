import { Request, Response } from "express";
import { randomUUID } from "node:crypto";
import { store, Group } from "./store.js";

export function createGroup(req: Request, res: Response) {
  const { name, owner } = req.body ?? {};
  if (typeof name !== "string" || !name.trim()) {
    return res.status(400).json({ error: "name is required" });
  }
  const now = new Date().toISOString();
  const group: Group = {
    id: randomUUID(),
    name: name.trim(),
    members: [{ id: randomUUID(), name: String(owner ?? "me"), joinedAt: now }],
    createdAt: now,
  };
  store.groups.set(group.id, group);
  res.status(201).json(group);
}

export function getGroup(req: Request, res: Response) {
  res.json(store.group(req.params.groupId));
}

export function addMember(req: Request, res: Response) {
  const group = store.group(req.params.groupId);
  const { name } = req.body ?? {};
  if (typeof name !== "string" || !name.trim()) {
    return res.status(400).json({ error: "name is required" });
  }
  const member = { id: randomUUID(), name: name.trim(), joinedAt: new Date().toISOString() };
  group.members.push(member);
  res.status(201).json(member);
}
