import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCall, type Json, teamOfTwo } from "./support/api-call.ts";
import { ensureBuilt, exited, startServerProcess } from "./support/server-process.ts";

let root: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), "brigade-metrics-"));
});

afterAll(async () => {
  for (const child of children) {
    child.kill("SIGTERM");
    await exited(child);
  }
  rmSync(root, { recursive: true, force: true });
});

/** The value of the sample `name` (with its labels, as written) in an exposition. */
function sample(exposition: string, name: string): number {
  const line = exposition.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? Number.NaN : Number(line.slice(name.length + 1));
}

describe("brigade serve --metrics", () => {
  test("counts sends, deliveries, acks, open watches, refusals by code and store latency, with no secret, token, team, session or text in any label", async () => {
    const server = await startServerProcess(join(root, "m", "brigade.sqlite"), {}, undefined, [
      ...["--metrics", "127.0.0.1:0"],
    ]);
    children.push(server.child);
    const metricsUrl = /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)\n/.exec(
      server.stdout(),
    )?.[1];
    expect(metricsUrl).toBeDefined();
    const scrape = async (): Promise<string> => {
      const r = await fetch(metricsUrl as string);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      return r.text();
    };

    const teamName = "team-name-Zq7";
    const t = await teamOfTwo(server.url, teamName);
    const body = "message-text-Kx93 do not leak";
    const sent = await apiCall(server.url, "POST", `/v1/teams/${t.teamRef}/messages`, {
      token: t.a,
      body: { sender_session_id: t.sa, recipient_session_id: t.sb, body, summary: "summary-Wm2" },
    });
    expect(sent.status).toBe(200);
    const messageId = (sent.json.result as Json).message_id as string;
    // A watch delivers it once; it stays open while we scrape.
    const controller = new AbortController();
    const watch = await fetch(`${server.url}/v1/teams/${t.teamRef}/sessions/${t.sb}/watch`, {
      headers: { authorization: `Bearer ${t.b}` },
      signal: controller.signal,
    });
    const reader = (watch.body as ReadableStream<Uint8Array>).getReader();
    let events = "";
    while (!events.includes("event: message")) {
      const chunk = await reader.read();
      events += new TextDecoder().decode(chunk.value);
    }
    const received = await apiCall(
      server.url,
      "GET",
      `/v1/teams/${t.teamRef}/sessions/${t.sb}/messages`,
      {
        token: t.b,
      },
    );
    expect((received.json.result as { messages: unknown[] }).messages).toHaveLength(1);
    await apiCall(server.url, "POST", `/v1/teams/${t.teamRef}/sessions/${t.sb}/ack`, {
      token: t.b,
      body: { message_ids: [messageId] },
    });
    await apiCall(server.url, "GET", `/v1/teams/${t.teamRef}/members`, { token: "not-a-token" });
    await apiCall(server.url, "GET", "/nothing-here");
    const form = await fetch(`${server.url}/v1/principals`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "{}",
    });
    expect(form.status).toBe(415);

    const text = await scrape();
    expect(sample(text, "brigade_messages_sent_total")).toBe(1);
    expect(sample(text, 'brigade_messages_delivered_total{via="watch"}')).toBe(1);
    expect(sample(text, 'brigade_messages_delivered_total{via="receive"}')).toBe(1);
    expect(sample(text, "brigade_messages_acked_total")).toBe(1);
    expect(sample(text, "brigade_watches_open")).toBe(1);
    expect(sample(text, 'brigade_refusals_total{code="unauthenticated"}')).toBe(1);
    expect(sample(text, 'brigade_refusals_total{code="usage"}')).toBe(2);
    expect(sample(text, "brigade_store_transaction_seconds_count")).toBeGreaterThan(5);
    expect(text).toMatch(/^brigade_info\{version="\d+\.\d+\.\d+[^"]*"\} 1$/m);

    // Nothing that names or carries a secret, a credential, a team, a session or a message.
    for (const value of [
      t.a,
      t.b,
      t.joinSecret,
      t.teamRef,
      teamName,
      t.sa,
      t.sb,
      messageId,
      body,
      "Kx93",
      "summary-Wm2",
      "not-a-token",
      "nothing-here",
    ]) {
      expect(text, value).not.toContain(value);
    }
    const labelValues = [...text.matchAll(/\{([^}]*)\}/g)].flatMap((m) =>
      [...(m[1] as string).matchAll(/="([^"]*)"/g)].map((v) => v[1] as string),
    );
    for (const value of labelValues) expect(value).toMatch(/^[A-Za-z0-9_.+:\-/ ]{0,64}$/);

    controller.abort();
    await reader.cancel().catch(() => undefined);
    while (sample(await scrape(), "brigade_watches_open") !== 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  test("only GET /metrics on the metrics listener; no /metrics on the API port; off by default", async () => {
    const server = await startServerProcess(join(root, "m2", "brigade.sqlite"), {}, undefined, [
      ...["--metrics", "0"],
    ]);
    children.push(server.child);
    const metricsUrl = /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)\n/.exec(
      server.stdout(),
    )?.[1] as string;
    for (const method of ["HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"]) {
      const r = await fetch(metricsUrl, { method });
      expect(r.status, method).toBe(405);
      expect(r.headers.get("allow"), method).toBe("GET");
    }
    expect((await fetch(new URL("/", metricsUrl))).status).toBe(404);
    expect((await fetch(new URL("/v1/health", metricsUrl))).status).toBe(404);
    const onApi = await apiCall(server.url, "GET", "/metrics");
    expect(onApi.status).toBe(400);
    expect(onApi.json).toMatchObject({ error: { details: { reason: "unknown_route" } } });

    const plain = await startServerProcess(join(root, "m3", "brigade.sqlite"));
    children.push(plain.child);
    expect(plain.stdout()).not.toContain("metrics on");
    expect((await apiCall(plain.url, "GET", "/metrics")).status).toBe(400);
  });
});
