import type { TeamRow } from "./store.ts";

/**
 * Whether the team's transfer offer (`team transfer`) still stands at `now` (ms): one is recorded
 * and its `offer_expires_at` is later than `now`. An offer whose end is `now` or earlier has
 * lapsed: `team accept-transfer` refuses it (`transfer_offer_expired`) and the dashboard no
 * longer shows it. A row with an offer and no end (none is written so) stands.
 *
 * @example offerStands({ ...team, offered_to_principal_ref: "p-2", offer_expires_at: 10 }, 9) === true
 */
export function offerStands(team: TeamRow, now: number): boolean {
  if (team.offered_to_principal_ref === null) return false;
  return team.offer_expires_at === null || team.offer_expires_at > now;
}
