import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
import { RoundRobinProxy } from "./support/round-robin-proxy.ts";
import {
  ensureBuilt,
  exited,
  type ServerProcess,
  startServerProcess,
} from "./support/server-process.ts";
import { sqliteView } from "./support/sqlite-view.ts";

let dir: string;
let server: ServerProcess | undefined;
let proxy: RoundRobinProxy | undefined;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "brigade-faults-sqlite-"));
});

afterAll(async () => {
  await proxy?.stop();
  if (server !== undefined) {
    server.child.kill("SIGKILL");
    await exited(server.child);
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("the client-journal invariants on the single-process SQLite server", () => {
  test("SIGKILL mid-load, restart, retries by key: nothing lost, nothing acked comes back, one message per key, the inbox cap exact", async () => {
    const dataFile = join(dir, "brigade.sqlite");
    server = await startServerProcess(dataFile);
    // Clients talk to a fixed address; the restarted server behind it listens on a new port.
    proxy = await RoundRobinProxy.start([server.url]);
    const base = proxy.url;
    const load = await buildWorld(base, {
      recipients: 4,
      senderPrincipals: 4,
      sessionsEach: 2,
    });
    const capWorld = await buildWorld(base, {
      recipients: 1,
      senderPrincipals: 4,
      sessionsEach: 4,
    });
    const journal = new Journal();
    const capJournal = new Journal();

    let killed = false;
    const running = runMixedLoad(base, load, journal, { perSender: 15 });
    const capRunning = runCapRace(base, capWorld, capJournal);
    while (journal.accepted().size < 40) await new Promise((r) => setTimeout(r, 5));
    server.child.kill("SIGKILL");
    killed = true;
    await exited(server.child);
    server = await startServerProcess(dataFile);
    proxy.replaceBackend(0, server.url);
    await Promise.all([running, capRunning]);
    expect(killed).toBe(true);
    expect(journal.unresolved().length + capJournal.unresolved().length).toBeGreaterThan(0);
    await resolveUnknown(base, load, journal);
    await resolveUnknown(base, capWorld, capJournal);
    await runCapRace(base, capWorld, capJournal);
    await runIdempotencyRace(base, load, journal, 5, 6);
    expect(journal.unresolved()).toEqual([]);
    expect(capJournal.unresolved()).toEqual([]);

    const db = sqliteView(dataFile);
    expect(await checkInvariants(journal, await readInboxes(base, load), db, load)).toEqual([]);
    const cap = {
      recipient: capWorld.recipients[0] as string,
      limit: PROTOCOL_LIMITS.max_unacked_per_recipient,
    };
    expect(
      await checkInvariants(capJournal, await readInboxes(base, capWorld), db, capWorld, cap),
    ).toEqual([]);
  }, 120_000);
});
