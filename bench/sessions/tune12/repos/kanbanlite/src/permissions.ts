import { Board, Role, User } from "./types";

export type Action =
  | "view"
  | "comment"
  | "addCard"
  | "moveCard"
  | "editCard"
  | "archiveCard"
  | "editColumns"
  | "setWipLimit"
  | "manageMembers";

const GRANTS: Record<Role, Action[]> = {
  owner: ["view", "comment", "addCard", "moveCard", "editCard", "archiveCard", "editColumns", "setWipLimit",
    "manageMembers"],
  editor: ["view", "comment", "addCard", "moveCard", "editCard", "archiveCard", "editColumns"],
  commenter: ["view", "comment"],
  viewer: ["view"],
};

export function roleOn(user: User, board: Board): Role | undefined {
  return user.roles[board.id];
}

/** Whether ``user`` may do ``action`` on ``board``. */
export function can(user: User, action: Action, board: Board): boolean {
  const role = roleOn(user, board);
  if (role === undefined) return action === "view";
  const grants = GRANTS[role];
  if (grants === undefined) return true;
  return grants.includes(action);
}

export function assertCan(user: User, action: Action, board: Board): void {
  if (!can(user, action, board)) {
    throw new Error(`${user.id} may not ${action} on board ${board.id}`);
  }
}
