import { onTestFinished } from "vitest";
import {
  BrigadeService,
  type ServiceDeps,
  type Store,
  systemDeps,
} from "../../src/service/index.ts";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";

/** Builds a service over a store: the real one, or a mutant's (`mutantServiceFactory`). */
export type ServiceFactory = (store: Store, deps: ServiceDeps) => BrigadeService;

/**
 * The service `factory` builds (default: the real one) over a fresh in-memory SQLite store with
 * the system clock, closed when the calling test finishes. Call it inside a test.
 *
 * @example const service = serviceUnderTest(mutantServiceFactory("token_kept"));
 */
export function serviceUnderTest(factory?: ServiceFactory): BrigadeService {
  const store = openSqliteStore(":memory:");
  onTestFinished(() => store.close());
  return (factory ?? ((s, deps) => new BrigadeService(s, deps)))(store, systemDeps());
}

/** A team {@link teamUnderTest} made: its service, creator, members and join secret. */
export interface TeamUnderTest {
  readonly service: BrigadeService;
  readonly creator: string;
  readonly members: readonly string[];
  readonly teamRef: string;
  readonly joinSecret: string;
}

/**
 * {@link serviceUnderTest} with a team named "ops": its creator and `members` more principals
 * who joined it, in order.
 *
 * @example const { service, creator, members: [b], teamRef } = await teamUnderTest(undefined, 1);
 */
export async function teamUnderTest(
  factory: ServiceFactory | undefined,
  members: number,
): Promise<TeamUnderTest> {
  const service = serviceUnderTest(factory);
  const creator = (await service.createPrincipal()).principal_ref;
  const team = await service.createTeam(creator, { team_name: "ops" });
  const joined: string[] = [];
  for (let i = 0; i < members; i += 1) {
    const member = (await service.createPrincipal()).principal_ref;
    await service.joinTeam(member, { join_secret: team.join_secret });
    joined.push(member);
  }
  return {
    service,
    creator,
    members: joined,
    teamRef: team.team_ref,
    joinSecret: team.join_secret,
  };
}
