import { afterEach, describe, expect, test } from "vitest";
import { BrigadeService, type ServiceDeps, type Store, systemDeps } from "../../service/index.ts";
import { openSqliteStore, type SqliteStore } from "../../store/sqlite/index.ts";
import { mutantServiceFactory } from "./server-mutants.ts";

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

type Factory = (store: Store, deps: ServiceDeps) => BrigadeService;

/** What C-53 observes after a heartbeat says "yes", and whether a name change still lands. */
async function afterHeartbeat(factory: Factory) {
  const store = openSqliteStore(":memory:");
  stores.push(store);
  const service = factory(store, systemDeps());
  const a = (await service.createPrincipal()).principal_ref;
  const T = (await service.createTeam(a, { team_name: "ops" })).team_ref;
  const s = await service.registerSession(a, T, {
    harness: "h",
    harness_version: "1",
    session_name: "n",
    activity: "idle",
    inbound: "accept",
    live_delivery: "no",
    live_delivery_reason: "no_inbox_socket",
  });
  await service.heartbeatSession(a, T, s.session_id, { live_delivery: "yes", session_name: "m" });
  const listed = (await service.listSessions(a, T)).sessions[0];
  return [listed?.live_delivery, listed?.session_name];
}

describe("mutant live_stale", () => {
  test("a heartbeat's live_delivery is dropped while the rest of it is written", async () => {
    expect(await afterHeartbeat((s, d) => new BrigadeService(s, d))).toEqual(["yes", "m"]);
    expect(await afterHeartbeat(mutantServiceFactory("live_stale"))).toEqual(["no", "m"]);
  });
});
