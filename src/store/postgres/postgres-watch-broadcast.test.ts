import pg from "pg";
import { afterEach, describe, expect, test } from "vitest";
import { testPostgresUrl } from "../../../test/support/postgres-schema.ts";
import { until } from "../../../test/support/until.ts";
import { type BroadcastListener, PostgresWatchBroadcast } from "./postgres-watch-broadcast.ts";

/** Records what a broadcast delivers. */
class Recorder implements BroadcastListener {
  readonly sessions: string[][] = [];
  readonly memberships: string[] = [];
  resyncs = 0;
  messagesFor(ids: readonly string[]): void {
    this.sessions.push([...ids]);
  }
  membershipEnded(principalRef: string, teamRef: string): void {
    this.memberships.push(`${principalRef}/${teamRef}`);
  }
  resync(): void {
    this.resyncs++;
  }
}

const open: PostgresWatchBroadcast[] = [];
afterEach(async () => {
  for (const b of open.splice(0)) await b.close();
});

/** A started broadcast; its resyncs count its (re)connections. */
async function started(
  url: string,
): Promise<{ broadcast: PostgresWatchBroadcast; heard: Recorder }> {
  const broadcast = new PostgresWatchBroadcast({
    connectionString: url,
    reconnectMinMs: 20,
    reconnectMaxMs: 200,
  });
  open.push(broadcast);
  const heard = new Recorder();
  broadcast.start(heard);
  await until("LISTEN", () => broadcast.listening && heard.resyncs === 1, 5000);
  return { broadcast, heard };
}

describe("PostgresWatchBroadcast on a real PostgreSQL", () => {
  test("another process hears the recipients; the announcer does not hear itself", async () => {
    const url = testPostgresUrl();
    const a = await started(url);
    const b = await started(url);
    a.broadcast.announceMessages(["s-1", "s-2"]);
    a.broadcast.announceMembershipEnded("p-1", "t-1");
    await until("the membership", () => b.heard.memberships.length === 1, 5000);
    await until("the sessions", () => b.heard.sessions.flat().length === 2, 5000);
    expect(b.heard.sessions.flat()).toEqual(["s-1", "s-2"]);
    expect(b.heard.memberships).toEqual(["p-1/t-1"]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(a.heard.sessions).toEqual([]);
    expect(a.heard.memberships).toEqual([]);
  });

  test("a burst of announcements becomes a few NOTIFYs, every recipient once", async () => {
    const url = testPostgresUrl();
    const a = await started(url);
    const b = await started(url);
    const ids = Array.from({ length: 500 }, (_, i) => `s-${String(i).padStart(20, "0")}`);
    for (const id of ids) a.broadcast.announceMessages([id, id]);
    await until("every recipient", () => b.heard.sessions.flat().length >= ids.length, 5000);
    expect(b.heard.sessions.flat()).toEqual(ids);
    // 500 ids of 24 characters fill two payloads of at most 7000 characters.
    expect(b.heard.sessions.length).toBe(2);
  });

  test("a lost LISTEN connection is re-opened and followed by a resync", async () => {
    const url = testPostgresUrl();
    const a = await started(url);
    const b = await started(url);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'brigade-watch' AND pid <> pg_backend_pid()",
      );
    } finally {
      await admin.end();
    }
    await until("both resyncs", () => a.heard.resyncs >= 2 && b.heard.resyncs >= 2, 5000);
    await until("both LISTENs", () => a.broadcast.listening && b.broadcast.listening, 5000);
    a.broadcast.announceMessages(["s-after"]);
    await until("an announcement after", () => b.heard.sessions.flat().includes("s-after"), 5000);
  });

  test("a broadcast started while PostgreSQL is unreachable keeps retrying and never throws", async () => {
    const events: string[] = [];
    const heard = new Recorder();
    const failing = new PostgresWatchBroadcast({
      connectionString: "postgres://brigade@127.0.0.1:1/none",
      reconnectMinMs: 10,
      reconnectMaxMs: 20,
      onEvent: (event) => events.push(event),
    });
    open.push(failing);
    failing.start(heard);
    failing.announceMessages(["s-1"]);
    await until(
      "retries",
      () => events.filter((e) => e === "watch_listen_failed").length >= 3,
      5000,
    );
    expect(failing.listening).toBe(false);
    expect(heard.resyncs).toBe(0);
  });
});
