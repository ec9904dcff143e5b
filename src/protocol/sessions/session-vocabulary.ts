/**
 * `activity` values a harness reports (docs/spec/protocol.md §4.3): `busy` makes a live session
 * `active`.
 *
 * @example
 * ACTIVITIES.includes("busy") === true;
 */
export const ACTIVITIES = ["busy", "idle"] as const;

/** A session's reported activity. */
export type Activity = (typeof ACTIVITIES)[number];

/**
 * `inbound` values: the harness's policy for incoming messages, shown to senders
 * (docs/spec/protocol.md §4.3).
 *
 * @example
 * INBOUND_POLICIES; // ["accept", "hold", "refuse"]
 */
export const INBOUND_POLICIES = ["accept", "hold", "refuse"] as const;

/** A session's inbound policy. */
export type InboundPolicy = (typeof INBOUND_POLICIES)[number];

/**
 * Session `state` values, computed by the adapter with its own clock
 * (docs/spec/protocol.md §4.4, §6.8): `offline` when the lease expired or the session is closed,
 * `active` when live and busy, `idle` otherwise.
 *
 * @example
 * SESSION_STATES; // ["active", "idle", "offline"]
 */
export const SESSION_STATES = ["active", "idle", "offline"] as const;

/** A session state. */
export type SessionState = (typeof SESSION_STATES)[number];
