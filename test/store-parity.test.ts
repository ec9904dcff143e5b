import { describe, expect, test } from "vitest";
import { type RunningServer, startServer } from "../src/server/serve.ts";
import { cleanupsAfterEach } from "./support/cleanups.ts";
import { freshPostgresSchema } from "./support/postgres-schema.ts";
import { testTempDir } from "./support/temp-dir.ts";

const cleanups = cleanupsAfterEach();

async function serve(store?: string): Promise<RunningServer> {
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    dataFile: `${testTempDir("parity-")}/brigade.sqlite`,
    ...(store === undefined ? {} : { store }),
    logger: { log: () => {} },
  });
  cleanups.push(() => server.stop());
  return server;
}

type Json = Record<string, unknown>;

/**
 * One scripted session of hostile requests against `base`, every answer recorded with the ids,
 * tokens, secrets and times replaced by placeholders numbered in order of first appearance, so
 * two servers that behave the same give the same transcript.
 */
async function transcript(base: string): Promise<string[]> {
  const out: string[] = [];
  const call = async (
    method: string,
    path: string,
    token?: string,
    raw?: string,
  ): Promise<Json> => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(raw === undefined ? {} : { body: raw }),
    });
    const text = await response.text();
    out.push(
      `${method} ${path.replace(/[pstm]-[0-9a-f]{20}/g, "ID")} → ${response.status} ${text}`,
    );
    return JSON.parse(text) as Json;
  };
  const json = (value: unknown): string => JSON.stringify(value);
  const ok = (reply: Json): Json => (reply.result ?? {}) as Json;

  const a = ok(await call("POST", "/v1/principals")).token as string;
  const b = ok(await call("POST", "/v1/principals")).token as string;
  await call("POST", "/v1/teams", a, json({ team_name: "nul\u0000team" }));
  const team = ok(
    await call(
      "POST",
      "/v1/teams",
      a,
      json({ team_name: "core ✓ 𝔘", human_label: "da\u0000na\u0001" }),
    ),
  );
  const t = team.team_ref as string;
  await call(
    "POST",
    "/v1/teams/join",
    b,
    json({ join_secret: team.join_secret, human_label: "lee\u0000" }),
  );
  const register = async (token: string, name: string): Promise<string> =>
    ok(
      await call(
        "POST",
        `/v1/teams/${t}/sessions`,
        token,
        json({
          harness: "test",
          harness_version: "1\u0000",
          session_name: name,
          session_description: "desc\u0000\u202e",
          activity: "busy",
          inbound: "accept",
        }),
      ),
    ).session_id as string;
  const sa = await register(a, "alpha\u0000\u0001");
  const sb = await register(b, "beta 𝔘");
  const send = (body: string) => call("POST", `/v1/teams/${t}/messages`, a, body);
  const base16k = "é".repeat(8192);
  const sends = [
    json({
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "a\u0000b",
      summary: "s\u0000",
      idempotency_key: "k\u0000",
    }),
    json({
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "a\u0000b",
      summary: "s\u0000",
      idempotency_key: "k\u0000",
    }),
    json({
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "a\u00010b",
      summary: "s\u0000",
      idempotency_key: "k\u0000",
    }),
    json({
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "a\u00010b",
      idempotency_key: "k\u0001",
    }),
    json({ sender_session_id: sa, recipient_session_id: sb, body: base16k }),
    json({ sender_session_id: sa, recipient_session_id: sb, body: `${base16k}x` }),
    json({ sender_session_id: sa, recipient_session_id: sb, body: "" }),
    '{"sender_session_id":"SA","recipient_session_id":"SB","body":"\\ud800 lone"}'
      .replace("SA", sa)
      .replace("SB", sb),
    json({ sender_session_id: sa, recipient_session_id: `${sb}\u0000`, body: "x" }),
    json({ sender_session_id: `${sa}\u0000`, recipient_session_id: sb, body: "x" }),
    json({ sender_session_id: sa, recipient_session_id: sb, body: "x", reply_to: "m-\u0000" }),
    json({ sender_session_id: sa, recipient_session_id: sb, body: "x".repeat(1_100_000) }),
  ];
  for (const body of sends) await send(body);
  await call("GET", `/v1/teams/${t}/sessions/${sb}/messages?limit=200`, b);
  await call("GET", `/v1/teams/${t}/sessions?include_offline=true`, b);
  await call("GET", `/v1/teams/${t}/members`, b);
  await call(
    "POST",
    `/v1/teams/${t}/sessions/${sb}/ack`,
    b,
    json({ message_ids: ["m-\u0000", "x"] }),
  );
  return normalise(out);
}

function normalise(lines: string[]): string[] {
  const names = new Map<string, string>();
  const name = (value: string, kind: string): string => {
    let known = names.get(value);
    if (known === undefined) {
      known = `<${kind}${names.size}>`;
      names.set(value, known);
    }
    return known;
  };
  return lines.map((line) =>
    line
      .replace(/brg1\.[A-Za-z0-9._-]+/g, (v) => name(v, "secret"))
      .replace(/"token":"[A-Za-z0-9_-]{43}"/g, '"token":"<token>"')
      .replace(/[pstm]-[0-9a-f]{20}/g, (v) => name(v, v[0] as string))
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, "<time>"),
  );
}

describe("the same hostile requests, the same answers on either store", () => {
  test("NUL, U+0001, bidi and astral text, 16 KiB bodies and over, lone surrogates, NUL in ids", async () => {
    const sqlite = await serve();
    const fresh = await freshPostgresSchema("parity");
    cleanups.push(fresh.drop);
    const postgres = await serve(fresh.url);
    const expected = await transcript(sqlite.url);
    const actual = await transcript(postgres.url);
    expect(actual).toEqual(expected);
    // The transcript did store text with NUL and read it back (not only refusals).
    expect(expected.join("\n")).toContain('"body":"a\\u0000b"');
    expect(expected.join("\n")).toContain('"session_name":"alpha\\u0000\\u0001"');
  });
});
