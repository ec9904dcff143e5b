import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { sessionRegistration } from "../../test/support/session-registration.ts";
import { BrigadeService, systemDeps } from "../service/index.ts";
import { openSqliteStore, type SqliteStore } from "../store/sqlite/index.ts";
import { type BrigadeApp, createApp } from "./app.ts";
import { silentLogger } from "./logger.ts";
import { PRINCIPALS_PER_ADDRESS_PER_MINUTE } from "./principal-minting-budget.ts";

type Json = Record<string, unknown>;

let dir: string;
let store: SqliteStore;
let app: BrigadeApp;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "brigade-app-"));
  store = openSqliteStore(join(dir, "db.sqlite"));
  app = createApp(new BrigadeService(store));
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(
  method: string,
  path: string,
  options: { token?: string; body?: string | Json } = {},
): Promise<{ status: number; text: string; json: Json }> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === "string"
        ? options.body
        : JSON.stringify(options.body);
  if (body !== undefined || method === "POST") headers["content-type"] = "application/json";
  const response = await app.fetch(
    new Request(`http://brigade.test${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    }),
  );
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) as Json };
}

async function principal(): Promise<string> {
  const minted = await call("POST", "/v1/principals");
  expect(minted.status).toBe(200);
  return (minted.json.result as Json).token as string;
}

async function teamWithTwoMembers() {
  const a = await principal();
  const b = await principal();
  const created = await call("POST", "/v1/teams", { token: a, body: { team_name: "core" } });
  const team = created.json.result as Json;
  const joined = await call("POST", "/v1/teams/join", {
    token: b,
    body: { join_secret: team.join_secret as string },
  });
  expect(joined.json.ok).toBe(true);
  const register = async (token: string, name: string): Promise<string> => {
    const r = await call("POST", `/v1/teams/${team.team_ref}/sessions`, {
      token,
      body: { ...sessionRegistration(name) },
    });
    expect(r.status).toBe(200);
    return (r.json.result as Json).session_id as string;
  };
  return {
    a,
    b,
    teamRef: team.team_ref as string,
    sa: await register(a, "alpha"),
    sb: await register(b, "beta"),
  };
}

describe("brigade serve HTTP API", () => {
  test("health answers without a token", async () => {
    const r = await call("GET", "/v1/health");
    expect(r.json).toEqual({ status: "ok", protocol_version: "1" });
  });

  test("every authenticated route refuses a missing or unknown token the same way", async () => {
    const none = await call("GET", "/v1/teams/t-x/members");
    const wrong = await call("GET", "/v1/teams/t-x/members", { token: "abc" });
    expect(none.status).toBe(401);
    expect(none.text).toBe(wrong.text);
    expect((none.json.error as Json).code).toBe("unauthenticated");
  });

  test("the Bearer scheme is read in any letter case, and a 401 names it", async () => {
    const token = await principal();
    const members = (authorization: string) =>
      app.fetch(
        new Request("http://brigade.test/v1/teams/t-x/members", { headers: { authorization } }),
      );
    for (const scheme of ["bearer", "BEARER", "Bearer "]) {
      const known = await members(`${scheme} ${token}`);
      expect(known.status).toBe(403);
    }
    const refused = await members("Basic abc");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe("Bearer");
  });

  test("send, receive, ack round trip with server-stamped identity", async () => {
    const { a, b, teamRef, sa, sb } = await teamWithTwoMembers();
    const sent = await call("POST", `/v1/teams/${teamRef}/messages`, {
      token: a,
      body: { sender_session_id: sa, recipient_session_id: sb, body: "hello", summary: "hi" },
    });
    expect(sent.status).toBe(200);
    const messageId = (sent.json.result as Json).message_id as string;
    const received = await call("GET", `/v1/teams/${teamRef}/sessions/${sb}/messages`, {
      token: b,
    });
    const [message] = (received.json.result as Json).messages as Json[];
    expect(message?.message_id).toBe(messageId);
    expect(message?.sender).toMatchObject({ session_id: sa });
    const acked = await call("POST", `/v1/teams/${teamRef}/sessions/${sb}/ack`, {
      token: b,
      body: { message_ids: [messageId, "m-nope"] },
    });
    expect(acked.json.result).toEqual({ acked: [messageId], unknown: ["m-nope"] });
    const again = await call("GET", `/v1/teams/${teamRef}/sessions/${sb}/messages`, { token: b });
    expect((again.json.result as Json).messages).toEqual([]);
  });

  test("a forged sender is refused before anything is stored", async () => {
    const { a, b, teamRef, sa, sb } = await teamWithTwoMembers();
    const r = await call("POST", `/v1/teams/${teamRef}/messages`, {
      token: a,
      body: {
        sender_session_id: sa,
        recipient_session_id: sb,
        body: "x",
        sender: { principal_ref: "p-boss" },
      },
    });
    expect(r.status).toBe(400);
    expect((r.json.error as Json).details).toMatchObject({
      field: "sender",
      reason: "forbidden_member",
    });
    const inbox = await call("GET", `/v1/teams/${teamRef}/sessions/${sb}/messages`, { token: b });
    expect((inbox.json.result as Json).messages).toEqual([]);
  });

  test("foreign and unknown ids give byte-identical not_found; foreign and unknown teams byte-identical unauthorized", async () => {
    const { a, b, teamRef, sb } = await teamWithTwoMembers();
    const foreign = await call("GET", `/v1/teams/${teamRef}/sessions/${sb}/messages`, { token: a });
    const unknown = await call("GET", `/v1/teams/${teamRef}/sessions/s-unknown/messages`, {
      token: a,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe(unknown.text);
    const outsider = await principal();
    const notMember = await call("GET", `/v1/teams/${teamRef}/members`, { token: outsider });
    const noTeam = await call("GET", "/v1/teams/t-nothing/members", { token: b });
    expect(notMember.status).toBe(403);
    expect(notMember.text).toBe(noTeam.text);
  });

  test("team.admin routes: creator only, rotate refuses the old secret, revoke bars the member, transfer offers and the member accepts", async () => {
    const a = await principal();
    const b = await principal();
    const x = await principal();
    const team = (await call("POST", "/v1/teams", { token: a, body: { team_name: "core" } })).json
      .result as Json;
    const base = `/v1/teams/${team.team_ref}`;
    const join = (token: string, secret: unknown) =>
      call("POST", "/v1/teams/join", { token, body: { join_secret: secret as string } });
    const bRef = ((await join(b, team.join_secret)).json.result as Json).principal_ref as string;
    const aRef = team.principal_ref as string;

    const notCreator = await call("POST", `${base}/rotate-secret`, { token: b });
    expect(notCreator.status).toBe(403);
    expect(notCreator.json.error).toMatchObject({ details: { reason: "not_creator" } });
    const outsider = await call("POST", `${base}/rotate-secret`, { token: x });
    const noTeam = await call("POST", "/v1/teams/t-nothing/rotate-secret", { token: x });
    expect(outsider.status).toBe(403);
    expect(outsider.text).toBe(noTeam.text);
    expect(outsider.text).not.toContain("not_creator");

    const rotated = await call("POST", `${base}/rotate-secret`, { token: a });
    expect(rotated.status).toBe(200);
    const secret = (rotated.json.result as Json).join_secret as string;
    expect(secret).not.toBe(team.join_secret);
    expect((await join(x, team.join_secret)).status).toBe(403);

    const badBody = await call("POST", `${base}/revoke-member`, { token: a, body: {} });
    expect(badBody.json.error).toMatchObject({ details: { field: "principal_ref" } });
    const revoked = await call("POST", `${base}/revoke-member`, {
      token: a,
      body: { principal_ref: bRef },
    });
    expect(revoked.json.result).toEqual({
      team_ref: team.team_ref,
      principal_ref: bRef,
      revoked: true,
    });
    expect((await call("GET", `${base}/members`, { token: b })).status).toBe(403);
    expect((await join(b, secret)).status).toBe(403);

    expect(((await join(x, secret)).json.result as Json).team_ref).toBe(team.team_ref);
    const xRef = ((await join(x, secret)).json.result as Json).principal_ref as string;
    const transferred = await call("POST", `${base}/transfer`, {
      token: a,
      body: { principal_ref: xRef },
    });
    expect(transferred.json.result).toEqual({
      team_ref: team.team_ref,
      creator_principal_ref: aRef,
      offered_to_principal_ref: xRef,
      expires_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    const lapses = Date.parse(String((transferred.json.result as Json).expires_at));
    expect(Math.abs(lapses - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);
    // expires_in_seconds travels in the body and is range-checked.
    const tooLong = await call("POST", `${base}/transfer`, {
      token: a,
      body: { principal_ref: xRef, expires_in_seconds: 604_801 },
    });
    expect([tooLong.status, (tooLong.json.error as Json).details]).toEqual([
      400,
      expect.objectContaining({ field: "expires_in_seconds" }),
    ]);
    // An offer: the creator still administers until x accepts it.
    expect((await call("POST", `${base}/rotate-secret`, { token: x })).status).toBe(403);
    expect((await call("POST", `${base}/accept-transfer`, { token: a })).status).toBe(404);
    const accepted = await call("POST", `${base}/accept-transfer`, { token: x });
    expect(accepted.json.result).toEqual({
      team_ref: team.team_ref,
      creator_principal_ref: xRef,
      previous_creator_principal_ref: aRef,
    });
    expect((await call("POST", `${base}/rotate-secret`, { token: a })).status).toBe(403);
    expect((await call("POST", `${base}/rotate-secret`, { token: x })).status).toBe(200);
    expect((await call("GET", `${base}/accept-transfer`, { token: x })).status).toBe(405);
  });

  test("invitations and labels: the routes, their statuses and methods; a spent invitation is 403 with its reason", async () => {
    const { a, b, teamRef } = await teamWithTwoMembers();
    const team = { team_ref: teamRef };
    const base = `/v1/teams/${teamRef}`;
    const x = await principal();
    const y = await principal();
    const invited = await call("POST", `${base}/invitations`, {
      token: a,
      body: { max_uses: 1, expires_in_seconds: 3600 },
    });
    expect(invited.status).toBe(200);
    const invitation = invited.json.result as Json;
    expect(invitation).toMatchObject({ team_ref: team.team_ref, max_uses: 1 });
    expect((await call("POST", `${base}/invitations`, { token: b, body: {} })).status).toBe(403);
    const badUses = await call("POST", `${base}/invitations`, { token: a, body: { max_uses: 0 } });
    expect(badUses.status).toBe(400);
    const joined = await call("POST", "/v1/teams/join", {
      token: x,
      body: { join_secret: invitation.invitation as string },
    });
    expect(joined.status).toBe(200);
    const again = await call("POST", "/v1/teams/join", {
      token: y,
      body: { join_secret: invitation.invitation as string },
    });
    expect(again.status).toBe(403);
    expect(again.json.error).toEqual({
      code: "unauthorized",
      message: "the invitation was already used",
      retryable: false,
      details: { reason: "invitation_used" },
    });
    const listed = await call("GET", `${base}/invitations`, { token: a });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(String(invitation.invitation).split(".").at(-1));
    expect((listed.json.result as Json).invitations).toEqual([
      expect.objectContaining({ invitation_id: invitation.invitation_id, state: "used", uses: 1 }),
    ]);
    const revoked = await call("POST", `${base}/invitations/revoke`, {
      token: a,
      body: { invitation_id: invitation.invitation_id as string },
    });
    expect(revoked.json.result).toEqual({
      team_ref: team.team_ref,
      invitation_id: invitation.invitation_id,
      state: "used",
    });
    const unknown = await call("POST", `${base}/invitations/revoke`, {
      token: a,
      body: { invitation_id: "i-nope" },
    });
    expect(unknown.status).toBe(404);
    expect((await call("GET", `${base}/invitations/revoke`, { token: a })).status).toBe(405);
    expect((await call("DELETE", `${base}/invitations`, { token: a })).status).toBe(405);

    const labelled = await call("POST", `${base}/label`, {
      token: b,
      body: { human_label: "Bo" },
    });
    expect(labelled.status).toBe(200);
    expect((labelled.json.result as Json).human_label).toBe("Bo");
    const roster = (await call("GET", `${base}/members`, { token: b })).json.result as Json;
    expect(roster.creator_principal_ref).toBe(
      ((await call("GET", `${base}/members`, { token: a })).json.result as Json)
        .creator_principal_ref,
    );
    expect(
      (await call("POST", `${base}/label`, { token: y, body: { human_label: "Y" } })).status,
    ).toBe(403);
    expect((await call("GET", `${base}/label`, { token: b })).status).toBe(405);
  });

  test("rotate-token: the caller's token is replaced; the old one is refused at once, the new one is the same member", async () => {
    const a = await principal();
    const team = (await call("POST", "/v1/teams", { token: a, body: { team_name: "core" } })).json
      .result as Json;
    const members = `/v1/teams/${team.team_ref}/members`;
    expect((await call("GET", members, { token: a })).status).toBe(200);
    const rotated = await call("POST", "/v1/principals/rotate-token", { token: a });
    expect(rotated.status).toBe(200);
    const result = rotated.json.result as Json;
    expect(result.principal_ref).toBe(team.principal_ref);
    const b = result.token as string;
    expect(b).not.toBe(a);
    expect((await call("GET", members, { token: a })).status).toBe(401);
    expect((await call("GET", members, { token: b })).status).toBe(200);
    for (const token of [a, undefined]) {
      const refused = await call(
        "POST",
        "/v1/principals/rotate-token",
        token === undefined ? {} : { token },
      );
      expect(refused.status).toBe(401);
      expect((refused.json.error as Json).code).toBe("unauthenticated");
    }
    expect((await call("GET", "/v1/principals/rotate-token", { token: b })).status).toBe(405);
    expect((await call("GET", members, { token: b })).status).toBe(200);
  });

  test.each([
    ["not JSON", "{", "malformed_json"],
    ["a duplicate member", '{"team_name":"a","team_name":"b"}', "duplicate_member"],
    ["an empty body", "", "required"],
  ])("a body that is %s is invalid_input and echoes nothing", async (_name, body, reason) => {
    const token = await principal();
    const r = await call("POST", "/v1/teams", { token, body });
    expect(r.status).toBe(400);
    expect((r.json.error as Json).code).toBe("invalid_input");
    expect(JSON.stringify(r.json)).toContain(reason);
    expect(r.text).not.toContain("team_name");
  });

  test("a bad team name is answered with the rule, never the name, and creates nothing", async () => {
    const token = await principal();
    for (const team_name of ["", "x".repeat(65)]) {
      const r = await call("POST", "/v1/teams", { token, body: { team_name } });
      expect(r.status).toBe(400);
      expect(r.json.error).toMatchObject({
        code: "invalid_input",
        message: "team_name must be 1 to 64 characters (Unicode code points)",
        details: { field: "team_name" },
      });
      expect(r.text).not.toContain("xxxx");
    }
    // A stored name with control characters (the wire allows them) still lists and is usable.
    const odd = await call("POST", "/v1/teams", { token, body: { team_name: "ops\n\u001b[2J" } });
    const ref = (odd.json.result as Json).team_ref as string;
    const members = await call("GET", `/v1/teams/${ref}/members`, { token });
    expect((members.json.result as Json).team_name).toBe("ops\n\u001b[2J");
  });

  test("a body over 1 MiB is refused without being read whole", async () => {
    const token = await principal();
    const r = await call("POST", "/v1/teams", { token, body: `"${"x".repeat(1024 * 1024)}"` });
    expect(r.status).toBe(400);
    expect((r.json.error as Json).details).toMatchObject({
      field: "stdin",
      reason: "too_long",
      unit: "bytes",
    });
  });

  test("a body the connection fails to deliver is invalid_input read_error, not internal", async () => {
    const token = await principal();
    const broken = (length?: string) =>
      app.fetch(
        new Request("http://brigade.test/v1/teams", {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            ...(length === undefined ? {} : { "content-length": length }),
          },
          body: new ReadableStream({ pull: (c) => c.error(new Error("connection reset")) }),
          duplex: "half",
        }),
      );
    for (const length of [undefined, "40"]) {
      const r = await broken(length);
      expect(r.status).toBe(400);
      expect(((await r.json()) as Json).error).toMatchObject({
        code: "invalid_input",
        details: { field: "stdin", reason: "read_error" },
      });
    }
  });

  test("minting principals is rate-limited per client address with Retry-After", async () => {
    for (let i = 0; i < PRINCIPALS_PER_ADDRESS_PER_MINUTE; i++) await principal();
    const r = await call("POST", "/v1/principals");
    expect(r.status).toBe(429);
    const error = r.json.error as Json;
    expect(error.code).toBe("rate_limited");
    expect(error.retry_after_ms as number).toBeGreaterThan(0);
  });

  test("a mint refused for its body spends none of the address's budget", async () => {
    for (let i = 0; i < PRINCIPALS_PER_ADDRESS_PER_MINUTE; i++) {
      const bad = await call("POST", "/v1/principals", { body: "not json" });
      expect((bad.json.error as Json).details).toEqual({ reason: "malformed_json" });
    }
    await principal();
  });

  test("a spent minting budget refuses before the body is read", async () => {
    for (let i = 0; i < PRINCIPALS_PER_ADDRESS_PER_MINUTE; i++) await principal();
    const r = await call("POST", "/v1/principals", { body: "not json" });
    expect(r.status).toBe(429);
    expect((r.json.error as Json).details).toEqual({ reason: "register_principal" });
  });

  test("an unknown route is a usage envelope", async () => {
    const r = await call("GET", "/v2/nothing");
    expect(r.status).toBe(400);
    expect((r.json.error as Json).code).toBe("usage");
  });

  test("watch streams ready, the catch-up, then new messages after commit, each once", async () => {
    const { a, b, teamRef, sa, sb } = await teamWithTwoMembers();
    const send = (body: string) =>
      call("POST", `/v1/teams/${teamRef}/messages`, {
        token: a,
        body: { sender_session_id: sa, recipient_session_id: sb, body },
      });
    await send("before");
    const response = await app.fetch(
      new Request(`http://brigade.test/v1/teams/${teamRef}/sessions/${sb}/watch`, {
        headers: { authorization: `Bearer ${b}` },
      }),
    );
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    const events: { event: string; data: Json }[] = [];
    let buffer = "";
    const next = async (): Promise<void> => {
      while (!buffer.includes("\n\n")) {
        const { value } = await reader.read();
        buffer += new TextDecoder().decode(value);
      }
      const cut = buffer.indexOf("\n\n");
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] as string;
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] as string) as Json;
      events.push({ event, data });
    };
    await next();
    await next();
    await send("during");
    await next();
    expect(events.map((e) => e.event)).toEqual(["ready", "message", "message"]);
    expect(events[0]?.data).toEqual({ session_id: sb, mode: "push" });
    expect(events.slice(1).map((e) => e.data.body)).toEqual(["before", "during"]);
    app.watches.shutdownAll();
    await next();
    expect(events.at(-1)?.event).toBe("shutdown");
    expect(app.watches.size).toBe(0);
  });

  test("watch of a foreign session is an ordinary not_found reply, not a stream", async () => {
    const { a, teamRef, sb } = await teamWithTwoMembers();
    const r = await call("GET", `/v1/teams/${teamRef}/sessions/${sb}/watch`, { token: a });
    expect(r.status).toBe(404);
    expect((r.json.error as Json).code).toBe("not_found");
  });
});

describe("a principal another process collected", () => {
  test("team create and join ask the store, not the cache: a collected token is unauthenticated", async () => {
    const clock = { t: Date.parse("2026-10-02T09:00:00.000Z") };
    const deps = { ...systemDeps(), now: () => clock.t };
    // Two processes on one database: each has its own service and so its own principal cache.
    const here = createApp(new BrigadeService(store, deps));
    const elsewhere = new BrigadeService(store, deps);
    const post = async (path: string, token: string, body: Json) =>
      here.fetch(
        new Request(`http://brigade.test${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    const minted = await here.fetch(
      new Request("http://brigade.test/v1/principals", {
        method: "POST",
        headers: { "content-type": "application/json" },
      }),
    );
    const { token } = ((await minted.json()) as { result: { token: string } }).result;
    clock.t += 8 * 86_400_000;
    expect(await elsewhere.collectGarbage()).toMatchObject({ principals: 1 });
    const created = await post("/v1/teams", token, { team_name: "late" });
    expect(created.status).toBe(401);
    expect(((await created.json()) as Json).error).toMatchObject({ code: "unauthenticated" });
    const joined = await post("/v1/teams/join", token, { join_secret: "brg1.t-x.abc" });
    expect(joined.status).toBe(401);
  });
});

describe("startServer", () => {
  test("creates a new data file and its WAL private to the owner (0600)", async () => {
    const { startServer } = await import("./serve.ts");
    const { statSync } = await import("node:fs");
    const dataFile = join(dir, "fresh", "brigade.sqlite");
    const server = await startServer({
      host: "127.0.0.1",
      port: 0,
      dataFile,
      logger: silentLogger,
    });
    try {
      const minted = await fetch(`${server.url}/v1/principals`, {
        method: "POST",
        headers: { "content-type": "application/json" },
      });
      expect(minted.status).toBe(200);
      for (const file of [dataFile, `${dataFile}-wal`]) {
        expect(statSync(file).mode & 0o777).toBe(0o600);
      }
      expect(statSync(join(dir, "fresh")).mode & 0o777).toBe(0o700);
    } finally {
      await server.stop();
    }
  });
});

describe("startServer: a request no URL can be made of", () => {
  test("a bad Host or a backslash in the path is a usage envelope, not an empty 400", async () => {
    const { startServer } = await import("./serve.ts");
    const { connect } = await import("node:net");
    const server = await startServer({
      host: "127.0.0.1",
      port: 0,
      dataFile: join(dir, "malformed", "brigade.sqlite"),
      logger: silentLogger,
    });
    const exchange = (head: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(server.port, "127.0.0.1", () => socket.end(head));
        let answer = "";
        socket.on("data", (chunk: Buffer) => {
          answer += chunk.toString("latin1");
        });
        socket.on("close", () => resolve(answer));
        socket.on("error", reject);
      });
    try {
      for (const head of [
        "GET /v1/health HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n",
        "GET /v1/health HTTP/1.1\r\nHost: <evil>:99999\r\nConnection: close\r\n\r\n",
        "GET /v1\\health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      ]) {
        const answer = await exchange(head);
        expect(answer.startsWith("HTTP/1.1 400 ")).toBe(true);
        const body = answer.slice(answer.indexOf("\r\n\r\n") + 4);
        expect(JSON.parse(body)).toEqual({
          ok: false,
          protocol_version: "1",
          error: {
            code: "usage",
            message: "the request line or its Host header is malformed",
            retryable: false,
            details: { reason: "malformed_request" },
          },
        });
        expect(body).not.toContain("evil");
      }
      expect((await fetch(`${server.url}/v1/health`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe("live delivery over HTTP (capability session.live_delivery)", () => {
  test("heartbeat sets it, session list reports it, a hostile value is a value-free 400", async () => {
    const { a, teamRef, sa } = await teamWithTwoMembers();
    const beat = (body: Json) =>
      call("POST", `/v1/teams/${teamRef}/sessions/${sa}/heartbeat`, { token: a, body });
    expect((await beat({ live_delivery: "no", live_delivery_reason: "inbound_gate" })).status).toBe(
      200,
    );
    const hostile = await beat({ live_delivery: "no", live_delivery_reason: "<script>".repeat(9) });
    expect(hostile.status).toBe(400);
    expect(hostile.json.error).toMatchObject({
      code: "invalid_input",
      details: { field: "live_delivery_reason", reason: "invalid_value" },
    });
    expect(JSON.stringify(hostile.json)).not.toContain("<script>");
    const wrongType = await beat({ live_delivery: { yes: 1 } });
    expect(wrongType.status).toBe(400);
    const list = await call("GET", `/v1/teams/${teamRef}/sessions`, { token: a });
    const mine = ((list.json.result as Json).sessions as Json[]).find((s) => s.session_id === sa);
    expect([mine?.live_delivery, mine?.live_delivery_reason]).toEqual(["no", "inbound_gate"]);
  });
});

describe("session list query parameters", () => {
  test("an empty ?session= is invalid_input naming the parameter, not an unknown session", async () => {
    const { a, teamRef, sa } = await teamWithTwoMembers();
    const base = `/v1/teams/${teamRef}/sessions`;
    for (const query of ["?session=", "?session", `?session=&session=${sa}`]) {
      const r = await call("GET", `${base}${query}`, { token: a });
      expect(r.status, query).toBe(400);
      expect(r.json.error, query).toMatchObject({
        code: "invalid_input",
        details: { field: "session", reason: "invalid_value" },
      });
    }
    // a session that is not the caller's is still the uniform not_found
    expect((await call("GET", `${base}?session=s-unknown`, { token: a })).status).toBe(404);
    const own = await call("GET", `${base}?session=${sa}`, { token: a });
    const self = ((own.json.result as Json).sessions as Json[]).find((s) => s.is_self === true);
    expect(self?.session_id).toBe(sa);
  });
});

describe("message states over HTTP (capabilities message.state, message.adopt)", () => {
  test("send → state, sent, report, adopt; other principals get the uniform not_found", async () => {
    const { a, b, teamRef, sa, sb } = await teamWithTwoMembers();
    const base = `/v1/teams/${teamRef}/sessions`;
    const sent = await call("POST", `/v1/teams/${teamRef}/messages`, {
      token: a,
      body: { sender_session_id: sa, recipient_session_id: sb, body: "hi" },
    });
    const id = (sent.json.result as Json).message_id as string;
    const report = await call("POST", `${base}/${sb}/report`, {
      token: b,
      body: { message_ids: [id], state: "held" },
    });
    expect(report.json.result).toEqual({ reported: [id], unknown: [] });
    const state = await call("POST", `${base}/${sa}/message-states`, {
      token: a,
      body: { message_ids: [id] },
    });
    expect(((state.json.result as Json).messages as Json[])[0]?.state).toBe("held");
    const list = await call("GET", `${base}/${sa}/sent?limit=1`, { token: a });
    expect(((list.json.result as Json).messages as Json[]).map((m) => m.message_id)).toEqual([id]);
    const notFound = await call("GET", `${base}/${sa}/messages`, { token: b });
    for (const r of [
      await call("POST", `${base}/${sa}/message-states`, { token: b, body: { message_ids: [id] } }),
      await call("GET", `${base}/${sa}/sent`, { token: b }),
      await call("POST", `${base}/${sa}/report`, {
        token: b,
        body: { message_ids: [id], state: "refused" },
      }),
      await call("POST", `${base}/${sa}/adopt`, { token: b, body: { from_session_ids: [sb] } }),
    ]) {
      expect(r.status).toBe(404);
      expect(r.text).toBe(notFound.text);
    }
    for (const limit of ["0", "201", "abc", "1e2", ""]) {
      const r = await call("GET", `${base}/${sa}/sent?limit=${limit}`, { token: a });
      expect(r.status).toBe(400);
    }
    const hostile = await call("POST", `${base}/${sb}/report`, {
      token: b,
      body: { message_ids: [id], state: "<img src=x onerror=alert(1)>" },
    });
    expect(hostile.status).toBe(400);
    expect(hostile.text).not.toContain("onerror");
    const wrongMethod = await call("GET", `${base}/${sa}/message-states`, { token: a });
    expect(wrongMethod.status).toBe(405);
    await call("POST", `${base}/${sb}/close`, { token: b });
    const sb2 = await call("POST", `/v1/teams/${teamRef}/sessions`, {
      token: b,
      body: {
        harness: "test",
        harness_version: "1",
        session_name: "beta-2",
        activity: "idle",
        inbound: "hold",
      },
    });
    const next = (sb2.json.result as Json).session_id as string;
    const adopted = await call("POST", `${base}/${next}/adopt`, {
      token: b,
      body: { from_session_ids: [sb] },
    });
    expect(((adopted.json.result as Json).messages as Json[]).map((m) => m.message_id)).toEqual([
      id,
    ]);
    const after = await call("POST", `${base}/${sa}/message-states`, {
      token: a,
      body: { message_ids: [id] },
    });
    expect(((after.json.result as Json).messages as Json[])[0]).toMatchObject({
      state: "held",
      recipient_session_id: sb,
      offered_to_session_id: next,
    });
  });
});
