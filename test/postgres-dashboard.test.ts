// The dashboard on PostgreSQL with two servers over one database (docs/52-dashboard.md): a link
// made on one is taken on the other, once; the browser session it opens works on both, and ends
// on both at sign-out; a page whose stream runs on one server sees an ack made on the other.
import { describe, expect, test } from "vitest";
import { csrfToken } from "../src/server/dashboard/dashboard-security.ts";
import { type RunningServer, startServer } from "../src/server/serve.ts";
import { cleanupsAfterEach } from "./support/cleanups.ts";
import { freshPostgresSchema } from "./support/postgres-schema.ts";
import { sessionRegistration } from "./support/session-registration.ts";
import { testTempDir } from "./support/temp-dir.ts";

const cleanups = cleanupsAfterEach();
const silent = { log: () => {} };

async function serve(store: string): Promise<RunningServer> {
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    dataFile: `${testTempDir("pg-dashboard-")}/brigade.sqlite`,
    store,
    logger: silent,
  });
  cleanups.push(() => server.stop());
  return server;
}

async function api(base: string, path: string, token?: string, body: unknown = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { ok: boolean; result: Record<string, unknown> };
  expect(envelope.ok, JSON.stringify(envelope)).toBe(true);
  return envelope.result;
}

function post(base: string, path: string, fields: Record<string, string>, cookie?: string) {
  return fetch(`${base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: base,
      ...(cookie === undefined ? {} : { cookie }),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

async function heading(base: string, cookie: string): Promise<string> {
  const text = await (await fetch(`${base}/dashboard`, { headers: { cookie } })).text();
  return /<h1>([^<]*)<\/h1>/.exec(text)?.[1] ?? "";
}

describe("the dashboard on PostgreSQL, two servers", () => {
  test("a link is taken once on either server; the session works and ends on both", async () => {
    const schema = await freshPostgresSchema("dashboard");
    cleanups.push(schema.drop);
    const one = await serve(schema.url);
    const two = await serve(schema.url);

    const { token } = await api(one.url, "/v1/principals");
    const team = await api(one.url, "/v1/teams", token as string, { team_name: "core" });
    const teamRef = team.team_ref as string;
    const login = await api(one.url, `/v1/teams/${teamRef}/dashboard-login`, token as string);
    const code = (login.login_path as string).split("=")[1] as string;

    const taken = await Promise.all([
      post(one.url, "/dashboard/login", { code }),
      post(two.url, "/dashboard/login", { code }),
    ]);
    expect(taken.map((r) => r.status).sort()).toEqual([303, 403]);
    const cookie = (taken.find((r) => r.status === 303)?.headers.get("set-cookie") ?? "").split(
      ";",
    )[0] as string;
    expect(await heading(one.url, cookie)).toBe("Sessions");
    expect(await heading(two.url, cookie)).toBe("Sessions");

    const out = await post(
      two.url,
      "/dashboard/logout",
      {
        csrf: csrfToken(cookie.slice(cookie.indexOf("=") + 1)),
      },
      cookie,
    );
    expect(out.status).toBe(303);
    expect(await heading(one.url, cookie)).toBe("Signed out");
  });

  test("a page following one server sees an ack made through the other", async () => {
    const schema = await freshPostgresSchema("dashboardlive");
    cleanups.push(schema.drop);
    const one = await serve(schema.url);
    const two = await serve(schema.url);
    const a = (await api(one.url, "/v1/principals")).token as string;
    const b = (await api(one.url, "/v1/principals")).token as string;
    const team = await api(one.url, "/v1/teams", a, { team_name: "core" });
    const teamRef = team.team_ref as string;
    await api(one.url, "/v1/teams/join", b, { join_secret: team.join_secret });
    const sa = (await api(one.url, `/v1/teams/${teamRef}/sessions`, a, sessionRegistration("a")))
      .session_id as string;
    const sb = (await api(one.url, `/v1/teams/${teamRef}/sessions`, b, sessionRegistration("b")))
      .session_id as string;
    const sent = await api(one.url, `/v1/teams/${teamRef}/messages`, a, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "across processes",
    });

    const login = await api(one.url, `/v1/teams/${teamRef}/dashboard-login`, a);
    const code = (login.login_path as string).split("=")[1] as string;
    const opened = await post(one.url, "/dashboard/login", { code });
    const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const abort = new AbortController();
    cleanups.push(() => abort.abort());
    const stream = await fetch(`${one.url}/dashboard/events`, {
      headers: { cookie },
      signal: abort.signal,
    });
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let seen = "";
    const until = async (needle: string) => {
      while (!seen.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error("the stream ended");
        seen += decoder.decode(value);
      }
    };
    await until('data-state=\\"accepted\\"');
    await api(two.url, `/v1/teams/${teamRef}/sessions/${sb}/ack`, b, {
      message_ids: [sent.message_id],
    });
    // Server one hears of nothing: its stream reads its view again within the recheck period.
    await until('data-state=\\"acked\\"');
    abort.abort();
  }, 30_000);
});
