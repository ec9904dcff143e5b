import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { BrigadeService } from "../service/index.ts";
import { openSqliteStore, type SqliteStore } from "../store/sqlite/index.ts";
import { type BrigadeApp, createApp } from "./app.ts";
import { digestOperatorKey } from "./operator-key.ts";
import { OPERATOR_KEY_HEADER } from "./registration-gate.ts";

const KEY = `brgop1.${"k".repeat(43)}`;

let dir: string;
let store: SqliteStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "brigade-reg-"));
  store = openSqliteStore(join(dir, "db.sqlite"));
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function appFor(mode: "open" | "closed"): BrigadeApp {
  return createApp(new BrigadeService(store), {
    registration: mode === "open" ? { mode } : { mode, operatorKeyDigest: digestOperatorKey(KEY) },
  });
}

async function call(
  app: BrigadeApp,
  path: string,
  options: { token?: string; key?: string; body?: unknown; method?: string } = {},
) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.key !== undefined) headers[OPERATOR_KEY_HEADER] = options.key;
  const method = options.method ?? "POST";
  const response = await app.fetch(
    new Request(`http://brigade.test${path}`, {
      method,
      headers,
      ...(method === "POST" ? { body: JSON.stringify(options.body ?? {}) } : {}),
    }),
  );
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) as Record<string, unknown> };
}

async function mint(app: BrigadeApp): Promise<string> {
  const r = await call(app, "/v1/principals");
  return (r.json.result as { token: string }).token;
}

describe("--registration closed: creating a team needs the operator key", () => {
  test("without the key, or with a wrong one: the same 403 unauthorized registration_closed, no team", async () => {
    const app = appFor("closed");
    const token = await mint(app);
    const body = { team_name: "core" };
    const missing = await call(app, "/v1/teams", { token, body });
    expect(missing.status).toBe(403);
    expect(missing.json).toEqual({
      ok: false,
      protocol_version: "1",
      error: {
        code: "unauthorized",
        message: "this server creates teams only for a caller presenting its operator key",
        retryable: false,
        details: { reason: "registration_closed" },
      },
    });
    for (const key of [
      "",
      `brgop1.${"x".repeat(43)}`,
      KEY.slice(0, -1),
      `${KEY}x`,
      KEY.toUpperCase(),
      "k".repeat(10_000),
    ]) {
      const wrong = await call(app, "/v1/teams", { token, body, key });
      expect(wrong.text).toBe(missing.text);
      expect(wrong.text).not.toContain(key === "" ? KEY : key.slice(0, 20));
    }
    // No spelling of the path reaches the route around the gate.
    for (const path of ["/v1/te%61ms", "/v1/teams/", "/v1/teams;x", "//v1/teams", "/v1/./teams"]) {
      const r = await call(app, path, { token, body });
      expect(r.json.ok).toBe(false);
    }
    // Also before authentication: a stranger without a principal learns nothing more.
    expect((await call(app, "/v1/teams", { body })).text).toBe(missing.text);
  });

  test("with the key: created; joining, sessions and everything else need no key", async () => {
    const app = appFor("closed");
    const a = await mint(app);
    const b = await mint(app);
    const created = await call(app, "/v1/teams", { token: a, key: KEY, body: { team_name: "c" } });
    expect(created.status).toBe(200);
    const team = created.json.result as { team_ref: string; join_secret: string };
    const joined = await call(app, "/v1/teams/join", {
      token: b,
      body: { join_secret: team.join_secret },
    });
    expect(joined.json).toMatchObject({ ok: true, result: { team_ref: team.team_ref } });
    const members = await call(app, `/v1/teams/${team.team_ref}/members`, {
      token: b,
      method: "GET",
    });
    expect(members.status).toBe(200);
    // The key admits the request, not the caller: authentication still applies.
    const anonymous = await call(app, "/v1/teams", { key: KEY, body: { team_name: "x" } });
    expect(anonymous.status).toBe(401);
  });

  test("--registration open (the default): no key needed, a key sent is ignored", async () => {
    for (const app of [appFor("open"), createApp(new BrigadeService(store))]) {
      const token = await mint(app);
      expect((await call(app, "/v1/teams", { token, body: { team_name: "o" } })).status).toBe(200);
      const keyed = await call(app, "/v1/teams", { token, key: "junk", body: { team_name: "p" } });
      expect(keyed.status).toBe(200);
    }
  });
});
