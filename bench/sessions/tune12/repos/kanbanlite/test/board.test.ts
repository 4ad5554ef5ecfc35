import { describe, expect, it } from "vitest";
import { addCard, addColumn, cardsIn, createBoard, moveCard } from "../src/board";
import { compareKeys, initialKeys, keyBetween } from "../src/fractional";
import { History } from "../src/history";
import { can } from "../src/permissions";
import { fromJSON, toJSON } from "../src/serialize";
import { canDrop, wipStatus } from "../src/wip";

function sample() {
  const board = createBoard("Team");
  const todo = addColumn(board, "To do");
  const doing = addColumn(board, "Doing", 2);
  const a = addCard(board, todo.id, "a");
  const b = addCard(board, todo.id, "b");
  const c = addCard(board, todo.id, "c");
  return { board, todo, doing, a, b, c };
}

describe("fractional keys", () => {
  it("sorts between neighbours", () => {
    const k = keyBetween("a", "b");
    expect(compareKeys("a", k)).toBeLessThan(0);
    expect(compareKeys(k, "b")).toBeLessThan(0);
  });
  it("spreads initial keys in order", () => {
    const keys = initialKeys(5);
    expect([...keys].sort(compareKeys)).toEqual(keys);
  });
});

describe("moveCard", () => {
  it("moves to the top of another column", () => {
    const { board, todo, doing, b } = sample();
    moveCard(board, b.id, doing.id, 0);
    expect(cardsIn(board, doing.id).map((c) => c.title)).toEqual(["b"]);
    expect(cardsIn(board, todo.id).map((c) => c.title)).toEqual(["a", "c"]);
  });
  it("reorders within a column", () => {
    const { board, todo, c } = sample();
    moveCard(board, c.id, todo.id, 0);
    expect(cardsIn(board, todo.id).map((x) => x.title)).toEqual(["c", "a", "b"]);
  });
});

describe("wip", () => {
  it("reports the count against the limit", () => {
    const { board, doing, a, b } = sample();
    moveCard(board, a.id, doing.id, 0);
    moveCard(board, b.id, doing.id, 1);
    expect(wipStatus(board, doing.id)).toMatchObject({ count: 2, limit: 2, over: false });
    expect(canDrop(board, doing.id)).toBe(false);
  });
});

describe("history", () => {
  it("undoes the last change", () => {
    const { board, todo } = sample();
    const h = new History();
    h.record(board, "add d");
    addCard(board, todo.id, "d");
    const back = h.undo(board)!;
    expect(Object.keys(back.cards)).toHaveLength(3);
  });
});

describe("serialize", () => {
  it("round-trips", () => {
    const { board } = sample();
    expect(fromJSON(toJSON(board))).toEqual(board);
  });
});

describe("permissions", () => {
  it("lets viewers only view", () => {
    const { board } = sample();
    const user = { id: "u1", roles: { [board.id]: "viewer" as const } };
    expect(can(user, "view", board)).toBe(true);
    expect(can(user, "moveCard", board)).toBe(false);
  });
});
