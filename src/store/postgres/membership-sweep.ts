import type { WatchedMembership, WatchFeedTarget } from "../../service/index.ts";

/** Of `memberships`, those that are no longer active (left, revoked, or gone) in the database. */
export type EndedMembershipReader = (
  memberships: readonly WatchedMembership[],
) => Promise<WatchedMembership[]>;

/** Memberships checked by one query; more are checked by further queries of the same sweep. */
export const MEMBERSHIP_CHECK_CHUNK = 500;

/** One statement for a whole chunk: every asked pair without an `active` membership row. */
const ENDED_MEMBERSHIPS_SQL =
  "SELECT w.principal_ref, w.team_ref " +
  "FROM unnest($1::text[], $2::text[]) AS w (principal_ref, team_ref) " +
  "LEFT JOIN memberships m ON m.team_ref = w.team_ref AND m.principal_ref = w.principal_ref " +
  "WHERE m.status IS DISTINCT FROM 'active'";

/**
 * An {@link EndedMembershipReader} over one statement runner (the store's pool): one query per
 * call, whatever the number of memberships (the caller chunks them).
 *
 * @example const read = endedMembershipReader((sql, params) => context.query(sql, params));
 */
export function endedMembershipReader(
  query: (sql: string, params: readonly unknown[]) => Promise<Record<string, unknown>[]>,
): EndedMembershipReader {
  return async (memberships) => {
    const rows = await query(ENDED_MEMBERSHIPS_SQL, [
      memberships.map((m) => m.principalRef),
      memberships.map((m) => m.teamRef),
    ]);
    const ended: WatchedMembership[] = [];
    for (const row of rows) {
      const { principal_ref: principalRef, team_ref: teamRef } = row;
      if (typeof principalRef === "string" && typeof teamRef === "string") {
        ended.push({ principalRef, teamRef });
      }
    }
    return ended;
  };
}

/**
 * The membership half of the PostgreSQL store's safety poll (docs/21-service.md, "Watches across
 * processes"): on {@link MembershipSweep.sweep}, which the feed's safety-poll tick calls
 * (`PostgresWatchFeed`) beside the inbox read, it checks the memberships of every watch open in
 * this process against the database in one query (per {@link MEMBERSHIP_CHECK_CHUNK}) and ends
 * the watches whose membership another process ended. The notification of that end usually does
 * it in milliseconds; this sweep keeps the protocol's 5 s watch bound when the notification is
 * lost. Only the watches open when the sweep took its snapshot are ended, so a watch opened on a
 * membership renewed meanwhile (left, then joined again) stays. One sweep at a time; one asked
 * for meanwhile runs once the current one ends. A failed read (database away) is skipped until
 * the next tick. Its owner's timer drives it (`PostgresWatchFeed`'s safety poll).
 *
 * @example
 * const sweep = new MembershipSweep(endedMembershipReader(query));
 * sweep.attach(target); await sweep.sweep();
 */
export class MembershipSweep {
  readonly #read: EndedMembershipReader;
  readonly #onEnded: ((count: number) => void) | undefined;
  #target: WatchFeedTarget | undefined;
  #running: Promise<void> | undefined;
  #again = false;

  /** `onEnded` hears how many memberships a sweep found ended (for the log), when any. */
  constructor(read: EndedMembershipReader, onEnded?: (count: number) => void) {
    this.#read = read;
    this.#onEnded = onEnded;
  }

  /** Sweeps `target`'s watches from now on. */
  attach(target: WatchFeedTarget): void {
    this.#target = target;
  }

  /** Checks every watched membership now (the safety poll's tick; a resync; tests). Never rejects. */
  sweep(): Promise<void> {
    if (this.#running !== undefined) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#loop().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #loop(): Promise<void> {
    do {
      this.#again = false;
      await this.#once();
    } while (this.#again);
  }

  async #once(): Promise<void> {
    const target = this.#target;
    if (target === undefined) return;
    const { memberships, asOf } = target.watchedMemberships();
    let ended = 0;
    for (let i = 0; i < memberships.length; i += MEMBERSHIP_CHECK_CHUNK) {
      let found: WatchedMembership[];
      try {
        found = await this.#read(memberships.slice(i, i + MEMBERSHIP_CHECK_CHUNK));
      } catch {
        // The database is away: the next tick checks again.
        return;
      }
      for (const { principalRef, teamRef } of found) target.revoke(principalRef, teamRef, asOf);
      ended += found.length;
    }
    if (ended > 0) this.#onEnded?.(ended);
  }
}
