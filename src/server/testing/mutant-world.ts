import type { ProtocolError, SessionRegistration } from "../../protocol/index.ts";
import { BapError } from "../../protocol/index.ts";
import {
  BrigadeService,
  randomIdGenerator,
  type ServiceDeps,
  type Store,
} from "../../service/index.ts";
import { openSqliteStore, type SqliteStore } from "../../store/sqlite/index.ts";

/** A registration document with the required members (tests of the mutants). */
export function registrationOf(
  name: string,
  extra: Partial<SessionRegistration> = {},
): SessionRegistration {
  return {
    harness: "x",
    harness_version: "1",
    session_name: name,
    activity: "busy",
    inbound: "accept",
    ...extra,
  };
}

/** The conformance fixture's shape over one in-memory store: A and B in T1, C in T2, a session each. */
export interface MutantWorld {
  readonly store: SqliteStore;
  readonly service: BrigadeService;
  readonly a: string;
  readonly b: string;
  readonly c: string;
  readonly t1: string;
  readonly t2: string;
  readonly sa: string;
  readonly sb: string;
  readonly sc: string;
  /** Advances the service clock by `ms`. */
  readonly advance: (ms: number) => void;
}

/**
 * Builds the fixture with `createService` (default: the real service) over a fresh in-memory
 * SQLite store, with a deterministic clock and ids; the caller closes `store`. Test-only.
 *
 * @example const w = await mutantWorld(mutantServiceFactory("caps_swapped"));
 */
export async function mutantWorld(
  createService: (store: Store, deps: ServiceDeps) => BrigadeService = (store, deps) =>
    new BrigadeService(store, deps),
): Promise<MutantWorld> {
  const store = openSqliteStore(":memory:");
  const clock = { t: Date.parse("2026-10-02T09:00:00.000Z") };
  let seed = 0x2545f491;
  const random = (n: number): Uint8Array => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 1) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      out[i] = seed & 0xff;
    }
    return out;
  };
  const service = createService(store, {
    now: () => clock.t,
    newId: randomIdGenerator(random),
    randomBytes: random,
  });
  const a = (await service.createPrincipal()).principal_ref;
  const b = (await service.createPrincipal()).principal_ref;
  const c = (await service.createPrincipal()).principal_ref;
  const team1 = await service.createTeam(a, { team_name: "one", human_label: "ann" });
  await service.joinTeam(b, { join_secret: team1.join_secret, human_label: "bob" });
  const t2 = (await service.createTeam(c, { team_name: "two" })).team_ref;
  const t1 = team1.team_ref;
  const sa = (await service.registerSession(a, t1, registrationOf("fixture-a"))).session_id;
  const sb = (await service.registerSession(b, t1, registrationOf("fixture-b"))).session_id;
  const sc = (await service.registerSession(c, t2, registrationOf("fixture-c"))).session_id;
  return {
    store,
    service,
    a,
    b,
    c,
    t1,
    t2,
    sa,
    sb,
    sc,
    advance: (ms) => {
      clock.t += ms;
    },
  };
}

/** The wire error a promise rejects with (it must reject with a `BapError`). */
export async function rejection(promise: Promise<unknown>): Promise<ProtocolError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BapError) return error.toProtocolError();
    throw error;
  }
  throw new Error("expected a BapError, the call succeeded");
}
