import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { testTempDir } from "../../../test/support/temp-dir.ts";
import { until } from "../../../test/support/until.ts";
import {
  BapError,
  type MessageEnvelope,
  type WatchEvent,
  type WatchHandle,
} from "../../protocol/index.ts";
import { HttpAdapter, type HttpAdapterOptions } from "./http-adapter.ts";

// ---------------------------------------------------------------------------------------------
// A small in-test `brigade serve` speaking docs/30-http-api.md (one team is enough here).
// ---------------------------------------------------------------------------------------------

const NOW = "2026-10-02T09:15:42Z";
const LATER = "2026-10-02T09:17:12Z";
const SECRET = "brg1.t-1.s3cr3t-half-0001";

interface Logged {
  method: string;
  path: string;
  search: string;
  auth: string | undefined;
  body: unknown;
}

interface Stub {
  url: string;
  log: Logged[];
  /** Answer the next N requests with 500. */
  fail5xx: number;
  /** Answer the next request with a result of the wrong shape. */
  malformed: boolean;
  /** `GET messages` answers every stored message, whoever it is for, past the limit. */
  leakyReceive: boolean;
  /** Delay every answer by this many ms. */
  delayMs: number;
  messages: MessageEnvelope[];
  watchers: Set<ServerResponse>;
  /** Stores a message for `to` and pushes it to its watchers. */
  deliver(to: string, body: string): MessageEnvelope;
  /** Sends an SSE event to every watcher. */
  broadcast(event: string, data: unknown): void;
  /** Cuts every watch stream. */
  dropWatchers(): void;
  stop(): Promise<void>;
}

const ok = (result: unknown) => ({ ok: true, protocol_version: "1", result });
const err = (code: string, message: string, extra: Record<string, unknown> = {}) => ({
  ok: false,
  protocol_version: "1",
  error: { code, message, retryable: false, ...extra },
});
const NOT_FOUND = err("not_found", "session or message not found");
const NOT_MEMBER = err("unauthorized", "not an active member of this team");

async function startStub(): Promise<Stub> {
  const tokens = new Map<string, string>();
  const members = new Set<string>();
  const sessions = new Map<string, { owner: string; closed: boolean }>();
  let counter = 0;
  const server = createServer();
  const stub: Stub = {
    url: "",
    log: [],
    fail5xx: 0,
    malformed: false,
    leakyReceive: false,
    delayMs: 0,
    messages: [],
    watchers: new Set(),
    deliver(to, body) {
      counter++;
      const m: MessageEnvelope = {
        protocol_version: "1",
        kind: "text",
        message_id: `m-${counter}`,
        team_ref: "t-1",
        sender: { principal_ref: "p-x", session_id: "s-x", session_name: "other" },
        recipient_session_id: to,
        body,
        reply_to: null,
        hop_count: 0,
        created_at: NOW,
        delivery_state: "accepted",
      };
      stub.messages.push(m);
      for (const w of stub.watchers)
        w.write(`event: message\nid: ${m.message_id}\ndata: ${JSON.stringify(m)}\n\n`);
      return m;
    },
    broadcast(event, data) {
      for (const w of stub.watchers) w.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    dropWatchers() {
      for (const w of stub.watchers) w.destroy();
      stub.watchers.clear();
    },
    stop: () =>
      new Promise((resolve) => {
        stub.dropWatchers();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname;
    const auth = req.headers.authorization;
    const body: unknown = raw === "" ? undefined : JSON.parse(raw);
    stub.log.push({ method: req.method ?? "", path, search: url.search, auth, body });
    if (stub.delayMs > 0) await new Promise((r) => setTimeout(r, stub.delayMs));
    const send = (status: number, doc: unknown): void => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(doc));
    };
    if (stub.fail5xx > 0) {
      stub.fail5xx--;
      send(500, err("internal", "internal error"));
      return;
    }
    if (stub.malformed) {
      stub.malformed = false;
      send(200, ok({ unexpected: true }));
      return;
    }
    if (req.method === "POST" && path === "/v1/principals") {
      counter++;
      const token = `tok-${counter}-bearer-value`;
      tokens.set(token, `p-${counter}`);
      send(200, ok({ principal_ref: `p-${counter}`, token }));
      return;
    }
    const principal = tokens.get((auth ?? "").replace(/^Bearer /, ""));
    if (principal === undefined) {
      send(401, err("unauthenticated", "no usable credential for this profile"));
      return;
    }
    const b = (body ?? {}) as Record<string, unknown>;
    if (req.method === "POST" && path === "/v1/teams") {
      members.add(principal);
      send(
        200,
        ok({
          team_ref: "t-1",
          team_name: b.team_name,
          join_secret: SECRET,
          principal_ref: principal,
        }),
      );
      return;
    }
    if (req.method === "POST" && path === "/v1/teams/join") {
      if (b.join_secret !== SECRET) {
        send(403, err("unauthorized", "the join secret was rejected"));
        return;
      }
      const rejoined = members.has(principal);
      members.add(principal);
      send(200, ok({ team_ref: "t-1", team_name: "core", principal_ref: principal, rejoined }));
      return;
    }
    const m = /^\/v1\/teams\/([^/]+)(\/.*)$/.exec(path);
    if (m === null || m[1] !== "t-1" || !members.has(principal)) {
      send(403, NOT_MEMBER);
      return;
    }
    const rest = m[2] as string;
    if (req.method === "POST" && rest === "/leave") {
      members.delete(principal);
      send(200, ok({ team_ref: "t-1", principal_ref: principal, left: true }));
      return;
    }
    if (req.method === "POST" && rest === "/rotate-secret") {
      send(200, ok({ team_ref: "t-1", team_name: "core", join_secret: `${SECRET}-rotated` }));
      return;
    }
    if (req.method === "POST" && rest === "/revoke-member") {
      send(200, ok({ team_ref: "t-1", principal_ref: b.principal_ref, revoked: true }));
      return;
    }
    if (req.method === "POST" && rest === "/transfer") {
      send(
        200,
        ok({
          team_ref: "t-1",
          creator_principal_ref: principal,
          offered_to_principal_ref: b.principal_ref,
        }),
      );
      return;
    }
    if (req.method === "POST" && rest === "/accept-transfer") {
      send(
        200,
        ok({
          team_ref: "t-1",
          creator_principal_ref: principal,
          previous_creator_principal_ref: "p-9",
        }),
      );
      return;
    }
    if (req.method === "GET" && rest === "/members") {
      send(
        200,
        ok({
          team_ref: "t-1",
          team_name: "core",
          server_time: NOW,
          members: [...members].map((p) => ({
            principal_ref: p,
            human_label: "dana",
            status: "active",
            joined_at: NOW,
            last_seen_at: null,
            session_count: 0,
          })),
        }),
      );
      return;
    }
    if (req.method === "POST" && rest === "/sessions") {
      counter++;
      const id = `s-${counter}`;
      sessions.set(id, { owner: principal, closed: false });
      send(
        200,
        ok({
          session_id: id,
          session_name: b.session_name,
          principal_ref: principal,
          state: "active",
          activity: b.activity,
          inbound: b.inbound,
          last_seen_at: NOW,
          lease_until: LATER,
          created_at: NOW,
          is_self: false,
          resumed: false,
          lease_seconds: 90,
          server_time: NOW,
        }),
      );
      return;
    }
    if (req.method === "GET" && rest === "/sessions") {
      send(
        200,
        ok({
          team_ref: "t-1",
          team_name: "core",
          server_time: NOW,
          sessions: [],
          truncated: false,
        }),
      );
      return;
    }
    if (req.method === "POST" && rest === "/messages") {
      const to = String(b.recipient_session_id);
      if (!sessions.has(to)) {
        send(404, NOT_FOUND);
        return;
      }
      const msg = stub.deliver(to, String(b.body));
      send(
        200,
        ok({
          status: "accepted",
          message_id: msg.message_id,
          recipient_session_id: to,
          created_at: NOW,
          duplicate: false,
          hop_count: 0,
        }),
      );
      return;
    }
    const s = /^\/sessions\/([^/]+)\/(\w+)$/.exec(rest);
    const sid = s?.[1] ?? "";
    const owned = sessions.get(sid);
    if (s === null || owned === undefined || owned.owner !== principal) {
      send(404, NOT_FOUND);
      return;
    }
    const mine = () => stub.messages.filter((x) => x.recipient_session_id === sid);
    switch (`${req.method} ${s[2]}`) {
      case "POST heartbeat":
        send(200, ok({ session_id: sid, state: "active", lease_until: LATER, server_time: NOW }));
        return;
      case "POST close":
        owned.closed = true;
        send(200, ok({ session_id: sid, state: "offline" }));
        return;
      case "GET messages":
        if (stub.leakyReceive) {
          send(200, ok({ messages: stub.messages }));
          return;
        }
        send(200, ok({ messages: mine().slice(0, Number(url.searchParams.get("limit") ?? 50)) }));
        return;
      case "POST ack": {
        const ids = (b.message_ids as string[]) ?? [];
        const known = new Set(mine().map((x) => x.message_id));
        stub.messages = stub.messages.filter((x) => !ids.includes(x.message_id));
        send(
          200,
          ok({ acked: ids.filter((i) => known.has(i)), unknown: ids.filter((i) => !known.has(i)) }),
        );
        return;
      }
      case "GET watch":
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(`event: ready\ndata: ${JSON.stringify({ session_id: sid, mode: "push" })}\n\n`);
        for (const x of mine())
          res.write(`event: message\nid: ${x.message_id}\ndata: ${JSON.stringify(x)}\n\n`);
        res.write(": keep-alive\n\n");
        stub.watchers.add(res);
        res.on("close", () => stub.watchers.delete(res));
        return;
      default:
        send(404, NOT_FOUND);
    }
  };
  server.on("request", (req, res) => {
    handle(req, res).catch(() => {
      res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stub;
}

// ---------------------------------------------------------------------------------------------

const stubs: Stub[] = [];
afterEach(async () => {
  for (const s of stubs.splice(0)) await s.stop();
});

async function setup(options: Partial<HttpAdapterOptions> = {}) {
  const stub = await startStub();
  stubs.push(stub);
  const configDir = join(testTempDir("brigade-http-"), "cfg");
  const make = (env: Record<string, string> = {}, extra: Partial<HttpAdapterOptions> = {}) =>
    new HttpAdapter({
      env: { BRIGADE_CONFIG_DIR: configDir, BRIGADE_SERVER: stub.url, ...env },
      timeoutMs: 2000,
      watch: { idleTimeoutMs: 5000, backoff: { first: 20, max: 100 } },
      ...options,
      ...extra,
    });
  return { stub, configDir, adapter: make(), make };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (error) {
    if (error instanceof BapError) return `${error.code}:${error.details?.reason ?? ""}`;
    throw error;
  }
  return "ok";
}

const REGISTRATION = {
  harness: "claude-code",
  harness_version: "2.1.270",
  session_name: "billing",
  activity: "busy",
  inbound: "accept",
} as const;

describe("describe", () => {
  test("offline, creates nothing, walks the states from local files", async () => {
    const throwingFetch = (() => {
      throw new Error("network used");
    }) as unknown as typeof fetch;
    const { configDir, make } = await setup();
    const offline = make({}, { fetch: throwingFetch });
    const d = await offline.describe();
    expect(d.profile).toEqual({ name: "default", state: "unconfigured" });
    expect(d.capabilities).toContain("message.receive");
    expect(existsSync(configDir)).toBe(false);
    await make().teamCreate({ team_name: "core", human_label: "dana" });
    expect((await offline.describe()).profile).toEqual({
      name: "default",
      state: "joined",
      team_ref: "t-1",
      team_name: "core",
      principal_ref: "p-1",
      human_label: "dana",
    });
    await make().teamLeave();
    expect((await offline.describe()).profile).toEqual({ name: "default", state: "not_member" });
    expect((await make({ BRIGADE_PROFILE: "other" }).describe()).profile).toEqual({
      name: "other",
      state: "unconfigured",
    });
  });
});

describe("profile binding", () => {
  test("team create mints a credential (0600), records the server, binds, and keeps the token out of the profile", async () => {
    const { stub, adapter, configDir } = await setup();
    const r = await adapter.teamCreate({ team_name: "core" });
    expect(r).toEqual({
      team_ref: "t-1",
      team_name: "core",
      join_secret: SECRET,
      principal_ref: "p-1",
    });
    expect(stub.log.map((l) => `${l.method} ${l.path}`)).toEqual([
      "POST /v1/principals",
      "POST /v1/teams",
    ]);
    expect(stub.log[0]?.auth).toBeUndefined();
    expect(stub.log[1]?.auth).toBe("Bearer tok-1-bearer-value");
    const profile = JSON.parse(readFileSync(join(configDir, "profiles/default.json"), "utf8"));
    expect(profile).toEqual({
      server: stub.url,
      team_ref: "t-1",
      team_name: "core",
      principal_ref: "p-1",
    });
    expect(statSync(join(configDir, "credentials/default.json")).mode & 0o777).toBe(0o600);
    expect(statSync(join(configDir, "credentials")).mode & 0o777).toBe(0o700);
    for (const dir of ["profiles", "credentials"]) {
      for (const f of readdirSync(join(configDir, dir))) {
        expect(readFileSync(join(configDir, dir, f), "utf8")).not.toContain(SECRET);
      }
    }
    expect(readFileSync(join(configDir, "profiles/default.json"), "utf8")).not.toContain(
      "bearer-value",
    );
  });

  test("create or join on a bound profile → conflict profile_bound before any network call; rejoin of the bound team is allowed", async () => {
    const { stub, adapter } = await setup();
    await adapter.teamCreate({ team_name: "core" });
    const before = stub.log.length;
    expect(await codeOf(adapter.teamCreate({ team_name: "again" }))).toBe("conflict:profile_bound");
    expect(await codeOf(adapter.teamJoin({ join_secret: "brg1.t-other.xyz" }))).toBe(
      "conflict:profile_bound",
    );
    expect(stub.log.length).toBe(before);
    const again = await adapter.teamJoin({ join_secret: SECRET });
    expect(again.rejoined).toBe(true);
  });

  test("join: wrong secret passes the uniform unauthorized through; backend must be an object with a server URL", async () => {
    const { make, stub } = await setup();
    const a = make();
    expect(await codeOf(a.teamJoin({ join_secret: "brg1.t-1.wrong" }))).toBe("unauthorized:");
    expect(await codeOf(a.teamJoin({ join_secret: SECRET, backend: "x" } as never))).toBe(
      "invalid_input:invalid_value",
    );
    const b = make({ BRIGADE_SERVER: "" }, { profile: "b" });
    expect(await codeOf(b.teamJoin({ join_secret: SECRET }))).toBe("config:");
    const r = await b.teamJoin({ join_secret: SECRET, backend: { server: `${stub.url}/` } });
    expect(r).toMatchObject({ team_ref: "t-1", rejoined: false });
    expect((await b.describe()).profile.state).toBe("joined");
  });

  test("unbound verbs: 4 without a credential, 11 with one but no team", async () => {
    const { adapter } = await setup();
    expect(await codeOf(adapter.sessionList())).toBe("unauthenticated:credential_missing");
    expect(await codeOf(adapter.messageReceive("s-1"))).toBe("unauthenticated:credential_missing");
    await adapter.teamCreate({ team_name: "core" });
    await adapter.teamLeave();
    expect(await codeOf(adapter.sessionList())).toBe("config:no_team_bound");
    expect(
      await codeOf(
        adapter.messageSend({ sender_session_id: "a", recipient_session_id: "b", body: "x" }),
      ),
    ).toBe("config:no_team_bound");
    // Second leave is idempotent and answers from local memory.
    expect(await adapter.teamLeave()).toEqual({
      team_ref: "t-1",
      principal_ref: "p-1",
      left: true,
    });
  });

  test("a credential that cannot be read or parsed is never replaced: join answers config, the file is kept", async () => {
    const { adapter, configDir, stub } = await setup();
    await adapter.teamCreate({ team_name: "core" });
    await adapter.teamLeave();
    const path = join(configDir, "credentials/default.json");
    for (const text of ["{not json", "", '{"token":""}']) {
      writeFileSync(path, text, { mode: 0o600 });
      const before = stub.log.length;
      expect(await codeOf(adapter.teamJoin({ join_secret: SECRET }))).toBe("config:");
      expect(stub.log.length).toBe(before);
      expect(readFileSync(path, "utf8")).toBe(text);
    }
  });

  test("a world-readable profile or credential is refused with config", async () => {
    const { adapter, configDir } = await setup();
    await adapter.teamCreate({ team_name: "core" });
    chmodSync(join(configDir, "profiles/default.json"), 0o644);
    expect(await codeOf(adapter.sessionList())).toBe("config:");
    chmodSync(join(configDir, "profiles/default.json"), 0o600);
    chmodSync(join(configDir, "credentials/default.json"), 0o644);
    expect(await codeOf(adapter.sessionList())).toBe("config:");
  });
});

describe("transport failures", () => {
  test("5xx → unavailable; closed port → unavailable; timeout → unavailable timeout; bad result → internal", async () => {
    const { stub, adapter, make } = await setup();
    await adapter.teamCreate({ team_name: "core" });
    stub.fail5xx = 1;
    expect(await codeOf(adapter.sessionList())).toBe("unavailable:");
    stub.malformed = true;
    expect(await codeOf(adapter.sessionList())).toBe("internal:");
    stub.delayMs = 300;
    expect(await codeOf(make({}, { timeoutMs: 50 }).sessionList())).toBe("unavailable:timeout");
    stub.delayMs = 0;
    await stub.stop();
    stubs.splice(0);
    expect(await codeOf(adapter.sessionList())).toBe("unavailable:");
  });

  test("server errors pass through member for member (uniform not_found)", async () => {
    const { adapter } = await setup();
    await adapter.teamCreate({ team_name: "core" });
    try {
      await adapter.sessionClose("s-nope");
      expect.unreachable();
    } catch (error) {
      expect((error as BapError).toProtocolError()).toEqual({
        code: "not_found",
        message: "session or message not found",
        retryable: false,
      });
    }
  });

  test("a forbidden SendRequest member is refused before any network call", async () => {
    const { stub, adapter } = await setup();
    await adapter.teamCreate({ team_name: "core" });
    const before = stub.log.length;
    const bad = { sender_session_id: "a", recipient_session_id: "b", body: "x", sender: {} };
    expect(await codeOf(adapter.messageSend(bad as never))).toBe("invalid_input:forbidden_member");
    expect(stub.log.length).toBe(before);
  });
});

describe("session and message verbs", () => {
  test("register, list, heartbeat, send, receive, ack, members, close", async () => {
    const { stub, adapter } = await setup();
    await adapter.teamCreate({ team_name: "core" });
    const a = await adapter.sessionRegister(REGISTRATION);
    const b = await adapter.sessionRegister({ ...REGISTRATION, session_name: "other" });
    expect(a.session_id).not.toBe(b.session_id);
    await adapter.sessionList({ session: a.session_id, includeOffline: true });
    expect(stub.log.at(-1)).toMatchObject({
      path: "/v1/teams/t-1/sessions",
      search: `?session=${a.session_id}&include_offline=1`,
    });
    expect((await adapter.sessionHeartbeat(a.session_id, { activity: "idle" })).lease_until).toBe(
      LATER,
    );
    const sent = await adapter.messageSend({
      sender_session_id: a.session_id,
      recipient_session_id: b.session_id,
      body: "hi",
    });
    expect(sent.status).toBe("accepted");
    const got = await adapter.messageReceive(b.session_id, { limit: 5 });
    expect(got.messages.map((m) => m.body)).toEqual(["hi"]);
    expect(
      await adapter.messageAck(b.session_id, { message_ids: [sent.message_id, "m-zzz"] }),
    ).toEqual({
      acked: [sent.message_id],
      unknown: ["m-zzz"],
    });
    expect((await adapter.teamMembers()).members).toHaveLength(1);
    expect(await adapter.sessionClose(a.session_id)).toEqual({
      session_id: a.session_id,
      state: "offline",
    });
  });
});

describe("a broken or hostile server's receive answer", () => {
  test("receive keeps only messages for the asking session, no more than asked for", async () => {
    const { stub, adapter } = await setup();
    await adapter.teamCreate({ team_name: "core" });
    const a = await adapter.sessionRegister(REGISTRATION);
    const b = await adapter.sessionRegister({ ...REGISTRATION, session_name: "other" });
    stub.deliver(a.session_id, "for a");
    stub.deliver(b.session_id, "for b, 1");
    stub.deliver(b.session_id, "for b, 2");
    stub.deliver(b.session_id, "for b, 3");
    stub.leakyReceive = true;
    const got = await adapter.messageReceive(b.session_id, { limit: 2 });
    expect(got.messages.map((m) => m.body)).toEqual(["for b, 1", "for b, 2"]);
    const all = await adapter.messageReceive(a.session_id);
    expect(all.messages.map((m) => m.body)).toEqual(["for a"]);
  });
});

describe("message states (message.state, message.adopt)", () => {
  test("bad documents are refused before any network call; each verb calls its session route", async () => {
    const { stub, adapter } = await setup();
    await adapter.teamCreate({ team_name: "core" });
    const before = stub.log.length;
    const bad: Promise<unknown>[] = [
      adapter.messageState("s-1", { message_ids: [] }),
      adapter.messageState("s-1", { message_ids: [7] } as never),
      adapter.messageReport("s-1", { message_ids: ["m-1"], state: "acked" } as never),
      adapter.messageAdopt("s-1", {
        from_session_ids: Array.from({ length: 17 }, (_, i) => `s-${i}`),
      }),
    ];
    const codes = [];
    for (const call of bad) codes.push(await codeOf(call));
    expect(codes).toEqual([
      "invalid_input:required",
      "invalid_input:invalid_value",
      "invalid_input:invalid_value",
      "invalid_input:out_of_range",
    ]);
    expect(stub.log.length).toBe(before);
    const calls: [Promise<unknown>, string, string][] = [
      [adapter.messageState("s/1", { message_ids: ["m-1"] }), "POST", "/message-states"],
      [adapter.messageSent("s/1", { limit: 5 }), "GET", "/sent"],
      [adapter.messageReport("s/1", { message_ids: ["m-1"], state: "held" }), "POST", "/report"],
      [adapter.messageAdopt("s/1", { from_session_ids: ["s-0"] }), "POST", "/adopt"],
    ];
    for (const [call, method, tail] of calls) {
      await call.catch(() => undefined);
      expect(stub.log.at(-1)).toMatchObject({
        method,
        path: `/v1/teams/t-1/sessions/s%2F1${tail}`,
      });
    }
    expect(stub.log.at(-3)?.search).toBe("?limit=5");
  });
});

async function collect(watch: WatchHandle, events: WatchEvent[]): Promise<void> {
  for await (const e of watch) events.push(e);
}

/** The first of `events` that `predicate` picks, waiting for it up to `ms` milliseconds. */
function arrival(
  events: WatchEvent[],
  predicate: (e: WatchEvent) => boolean,
  ms = 3000,
): Promise<WatchEvent> {
  return until("an event to arrive", () => events.find(predicate), ms);
}

describe("team.admin verbs", () => {
  test("each posts to its team route with the target in the body and validates the answer", async () => {
    const { stub, adapter } = await setup();
    await adapter.teamCreate({ team_name: "core" });
    expect((await adapter.teamRotateSecret()).join_secret).toBe(`${SECRET}-rotated`);
    expect(stub.log.at(-1)).toMatchObject({ method: "POST", path: "/v1/teams/t-1/rotate-secret" });
    expect(await adapter.teamRevokeMember({ principal_ref: "p-9" })).toEqual({
      team_ref: "t-1",
      principal_ref: "p-9",
      revoked: true,
    });
    expect(stub.log.at(-1)).toMatchObject({
      path: "/v1/teams/t-1/revoke-member",
      body: { principal_ref: "p-9" },
    });
    expect((await adapter.teamTransfer({ principal_ref: "p-9" })).offered_to_principal_ref).toBe(
      "p-9",
    );
    expect(stub.log.at(-1)).toMatchObject({ path: "/v1/teams/t-1/transfer" });
    expect((await adapter.teamAcceptTransfer()).previous_creator_principal_ref).toBe("p-9");
    expect(stub.log.at(-1)).toMatchObject({
      method: "POST",
      path: "/v1/teams/t-1/accept-transfer",
    });
    stub.malformed = true;
    expect(await codeOf(adapter.teamRotateSecret())).toBe("internal:");
  });

  test("no credential, no team, or an empty target fail locally, before any network call", async () => {
    const { stub, adapter } = await setup();
    expect(await codeOf(adapter.teamRotateSecret())).toBe("unauthenticated:credential_missing");
    expect(await codeOf(adapter.teamTransfer({ principal_ref: "p-1" }))).toBe(
      "unauthenticated:credential_missing",
    );
    await adapter.teamCreate({ team_name: "core" });
    await adapter.teamLeave();
    expect(await codeOf(adapter.teamRevokeMember({ principal_ref: "p-1" }))).toBe(
      "config:no_team_bound",
    );
    await adapter.teamJoin({ join_secret: SECRET });
    const calls = stub.log.length;
    expect(await codeOf(adapter.teamRevokeMember({ principal_ref: "" }))).toBe(
      "invalid_input:invalid_value",
    );
    expect(stub.log.length).toBe(calls);
  });
});

describe("message watch", () => {
  test("ready first, catch-up, push, ack, heartbeat, reconnect with status, close", async () => {
    const { stub, adapter } = await setup();
    await adapter.teamCreate({ team_name: "core" });
    const me = await adapter.sessionRegister(REGISTRATION);
    const early = stub.deliver(me.session_id, "before the watch");
    const watch = adapter.messageWatch(me.session_id);
    const events: WatchEvent[] = [];
    const done = collect(watch, events);
    await arrival(
      events,
      (e) => e.event === "message" && e.message.message_id === early.message_id,
    );
    expect(events[0]).toEqual({
      event: "ready",
      protocol_version: "1",
      session_id: me.session_id,
      mode: "push",
    });
    const pushed = stub.deliver(me.session_id, "line\nbreak\u2028");
    await arrival(
      events,
      (e) => e.event === "message" && e.message.message_id === pushed.message_id,
    );

    await watch.send({ type: "ack", message_ids: [early.message_id] });
    expect(await arrival(events, (e) => e.event === "acked")).toEqual({
      event: "acked",
      message_ids: [early.message_id],
      unknown: [],
    });
    await watch.send({ type: "heartbeat", activity: "idle" });
    await arrival(events, (e) => e.event === "heartbeat_ok");
    expect(stub.log.at(-1)?.body).toEqual({ activity: "idle" });

    const before = events.length;
    stub.dropWatchers();
    await arrival(events, (e) => e.event === "status" && e.state === "reconnecting");
    await arrival(events, (e) => e.event === "status" && e.state === "live");
    // The unacked message is re-sent by the catch-up after the reconnect.
    await arrival(
      events.slice(before),
      (e) => e.event === "message" && e.message.message_id === pushed.message_id,
    );
    expect(events.filter((e) => e.event === "ready")).toHaveLength(1);

    await watch.send({ type: "close" });
    await done;
    expect(stub.log.at(-1)?.path).toBe(`/v1/teams/t-1/sessions/${me.session_id}/close`);
  });

  test("a foreign or unknown session → one error event not_found, then the stream ends", async () => {
    const { adapter } = await setup();
    await adapter.teamCreate({ team_name: "core" });
    const events: WatchEvent[] = [];
    await collect(adapter.messageWatch("s-foreign"), events);
    expect(events).toEqual([
      {
        event: "error",
        error: { code: "not_found", message: "session or message not found", retryable: false },
      },
    ]);
  });

  test("an unauthorized error event from the server (the caller left) ends the watch", async () => {
    const { stub, adapter } = await setup();
    await adapter.teamCreate({ team_name: "core" });
    const me = await adapter.sessionRegister(REGISTRATION);
    const events: WatchEvent[] = [];
    const watch = adapter.messageWatch(me.session_id);
    const done = collect(watch, events);
    await arrival(events, (e) => e.event === "ready");
    await new Promise((r) => setTimeout(r, 50));
    stub.broadcast("error", {
      code: "unauthorized",
      message: "not an active member of this team",
      retryable: false,
    });
    await done;
    expect(events.at(-1)).toMatchObject({
      event: "error",
      error: { code: "unauthorized", retryable: false },
    });
  });

  test("server shutdown and 5xx reconnect quietly until the stream is back; close() ends at once", async () => {
    const { stub, adapter } = await setup();
    await adapter.teamCreate({ team_name: "core" });
    const me = await adapter.sessionRegister(REGISTRATION);
    const events: WatchEvent[] = [];
    const watch = adapter.messageWatch(me.session_id);
    const done = collect(watch, events);
    await arrival(events, (e) => e.event === "ready");
    await new Promise((r) => setTimeout(r, 50));
    stub.fail5xx = 2;
    stub.broadcast("shutdown", {});
    await arrival(events, (e) => e.event === "status" && e.state === "live");
    const started = Date.now();
    await watch.close();
    await done;
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test("overflow (the server dropped a reader that fell behind) reconnects and catches up", async () => {
    const { stub, adapter } = await setup();
    await adapter.teamCreate({ team_name: "core" });
    const me = await adapter.sessionRegister(REGISTRATION);
    const events: WatchEvent[] = [];
    const watch = adapter.messageWatch(me.session_id);
    const done = collect(watch, events);
    await arrival(events, (e) => e.event === "ready");
    await new Promise((r) => setTimeout(r, 50));
    const pending = stub.deliver(me.session_id, "sent before the drop, never acked");
    await arrival(events, (e) => e.event === "message");
    const before = events.length;
    // The stub keeps the connection open: the event alone must end this stream.
    stub.broadcast("overflow", {});
    expect(
      await arrival(events, (e) => e.event === "status" && e.state === "reconnecting"),
    ).toEqual({
      event: "status",
      state: "reconnecting",
      detail: "server_overflow",
    });
    await arrival(events, (e) => e.event === "status" && e.state === "live");
    await arrival(
      events.slice(before),
      (e) => e.event === "message" && e.message.message_id === pending.message_id,
    );
    expect(events.some((e) => e.event === "error")).toBe(false);
    await watch.close();
    await done;
  });

  test("no credential → unauthenticated error event, no ready", async () => {
    const { adapter } = await setup();
    const events: WatchEvent[] = [];
    await collect(adapter.messageWatch("s-1"), events);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event: "error", error: { code: "unauthenticated" } });
  });
});
