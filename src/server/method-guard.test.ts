import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BrigadeService } from "../service/index.ts";
import { openSqliteStore, type SqliteStore } from "../store/sqlite/index.ts";
import { type BrigadeApp, createApp } from "./app.ts";
import { refuseUndefinedMethods } from "./method-guard.ts";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/**
 * Every route of the "Routes" table of docs/30-http-api.md, as path pattern → methods, so a route
 * documented later is attacked here without editing this file.
 */
function documentedRoutes(): Map<string, Set<string>> {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
  const doc = readFileSync(join(root, "docs", "30-http-api.md"), "utf8");
  const routes = new Map<string, Set<string>>();
  for (const match of doc.matchAll(/^\| [^|]+ \| `([A-Z]+) (\/v1\/[^`\s[?]*)[^`]*`([^|]*)/gm)) {
    const [, method, path, rest] = match as unknown as [string, string, string, string];
    const methods = routes.get(path) ?? new Set<string>();
    methods.add(method);
    if (rest.includes("`HEAD`")) methods.add("HEAD");
    routes.set(path, methods);
  }
  return routes;
}

const routes = documentedRoutes();
const cases = [...routes].flatMap(([path, defined]) =>
  METHODS.map((method) => ({ path, method, defined: [...defined].sort() })),
);

let dir: string;
let store: SqliteStore;
let app: BrigadeApp;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "brigade-methods-"));
  store = openSqliteStore(join(dir, "db.sqlite"));
  app = createApp(new BrigadeService(store));
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("every route answers only the methods it defines", () => {
  test("the docs' route table is read (all fourteen routes)", () => {
    expect(routes.size).toBeGreaterThanOrEqual(12);
    expect(routes.get("/v1/teams/:team/sessions/:session/watch")).toEqual(new Set(["GET"]));
    expect(routes.get("/v1/teams/:team/sessions")).toEqual(new Set(["GET", "POST"]));
  });

  test.each(cases)("$method $path", async ({ path, method, defined }) => {
    const url = `http://brigade.test${path.replace(":team", "t-x").replace(":session", "s-x")}`;
    const response = await app.fetch(new Request(url, { method }));
    const text = await response.text();
    if (defined.includes(method)) {
      expect(response.status).not.toBe(405);
      return;
    }
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(defined.join(", "));
    if (method === "HEAD") {
      expect(text).toBe("");
      return;
    }
    expect(JSON.parse(text)).toEqual({
      ok: false,
      protocol_version: "1",
      error: {
        code: "usage",
        message: "this route does not take this method (the Allow header lists those it takes)",
        retryable: false,
        details: { reason: "method_not_allowed" },
      },
    });
  });

  test("HEAD on the home page and the health check answers like GET, without a body", async () => {
    for (const path of ["/", "/v1/health"]) {
      const get = await app.fetch(new Request(`http://brigade.test${path}`));
      const head = await app.fetch(new Request(`http://brigade.test${path}`, { method: "HEAD" }));
      expect(head.status).toBe(200);
      expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
      expect(await head.text()).toBe("");
      const post = await app.fetch(
        new Request(`http://brigade.test${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
        }),
      );
      expect(post.status).toBe(405);
      expect(post.headers.get("allow")).toBe("GET, HEAD");
    }
  });

  test("HEAD on an authenticated GET route stays 405, naming GET alone", async () => {
    const response = await app.fetch(
      new Request("http://brigade.test/v1/teams/t-x/members", { method: "HEAD" }),
    );
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
  });

  test("HEAD of a watch opens no watch, even with a valid token", async () => {
    const minted = await app.fetch(
      new Request("http://brigade.test/v1/principals", {
        method: "POST",
        headers: { "content-type": "application/json" },
      }),
    );
    const { token } = ((await minted.json()) as { result: { token: string } }).result;
    const response = await app.fetch(
      new Request("http://brigade.test/v1/teams/t-x/sessions/s-x/watch", {
        method: "HEAD",
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    expect(response.status).toBe(405);
    expect(app.watches.size).toBe(0);
  });

  test("an unknown path is still the not-found reply, whatever the method", async () => {
    const response = await app.fetch(
      new Request("http://brigade.test/v2/nothing", { method: "PUT" }),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("allow")).toBeNull();
    const { error } = (await response.json()) as { error: { message: string; details: unknown } };
    expect(error.details).toEqual({ reason: "unknown_route" });
    expect(error.message).toBe("no route has this path");
  });

  test("routes registered after the guard are covered too", async () => {
    const hono = new Hono();
    hono.use("*", refuseUndefinedMethods(hono));
    hono.get("/later/:id", (c) => c.text("got"));
    hono.delete("/later/:id", (c) => c.text("deleted"));
    const put = await hono.fetch(new Request("http://x/later/7", { method: "PUT" }));
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("DELETE, GET");
    const head = await hono.fetch(new Request("http://x/later/7", { method: "HEAD" }));
    expect(head.status).toBe(405);
    expect(await (await hono.fetch(new Request("http://x/later/7"))).text()).toBe("got");
  });
});
