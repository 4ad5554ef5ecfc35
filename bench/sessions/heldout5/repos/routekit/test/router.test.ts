import { describe, expect, it } from "vitest";
import { buildPath, matchPattern } from "../src/pattern.js";
import { parseQuery, stringifyQuery } from "../src/query.js";
import { resolve, type RouteDef } from "../src/routes.js";
import { MemoryHistory } from "../src/history.js";
import { Router } from "../src/router.js";

const routes: RouteDef[] = [
  { path: "/", name: "home" },
  {
    path: "/users",
    name: "users",
    children: [
      { path: ":id", name: "user" },
      { path: ":id/edit", name: "user-edit" },
    ],
  },
  { path: "/files/*", name: "files" },
];

describe("patterns", () => {
  it("matches params", () => {
    expect(matchPattern("/users/:id", "/users/42")?.params).toEqual({ id: "42" });
    expect(matchPattern("/users/:id", "/users")).toBeNull();
  });
  it("optional params and splats", () => {
    expect(matchPattern("/posts/:slug?", "/posts")?.params).toEqual({});
    expect(matchPattern("/files/*", "/files/a/b.txt")?.params).toEqual({ "*": "a/b.txt" });
  });
  it("builds paths", () => {
    expect(buildPath("/users/:id/edit", { id: "a b" })).toBe("/users/a%20b/edit");
    expect(() => buildPath("/users/:id", {})).toThrow(/missing param/);
  });
});

describe("query", () => {
  it("round-trips", () => {
    expect(parseQuery("?q=hello+world&page=2")).toEqual({ q: "hello world", page: "2" });
    expect(stringifyQuery({ page: "2", q: "a&b" })).toBe("?page=2&q=a%26b");
  });
});

describe("routes", () => {
  it("resolves nested routes, most specific first", () => {
    const chain = resolve(routes, "/users/7/edit")!;
    expect(chain.map((m) => m.route.name)).toEqual(["users", "user-edit"]);
    expect(chain[1].params).toEqual({ id: "7" });
  });
  it("a parent matches on its own", () => {
    expect(resolve(routes, "/users")!.map((m) => m.route.name)).toEqual(["users"]);
  });
});

describe("router", () => {
  it("follows history and runs guards", async () => {
    const history = new MemoryHistory("/");
    const router = new Router({ routes, history, scroll: false });
    router.beforeEach((to) => (to.path === "/files/secret" ? "/" : true));
    await router.start();
    router.push({ name: "user", params: { id: "3" }, query: { tab: "posts" } });
    await new Promise((r) => setTimeout(r, 0));
    expect(router.current?.params).toEqual({ id: "3" });
    expect(router.current?.query).toEqual({ tab: "posts" });
  });
});
