import type { SessionListResult, SessionRegistrationResult } from "../../protocol/index.ts";
import {
  type MembershipRow,
  type ServiceDeps,
  type SessionListOptions,
  type Store,
  type StoreTx,
  systemDeps,
} from "../../service/index.ts";
import { overrideTx } from "./decorated-store.ts";
import { UnitDecoratingService } from "./unit-decorating-service.ts";

/**
 * The `team_leak` listing: `listTeamSessions` ignores the requested team and returns the sessions
 * of every team this decorator has seen (created or looked up since the server started), each
 * filtered as the real store filters its own team (owner an active member, liveness), oldest
 * first, at most `limit`. `knownTeams` is filled by the same decorator.
 *
 * @example new DecoratedStore(store, (tx) => leakingSessionListTx(tx, new Set()))
 */
export function leakingSessionListTx(tx: StoreTx, knownTeams: Set<string>): StoreTx {
  return overrideTx(tx, {
    async insertTeam(row) {
      await tx.insertTeam(row);
      knownTeams.add(row.team_ref);
    },
    async getTeam(teamRef) {
      const team = await tx.getTeam(teamRef);
      if (team !== null) knownTeams.add(team.team_ref);
      return team;
    },
    async listTeamSessions(teamRef, options) {
      const rows = [];
      for (const team of new Set([teamRef, ...knownTeams])) {
        rows.push(...(await tx.listTeamSessions(team, options)));
      }
      // Array.prototype.sort is stable: ties keep each team's insertion order.
      return rows.sort((x, y) => x.created_at - y.created_at).slice(0, options.limit);
    },
  });
}

/**
 * The `team_leak` membership bypass for one unit of work: an existing team answers every caller
 * as an active member (`getMembership` synthesises one when the real row is missing or not
 * active), and a write of such a synthesised membership (the label fill of `session register`) is
 * dropped, so the caller never really joins. A session needs a membership row (foreign key): when
 * there was none, `insertSession` first writes one with status `left`, which grants nothing. An
 * unknown team still fails as usual.
 *
 * @example store.withNextTransaction(membershipBypassTx, () => service.listSessions(p, t))
 */
export function membershipBypassTx(tx: StoreTx): StoreTx {
  /** Synthesised memberships, by key; the value says whether a real (inactive) row exists. */
  const synthesised = new Map<string, boolean>();
  const key = (teamRef: string, principalRef: string): string => `${teamRef}\u0000${principalRef}`;
  return overrideTx(tx, {
    async getMembership(teamRef, principalRef): Promise<MembershipRow | null> {
      const real = await tx.getMembership(teamRef, principalRef);
      if (real?.status === "active") return real;
      if ((await tx.getTeam(teamRef)) === null) return real;
      synthesised.set(key(teamRef, principalRef), real !== null);
      return {
        team_ref: teamRef,
        principal_ref: principalRef,
        human_label: real?.human_label ?? null,
        status: "active",
        joined_at: real?.joined_at ?? 0,
        updated_at: real?.updated_at ?? 0,
      };
    },
    async putMembership(row) {
      if (synthesised.has(key(row.team_ref, row.principal_ref))) return;
      await tx.putMembership(row);
    },
    async insertSession(row) {
      const k = key(row.team_ref, row.principal_ref);
      if (synthesised.get(k) === false) {
        await tx.putMembership({
          team_ref: row.team_ref,
          principal_ref: row.principal_ref,
          human_label: null,
          status: "left",
          joined_at: row.created_at,
          updated_at: row.created_at,
        });
        synthesised.set(k, true);
      }
      await tx.insertSession(row);
    },
  });
}

/**
 * Mutant `team_leak` (docs/22-conformance.md, "Mutant contract"): `session list` drops the "same
 * team" predicate (see {@link leakingSessionListTx}), and `session register` / `session list`
 * skip the membership check of the requested `team_ref` (see {@link membershipBypassTx}); every
 * other verb, `team members` included, keeps it. The suite must fail C-12 and C-26, and nothing
 * else. Only the conformance positive controls construct it.
 *
 * @example const service = new TeamLeakService(openSqliteStore(":memory:"));
 */
export class TeamLeakService extends UnitDecoratingService {
  /** Wraps `store` in the leaking decorators; `deps` as for `BrigadeService`. */
  constructor(store: Store, deps: ServiceDeps = systemDeps()) {
    const knownTeams = new Set<string>();
    super(store, deps, (tx) => leakingSessionListTx(tx, knownTeams));
  }

  /** `session register` without the membership check (an existing team is enough). */
  override registerSession(
    principalRef: string,
    teamRef: string,
    registration: unknown,
  ): Promise<SessionRegistrationResult> {
    return this.decorateNext(membershipBypassTx, () =>
      super.registerSession(principalRef, teamRef, registration),
    );
  }

  /** `session list` without the membership check, listing every team's sessions. */
  override listSessions(
    principalRef: string,
    teamRef: string,
    options: SessionListOptions = {},
  ): Promise<SessionListResult> {
    return this.decorateNext(membershipBypassTx, () =>
      super.listSessions(principalRef, teamRef, options),
    );
  }
}
