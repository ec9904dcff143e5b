import { chmodSync, copyFileSync } from "node:fs";
import { Client } from "pg";
import { describe, expect, test } from "vitest";
import { type RunningServer, startServer } from "../src/server/serve.ts";
import { StoreUnavailableError } from "../src/service/index.ts";
import { cleanupsAfterEach } from "./support/cleanups.ts";
import { freeLoopbackPort } from "./support/postgres-cluster.ts";
import { type FreshSchema, freshPostgresSchema } from "./support/postgres-schema.ts";
import { ensureBuilt, exited, startServerProcess } from "./support/server-process.ts";
import { sessionRegistration } from "./support/session-registration.ts";
import { TcpRelay } from "./support/tcp-relay.ts";
import { testTempDir } from "./support/temp-dir.ts";
import { viaLoopback } from "./support/via-loopback.ts";

const silent = { log: () => {} };
const cleanups = cleanupsAfterEach();

async function schema(): Promise<FreshSchema> {
  const fresh = await freshPostgresSchema("serve");
  cleanups.push(fresh.drop);
  return fresh;
}

async function serve(store: string, storeWaitMs = 0): Promise<RunningServer> {
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    dataFile: `${testTempDir("pg-serve-")}/brigade.sqlite`,
    store,
    storeWaitMs,
    logger: silent,
  });
  cleanups.push(() => server.stop());
  return server;
}

async function call(
  base: string,
  method: "GET" | "POST",
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (method === "POST") headers["content-type"] = "application/json";
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

function result(reply: { json: Record<string, unknown> }): Record<string, unknown> {
  if (reply.json.ok !== true) throw new Error(`refused: ${JSON.stringify(reply.json.error)}`);
  return reply.json.result as Record<string, unknown>;
}

/** A team of two principals with one session each, through the HTTP API. */
async function team(base: string) {
  const a = result(await call(base, "POST", "/v1/principals")).token as string;
  const b = result(await call(base, "POST", "/v1/principals")).token as string;
  const created = result(await call(base, "POST", "/v1/teams", a, { team_name: "core" }));
  const teamRef = created.team_ref as string;
  result(await call(base, "POST", "/v1/teams/join", b, { join_secret: created.join_secret }));
  const register = async (token: string, name: string) =>
    result(
      await call(base, "POST", `/v1/teams/${teamRef}/sessions`, token, sessionRegistration(name)),
    ).session_id as string;
  return { a, b, teamRef, sa: await register(a, "alpha"), sb: await register(b, "beta") };
}

async function countMessages(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ n: string }>("SELECT count(*) AS n FROM messages");
    return Number(r.rows[0]?.n);
  } finally {
    await client.end();
  }
}

describe("brigade serve --store postgres://…", () => {
  test("the start-up lines and /v1/health name the store, and never the password", async () => {
    ensureBuilt();
    const fresh = await schema();
    const dir = testTempDir("pg-serve-");
    const port = Number(new URL(fresh.url).port);
    const server = await startServerProcess(`${dir}/brigade.sqlite`, {
      BRIGADE_STORE: viaLoopback(fresh.url, port, "hunter2-secret"),
    });
    const health = await call(server.url, "GET", "/v1/health");
    expect(health.json).toEqual({ status: "ok", protocol_version: "1", store: "postgres" });
    server.child.kill("SIGTERM");
    await exited(server.child);
    const lines = server.stdout() + server.stderr();
    expect(lines).not.toContain("hunter2");
    expect(server.stdout()).toContain(
      `brigade serve: store postgres postgres://brigade@127.0.0.1:${port}/postgres\n`,
    );
  });

  test("a database that is down at start: store_unavailable at once, or a start once it is up within the wait", async () => {
    const fresh = await schema();
    const nothing = await freeLoopbackPort();
    const refused = serve(viaLoopback(fresh.url, nothing));
    await expect(refused).rejects.toBeInstanceOf(StoreUnavailableError);

    const relay = new TcpRelay(fresh.url);
    await relay.up();
    const relayPort = Number(new URL(relay.url).port);
    await relay.down();
    cleanups.push(() => relay.down());
    const waiting = serve(viaLoopback(fresh.url, relayPort), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await relay.up();
    const server = await waiting;
    expect(server.store).toEqual({
      kind: "postgres",
      display: `postgres://brigade@127.0.0.1:${relayPort}/postgres`,
    });
    expect(result(await call(server.url, "POST", "/v1/principals")).token).toBeTypeOf("string");
  });

  test("the database going away: unavailable (retryable), nothing half written; back: the same send is answered once", async () => {
    const fresh = await schema();
    const relay = new TcpRelay(fresh.url);
    await relay.up();
    cleanups.push(() => relay.down());
    const server = await serve(viaLoopback(fresh.url, Number(new URL(relay.url).port)));
    const t = await team(server.url);
    const send = (key: string) =>
      call(server.url, "POST", `/v1/teams/${t.teamRef}/messages`, t.a, {
        sender_session_id: t.sa,
        recipient_session_id: t.sb,
        body: `hello ${key}`,
        idempotency_key: key,
      });
    expect((await send("k1")).json.ok).toBe(true);

    await relay.down();
    const failed = await send("k2");
    expect(failed.status).toBe(503);
    expect(failed.json).toMatchObject({
      ok: false,
      error: { code: "unavailable", retryable: true },
    });
    const read = await call(
      server.url,
      "GET",
      `/v1/teams/${t.teamRef}/sessions/${t.sb}/messages`,
      t.b,
    );
    expect(read.json).toMatchObject({ ok: false, error: { code: "unavailable" } });
    expect(await call(server.url, "GET", "/v1/health")).toEqual({
      status: 503,
      json: {
        status: "unavailable",
        protocol_version: "1",
        store: "postgres",
        reason: "store_unreachable",
      },
    });

    await relay.up();
    const retried = await send("k2");
    expect(retried.json).toMatchObject({ ok: true, result: { duplicate: false } });
    expect((await send("k2")).json).toMatchObject({ ok: true, result: { duplicate: true } });
    const inbox = result(
      await call(server.url, "GET", `/v1/teams/${t.teamRef}/sessions/${t.sb}/messages`, t.b),
    );
    expect((inbox.messages as unknown[]).length).toBe(2);
    expect(await countMessages(fresh.url)).toBe(2);
  });
});

/** Reads the watch stream at `url` until a `message` event arrives; resolves with its text. */
async function firstMessageEvent(url: string, token: string, signal: AbortSignal): Promise<string> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal });
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error("no body");
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended: ${text}`);
    text += decoder.decode(value, { stream: true });
    const at = text.indexOf("event: message");
    if (at >= 0) return text.slice(at);
  }
}

describe("two servers on one database", () => {
  test("a watch on one hears a send through the other inside the 5 s bound (the safety poll)", async () => {
    const fresh = await schema();
    const one = await serve(fresh.url);
    const two = await serve(fresh.url);
    const t = await team(one.url);
    const abort = new AbortController();
    cleanups.push(async () => abort.abort());
    const heard = firstMessageEvent(
      `${one.url}/v1/teams/${t.teamRef}/sessions/${t.sb}/watch`,
      t.b,
      abort.signal,
    );
    // Give the watch time to subscribe and finish its catch-up, so only the poll can bring it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = result(
      await call(two.url, "POST", `/v1/teams/${t.teamRef}/messages`, t.a, {
        sender_session_id: t.sa,
        recipient_session_id: t.sb,
        body: "across processes",
      }),
    );
    const started = Date.now();
    const event = await heard;
    expect(event).toContain(sent.message_id as string);
    expect(event).toContain("across processes");
    // The bound is the protocol's; the poll runs every 2 s.
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe("closed registration across processes", () => {
  test("the first process makes the key only when asked; another with a copy of its file accepts the same key", async () => {
    const fresh = await schema();
    const dirA = testTempDir("pg-key-a-");
    const dirB = testTempDir("pg-key-b-");
    const start = async (dir: string, create: boolean) => {
      const server = await startServer({
        host: "127.0.0.1",
        port: 0,
        dataFile: `${dir}/brigade.sqlite`,
        store: fresh.url,
        registration: "closed",
        ...(create ? { createOperatorKey: true } : {}),
        logger: silent,
      });
      cleanups.push(() => server.stop());
      return server;
    };
    await expect(start(dirA, false)).rejects.toMatchObject({ code: "operator_key_file_missing" });
    const first = await start(dirA, true);
    const key = first.newOperatorKey;
    expect(key).toMatch(/^brgop1\./);
    await expect(start(dirB, false)).rejects.toMatchObject({ code: "operator_key_file_missing" });
    copyFileSync(`${dirA}/brigade.sqlite.operator-key`, `${dirB}/brigade.sqlite.operator-key`);
    chmodSync(`${dirB}/brigade.sqlite.operator-key`, 0o600);
    const second = await start(dirB, false);
    expect(second.newOperatorKey).toBeUndefined();
    const token = result(await call(second.url, "POST", "/v1/principals")).token as string;
    const created = await fetch(`${second.url}/v1/teams`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "x-brigade-operator-key": key ?? "",
      },
      body: JSON.stringify({ team_name: "core" }),
    });
    expect(created.status).toBe(200);
  });

  test("the start that makes the key says to copy its file to the other processes", async () => {
    ensureBuilt();
    const fresh = await schema();
    const dataFile = `${testTempDir("pg-key-cli-")}/brigade.sqlite`;
    const server = await startServerProcess(dataFile, { BRIGADE_STORE: fresh.url }, undefined, [
      "--registration",
      "closed",
      "--create-operator-key",
    ]);
    server.child.kill("SIGTERM");
    await exited(server.child);
    expect(server.stdout()).toMatch(
      /brigade serve: registration is closed; operator key \(shown once, keep it private\): brgop1\.[A-Za-z0-9_-]{43}\n/,
    );
    // The file's own path: without --data it is the default data path's, which no line named.
    expect(server.stdout()).toContain(
      `\nbrigade serve: operator key digest stored in ${dataFile}.operator-key: copy that file to every other brigade serve of this database (to its --data path with .operator-key added)\n`,
    );
  });
});
