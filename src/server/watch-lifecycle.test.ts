import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sessionRegistration } from "../../test/support/session-registration.ts";
import { until } from "../../test/support/until.ts";
import { silentLogger } from "./logger.ts";
import { type RunningServer, startServer } from "./serve.ts";
import { DEFAULT_SERVER_LIMITS } from "./server-limits.ts";

// A real `brigade serve` on loopback, attacked through raw sockets: however a client opens and
// ends a watch, the server's watch count and the fan-out's subscription count return to zero.

type Json = Record<string, unknown>;

let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "brigade-watch-life-"));
  server = await startServer({
    host: "127.0.0.1",
    port: 0,
    dataFile: join(dir, "brigade.sqlite"),
    logger: silentLogger,
    // A tiny backlog, so the never-reading client is found behind after a few messages.
    limits: { ...DEFAULT_SERVER_LIMITS, watch_backlog_messages: 2 },
  });
});

afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, path: string, token?: string, body?: Json): Promise<Json> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(method === "POST" ? { "content-type": "application/json" } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as Json;
  if (json.ok !== true) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json.result as Json;
}

/** A team of a sender (four sessions) and a recipient (one session); fresh principals each time. */
async function world() {
  const a = (await call("POST", "/v1/principals")).token as string;
  const b = (await call("POST", "/v1/principals")).token as string;
  const team = await call("POST", "/v1/teams", a, { team_name: "core" });
  const teamRef = team.team_ref as string;
  await call("POST", "/v1/teams/join", b, { join_secret: team.join_secret as Json });
  const register = async (token: string, name: string) =>
    (await call("POST", `/v1/teams/${teamRef}/sessions`, token, { ...sessionRegistration(name) }))
      .session_id as string;
  const senders = [];
  for (let i = 0; i < 4; i++) senders.push(await register(a, `sender-${i}`));
  const recipient = await register(b, "recipient");
  const send = (from: string, body: string) =>
    call("POST", `/v1/teams/${teamRef}/messages`, a, {
      sender_session_id: from,
      recipient_session_id: recipient,
      body,
    });
  const watchPath = `/v1/teams/${teamRef}/sessions/${recipient}/watch`;
  return { a, b, teamRef, senders, recipient, send, watchPath };
}

/** Opens a raw connection and writes one request head; `received` accumulates what comes back. */
function rawRequest(method: string, path: string, token: string) {
  const socket: Socket = connect(server.port, "127.0.0.1");
  let received = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    received += chunk;
  });
  socket.on("error", () => {});
  socket.write(
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      "Accept: text/event-stream\r\n\r\n",
  );
  return { socket, received: () => received };
}

const idle = () => {
  const { streams, subscriptions } = server.watchCounts();
  return streams === 0 && subscriptions === 0;
};
const open = (n: number) => () => {
  const { streams, subscriptions } = server.watchCounts();
  return streams === n && subscriptions === n;
};

describe("a watch ends with its connection, however the client ends it", () => {
  test("HEAD is refused and opens nothing", async () => {
    const { b, watchPath } = await world();
    const head = rawRequest("HEAD", watchPath, b);
    await until("the HEAD answer", () => head.received().includes("\r\n\r\n"), 10_000);
    expect(head.received()).toMatch(/^HTTP\/1\.1 405 /);
    expect(head.received().toLowerCase()).toContain("allow: get\r\n");
    expect(server.watchCounts()).toEqual({ streams: 0, subscriptions: 0 });
    head.socket.destroy();
  });

  test("a GET closed at once", async () => {
    const { b, watchPath } = await world();
    for (let i = 0; i < 10; i++) rawRequest("GET", watchPath, b).socket.destroy();
    const late = rawRequest("GET", watchPath, b);
    setImmediate(() => late.socket.destroy());
    await until("every watch to end", idle, 10_000);
  });

  test("a GET closed in the middle of an event", async () => {
    const { b, senders, send, watchPath } = await world();
    const watch = rawRequest("GET", watchPath, b);
    await until("ready", () => watch.received().includes("event: ready"), 10_000);
    expect(server.watchCounts()).toEqual({ streams: 1, subscriptions: 1 });
    const cut = new Promise<void>((resolve) => {
      watch.socket.on("data", () => {
        if (!watch.received().includes("event: message")) return;
        watch.socket.destroy();
        resolve();
      });
    });
    await send(senders[0] as string, "x".repeat(16_384));
    await cut;
    await until("the watch to end", idle, 10_000);
  });

  test("a client reset (RST) while idle", async () => {
    const { b, watchPath } = await world();
    const watch = rawRequest("GET", watchPath, b);
    await until("ready", () => watch.received().includes("event: ready"), 10_000);
    await until("the watch to count", open(1), 10_000);
    watch.socket.resetAndDestroy();
    await until("the watch to end", idle, 10_000);
  });

  test("an http.request aborted after the headers", async () => {
    const { b, watchPath } = await world();
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${server.url}${watchPath}`, {
        headers: { authorization: `Bearer ${b}` },
      });
      req.on("response", (res) => {
        res.once("data", () => {
          req.destroy();
          resolve();
        });
      });
      req.on("error", () => {});
      req.end();
    });
    await until("the watch to end", idle, 10_000);
  });

  test("a client that never reads is dropped once behind; its messages stay unacked", async () => {
    const { b, teamRef, senders, recipient, send, watchPath } = await world();
    const watch = rawRequest("GET", watchPath, b);
    watch.socket.pause();
    await until("the watch to count", open(1), 10_000);
    // Sixty messages (the inbox cap) of 16 KiB of characters JSON writes as six bytes each: about
    // 5.9 MB, more than loopback's socket buffers hold (Linux: at most 4 MiB sent + the reader's
    // window), so the stream falls behind by more than its backlog of 2.
    const body = "\u0001".repeat(16_384);
    const sent: string[] = [];
    for (let i = 0; i < 60; i++) {
      sent.push((await send(senders[i % 4] as string, body)).message_id as string);
    }
    await until("the never-reading watch to be dropped", idle, 10_000);
    const inbox = await call(
      "GET",
      `/v1/teams/${teamRef}/sessions/${recipient}/messages?limit=200`,
      b,
    );
    expect((inbox.messages as Json[]).map((m) => m.message_id)).toEqual(sent);
    watch.socket.destroy();
  });

  test("many abusive requests at once leave nothing behind", async () => {
    const { b, watchPath } = await world();
    const sockets: Socket[] = [];
    for (let i = 0; i < 40; i++) {
      const kind = i % 4;
      const r = rawRequest(kind === 0 ? "HEAD" : "GET", watchPath, b);
      sockets.push(r.socket);
      if (kind === 1) r.socket.destroy();
      if (kind === 2) r.socket.pause();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const socket of sockets) {
      if (sockets.indexOf(socket) % 8 === 3) socket.resetAndDestroy();
      else socket.destroy();
    }
    await until("every watch to end", idle, 10_000);
  });
});
