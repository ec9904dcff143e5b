import { describe, expect, test } from "vitest";
import { DecoratedStore, overrideTx } from "../src/server/testing/index.ts";
import { BrigadeService } from "../src/service/index.ts";
import { openPostgresStore } from "../src/store/postgres/postgres-store.ts";
import { cleanupsAfterEach } from "./support/cleanups.ts";
import { freshPostgresSchema } from "./support/postgres-schema.ts";
import { sessionRegistration } from "./support/session-registration.ts";

// Two heartbeats of one session at once on PostgreSQL (the watcher's and a hook's, from two
// processes): each must keep the members the other one changed (docs/41-watcher.md).
const cleanups = cleanupsAfterEach();

describe("concurrent heartbeats of one session", () => {
  test("a hook's heartbeat that read the row first does not bring back the live delivery the watcher's replaced", async () => {
    const schema = await freshPostgresSchema("hbrace");
    cleanups.push(schema.drop);
    const hookStore = await openPostgresStore(schema.url);
    cleanups.push(() => hookStore.close());
    const watcherStore = await openPostgresStore(schema.url);
    cleanups.push(() => watcherStore.close());

    // The hook's unit stops between its read and its write until `release`.
    let armed = false;
    let reached: () => void = () => {};
    const atWrite = new Promise<void>((r) => {
      reached = r;
    });
    let release: () => void = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    const decorated = new DecoratedStore(hookStore, (tx) =>
      overrideTx(tx, {
        async updateOpenSession(row) {
          if (armed) {
            armed = false;
            reached();
            await released;
          }
          return tx.updateOpenSession(row);
        },
      }),
    );
    const hook = new BrigadeService(decorated);
    const watcher = new BrigadeService(watcherStore);

    const p = (await watcher.createPrincipal()).principal_ref;
    const team = await watcher.createTeam(p, { team_name: "core" });
    const T = team.team_ref;
    const s = (
      await watcher.registerSession(p, T, sessionRegistration("api", { live_delivery: "yes" }))
    ).session_id;

    armed = true;
    const hookBeat = hook.heartbeatSession(p, T, s, { session_name: "renamed" });
    await atWrite;
    const watcherBeat = watcher.heartbeatSession(p, T, s, {
      live_delivery: "no",
      live_delivery_reason: "inbound_gate",
    });
    // Without the row lock the watcher's heartbeat commits now; with it, it waits for the hook's.
    await Promise.race([watcherBeat, new Promise((r) => setTimeout(r, 2_000))]);
    release();
    await Promise.all([hookBeat, watcherBeat]);

    const listed = await watcher.listSessions(p, T, {});
    const record = listed.sessions.find((x) => x.session_id === s);
    expect(record?.session_name).toBe("renamed");
    expect(record?.live_delivery).toBe("no");
    expect(record?.live_delivery_reason).toBe("inbound_gate");
  });
});
