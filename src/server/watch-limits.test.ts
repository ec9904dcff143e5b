import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { sessionRegistration } from "../../test/support/session-registration.ts";
import { BrigadeService } from "../service/index.ts";
import { openSqliteStore, type SqliteStore } from "../store/sqlite/index.ts";
import { type BrigadeApp, createApp } from "./app.ts";
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from "./server-limits.ts";
import { DEFAULT_WATCH_LIMITS } from "./watch-registry.ts";

type Json = Record<string, unknown>;

let dir: string;
let store: SqliteStore;
let app: BrigadeApp;

function build(limits: ServerLimits = DEFAULT_SERVER_LIMITS): void {
  app = createApp(new BrigadeService(store), { limits });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "brigade-watch-limits-"));
  store = openSqliteStore(join(dir, "db.sqlite"));
  build();
});

afterEach(async () => {
  app.watches.shutdownAll();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, path: string, token?: string, body?: Json): Promise<Json> {
  const response = await app.fetch(
    new Request(`http://brigade.test${path}`, {
      method,
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(method === "POST" ? { "content-type": "application/json" } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return (await response.json()) as Json;
}

async function world(sessions = 1) {
  const a = ((await call("POST", "/v1/principals")).result as Json).token as string;
  const b = ((await call("POST", "/v1/principals")).result as Json).token as string;
  const team = (await call("POST", "/v1/teams", a, { team_name: "core" })).result as Json;
  const teamRef = team.team_ref as string;
  await call("POST", "/v1/teams/join", b, { join_secret: team.join_secret as string });
  const register = async (token: string, name: string) =>
    (
      (await call("POST", `/v1/teams/${teamRef}/sessions`, token, { ...sessionRegistration(name) }))
        .result as Json
    ).session_id as string;
  const sender = await register(a, "sender");
  const mine: string[] = [];
  for (let i = 0; i < sessions; i++) mine.push(await register(b, `mine-${i}`));
  const send = async (body: string) =>
    (
      (
        await call("POST", `/v1/teams/${teamRef}/messages`, a, {
          sender_session_id: sender,
          recipient_session_id: mine[0],
          body,
        })
      ).result as Json
    ).message_id as string;
  const watch = (session = mine[0] as string, signal?: AbortSignal) =>
    app.fetch(
      new Request(`http://brigade.test/v1/teams/${teamRef}/sessions/${session}/watch`, {
        headers: { authorization: `Bearer ${b}` },
        ...(signal === undefined ? {} : { signal }),
      }),
    );
  return { b, teamRef, mine, send, watch };
}

/** Reads SSE events from a watch body until `stop` says so or the body ends. */
async function readEvents(
  response: Response,
  stop: (events: { event: string; data: Json }[]) => boolean,
): Promise<{ event: string; data: Json }[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: { event: string; data: Json }[] = [];
  let buffer = "";
  while (!stop(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut = buffer.indexOf("\n\n");
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event !== undefined && data !== undefined) {
        events.push({ event, data: JSON.parse(data) as Json });
      }
      cut = buffer.indexOf("\n\n");
    }
  }
  reader.releaseLock();
  return events;
}

const hasReady = (events: { event: string }[]) => events.some((e) => e.event === "ready");

describe("watch caps", () => {
  test("a fifth watch of one session is refused with rate_limited watch_limit_session", async () => {
    const { watch } = await world();
    const open = [];
    for (let i = 0; i < DEFAULT_WATCH_LIMITS.perSession; i++) {
      const response = await watch();
      expect(response.status).toBe(200);
      open.push(response);
    }
    const refused = await watch();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toEqual({
      ok: false,
      protocol_version: "1",
      error: {
        code: "rate_limited",
        message: "rate limit exceeded",
        retryable: true,
        retry_after_ms: 5000,
        details: { reason: "watch_limit_session" },
      },
    });
    expect(app.watches.size).toBe(4);
    await open[0]?.body?.cancel();
    expect(app.watches.size).toBe(3);
    expect((await watch()).status).toBe(200);
  });

  test("a principal's 33rd watch, on any of its sessions, is refused with watch_limit_principal", async () => {
    const { mine, watch } = await world(9);
    for (let i = 0; i < DEFAULT_WATCH_LIMITS.perPrincipal; i++) {
      expect((await watch(mine[i % 8])).status).toBe(200);
    }
    const refused = await watch(mine[8]);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: Json }).error.details).toEqual({
      reason: "watch_limit_principal",
    });
  });

  test("a refused ownership check gives its slot back", async () => {
    const { watch } = await world();
    for (let i = 0; i < 10; i++) expect((await watch("s-not-mine")).status).toBe(404);
    expect(app.watches.size).toBe(0);
  });
});

describe("watch lifetime", () => {
  test("the request's abort ends the watch and its subscription", async () => {
    const { watch } = await world();
    const abort = new AbortController();
    const response = await watch(undefined, abort.signal);
    await readEvents(response, hasReady);
    expect(app.watches.size).toBe(1);
    abort.abort();
    expect(app.watches.size).toBe(0);
  });

  test("a reader that falls behind gets a final overflow event; nothing is lost", async () => {
    build({ ...DEFAULT_SERVER_LIMITS, watch_backlog_messages: 2 });
    const { b, teamRef, mine, send, watch } = await world();
    const stuck = await watch();
    const first = await readEvents(stuck, hasReady);
    expect(first.map((e) => e.event)).toEqual(["ready"]);
    // The stream holds 64 KiB for its reader, then owes messages; the third owed one is too many.
    const sent: string[] = [];
    for (let i = 0; i < 8; i++) sent.push(await send(`${i}`.repeat(16_384)));
    expect(app.watches.size).toBe(0);
    // What the stream held for the reader is dropped with it: the final event comes next.
    expect(await readEvents(stuck, () => false)).toEqual([{ event: "overflow", data: {} }]);

    const inbox = await call("GET", `/v1/teams/${teamRef}/sessions/${mine[0]}/messages`, b);
    expect(((inbox.result as Json).messages as Json[]).map((m) => m.message_id)).toEqual(sent);
    const fresh = await readEvents(
      await watch(),
      (events) => events.filter((e) => e.event === "message").length === sent.length,
    );
    expect(fresh.filter((e) => e.event === "message").map((e) => e.data.message_id)).toEqual(sent);
  });
});

describe("watch caps set by the operator (--limit)", () => {
  test("a raised per-session cap admits that many watches and refuses the next", async () => {
    build({ ...DEFAULT_SERVER_LIMITS, watches_per_session: 6 });
    const { watch } = await world();
    for (let i = 0; i < 6; i++) expect((await watch()).status).toBe(200);
    const refused = await watch();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: Json }).error.details).toEqual({
      reason: "watch_limit_session",
    });
  });

  test("a lowered per-principal cap refuses earlier", async () => {
    build({ ...DEFAULT_SERVER_LIMITS, watches_per_principal: 2 });
    const { mine, watch } = await world(3);
    expect((await watch(mine[0])).status).toBe(200);
    expect((await watch(mine[1])).status).toBe(200);
    expect((await watch(mine[2])).status).toBe(429);
  });
});
