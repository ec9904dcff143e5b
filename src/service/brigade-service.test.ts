import { afterEach, describe, expect, test } from "vitest";
import { sessionRegistration } from "../../test/support/session-registration.ts";
import type { SessionRegistration } from "../protocol/index.ts";
import { BapError, parseJoinSecret } from "../protocol/index.ts";
import { openSqliteStore, type SqliteStore } from "../store/sqlite/sqlite-store.ts";
import { BrigadeService } from "./brigade-service.ts";
import { sha256Hex } from "./secrets.ts";
import { randomIdGenerator } from "./service-deps.ts";

const START = Date.parse("2026-10-02T09:00:00.000Z");
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Deterministic xorshift byte source: ids and secrets are reproducible. */
function seededRandom(seed: number): (n: number) => Uint8Array {
  let x = seed >>> 0 || 1;
  return (n) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 1) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      out[i] = x & 0xff;
    }
    return out;
  };
}

/** A Claude Code session's registration; `extra` replaces or adds members. */
const registration = (name: string, extra: Partial<SessionRegistration> = {}) =>
  sessionRegistration(name, { harness: "claude-code", harness_version: "2.1.270", ...extra });

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

/** Principals A and B in T1, C in T2, one session each (the conformance fixture's shape). */
async function world() {
  const store = openSqliteStore(":memory:");
  stores.push(store);
  const clock = { t: START };
  const random = seededRandom(7);
  const service = new BrigadeService(store, {
    now: () => clock.t,
    newId: randomIdGenerator(random),
    randomBytes: random,
  });
  const a = (await service.createPrincipal()).principal_ref;
  const b = (await service.createPrincipal()).principal_ref;
  const c = (await service.createPrincipal()).principal_ref;
  const t1 = await service.createTeam(a, { team_name: "core", human_label: "dana" });
  await service.joinTeam(b, { join_secret: t1.join_secret });
  const t2 = await service.createTeam(c, { team_name: "other" });
  const sa = (await service.registerSession(a, t1.team_ref, registration("fixture-a"))).session_id;
  const sb = (await service.registerSession(b, t1.team_ref, registration("fixture-b"))).session_id;
  const sc = (await service.registerSession(c, t2.team_ref, registration("fixture-c"))).session_id;
  const advance = (ms: number) => {
    clock.t += ms;
  };
  return {
    store,
    service,
    clock,
    advance,
    a,
    b,
    c,
    t1,
    t2,
    T1: t1.team_ref,
    T2: t2.team_ref,
    sa,
    sb,
    sc,
  };
}

/** The thrown BapError of a promise, serialised as the wire error object. */
async function wireError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(BapError);
    return JSON.stringify(error);
  }
  throw new Error("expected a BapError");
}

async function errorOf(promise: Promise<unknown>) {
  return JSON.parse(await wireError(promise)) as {
    code: string;
    message: string;
    retryable: boolean;
    retry_after_ms?: number;
    details?: Record<string, string>;
  };
}

const NOT_FOUND = JSON.stringify({
  code: "not_found",
  message: "session or message not found",
  retryable: false,
});
const NOT_MEMBER = JSON.stringify({
  code: "unauthorized",
  message: "not an active member of this team",
  retryable: false,
});

describe("principals and tokens", () => {
  test("a minted token authenticates; only its digest is stored", async () => {
    const { service, store } = await world();
    const { principal_ref, token } = await service.createPrincipal();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(principal_ref).toMatch(/^p-[0-9a-f]{20}$/);
    expect(await service.authenticate(token)).toBe(principal_ref);
    expect(await service.authenticate(`${token}x`)).toBeNull();
    expect(await service.authenticate("")).toBeNull();
    expect(await store.transact((tx) => tx.principalByTokenDigest(token))).toBeNull();
    expect(await store.transact((tx) => tx.principalByTokenDigest(sha256Hex(token)))).toBe(
      principal_ref,
    );
  });
});

describe("authentication off the write path", () => {
  test("a known principal costs no store unit; a cold cache asks once; unknown tokens always ask", async () => {
    const store = openSqliteStore(":memory:");
    stores.push(store);
    let units = 0;
    const counting = {
      transact: <T>(unit: Parameters<typeof store.transact<T>>[0]): Promise<T> => {
        units += 1;
        return store.transact(unit);
      },
      close: () => store.close(),
    };
    const random = seededRandom(11);
    const deps = { now: () => START, newId: randomIdGenerator(random), randomBytes: random };
    const minting = new BrigadeService(counting, deps);
    const { principal_ref, token } = await minting.createPrincipal();
    expect(units).toBe(1);
    expect(await minting.authenticate(token)).toBe(principal_ref);
    expect(await minting.authenticate(token)).toBe(principal_ref);
    expect(units).toBe(1);

    const cold = new BrigadeService(counting, deps);
    expect(await cold.authenticate(token)).toBe(principal_ref);
    expect(units).toBe(2);
    expect(await cold.authenticate(token)).toBe(principal_ref);
    expect(units).toBe(2);

    expect(await cold.authenticate(`${token}x`)).toBeNull();
    expect(await cold.authenticate(`${token}x`)).toBeNull();
    expect(units).toBe(4);
  });
});

describe("teams, join secrets, membership", () => {
  test("team create returns a parseable secret naming the team; creator is the only member", async () => {
    const { service, a, t2, c } = await world();
    const parsed = parseJoinSecret(t2.join_secret);
    expect(parsed.ok && parsed.value.teamRef).toBe(t2.team_ref);
    const roster = await service.listMembers(c, t2.team_ref);
    expect(roster.members.map((m) => m.principal_ref)).toEqual([c]);
    expect(roster.members[0]).toEqual({
      principal_ref: c,
      human_label: "",
      status: "active",
      joined_at: "2026-10-02T09:00:00.000Z",
      last_seen_at: "2026-10-02T09:00:00.000Z",
      session_count: 1,
    });
    expect(await wireError(service.listMembers(a, t2.team_ref))).toBe(NOT_MEMBER);
  });

  test("wrong secret, unknown team and revoked principal are byte-identical unauthorized", async () => {
    const { service, store, t1, T1, b } = await world();
    const x = (await service.createPrincipal()).principal_ref;
    const parsed = parseJoinSecret(t1.join_secret);
    if (!parsed.ok) throw new Error("unreachable");
    const wrong = `brg1.${T1}.${"A".repeat(43)}`;
    const unknown = `brg1.t-nosuchteam.${parsed.value.revealSecretHalf()}`;
    const e1 = await wireError(service.joinTeam(x, { join_secret: wrong }));
    const e2 = await wireError(service.joinTeam(x, { join_secret: unknown }));
    await store.transact(async (tx) => {
      const m = await tx.getMembership(T1, b);
      if (m !== null) await tx.putMembership({ ...m, status: "revoked" });
    });
    const e3 = await wireError(service.joinTeam(b, { join_secret: t1.join_secret }));
    expect(JSON.parse(e1)).toEqual({
      code: "unauthorized",
      message: "the join secret was rejected",
      retryable: false,
    });
    expect(e2).toBe(e1);
    expect(e3).toBe(e1);
    expect(e1).not.toContain(T1);
  });

  test("a malformed secret is invalid_input naming join_secret and is not counted", async () => {
    const { service, t1 } = await world();
    const x = (await service.createPrincipal()).principal_ref;
    for (let i = 0; i < 12; i += 1) {
      const e = await errorOf(service.joinTeam(x, { join_secret: "nope" }));
      expect(e.code).toBe("invalid_input");
      expect(e.details).toEqual({ field: "join_secret", reason: "invalid_value" });
    }
    expect((await service.joinTeam(x, { join_secret: t1.join_secret })).rejoined).toBe(false);
  });

  test("join attempts: 10 failures per 10 minutes, then rate_limited join_attempts", async () => {
    const { service, t1, T1, advance } = await world();
    const x = (await service.createPrincipal()).principal_ref;
    const wrong = `brg1.${T1}.${"B".repeat(43)}`;
    for (let i = 0; i < 10; i += 1) {
      expect((await errorOf(service.joinTeam(x, { join_secret: wrong }))).code).toBe(
        "unauthorized",
      );
      advance(1000);
    }
    const limited = await errorOf(service.joinTeam(x, { join_secret: t1.join_secret }));
    expect(limited.code).toBe("rate_limited");
    expect(limited.retryable).toBe(true);
    expect(limited.details).toEqual({ reason: "join_attempts" });
    // The oldest failure was 10 s ago; it leaves the 10-minute window in 590 s.
    expect(limited.retry_after_ms).toBe(10 * MINUTE - 10_000);
    advance(10 * MINUTE - 10_000);
    expect((await service.joinTeam(x, { join_secret: t1.join_secret })).team_ref).toBe(T1);
  });

  test("leave closes sessions, hides them, revokes; second leave ok; rejoin re-activates", async () => {
    const { service, a, b, T1, sb, t1 } = await world();
    let revoked = 0;
    await service.subscribe(b, T1, sb, { onMessages: () => {}, onRevoked: () => (revoked += 1) });
    expect(await service.leaveTeam(b, T1)).toEqual({ team_ref: T1, principal_ref: b, left: true });
    expect(revoked).toBe(1);
    const list = await service.listSessions(a, T1, { include_offline: true });
    expect(list.sessions.map((s) => s.session_id)).not.toContain(sb);
    expect((await service.listMembers(a, T1)).members.map((m) => m.principal_ref)).toEqual([a]);
    expect(await wireError(service.listSessions(b, T1))).toBe(NOT_MEMBER);
    expect(await wireError(service.registerSession(b, T1, registration("x")))).toBe(NOT_MEMBER);
    expect(await service.leaveTeam(b, T1)).toEqual({ team_ref: T1, principal_ref: b, left: true });
    const rejoin = await service.joinTeam(b, { join_secret: t1.join_secret, human_label: "lee" });
    expect(rejoin).toEqual({ team_ref: T1, team_name: "core", principal_ref: b, rejoined: true });
    const again = await service.joinTeam(b, { join_secret: t1.join_secret });
    expect(again.rejoined).toBe(true);
    const roster = await service.listMembers(a, T1);
    expect(roster.members.find((m) => m.principal_ref === b)?.human_label).toBe("lee");
    // The closed session is resumable after the rejoin (same membership).
    const resumed = await service.registerSession(
      b,
      T1,
      registration("back", { resume: { session_id: sb } }),
    );
    expect(resumed.session_id).toBe(sb);
  });

  test("leave of a never-joined or unknown team is the uniform unauthorized", async () => {
    const { service, c, T1 } = await world();
    expect(await wireError(service.leaveTeam(c, T1))).toBe(NOT_MEMBER);
    expect(await wireError(service.leaveTeam(c, "t-random"))).toBe(NOT_MEMBER);
  });

  test("non-member and nonexistent team are byte-identical on every team verb", async () => {
    const { service, c, T1, sc } = await world();
    for (const team of [T1, "t-doesnotexist"]) {
      expect(await wireError(service.listMembers(c, team))).toBe(NOT_MEMBER);
      expect(await wireError(service.listSessions(c, team))).toBe(NOT_MEMBER);
      expect(await wireError(service.registerSession(c, team, registration("x")))).toBe(NOT_MEMBER);
      expect(await wireError(service.receiveMessages(c, team, sc))).toBe(NOT_MEMBER);
      expect(await wireError(service.closeSession(c, team, sc))).toBe(NOT_MEMBER);
    }
  });
});

describe("sessions, leases, states", () => {
  test("register: id, active when busy, lease_until = now + lease, default lease 90", async () => {
    const { service, a, T1 } = await world();
    const r = await service.registerSession(a, T1, registration("n"));
    expect(r.session_id).toMatch(/^s-[0-9a-f]{20}$/);
    expect(r.state).toBe("active");
    expect(r.resumed).toBe(false);
    expect(r.lease_seconds).toBe(90);
    expect(r.is_self).toBe(false);
    expect(r.lease_until).toBe("2026-10-02T09:01:30.000Z");
    expect(r.server_time).toBe("2026-10-02T09:00:00.000Z");
    expect(r.human_label).toBe("dana");
    const idle = await service.registerSession(
      a,
      T1,
      registration("n", { activity: "idle", lease_seconds: 600 }),
    );
    expect(idle.state).toBe("idle");
    expect(idle.lease_seconds).toBe(600);
    expect(idle.session_id).not.toBe(r.session_id);
  });

  test("a lease outside 30..600 is invalid_input and stores nothing", async () => {
    const { service, a, T1 } = await world();
    const before = (await service.listSessions(a, T1, { include_offline: true })).sessions.length;
    const e = await errorOf(
      service.registerSession(a, T1, registration("n", { lease_seconds: 29 })),
    );
    expect(e.code).toBe("invalid_input");
    expect(e.details?.field).toBe("lease_seconds");
    await errorOf(service.registerSession(a, T1, registration("x".repeat(65))));
    expect((await service.listSessions(a, T1, { include_offline: true })).sessions.length).toBe(
      before,
    );
  });

  test("lease expiry decides: live at lease_until, offline 1 ms later, listed only with the flag", async () => {
    const { service, a, T1, advance } = await world();
    const r = await service.registerSession(a, T1, registration("short", { lease_seconds: 30 }));
    const state = async (includeOffline: boolean) =>
      (await service.listSessions(a, T1, { include_offline: includeOffline })).sessions.find(
        (s) => s.session_id === r.session_id,
      )?.state;
    advance(30_000);
    expect(await state(false)).toBe("active");
    advance(1);
    expect(await state(false)).toBeUndefined();
    expect(await state(true)).toBe("offline");
    const beat = await service.heartbeatSession(a, T1, r.session_id, { activity: "idle" });
    expect(beat.state).toBe("idle");
    expect(await state(false)).toBe("idle");
  });

  test("two registrations with one name are two sessions, both listed", async () => {
    const { service, a, T1 } = await world();
    const x = await service.registerSession(a, T1, registration("same"));
    const y = await service.registerSession(a, T1, registration("same"));
    expect(x.session_id).not.toBe(y.session_id);
    const names = (await service.listSessions(a, T1)).sessions.filter(
      (s) => s.session_name === "same",
    );
    expect(names).toHaveLength(2);
  });

  test("session list: own team only, human_label, is_self only with --session, not-owned → not_found", async () => {
    const { service, a, T1, sa, sb, sc } = await world();
    const list = await service.listSessions(a, T1, { session_id: sa });
    expect(list.team_name).toBe("core");
    expect(list.truncated).toBe(false);
    expect(list.sessions.map((s) => s.session_id)).toEqual([sa, sb]);
    expect(list.sessions.map((s) => s.is_self)).toEqual([true, false]);
    expect(list.sessions[0]?.human_label).toBe("dana");
    expect(list.sessions.map((s) => s.session_id)).not.toContain(sc);
    expect((await service.listSessions(a, T1)).sessions.every((s) => !s.is_self)).toBe(true);
    expect(await wireError(service.listSessions(a, T1, { session_id: sb }))).toBe(NOT_FOUND);
  });

  test("live delivery: registered, changed by heartbeats, kept when absent, refused value-free", async () => {
    const { service, a, T1 } = await world();
    const r = await service.registerSession(
      a,
      T1,
      registration("n", { live_delivery: "no", live_delivery_reason: "no_inbox_socket" }),
    );
    expect(r).toMatchObject({ live_delivery: "no", live_delivery_reason: "no_inbox_socket" });
    const listed = async () =>
      (await service.listSessions(a, T1)).sessions.find((x) => x.session_id === r.session_id);
    await service.heartbeatSession(a, T1, r.session_id, { activity: "idle" });
    expect(await listed()).toMatchObject({ live_delivery_reason: "no_inbox_socket" });
    await service.heartbeatSession(a, T1, r.session_id, {
      live_delivery: "yes",
      live_delivery_reason: "inbound_gate",
    });
    const s = await listed();
    expect(s?.live_delivery).toBe("yes");
    expect(s?.live_delivery_reason).toBeUndefined();
    await service.heartbeatSession(a, T1, r.session_id, {
      live_delivery: "no",
      live_delivery_reason: "inbound_gate",
    });
    expect(await listed()).toMatchObject({
      live_delivery: "no",
      live_delivery_reason: "inbound_gate",
    });
    const hostile = "x".repeat(100_000);
    for (const [body, field, reason] of [
      [{ live_delivery: true }, "live_delivery", "invalid_value"],
      [{ live_delivery: hostile }, "live_delivery", "invalid_value"],
      [{ live_delivery: "maybe" }, "live_delivery", "invalid_value"],
      [{ live_delivery: "no" }, "live_delivery_reason", "required"],
      [
        { live_delivery: "no", live_delivery_reason: hostile },
        "live_delivery_reason",
        "invalid_value",
      ],
      [
        { live_delivery: "no", live_delivery_reason: ["inbound_gate"] },
        "live_delivery_reason",
        "invalid_value",
      ],
    ] as const) {
      const e = await errorOf(service.heartbeatSession(a, T1, r.session_id, body));
      expect(e.code).toBe("invalid_input");
      expect(e.details).toMatchObject({ field, reason });
      expect(JSON.stringify(e)).not.toContain("xxxx");
      expect(JSON.stringify(e)).not.toContain("maybe");
    }
    const e = await errorOf(
      service.registerSession(a, T1, registration("m", { live_delivery: "no" })),
    );
    expect(e.details).toMatchObject({ field: "live_delivery_reason", reason: "required" });
    expect(await listed()).toMatchObject({
      live_delivery: "no",
      live_delivery_reason: "inbound_gate",
    });
    const silent = await service.registerSession(a, T1, registration("q"));
    expect(silent.live_delivery).toBeUndefined();
  });

  test("live delivery: a yes not said again for 5/6 of the lease reads watcher_silent; only a report renews it", async () => {
    const { service, a, T1, advance } = await world();
    const r = await service.registerSession(
      a,
      T1,
      registration("w", { live_delivery: "yes", lease_seconds: 90 }),
    );
    const other = await service.registerSession(
      a,
      T1,
      registration("g", { live_delivery: "no", live_delivery_reason: "inbound_gate" }),
    );
    const listed = async (id: string) => {
      const s = (await service.listSessions(a, T1)).sessions.find((x) => x.session_id === id);
      return `${String(s?.live_delivery)}/${String(s?.live_delivery_reason)}`;
    };
    advance(75_000);
    expect(await listed(r.session_id)).toBe("yes/undefined");
    // A heartbeat that does not say live_delivery renews the lease, not the report.
    await service.heartbeatSession(a, T1, r.session_id, { activity: "busy" });
    await service.heartbeatSession(a, T1, other.session_id, { activity: "busy" });
    advance(1);
    expect(await listed(r.session_id)).toBe("no/watcher_silent");
    // A "no" keeps its own reason however old it is.
    expect(await listed(other.session_id)).toBe("no/inbound_gate");
    await service.heartbeatSession(a, T1, r.session_id, { live_delivery: "yes" });
    expect(await listed(r.session_id)).toBe("yes/undefined");
    advance(75_001);
    expect(await listed(r.session_id)).toBe("no/watcher_silent");
    // A shorter lease ages its report sooner: 5/6 of 30 s.
    const short = await service.registerSession(
      a,
      T1,
      registration("s", { live_delivery: "yes", lease_seconds: 30 }),
    );
    advance(25_001);
    expect(await listed(short.session_id)).toBe("no/watcher_silent");
    // The harness may say the stop itself.
    await service.heartbeatSession(a, T1, short.session_id, {
      live_delivery: "no",
      live_delivery_reason: "watcher_stopped",
    });
    expect(await listed(short.session_id)).toBe("no/watcher_stopped");
  });

  test("heartbeat renews, applies present values, absent and null keep, '' clears description", async () => {
    const { service, a, T1, advance } = await world();
    const r = await service.registerSession(
      a,
      T1,
      registration("n", {
        model: "opus",
        context_used_tokens: 5,
        brigade_version: "0.1.0",
        sync_peer: "x:y",
        session_description: "d",
      }),
    );
    advance(10_000);
    const beat = await service.heartbeatSession(a, T1, r.session_id, {
      session_name: "renamed",
      model: null,
    });
    expect(beat).toEqual({
      session_id: r.session_id,
      state: "active",
      lease_until: "2026-10-02T09:01:40.000Z",
      server_time: "2026-10-02T09:00:10.000Z",
    });
    let s = (await service.listSessions(a, T1)).sessions.find((x) => x.session_id === r.session_id);
    expect(s).toMatchObject({
      session_name: "renamed",
      model: "opus",
      context_used_tokens: 5,
      brigade_version: "0.1.0",
      sync_peer: "x:y",
      session_description: "d",
    });
    await service.heartbeatSession(a, T1, r.session_id, {
      session_description: "",
      inbound: "hold",
      model: "sonnet",
      context_used_tokens: 0,
      brigade_version: "0.2.0",
      sync_peer: "a:b",
      lease_seconds: 300,
    });
    s = (await service.listSessions(a, T1)).sessions.find((x) => x.session_id === r.session_id);
    expect(s?.session_description).toBeUndefined();
    expect(s).toMatchObject({
      inbound: "hold",
      model: "sonnet",
      context_used_tokens: 0,
      brigade_version: "0.2.0",
      sync_peer: "a:b",
    });
    expect(s?.lease_until).toBe("2026-10-02T09:05:10.000Z");
    const e = await errorOf(
      service.heartbeatSession(a, T1, r.session_id, { session_description: "é".repeat(257) }),
    );
    expect(e.details).toMatchObject({
      field: "session_description",
      reason: "too_long",
      limit: "256",
      actual: "257",
    });
  });

  test("heartbeat/close/receive/ack of a not-owned, foreign or unknown session is the same not_found", async () => {
    const { service, a, b, c, T1, T2, sa, sc } = await world();
    const cases = [
      [
        service.heartbeatSession(b, T1, sa, {}),
        service.heartbeatSession(b, T1, "s-unknown", {}),
        service.heartbeatSession(c, T2, sa, {}),
      ],
      [service.closeSession(b, T1, sa), service.closeSession(a, T1, sc)],
      [service.receiveMessages(b, T1, sa), service.receiveMessages(a, T1, sc)],
      [service.ackMessages(b, T1, sa, { message_ids: ["m-1"] })],
      [service.subscribe(b, T1, sa, { onMessages: () => {}, onRevoked: () => {} })],
    ];
    for (const group of cases) {
      for (const p of group) expect(await wireError(p)).toBe(NOT_FOUND);
    }
  });

  test("close: offline at once, idempotent; heartbeat after close is conflict session_closed", async () => {
    const { service, a, T1, sa } = await world();
    expect(await service.closeSession(a, T1, sa)).toEqual({ session_id: sa, state: "offline" });
    expect(await service.closeSession(a, T1, sa)).toEqual({ session_id: sa, state: "offline" });
    const listed = (await service.listSessions(a, T1, { include_offline: true })).sessions.find(
      (s) => s.session_id === sa,
    );
    expect(listed?.state).toBe("offline");
    const e = await errorOf(service.heartbeatSession(a, T1, sa, {}));
    expect(e).toEqual({
      code: "conflict",
      message: "the request conflicts with the current state",
      retryable: false,
      details: { reason: "session_closed" },
    });
  });

  test("resume: closed session re-opened in place with pending messages; live → session_live", async () => {
    const { service, a, b, T1, sa, sb } = await world();
    const sent = await service.sendMessage(b, T1, {
      sender_session_id: sb,
      recipient_session_id: sa,
      body: "wait for me",
    });
    const live = await errorOf(
      service.registerSession(a, T1, registration("again", { resume: { session_id: sa } })),
    );
    expect(live.details).toEqual({ reason: "session_live" });
    expect(
      (await service.listSessions(a, T1)).sessions.find((s) => s.session_id === sa)?.session_name,
    ).toBe("fixture-a");
    await service.closeSession(a, T1, sa);
    const r = await service.registerSession(
      a,
      T1,
      registration("again", { resume: { session_id: sa }, activity: "idle" }),
    );
    expect(r).toMatchObject({
      session_id: sa,
      resumed: true,
      state: "idle",
      session_name: "again",
    });
    expect((await service.receiveMessages(a, T1, sa)).messages.map((m) => m.message_id)).toEqual([
      sent.message_id,
    ]);
  });

  test("resume of a lapsed (not closed) session works; foreign or unknown ids are the same not_found", async () => {
    const { service, a, b, c, T1, T2, sa, sc, advance } = await world();
    advance(91_000);
    expect(
      (await service.registerSession(a, T1, registration("x", { resume: { session_id: sa } })))
        .resumed,
    ).toBe(true);
    expect(
      await wireError(
        service.registerSession(b, T1, registration("x", { resume: { session_id: sa } })),
      ),
    ).toBe(NOT_FOUND);
    expect(
      await wireError(
        service.registerSession(a, T1, registration("x", { resume: { session_id: "s-random" } })),
      ),
    ).toBe(NOT_FOUND);
    expect(
      await wireError(
        service.registerSession(c, T2, registration("x", { resume: { session_id: sa } })),
      ),
    ).toBe(NOT_FOUND);
    expect(
      await wireError(
        service.registerSession(a, T1, registration("x", { resume: { session_id: sc } })),
      ),
    ).toBe(NOT_FOUND);
  });

  test("registration human_label fills an empty membership label, never overwrites", async () => {
    const { service, a, b, T1 } = await world();
    await service.registerSession(b, T1, registration("n", { human_label: "lee" }));
    await service.registerSession(b, T1, registration("n", { human_label: "mallory" }));
    await service.registerSession(a, T1, registration("n", { human_label: "eve" }));
    const labels = (await service.listMembers(a, T1)).members.map((m) => [
      m.principal_ref,
      m.human_label,
    ]);
    expect(new Map(labels as [string, string | null][])).toEqual(
      new Map([
        [a, "dana"],
        [b, "lee"],
      ]),
    );
  });

  test("register_session limit: 60 new sessions per minute per principal", async () => {
    const { service, a, T1, advance } = await world();
    advance(MINUTE);
    for (let i = 0; i < 60; i += 1) await service.registerSession(a, T1, registration(`n${i}`));
    const e = await errorOf(service.registerSession(a, T1, registration("one too many")));
    expect(e.details).toEqual({ reason: "register_session" });
    expect(e.retry_after_ms).toBe(MINUTE);
  });
});

describe("messages: send, receive, ack", () => {
  test("send is stamped by the backend and received by the recipient", async () => {
    const { service, a, b, T1, sa, sb } = await world();
    const sent = await service.sendMessage(a, T1, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "Column plan_tier is now NOT NULL.",
      summary: "Schema bumped",
    });
    expect(sent).toEqual({
      status: "accepted",
      message_id: sent.message_id,
      recipient_session_id: sb,
      created_at: "2026-10-02T09:00:00.000Z",
      duplicate: false,
      hop_count: 0,
    });
    const { messages } = await service.receiveMessages(b, T1, sb);
    expect(messages).toEqual([
      {
        protocol_version: "1",
        kind: "text",
        message_id: sent.message_id,
        team_ref: T1,
        sender: {
          principal_ref: a,
          human_label: "dana",
          session_id: sa,
          session_name: "fixture-a",
        },
        recipient_session_id: sb,
        summary: "Schema bumped",
        body: "Column plan_tier is now NOT NULL.",
        reply_to: null,
        hop_count: 0,
        created_at: "2026-10-02T09:00:00.000Z",
        delivery_state: "accepted",
      },
    ]);
    // receive never acks.
    expect((await service.receiveMessages(b, T1, sb)).messages).toHaveLength(1);
  });

  test("forbidden members and over-cap bodies are refused and store nothing", async () => {
    const { service, a, b, T1, sa, sb } = await world();
    const forged = {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "x",
      sender: null,
    } as never;
    expect((await errorOf(service.sendMessage(a, T1, forged))).details).toEqual({
      field: "sender",
      reason: "forbidden_member",
    });
    const big = await errorOf(
      service.sendMessage(a, T1, {
        sender_session_id: sa,
        recipient_session_id: sb,
        body: "é".repeat(8193),
      }),
    );
    expect(big.details).toEqual({
      field: "body",
      reason: "too_long",
      limit: "16384",
      actual: "16386",
      unit: "bytes",
    });
    await service.sendMessage(a, T1, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "x".repeat(16384),
    });
    expect((await service.receiveMessages(b, T1, sb)).messages).toHaveLength(1);
  });

  test("idempotency: same key → same id, duplicate, original created_at/hop, one message", async () => {
    const { service, a, b, T1, sa, sb, advance } = await world();
    const req = {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "once",
      idempotency_key: "k1",
    };
    const first = await service.sendMessage(a, T1, req);
    advance(5000);
    const second = await service.sendMessage(a, T1, req);
    expect(second).toEqual({ ...first, duplicate: true });
    expect((await service.receiveMessages(b, T1, sb)).messages).toHaveLength(1);
    // The same key from another sender session is another message.
    const sa2 = (await service.registerSession(a, T1, registration("a2"))).session_id;
    const other = await service.sendMessage(a, T1, { ...req, sender_session_id: sa2 });
    expect(other.duplicate).toBe(false);
  });

  test("idempotency: another body, recipient, summary or reply_to is conflict idempotency_key_reused", async () => {
    const { service, a, b, T1, sa, sb } = await world();
    const parent = await service.sendMessage(b, T1, {
      sender_session_id: sb,
      recipient_session_id: sa,
      body: "q",
    });
    const sa2 = (await service.registerSession(a, T1, registration("a2"))).session_id;
    const base = {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "once",
      idempotency_key: "k",
    };
    await service.sendMessage(a, T1, base);
    for (const variant of [
      { ...base, body: "twice" },
      { ...base, recipient_session_id: sa2 },
      { ...base, summary: "s" },
      { ...base, reply_to: parent.message_id },
    ]) {
      const e = await errorOf(service.sendMessage(a, T1, variant));
      expect(e).toEqual({
        code: "conflict",
        message: "the request conflicts with the current state",
        retryable: false,
        details: { reason: "idempotency_key_reused" },
      });
    }
  });

  test("a replay is answered before rate limits and caps (it creates nothing)", async () => {
    const { service, a, T1, sa, sb } = await world();
    const req = {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "m0",
      idempotency_key: "k0",
    };
    const first = await service.sendMessage(a, T1, req);
    for (let i = 1; i < 15; i += 1) {
      await service.sendMessage(a, T1, {
        sender_session_id: sa,
        recipient_session_id: sb,
        body: `m${i}`,
      });
    }
    expect(
      (await errorOf(service.sendMessage(a, T1, { ...req, idempotency_key: "new" }))).code,
    ).toBe("rate_limited");
    expect((await service.sendMessage(a, T1, req)).message_id).toBe(first.message_id);
  });

  test("sender not owned / recipient foreign or unknown are the same not_found", async () => {
    const { service, a, b, c, T1, T2, sa, sb, sc } = await world();
    const errors = [
      await wireError(
        service.sendMessage(b, T1, { sender_session_id: sa, recipient_session_id: sb, body: "x" }),
      ),
      await wireError(
        service.sendMessage(a, T1, {
          sender_session_id: "s-random",
          recipient_session_id: sb,
          body: "x",
        }),
      ),
      await wireError(
        service.sendMessage(c, T2, { sender_session_id: sc, recipient_session_id: sb, body: "x" }),
      ),
      await wireError(
        service.sendMessage(c, T2, {
          sender_session_id: sc,
          recipient_session_id: "s-random",
          body: "x",
        }),
      ),
      await wireError(
        service.sendMessage(a, T1, { sender_session_id: sa, recipient_session_id: sc, body: "x" }),
      ),
    ];
    for (const e of errors) expect(e).toBe(NOT_FOUND);
  });

  test("check order: membership before ownership, closed sender before recipient", async () => {
    const { service, a, c, T1, sa } = await world();
    expect(
      await wireError(
        service.sendMessage(c, T1, {
          sender_session_id: sa,
          recipient_session_id: "s-x",
          body: "x",
        }),
      ),
    ).toBe(NOT_MEMBER);
    await service.closeSession(a, T1, sa);
    const e = await errorOf(
      service.sendMessage(a, T1, { sender_session_id: sa, recipient_session_id: "s-x", body: "x" }),
    );
    expect(e.details).toEqual({ reason: "session_closed" });
  });

  test("send from a closed sender is conflict; to a closed recipient is accepted and resumable", async () => {
    const { service, a, b, T1, sa, sb } = await world();
    await service.closeSession(b, T1, sb);
    const sent = await service.sendMessage(a, T1, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "later",
    });
    expect(sent.status).toBe("accepted");
    const e = await errorOf(
      service.sendMessage(b, T1, { sender_session_id: sb, recipient_session_id: sa, body: "x" }),
    );
    expect(e.code).toBe("conflict");
    expect(e.details).toEqual({ reason: "session_closed" });
    await service.registerSession(b, T1, registration("b", { resume: { session_id: sb } }));
    expect((await service.receiveMessages(b, T1, sb)).messages.map((m) => m.message_id)).toEqual([
      sent.message_id,
    ]);
  });

  test("ack: acked, re-ack acked, non-recipient/unknown → unknown, acked never returned again", async () => {
    const { service, a, b, T1, sa, sb } = await world();
    const m1 = await service.sendMessage(a, T1, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "1",
    });
    const m2 = await service.sendMessage(a, T1, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "2",
    });
    expect(await service.ackMessages(a, T1, sa, { message_ids: [m1.message_id] })).toEqual({
      acked: [],
      unknown: [m1.message_id],
    });
    expect(
      await service.ackMessages(b, T1, sb, {
        message_ids: [m1.message_id, "m-0000", m1.message_id],
      }),
    ).toEqual({
      acked: [m1.message_id],
      unknown: ["m-0000"],
    });
    expect(await service.ackMessages(b, T1, sb, { message_ids: [m1.message_id] })).toEqual({
      acked: [m1.message_id],
      unknown: [],
    });
    expect((await service.receiveMessages(b, T1, sb)).messages.map((m) => m.message_id)).toEqual([
      m2.message_id,
    ]);
    expect(await service.fetchMessages(b, T1, sb, [m1.message_id, m2.message_id])).toHaveLength(1);
    expect((await errorOf(service.ackMessages(b, T1, sb, { message_ids: [] }))).code).toBe(
      "invalid_input",
    );
  });

  test("ack: at most 1,000 ids; one more is out_of_range before anything is acknowledged", async () => {
    const { service, a, b, T1, sa, sb } = await world();
    const sent = await service.sendMessage(a, T1, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "1",
    });
    const filler = Array.from({ length: 1_000 }, (_, i) => `m-${i}`);
    const over = await errorOf(
      service.ackMessages(b, T1, sb, { message_ids: [sent.message_id, ...filler] }),
    );
    expect(over).toMatchObject({
      code: "invalid_input",
      details: { field: "message_ids", reason: "out_of_range", min: "1", max: "1000" },
    });
    expect(JSON.stringify(over)).not.toContain("m-999");
    expect((await service.receiveMessages(b, T1, sb)).messages).toHaveLength(1);
    const atCap = [sent.message_id, ...filler.slice(1)];
    expect((await service.ackMessages(b, T1, sb, { message_ids: atCap })).acked).toEqual([
      sent.message_id,
    ]);
  });

  test("receive: oldest first, at most limit, limit range 1..200", async () => {
    const { service, a, b, T1, sa, sb, advance } = await world();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push(
        (
          await service.sendMessage(a, T1, {
            sender_session_id: sa,
            recipient_session_id: sb,
            body: `${i}`,
          })
        ).message_id,
      );
      advance(1);
    }
    expect((await service.receiveMessages(b, T1, sb, 3)).messages.map((m) => m.message_id)).toEqual(
      ids.slice(0, 3),
    );
    expect((await service.receiveMessages(b, T1, sb)).messages.map((m) => m.message_id)).toEqual(
      ids,
    );
    expect((await errorOf(service.receiveMessages(b, T1, sb, 0))).details).toMatchObject({
      field: "limit",
    });
    expect((await errorOf(service.receiveMessages(b, T1, sb, 201))).code).toBe("invalid_input");
  });
});

describe("rate limits and caps (docs/spec/protocol.md §6.12, order of docs/spec/protocol.md §6.16 h–i)", () => {
  test("send_per_minute: the 21st send in a minute; retry_after = until the oldest leaves", async () => {
    const { service, a, T1, sa, advance } = await world();
    const recipients: string[] = [];
    for (let i = 0; i < 2; i += 1)
      recipients.push((await service.registerSession(a, T1, registration(`r${i}`))).session_id);
    for (let i = 0; i < 20; i += 1) {
      await service.sendMessage(a, T1, {
        sender_session_id: sa,
        recipient_session_id: recipients[i % 2] as string,
        body: `${i}`,
      });
      advance(1000);
    }
    const e = await errorOf(
      service.sendMessage(a, T1, {
        sender_session_id: sa,
        recipient_session_id: recipients[0] as string,
        body: "x",
      }),
    );
    expect(e).toEqual({
      code: "rate_limited",
      message: "the send rate limit for this session is exhausted",
      retryable: true,
      retry_after_ms: 40_000,
      details: { reason: "send_per_minute" },
    });
    advance(40_000 - 1);
    expect(
      (
        await errorOf(
          service.sendMessage(a, T1, {
            sender_session_id: sa,
            recipient_session_id: recipients[0] as string,
            body: "x",
          }),
        )
      ).retry_after_ms,
    ).toBe(1);
    advance(1);
    expect(
      (
        await service.sendMessage(a, T1, {
          sender_session_id: sa,
          recipient_session_id: recipients[0] as string,
          body: "x",
        })
      ).status,
    ).toBe("accepted");
  });

  test("send_per_hour: 200 per sender session per hour, acked messages counted", async () => {
    const { service, a, b, T1, sa, sb, advance } = await world();
    for (let i = 0; i < 200; i += 1) {
      const sent = await service.sendMessage(a, T1, {
        sender_session_id: sa,
        recipient_session_id: sb,
        body: `${i}`,
      });
      await service.ackMessages(b, T1, sb, { message_ids: [sent.message_id] });
      advance(15_000);
    }
    const e = await errorOf(
      service.sendMessage(a, T1, { sender_session_id: sa, recipient_session_id: sb, body: "x" }),
    );
    expect(e.details).toEqual({ reason: "send_per_hour" });
    expect(e.retry_after_ms).toBe(HOUR - 200 * 15_000);
  });

  test("principal_per_minute across sessions; principal_per_hour", async () => {
    const { service, a, b, T1, sb, advance } = await world();
    const senders: string[] = [];
    for (let i = 0; i < 4; i += 1)
      senders.push((await service.registerSession(a, T1, registration(`s${i}`))).session_id);
    const send = (sender: string) =>
      service.sendMessage(a, T1, {
        sender_session_id: sender,
        recipient_session_id: sb,
        body: "x",
      });
    const drain = async () => {
      const { messages } = await service.receiveMessages(b, T1, sb, 200);
      if (messages.length > 0)
        await service.ackMessages(b, T1, sb, { message_ids: messages.map((m) => m.message_id) });
    };
    for (let i = 0; i < 60; i += 1) {
      await send(senders[i % 3] as string);
      if (i % 10 === 9) await drain();
    }
    const e = await errorOf(send(senders[3] as string));
    expect(e.details).toEqual({ reason: "principal_per_minute" });
    expect(e.message).toBe("the send rate limit for this principal is exhausted");
    expect(e.retry_after_ms).toBe(MINUTE);
    // Hourly: 600 per principal; spread so no per-minute or per-session budget trips first.
    const many: string[] = [];
    for (let i = 0; i < 4; i += 1)
      many.push((await service.registerSession(a, T1, registration(`h${i}`))).session_id);
    const all = [...senders, ...many];
    let sent = 60;
    advance(MINUTE);
    while (sent < 600) {
      for (let k = 0; k < 50 && sent < 600; k += 1, sent += 1) {
        await send(all[sent % all.length] as string);
        if (sent % 10 === 9) await drain();
      }
      advance(MINUTE);
    }
    await drain();
    expect((await errorOf(send(all[0] as string))).details).toEqual({
      reason: "principal_per_hour",
    });
  });

  test("caps: 16th unacked from one pair refused while a third session still reaches the recipient", async () => {
    const { service, a, b, T1, sa, sb } = await world();
    for (let i = 0; i < 15; i += 1)
      await service.sendMessage(a, T1, {
        sender_session_id: sa,
        recipient_session_id: sb,
        body: `${i}`,
      });
    const e = await errorOf(
      service.sendMessage(a, T1, { sender_session_id: sa, recipient_session_id: sb, body: "x" }),
    );
    expect(e).toEqual({
      code: "rate_limited",
      message: "too many unacknowledged messages from this session to the recipient",
      retryable: true,
      retry_after_ms: 5000,
      details: { reason: "sender_quota_for_recipient" },
    });
    const third = (await service.registerSession(b, T1, registration("third"))).session_id;
    expect(
      (
        await service.sendMessage(b, T1, {
          sender_session_id: third,
          recipient_session_id: sb,
          body: "y",
        })
      ).status,
    ).toBe("accepted");
    // Acking clears the cap.
    const { messages } = await service.receiveMessages(b, T1, sb, 1);
    await service.ackMessages(b, T1, sb, { message_ids: messages.map((m) => m.message_id) });
    expect(
      (
        await service.sendMessage(a, T1, {
          sender_session_id: sa,
          recipient_session_id: sb,
          body: "x",
        })
      ).status,
    ).toBe("accepted");
  });

  test("caps: inbox full at 60 for a fresh sender; pair quota is checked first when both trip", async () => {
    const { service, a, b, T1, sb, advance } = await world();
    const senders: string[] = [];
    for (let i = 0; i < 4; i += 1)
      senders.push((await service.registerSession(a, T1, registration(`s${i}`))).session_id);
    for (let i = 0; i < 60; i += 1) {
      await service.sendMessage(a, T1, {
        sender_session_id: senders[i % 4] as string,
        recipient_session_id: sb,
        body: `${i}`,
      });
      if (i % 20 === 19) advance(MINUTE);
    }
    advance(HOUR);
    const fresh = (await service.registerSession(b, T1, registration("fresh"))).session_id;
    const full = await errorOf(
      service.sendMessage(b, T1, { sender_session_id: fresh, recipient_session_id: sb, body: "x" }),
    );
    expect(full.details).toEqual({ reason: "recipient_inbox_full" });
    expect(full.retry_after_ms).toBe(5000);
    const both = await errorOf(
      service.sendMessage(a, T1, {
        sender_session_id: senders[0] as string,
        recipient_session_id: sb,
        body: "x",
      }),
    );
    expect(both.details).toEqual({ reason: "sender_quota_for_recipient" });
  });

  test("rate limits are checked before caps (h before i)", async () => {
    const { service, a, T1, sa, sb } = await world();
    for (let i = 0; i < 15; i += 1)
      await service.sendMessage(a, T1, {
        sender_session_id: sa,
        recipient_session_id: sb,
        body: `${i}`,
      });
    const other = (await service.registerSession(a, T1, registration("o"))).session_id;
    for (let i = 0; i < 5; i += 1)
      await service.sendMessage(a, T1, {
        sender_session_id: sa,
        recipient_session_id: other,
        body: `${i}`,
      });
    const e = await errorOf(
      service.sendMessage(a, T1, { sender_session_id: sa, recipient_session_id: sb, body: "x" }),
    );
    expect(e.details).toEqual({ reason: "send_per_minute" });
  });
});

describe("hop counts (docs/spec/protocol.md §6.12)", () => {
  test("a reply_to chain increments by one up to 32; the next is loop_detected", async () => {
    const { service, a, b, T1, sa, sb, advance } = await world();
    let parent = await service.sendMessage(a, T1, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "0",
    });
    expect(parent.hop_count).toBe(0);
    const sides = [
      { p: b, from: sb, to: sa },
      { p: a, from: sa, to: sb },
    ];
    for (let hop = 1; hop <= 32; hop += 1) {
      const side = sides[(hop - 1) % 2] as { p: string; from: string; to: string };
      parent = await service.sendMessage(side.p, T1, {
        sender_session_id: side.from,
        recipient_session_id: side.to,
        body: `${hop}`,
        reply_to: parent.message_id,
      });
      expect(parent.hop_count).toBe(hop);
      await service.ackMessages(side.p === a ? b : a, T1, side.to, {
        message_ids: [parent.message_id],
      });
      advance(7000);
    }
    const e = await errorOf(
      service.sendMessage(b, T1, {
        sender_session_id: sb,
        recipient_session_id: sa,
        body: "33",
        reply_to: parent.message_id,
      }),
    );
    expect(e).toEqual({
      code: "loop_detected",
      message: "the reply chain exceeds the hop limit",
      retryable: false,
      details: { reason: "max_hop_count" },
    });
  });

  test("reply_to of a message the sender did not receive is not_found", async () => {
    const { service, a, b, T1, sa, sb } = await world();
    const m = await service.sendMessage(a, T1, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "x",
    });
    expect(
      await wireError(
        service.sendMessage(a, T1, {
          sender_session_id: sa,
          recipient_session_id: sb,
          body: "y",
          reply_to: m.message_id,
        }),
      ),
    ).toBe(NOT_FOUND);
    expect(
      await wireError(
        service.sendMessage(a, T1, {
          sender_session_id: sa,
          recipient_session_id: sb,
          body: "y",
          reply_to: "m-none",
        }),
      ),
    ).toBe(NOT_FOUND);
    // The recipient may reply to it even after acking it.
    await service.ackMessages(b, T1, sb, { message_ids: [m.message_id] });
    expect(
      (
        await service.sendMessage(b, T1, {
          sender_session_id: sb,
          recipient_session_id: sa,
          body: "r",
          reply_to: m.message_id,
        })
      ).hop_count,
    ).toBe(1);
  });

  test("without reply_to: 1 + the latest reverse message inside 600 s, else 0", async () => {
    const { service, a, b, T1, sa, sb, advance } = await world();
    const first = await service.sendMessage(a, T1, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "x",
    });
    expect(first.hop_count).toBe(0);
    advance(600_000 - 1);
    const reply = await service.sendMessage(b, T1, {
      sender_session_id: sb,
      recipient_session_id: sa,
      body: "y",
    });
    expect(reply.hop_count).toBe(1);
    advance(10);
    const back = await service.sendMessage(a, T1, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "z",
    });
    expect(back.hop_count).toBe(2);
    advance(600_000);
    const late = await service.sendMessage(b, T1, {
      sender_session_id: sb,
      recipient_session_id: sa,
      body: "w",
    });
    expect(late.hop_count).toBe(0);
  });
});

describe("watch subscription", () => {
  test("listener fires after the commit with ids only; a replay does not fire", async () => {
    const { service, a, b, T1, sa, sb } = await world();
    const heard: string[][] = [];
    const seen: number[] = [];
    const sub = await service.subscribe(b, T1, sb, {
      onMessages: (ids) => {
        heard.push([...ids]);
        // At notification time the message is committed and visible to a fresh read.
        void service.receiveMessages(b, T1, sb).then((r) => seen.push(r.messages.length));
      },
      onRevoked: () => {},
    });
    const req = {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "ping",
      idempotency_key: "k",
    };
    const sent = await service.sendMessage(a, T1, req);
    await service.sendMessage(a, T1, req);
    await new Promise((r) => setTimeout(r, 20));
    expect(heard).toEqual([[sent.message_id]]);
    expect(seen).toEqual([1]);
    sub.unsubscribe();
    await service.sendMessage(a, T1, { ...req, idempotency_key: "k2" });
    expect(heard).toHaveLength(1);
  });
});

describe("retention (docs/spec/protocol.md §6.9)", () => {
  test("unacked kept 7 d, acked kept 1 d after ack, dead sessions only after their messages", async () => {
    const { service, store, a, b, T1, sa, sb, advance } = await world();
    const keep = await service.sendMessage(a, T1, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "unacked",
    });
    const acked = await service.sendMessage(a, T1, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "acked",
    });
    advance(DAY);
    await service.ackMessages(b, T1, sb, { message_ids: [acked.message_id] });
    advance(DAY - 1);
    await service.collectGarbage();
    expect(await store.transact((tx) => tx.getMessage(acked.message_id))).not.toBeNull();
    advance(1);
    expect((await service.collectGarbage()).messages).toBe(1);
    expect(await store.transact((tx) => tx.getMessage(acked.message_id))).toBeNull();
    advance(5 * DAY - 1);
    await service.collectGarbage();
    expect(await store.transact((tx) => tx.getMessage(keep.message_id))).not.toBeNull();
    advance(1);
    const swept = await service.collectGarbage();
    expect(swept.messages).toBe(1);
    // The fixture sessions lapsed at START + 90 s: not yet 7 days offline.
    expect(swept.sessions).toBe(0);
    advance(90_000);
    const later = await service.collectGarbage();
    expect(later.sessions).toBe(3);
    expect(await store.transact((tx) => tx.getSession(sb))).toBeNull();
  });

  test("a session offline for less than 7 days is kept", async () => {
    const { service, store, a, T1, sa, advance } = await world();
    await service.heartbeatSession(a, T1, sa, {});
    advance(7 * DAY);
    await service.collectGarbage();
    expect(await store.transact((tx) => tx.getSession(sa))).not.toBeNull();
    advance(90_000);
    await service.collectGarbage();
    expect(await store.transact((tx) => tx.getSession(sa))).toBeNull();
  });

  test("GC works in bounded batches until done", async () => {
    const { service, a, b, T1, sa, sb, advance } = await world();
    for (let i = 0; i < 12; i += 1)
      await service.sendMessage(a, T1, {
        sender_session_id: sa,
        recipient_session_id: sb,
        body: `${i}`,
      });
    const { messages } = await service.receiveMessages(b, T1, sb, 200);
    await service.ackMessages(b, T1, sb, { message_ids: messages.map((m) => m.message_id) });
    advance(DAY);
    expect((await service.collectGarbage(undefined, 5)).messages).toBe(12);
  });
});
