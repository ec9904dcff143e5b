import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterEach, describe, expect, test } from "vitest";
import { testPostgresUrl } from "../../../test/support/postgres-schema.ts";
import { until } from "../../../test/support/until.ts";
import { type BroadcastListener, PostgresWatchBroadcast } from "./postgres-watch-broadcast.ts";

/**
 * Ids no other test announces. Every test file of the run shares one database, and a NOTIFY
 * channel is per database, not per schema: a broadcast here also hears the stores of test files
 * running beside this one, so each assertion reads only this test's own ids.
 */
function uniqueIds(prefix: string, count: number): string[] {
  const run = randomBytes(6).toString("hex");
  return Array.from({ length: count }, (_, i) => `${prefix}-${run}-${String(i).padStart(6, "0")}`);
}

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
    const sessions = uniqueIds("s", 2);
    const [principal, team] = uniqueIds("r", 2) as [string, string];
    const membership = `${principal}/${team}`;
    const ours = (heard: Recorder): string[] =>
      heard.sessions.flat().filter((id) => sessions.includes(id));
    a.broadcast.announceMessages(sessions);
    a.broadcast.announceMembershipEnded(principal, team);
    await until("the membership", () => b.heard.memberships.includes(membership), 5000);
    await until("the sessions", () => ours(b.heard).length >= 2, 5000);
    expect(ours(b.heard)).toEqual(sessions);
    expect(b.heard.memberships.filter((m) => m === membership)).toEqual([membership]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ours(a.heard)).toEqual([]);
    expect(a.heard.memberships).not.toContain(membership);
  });

  test("a burst of announcements becomes a few NOTIFYs, every recipient once", async () => {
    const url = testPostgresUrl();
    const a = await started(url);
    const b = await started(url);
    // 500 ids of 21 characters: with "m:" and a comma each, 24 characters an item.
    const ids = uniqueIds("s", 500);
    for (const id of ids) a.broadcast.announceMessages([id, id]);
    const ourPayloads = (): string[][] =>
      b.heard.sessions.filter((payload) => payload.some((id) => ids.includes(id)));
    await until("every recipient", () => ourPayloads().flat().length >= ids.length, 5000);
    expect(ourPayloads().flat()).toEqual(ids);
    // 12,000 characters of items fill two payloads of at most 7000 characters.
    expect(ourPayloads().length).toBe(2);
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
    const [after] = uniqueIds("s", 1) as [string];
    a.broadcast.announceMessages([after]);
    await until("an announcement after", () => b.heard.sessions.flat().includes(after), 5000);
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
