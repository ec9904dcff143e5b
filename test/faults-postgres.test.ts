import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PROTOCOL_LIMITS } from "../src/protocol/index.ts";
import {
  buildWorld,
  checkInvariants,
  Journal,
  readInboxes,
  resolveUnknown,
  runCapRace,
  runIdempotencyRace,
  runMixedLoad,
} from "./support/load-journal.ts";
import { type PostgresCluster, startPostgresCluster } from "./support/postgres-cluster.ts";
import { postgresView } from "./support/postgres-view.ts";
import { ServerGroup } from "./support/server-group.ts";
import { ensureBuilt } from "./support/server-process.ts";

// Faults break the database for everyone using it, so this file runs its own private cluster
// (loopback only) and three `brigade serve` processes on it behind a round-robin proxy.
let cluster: PostgresCluster | undefined;
let group: ServerGroup | undefined;

beforeAll(async () => {
  ensureBuilt();
  // The run's own temp folder is private to this user; the server user (as root: `postgres`)
  // must reach the cluster's folder, so it goes beside it, like the run's shared cluster.
  const runDir = process.env.BRIGADE_TEST_RUN_TMPDIR;
  cluster = await startPostgresCluster(runDir === undefined ? tmpdir() : dirname(runDir));
  group = await ServerGroup.start(cluster.url, 3);
});

afterAll(async () => {
  await group?.stop();
  cluster?.stop();
});

/** The postmaster and every process it started (its backends and helpers). */
function postgresProcesses(postmaster: number): number[] {
  const pids = [postmaster];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === postmaster) pids.push(Number(name));
    } catch {
      // The process ended meanwhile.
    }
  }
  return pids;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One fault run: a mixed load (8 senders, 4 recipients, acks) and a cap race (16 senders to one
 * recipient) through the proxy; `fault` strikes once `strikeAfter` sends were accepted; then the
 * clients recover (unknown sends retried by key), a burst of concurrent replays of the same keys
 * runs across the processes, and every invariant is checked from the journal and the database.
 */
async function faultRun(fault: () => Promise<void>, strikeAfter = 30): Promise<number> {
  if (group === undefined || cluster === undefined) throw new Error("no servers");
  const base = group.proxy.url;
  const load = await buildWorld(base, { recipients: 4, senderPrincipals: 4, sessionsEach: 2 });
  const capWorld = await buildWorld(base, { recipients: 1, senderPrincipals: 4, sessionsEach: 4 });
  const journal = new Journal();
  const capJournal = new Journal();
  let struck = false;
  const running = runMixedLoad(base, load, journal, { perSender: 15 });
  const capRunning = runCapRace(base, capWorld, capJournal);
  const striking = (async () => {
    while (journal.accepted().size < strikeAfter) await sleep(5);
    await fault();
    struck = true;
  })();
  await Promise.all([running, capRunning, striking]);
  expect(struck).toBe(true);
  // Sends the fault left in doubt (no answer, or a 5xx): the clients resolve them by key below.
  const inDoubt = [...journal.sends, ...capJournal.sends].filter(
    (s) => s.outcomes[0]?.kind === "unknown",
  ).length;
  await resolveUnknown(base, load, journal);
  await resolveUnknown(base, capWorld, capJournal);
  // A sender stopped by an unknown answer goes on until the cap stops it.
  await runCapRace(base, capWorld, capJournal);
  await runIdempotencyRace(base, load, journal, 5, 6);
  expect(journal.unresolved()).toEqual([]);
  expect(capJournal.unresolved()).toEqual([]);
  const db = postgresView(cluster.url);
  expect(await checkInvariants(journal, await readInboxes(base, load), db, load)).toEqual([]);
  const cap = {
    recipient: capWorld.recipients[0] as string,
    limit: PROTOCOL_LIMITS.max_unacked_per_recipient,
  };
  expect(
    await checkInvariants(capJournal, await readInboxes(base, capWorld), db, capWorld, cap),
  ).toEqual([]);
  return inDoubt;
}

describe("faults on three brigade serve processes sharing one PostgreSQL", () => {
  test("no fault: the invariants hold across processes (the baseline of the runs below)", async () => {
    expect(await faultRun(async () => {})).toBe(0);
  });

  test("SIGKILL of one server mid-load, replaced by a fresh process", async () => {
    expect(await faultRun(() => (group as ServerGroup).killAndReplace(1))).toBeGreaterThan(0);
  });

  test("an immediate PostgreSQL restart (a crash and WAL recovery) mid-load", async () => {
    const inDoubt = await faultRun(async () => (cluster as PostgresCluster).restart("immediate"));
    expect(inDoubt).toBeGreaterThan(0);
  });

  test("PostgreSQL frozen (SIGSTOP of the postmaster and its backends) for 3 s mid-load", async () => {
    await faultRun(async () => {
      const pids = postgresProcesses((cluster as PostgresCluster).postmasterPid());
      for (const pid of pids) process.kill(pid, "SIGSTOP");
      try {
        await sleep(3000);
      } finally {
        for (const pid of pids) process.kill(pid, "SIGCONT");
      }
    });
  });

  test("a long transaction holds the inbox table locked past the statement timeout", async () => {
    const inDoubt = await faultRun(async () => {
      const client = new pg.Client({ connectionString: (cluster as PostgresCluster).url });
      await client.connect();
      try {
        await client.query("BEGIN");
        await client.query("LOCK TABLE inbox IN EXCLUSIVE MODE");
        await sleep(12_000);
        await client.query("COMMIT");
      } finally {
        await client.end();
      }
    });
    // Sends that waited on the lock past the statement timeout were answered `unavailable`.
    expect(inDoubt).toBeGreaterThan(0);
  });
});
