import http from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseConformanceArgs } from "../src/conformance/args.ts";
import { runSuite } from "../src/conformance/runner.ts";
import { inProcessHttpAdapter } from "./support/in-process-adapter.ts";
import { must } from "./support/load-client.ts";
import { type FreshSchema, freshPostgresSchema } from "./support/postgres-schema.ts";
import { ServerGroup } from "./support/server-group.ts";
import { ensureBuilt, FAST_SUITE_LIMITS } from "./support/server-process.ts";
import { sessionRegistration } from "./support/session-registration.ts";

let schema: FreshSchema | undefined;
let group: ServerGroup | undefined;

beforeAll(async () => {
  ensureBuilt();
  schema = await freshPostgresSchema("multi");
  group = await ServerGroup.start(schema.url, 3, FAST_SUITE_LIMITS);
});

afterAll(async () => {
  await group?.stop();
  await schema?.drop();
});

/** Opens a `message watch` stream on `base` and resolves the ids of messages as they arrive. */
function watch(base: string, path: string, token: string) {
  const arrived = new Map<string, number>();
  let ready: () => void = () => {};
  const isReady = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const request = http.get(
    `${base}${path}`,
    { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } },
    (response) => {
      response.setEncoding("utf8");
      let buffered = "";
      response.on("data", (text: string) => {
        buffered += text;
        for (let end = buffered.indexOf("\n\n"); end !== -1; end = buffered.indexOf("\n\n")) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === "ready") ready();
          if (event === "message" && data !== undefined)
            arrived.set(JSON.parse(data).message_id, performance.now());
        }
      });
    },
  );
  request.on("error", () => {});
  return { arrived, isReady, close: () => request.destroy() };
}

describe("three brigade serve processes on one PostgreSQL behind a round-robin proxy", () => {
  test("a watch on one process sees sends made through each of the others within 5 s", async () => {
    const servers = (group as ServerGroup).servers.map((s) => s.url);
    const [a, b, c] = servers as [string, string, string];
    const owner = (await must(a, "POST", "/v1/principals")).token as string;
    const team = await must(b, "POST", "/v1/teams", owner, { team_name: "multi" });
    const T = team.team_ref as string;
    const session = async (base: string, name: string) =>
      (await must(base, "POST", `/v1/teams/${T}/sessions`, owner, sessionRegistration(name)))
        .session_id as string;
    const watched = await session(c, "watched");
    const sender = await session(a, "sender");
    const stream = watch(a, `/v1/teams/${T}/sessions/${watched}/watch`, owner);
    try {
      await stream.isReady;
      for (const through of [b, c, a]) {
        const sentAt = performance.now();
        const sent = await must(through, "POST", `/v1/teams/${T}/messages`, owner, {
          sender_session_id: sender,
          recipient_session_id: watched,
          body: `through ${through}`,
        });
        const id = sent.message_id as string;
        while (!stream.arrived.has(id) && performance.now() - sentAt < 5000)
          await new Promise((resolve) => setTimeout(resolve, 5));
        expect(stream.arrived.has(id), `a send through ${through} reached the watch`).toBe(true);
      }
    } finally {
      stream.close();
    }
  }, 30_000);

  // The servers are the subject: the adapter runs in process (test/conformance.suite.ts spawns it).
  test(
    "the conformance suite passes through the proxy (every call may land on another process)",
    async () => {
      const proxy = (group as ServerGroup).proxy;
      const parsed = parseConformanceArgs([
        "--adapter",
        JSON.stringify(["in-process-http-adapter"]),
        "--json",
        "--env",
        `BRIGADE_SERVER=${proxy.url}`,
      ]);
      if (!parsed.ok || parsed.help) throw new Error("bad options");
      const outcome = await runSuite(
        parsed.options,
        { verbose: () => {}, caseDone: () => {} },
        { transport: inProcessHttpAdapter() },
      );
      if (!("report" in outcome)) throw new Error(outcome.error);
      const failed = outcome.report.results.filter((r) => r.status !== "pass");
      expect(failed.map((r) => `${r.id} ${r.status}: ${r.reason}`)).toEqual([]);
      expect(outcome.report.results).toHaveLength(82);
      // The calls really were spread over the three processes.
      for (const served of proxy.served) expect(served).toBeGreaterThan(100);
    },
    15 * 60_000,
  );
});
