import { afterEach, describe, expect, test } from "vitest";
import { freshPostgresSchema } from "../../../test/support/postgres-schema.ts";
import { TcpRelay } from "../../../test/support/tcp-relay.ts";
import { BrigadeService } from "../../service/index.ts";
import { openPostgresStore } from "./postgres-store.ts";
import { createPushWatchFeed } from "./postgres-watch-feed.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

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

const registration = (name: string) => ({
  harness: "test",
  harness_version: "1",
  session_name: name,
  activity: "busy" as const,
  inbound: "accept" as const,
});

describe("the LISTEN connection in the log", () => {
  test("connected, catch-up done; lost, retried with a reason, back, catch-up done; no secret", async () => {
    const schema = await freshPostgresSchema("feedlog");
    cleanups.push(schema.drop);
    const relay = new TcpRelay(schema.url);
    await relay.up();
    cleanups.push(() => relay.down());
    const url = new URL(schema.url);
    url.host = `127.0.0.1:${new URL(relay.url).port}`;
    url.password = "hunter2-secret";
    const logs = logLines();
    const store = await openPostgresStore(url.toString(), { log: logs.log });
    cleanups.push(() => store.close());
    new BrigadeService(store);
    await until(() => logs.events().includes("watch_catchup_done"), "the first catch-up");
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
      () => logs.events().filter((e) => e === "watch_listen_retry").length >= 2,
      "two failed attempts",
    );
    await relay.up();
    await until(
      () => logs.events().filter((e) => e === "watch_catchup_done").length === 2,
      "the catch-up after the reconnection",
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
    const schema = await freshPostgresSchema("feedlog");
    cleanups.push(schema.drop);
    const logs = logLines();
    const hereStore = await openPostgresStore(schema.url, { log: logs.log, watchPollMs: 100 });
    cleanups.push(() => hereStore.close());
    // The other process commits and never announces.
    const thereStore = await openPostgresStore(schema.url, {
      createWatchFeed: (context) => {
        const feed = createPushWatchFeed(context, 3_600_000);
        return {
          attach: (target) => feed.attach(target),
          sent: () => {},
          membershipEnded: () => {},
          stop: () => feed.stop(),
        };
      },
    });
    cleanups.push(() => thereStore.close());
    const here = new BrigadeService(hereStore);
    const there = new BrigadeService(thereStore);
    const a = (await there.createPrincipal()).principal_ref;
    const b = (await there.createPrincipal()).principal_ref;
    const team = await there.createTeam(a, { team_name: "core" });
    await there.joinTeam(b, { join_secret: team.join_secret });
    const T = team.team_ref;
    const sender = (await there.registerSession(a, T, registration("sender"))).session_id;
    const inbox = (await there.registerSession(b, T, registration("inbox"))).session_id;
    const heard: string[] = [];
    await here.subscribe(b, T, inbox, {
      onMessages: (ids) => heard.push(...ids),
      onRevoked: () => {},
    });
    await until(() => logs.events().includes("watch_catchup_done"), "the first catch-up");
    // Let the poll learn the (empty) inbox first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const send = async (body: string) =>
      (
        await there.sendMessage(a, T, {
          sender_session_id: sender,
          recipient_session_id: inbox,
          body,
        })
      ).message_id;
    const first = await send("one");
    await until(() => logs.events().includes("watch_poll_found_missed"), "the missed line");
    expect(heard).toContain(first);
    expect(logs.lines.find((l) => l.event === "watch_poll_found_missed")).toEqual({
      level: "warn",
      event: "watch_poll_found_missed",
      fields: { deliveries: 1, sessions: 1 },
    });
    const more = [await send("two"), await send("three")];
    await until(() => more.every((id) => heard.includes(id)), "the later messages");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(logs.events().filter((e) => e === "watch_poll_found_missed")).toHaveLength(1);
  });
});
