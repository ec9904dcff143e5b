import { describe, expect, test } from "vitest";
import { cleanupsAfterEach } from "../../../test/support/cleanups.ts";
import { freshPostgresSchema } from "../../../test/support/postgres-schema.ts";
import { twoPostgresProcesses } from "../../../test/support/postgres-two-processes.ts";
import { TcpRelay } from "../../../test/support/tcp-relay.ts";
import { until } from "../../../test/support/until.ts";
import { viaLoopback } from "../../../test/support/via-loopback.ts";
import { watchedInbox } from "../../../test/support/watched-inbox.ts";
import { BrigadeService } from "../../service/index.ts";
import { openPostgresStore } from "./postgres-store.ts";

const cleanups = cleanupsAfterEach();

/** The lines a store's feed logged. */
function logLines() {
  const lines: Array<{ level: string; event: string; fields: Record<string, unknown> }> = [];
  return {
    lines,
    events: () => lines.map((l) => l.event),
    log: {
      log: (level: string, event: string, fields: Record<string, unknown> = {}) =>
        lines.push({ level, event, fields }),
    },
  };
}

describe("the LISTEN connection in the log", () => {
  test("connected, catch-up done; lost, retried with a reason, back, catch-up done; no secret", async () => {
    const schema = await freshPostgresSchema("feedlog");
    cleanups.push(schema.drop);
    const relay = new TcpRelay(schema.url);
    await relay.up();
    cleanups.push(() => relay.down());
    const url = viaLoopback(schema.url, Number(new URL(relay.url).port), "hunter2-secret");
    const logs = logLines();
    const store = await openPostgresStore(url, { log: logs.log });
    cleanups.push(() => store.close());
    new BrigadeService(store);
    await until("the first catch-up", () => logs.events().includes("watch_catchup_done"), 10_000);
    expect(logs.lines.slice(0, 2)).toEqual([
      { level: "info", event: "watch_listen_connected", fields: { failed_attempts: 0 } },
      {
        level: "info",
        event: "watch_catchup_done",
        fields: { sessions: 0, found: 0, ms: expect.any(Number) },
      },
    ]);

    await relay.down();
    await until(
      "two failed attempts",
      () => logs.events().filter((e) => e === "watch_listen_retry").length >= 2,
      10_000,
    );
    await relay.up();
    await until(
      "the catch-up after the reconnection",
      () => logs.events().filter((e) => e === "watch_catchup_done").length === 2,
      10_000,
    );
    const lost = logs.lines.find((l) => l.event === "watch_listen_lost");
    expect(lost?.level).toBe("warn");
    expect(["ended", "network_error"]).toContain(lost?.fields.reason);
    expect(lost?.fields.retry_in_ms).toBeTypeOf("number");
    const retries = logs.lines.filter((l) => l.event === "watch_listen_retry");
    expect(retries[0]?.fields).toMatchObject({ reason: "refused", attempt: 1 });
    expect(retries[1]?.fields).toMatchObject({ reason: "refused", attempt: 2 });
    const reconnected = logs.lines.filter((l) => l.event === "watch_listen_connected")[1];
    expect(reconnected?.fields.failed_attempts).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(logs.lines)).not.toContain("hunter2");
    expect(JSON.stringify(logs.lines)).not.toContain(schema.schema);
  });

  test("deliveries only the safety poll found are logged, at most one line a minute", async () => {
    const logs = logLines();
    // The other process commits and never announces.
    const processes = await twoPostgresProcesses(
      cleanups,
      "feedlog",
      { pollMs: 100, log: logs.log },
      { pollMs: 3_600_000, silent: ["messages", "memberships"] },
    );
    const { heard, send } = await watchedInbox(processes.here.service, processes.there.service);
    await until("the first catch-up", () => logs.events().includes("watch_catchup_done"), 10_000);
    // Let the poll learn the (empty) inbox first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const first = await send("one");
    await until("the missed line", () => logs.events().includes("watch_poll_found_missed"), 10_000);
    expect(heard).toContain(first);
    expect(logs.lines.find((l) => l.event === "watch_poll_found_missed")).toEqual({
      level: "warn",
      event: "watch_poll_found_missed",
      fields: { deliveries: 1, sessions: 1 },
    });
    const more = [await send("two"), await send("three")];
    await until("the later messages", () => more.every((id) => heard.includes(id)), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(logs.events().filter((e) => e === "watch_poll_found_missed")).toHaveLength(1);
  });
});
