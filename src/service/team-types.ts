/**
 * Team convention shapes (spec §4.10) as the service takes and returns them.
 */

/** `team create` input: `team_name` 1..64 code points, `human_label` ≤ 128 code points. */
export interface TeamCreateRequest {
  team_name: string;
  human_label?: string | null;
}

/** `team create` result; the only output that ever carries a secret. */
export interface TeamCreateResult {
  team_ref: string;
  team_name: string;
  join_secret: string;
  principal_ref: string;
}

/** `team join` input (the adapter keeps `backend` to itself). */
export interface TeamJoinRequest {
  join_secret: string;
  human_label?: string | null;
}

/** `team join` result; `rejoined` is true when the membership already existed. */
export interface TeamJoinResult {
  team_ref: string;
  team_name: string;
  principal_ref: string;
  rejoined: boolean;
}

/** `team leave` result. */
export interface TeamLeaveResult {
  team_ref: string;
  principal_ref: string;
  left: true;
}

/** One active member in a `team members` result. */
export interface TeamMember {
  principal_ref: string;
  /** The membership label, `null` when the member never gave one; unverified. */
  human_label: string | null;
  status: "active";
  joined_at: string;
  /** Latest `last_seen_at` over the member's sessions in the team; `null` if it never registered one. */
  last_seen_at: string | null;
  /** The member's sessions in the team that are open with a valid lease. */
  session_count: number;
}

/** `team members` result. */
export interface TeamMembersResult {
  team_ref: string;
  team_name: string;
  server_time: string;
  members: TeamMember[];
}
