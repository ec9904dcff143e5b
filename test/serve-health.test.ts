import { renameSync } from "node:fs";
import { describe, expect, test } from "vitest";
import type { LogFields, LogLevel } from "../src/server/logger.ts";
import { type RunningServer, startServer } from "../src/server/serve.ts";
import { cleanupsAfterEach } from "./support/cleanups.ts";
import { type FreshSchema, freshPostgresSchema } from "./support/postgres-schema.ts";
import { TcpRelay } from "./support/tcp-relay.ts";
import { testTempDir } from "./support/temp-dir.ts";
import { viaLoopback } from "./support/via-loopback.ts";

const cleanups = cleanupsAfterEach();

/** Every log line of a server, as `event` and fields. */
class LogLines {
  readonly lines: Array<{ level: LogLevel; event: string; fields: LogFields }> = [];
  readonly logger = {
    log: (level: LogLevel, event: string, fields: LogFields = {}) => {
      this.lines.push({ level, event, fields });
    },
  };
  events(): string[] {
    return this.lines.filter((l) => l.event !== "request").map((l) => l.event);
  }
}

async function serve(logs: LogLines, store?: string): Promise<RunningServer> {
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    dataFile: `${testTempDir("health-")}/brigade.sqlite`,
    ...(store === undefined ? {} : { store }),
    logger: logs.logger,
  });
  cleanups.push(() => server.stop());
  return server;
}

async function health(server: RunningServer): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}/v1/health`);
  return { status: response.status, body: await response.json() };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `/v1/health` until it answers `status` (a verdict is reused for 1 s). */
async function healthUntil(server: RunningServer, status: number): Promise<unknown> {
  const end = Date.now() + 15_000;
  for (;;) {
    const reply = await health(server);
    if (reply.status === status) return reply.body;
    if (Date.now() > end) throw new Error(`health stayed ${reply.status}`);
    await sleep(200);
  }
}

async function schema(): Promise<FreshSchema> {
  const fresh = await freshPostgresSchema("health");
  cleanups.push(fresh.drop);
  return fresh;
}

describe("/v1/health probes the store", () => {
  test("PostgreSQL: down is 503 store_unreachable, hung is 503 store_timeout, back is 200; no secret shown", async () => {
    const fresh = await schema();
    const relay = new TcpRelay(fresh.url);
    await relay.up();
    cleanups.push(() => relay.down());
    const url = viaLoopback(fresh.url, Number(new URL(relay.url).port), "hunter2-secret");
    const logs = new LogLines();
    const server = await serve(logs, url);
    expect(await health(server)).toEqual({
      status: 200,
      body: { status: "ok", protocol_version: "1", store: "postgres" },
    });

    await relay.down();
    const down = await healthUntil(server, 503);
    expect(down).toEqual({
      status: "unavailable",
      protocol_version: "1",
      store: "postgres",
      reason: "store_unreachable",
    });
    await relay.up();
    expect(await healthUntil(server, 200)).toEqual({
      status: "ok",
      protocol_version: "1",
      store: "postgres",
    });

    await relay.stall();
    // Many pollers at once while the database hangs: each answers within the probe's bound.
    await sleep(1100);
    const replies = await Promise.all(Array.from({ length: 20 }, () => health(server)));
    for (const reply of replies) {
      expect(reply).toEqual({
        status: 503,
        body: {
          status: "unavailable",
          protocol_version: "1",
          store: "postgres",
          reason: "store_timeout",
        },
      });
    }
    relay.resume();
    await healthUntil(server, 200);

    // The LISTEN connection's events reach the server's log too.
    expect(logs.events()).toContain("watch_listen_connected");
    expect(logs.events()).toContain("watch_listen_lost");
    expect(logs.events().filter((e) => e.startsWith("store_"))).toEqual([
      "store_unhealthy",
      "store_healthy",
      "store_unhealthy",
      "store_healthy",
    ]);
    expect(logs.lines.find((l) => l.event === "store_unhealthy")?.fields).toEqual({
      store: "postgres",
      reason: "store_unreachable",
    });
    expect(JSON.stringify(logs.lines)).not.toContain("hunter2");
  });

  test("SQLite: the data file moved away is 503 store_unreachable; put back, 200", async () => {
    const logs = new LogLines();
    const server = await serve(logs);
    expect(await health(server)).toEqual({
      status: 200,
      body: { status: "ok", protocol_version: "1", store: "sqlite" },
    });
    const file = server.store.display;
    renameSync(file, `${file}.moved`);
    expect(await healthUntil(server, 503)).toEqual({
      status: "unavailable",
      protocol_version: "1",
      store: "sqlite",
      reason: "store_unreachable",
    });
    renameSync(`${file}.moved`, file);
    await healthUntil(server, 200);
    expect(logs.events().filter((e) => e.startsWith("store_"))).toEqual([
      "store_unhealthy",
      "store_healthy",
    ]);
  });
});
