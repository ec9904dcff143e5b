import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { BrigadeService } from "../service/index.ts";
import { openSqliteStore, type SqliteStore } from "../store/sqlite/index.ts";
import { type BrigadeApp, createApp } from "./app.ts";
import { declaresJson } from "./json-content-type.ts";
import { silentLogger } from "./logger.ts";
import { PRINCIPALS_PER_ADDRESS_PER_MINUTE } from "./principal-minting-budget.ts";

type Json = Record<string, unknown>;

let dir: string;
let store: SqliteStore;
let app: BrigadeApp;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "brigade-ctype-"));
  store = openSqliteStore(join(dir, "db.sqlite"));
  app = createApp(new BrigadeService(store));
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function post(
  path: string,
  contentType: string | undefined,
  body: string | undefined,
  token?: string,
): Promise<{ status: number; json: Json }> {
  const headers: Record<string, string> = {};
  if (contentType !== undefined) headers["content-type"] = contentType;
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await app.fetch(
    new Request(`http://brigade.test${path}`, {
      method: "POST",
      headers,
      ...(body === undefined ? {} : { body }),
    }),
  );
  return { status: response.status, json: (await response.json()) as Json };
}

const JSON_TYPE = "application/json";

/** The principals stored in a served data file (read-only beside the running server). */
function principalCount(dataFile: string): number {
  const db = new Database(dataFile, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM principals").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** What a web page can send without a preflight, plus near misses of the JSON type. */
const REFUSED_TYPES: readonly (string | undefined)[] = [
  undefined,
  "text/plain",
  "text/plain; charset=utf-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/jsonx",
  "application/json-patch+json",
  "text/json",
  "application/json; charset=iso-8859-1",
  "",
];

async function mint(): Promise<string> {
  const r = await post("/v1/principals", JSON_TYPE, undefined);
  expect(r.status).toBe(200);
  return (r.json.result as Json).token as string;
}

function expectRefused(r: { status: number; json: Json }): void {
  expect(r.status).toBe(415);
  expect(r.json).toMatchObject({
    ok: false,
    protocol_version: "1",
    error: {
      code: "usage",
      retryable: false,
      details: { reason: "unsupported_media_type" },
    },
  });
}

describe("request bodies must be declared application/json", () => {
  test("declaresJson reads the media type case-insensitively, with parameters, UTF-8 only", () => {
    for (const ok of [
      "application/json",
      "Application/JSON",
      "application/json; charset=utf-8",
      'application/json;charset="UTF-8"',
      "  application/json  ; foo=bar",
    ]) {
      expect(declaresJson(ok)).toBe(true);
    }
    for (const refused of REFUSED_TYPES) expect(declaresJson(refused ?? null)).toBe(false);
  });

  test("every body route refuses every other type, before authentication and before any effect", async () => {
    const a = await mint();
    const created = await post("/v1/teams", JSON_TYPE, JSON.stringify({ team_name: "core" }), a);
    const team = created.json.result as Json;
    const session = await post(
      `/v1/teams/${team.team_ref}/sessions`,
      JSON_TYPE,
      JSON.stringify({
        harness: "test",
        harness_version: "1",
        session_name: "alpha",
        activity: "busy",
        inbound: "accept",
      }),
      a,
    );
    const sid = (session.json.result as Json).session_id as string;
    const routes: readonly [string, string][] = [
      ["/v1/principals", "{}"],
      ["/v1/teams", JSON.stringify({ team_name: "other" })],
      ["/v1/teams/join", JSON.stringify({ join_secret: team.join_secret })],
      [`/v1/teams/${team.team_ref}/leave`, "{}"],
      [`/v1/teams/${team.team_ref}/sessions`, "{}"],
      [`/v1/teams/${team.team_ref}/sessions/${sid}/heartbeat`, JSON.stringify({})],
      [`/v1/teams/${team.team_ref}/sessions/${sid}/close`, "{}"],
      [
        `/v1/teams/${team.team_ref}/messages`,
        JSON.stringify({ sender_session_id: sid, recipient_session_id: sid, body: "x" }),
      ],
      [`/v1/teams/${team.team_ref}/sessions/${sid}/ack`, JSON.stringify({ message_ids: [] })],
    ];
    for (const [path, body] of routes) {
      for (const type of REFUSED_TYPES) {
        expectRefused(await post(path, type, body, a));
        expectRefused(await post(path, type, body));
        // An empty POST is a simple request too: it needs the declaration as well.
        expectRefused(await post(path, type, undefined, a));
      }
    }
    // Nothing happened: the membership and the session are intact, no message was stored.
    const members = await app.fetch(
      new Request(`http://brigade.test/v1/teams/${team.team_ref}/members`, {
        headers: { authorization: `Bearer ${a}` },
      }),
    );
    expect(
      ((await members.json()) as { result: { members: unknown[] } }).result.members,
    ).toHaveLength(1);
    const inbox = await app.fetch(
      new Request(`http://brigade.test/v1/teams/${team.team_ref}/sessions/${sid}/messages`, {
        headers: { authorization: `Bearer ${a}` },
      }),
    );
    expect(await inbox.json()).toMatchObject({ ok: true, result: { messages: [] } });
    const beat = await post(
      `/v1/teams/${team.team_ref}/sessions/${sid}/heartbeat`,
      "application/json; charset=UTF-8",
      "{}",
      a,
    );
    expect(beat.json).toMatchObject({ ok: true, result: { state: "active" } });
  });

  test("a body with a content coding is refused before it is read, whatever it holds", async () => {
    const a = await mint();
    for (const coding of ["gzip", "deflate", "br", "GZIP", "identity, gzip", "x-anything"]) {
      const response = await app.fetch(
        new Request("http://brigade.test/v1/teams", {
          method: "POST",
          headers: {
            authorization: `Bearer ${a}`,
            "content-type": JSON_TYPE,
            "content-encoding": coding,
          },
          // Plain JSON labelled as coded: read as it is, it would create a team.
          body: JSON.stringify({ team_name: "coded" }),
        }),
      );
      expect(response.status).toBe(415);
      expect(response.headers.get("accept-encoding")).toBe("identity");
      const error = ((await response.json()) as Json).error as Json;
      expect(error).toMatchObject({
        code: "usage",
        details: { reason: "unsupported_content_encoding" },
      });
      expect(JSON.stringify(error)).not.toContain(coding);
    }
    const plain = await post("/v1/teams", JSON_TYPE, JSON.stringify({ team_name: "plain" }), a);
    expect(plain.status).toBe(200);
    for (const identity of ["Identity", ""]) {
      const minted = await app.fetch(
        new Request("http://brigade.test/v1/principals", {
          method: "POST",
          headers: { "content-type": JSON_TYPE, "content-encoding": identity },
          body: "{}",
        }),
      );
      expect(minted.status).toBe(200);
    }
  });

  test("over a real socket: a transfer coding besides chunked is refused, nothing is created", async () => {
    const { startServer } = await import("./serve.ts");
    const server = await startServer({
      host: "127.0.0.1",
      port: 0,
      dataFile: join(dir, "served", "brigade.sqlite"),
      logger: silentLogger,
    });
    const send = (codings: readonly string[]): Promise<string> =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(server.url).port), "127.0.0.1");
        let answer = "";
        socket.on("data", (chunk: Buffer) => {
          answer += chunk.toString("utf8");
        });
        socket.on("error", reject);
        socket.on("end", () => resolve(answer));
        // Plain JSON labelled as coded: read as it is, it would mint a principal.
        const headers = codings.map((coding) => `Transfer-Encoding: ${coding}\r\n`).join("");
        socket.write(
          "POST /v1/principals HTTP/1.1\r\nHost: brigade.test\r\nConnection: close\r\n" +
            `Content-Type: application/json\r\n${headers}\r\n2\r\n{}\r\n0\r\n\r\n`,
        );
      });
    try {
      for (const codings of [["gzip, chunked"], ["x-anything,chunked"], ["gzip", "chunked"]]) {
        const answer = await send(codings);
        expect(answer.startsWith("HTTP/1.1 501 ")).toBe(true);
        const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as Json;
        expect(body.error).toMatchObject({
          code: "usage",
          details: { reason: "unsupported_transfer_encoding" },
        });
        expect(answer).not.toContain("anything");
      }
      expect(principalCount(join(dir, "served", "brigade.sqlite"))).toBe(0);
      for (const codings of [["chunked"], ["Chunked"]]) {
        expect((await send(codings)).startsWith("HTTP/1.1 200 ")).toBe(true);
      }
    } finally {
      await server.stop();
    }
  });

  test("refused mints do not spend the address's minting budget", async () => {
    for (let i = 0; i < PRINCIPALS_PER_ADDRESS_PER_MINUTE * 2; i++) {
      expectRefused(await post("/v1/principals", "text/plain", "{}"));
    }
    await mint();
  });

  test("over a real socket: a GET that carries a body must declare it too", async () => {
    const { startServer } = await import("./serve.ts");
    const server = await startServer({
      host: "127.0.0.1",
      port: 0,
      dataFile: join(dir, "served", "brigade.sqlite"),
      logger: silentLogger,
    });
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          `${server.url}/v1/health`,
          { method: "GET", headers: { "content-type": "text/plain", "content-length": "2" } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end("{}");
      });
      expect(status).toBe(415);
      const health = await fetch(`${server.url}/v1/health`);
      expect(health.status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
