import {
  INVITATION_LIMITS,
  PROTOCOL_LIMITS,
  type RateLimitedReason,
  rateLimitedError,
} from "../protocol/index.ts";
import { fail } from "./access-checks.ts";
import {
  CAP_RETRY_AFTER_MS,
  DASHBOARD_LOGIN_LINKS_PER_HOUR,
  JOIN_ATTEMPT_LIMIT,
  JOIN_ATTEMPT_WINDOW_MS,
  REGISTER_RATE,
  TEAM_CREATE_RATE,
} from "./service-config.ts";
import type { StoreTx, WindowCount } from "./store.ts";

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Whose events a principal-level rule counts. */
export interface PrincipalSubject {
  readonly principalRef: string;
}

/** Whose events a `message send` rule counts: the principal and the two sessions. */
export interface SendSubject extends PrincipalSubject {
  readonly senderSessionId: string;
  readonly recipientSessionId: string;
}

/** Whose events a team-level rule counts. */
export interface TeamSubject {
  readonly teamRef: string;
}

/** The subject each rate-limited verb is counted for. */
export interface RateSubjects {
  readonly team_create: PrincipalSubject;
  readonly team_invite: TeamSubject;
  readonly dashboard_login: PrincipalSubject;
  readonly team_join: PrincipalSubject;
  readonly session_register: PrincipalSubject;
  readonly message_send: SendSubject;
}

/** A verb that is rate limited; its rules are in {@link RATE_RULES}. */
export type RateLimitedVerb = keyof RateSubjects;

/**
 * One limit: refuse with `rate_limited` `reason` once `count` reaches `limit`.
 *
 * - A **window** rule (`windowMs` a number) counts the subject's events with time after
 *   `now − windowMs`; its `retry_after_ms` is the time until the oldest counted event leaves the
 *   window, at least 1 ms (docs/spec/protocol.md §6.12).
 * - A **cap** rule (`windowMs: null`) counts what is standing now (unacknowledged messages), which
 *   only an ack lowers; its `retry_after_ms` is the fixed hint {@link CAP_RETRY_AFTER_MS}.
 */
export interface RateRule<S> {
  readonly reason: RateLimitedReason;
  readonly limit: number;
  readonly windowMs: number | null;
  /** Counts the subject's events since `since` (ms; ignored by a cap rule). */
  readonly count: (tx: StoreTx, subject: S, since: number) => Promise<WindowCount>;
}

async function standing(count: Promise<number>): Promise<WindowCount> {
  return { count: await count, oldest: null };
}

/**
 * Every rate rule of the service, per verb, **in the order they are checked**: the first rule that
 * trips decides the answer, and later rules are not even counted. For `message_send` this is steps
 * (h) and (i) of docs/spec/protocol.md §6.16 — the four sliding windows, then the per-pair cap
 * **before** the inbox cap (a MUST, so that one sender cannot make an inbox look full to others).
 * The limits are the protocol's (docs/spec/protocol.md §6.12) for sends and ours
 * (service-config.ts) for the rest. `team_join` counts failed attempts only (a success records
 * nothing).
 */
export const RATE_RULES: { readonly [V in RateLimitedVerb]: readonly RateRule<RateSubjects[V]>[] } =
  {
    team_create: [
      {
        reason: "create_team",
        limit: TEAM_CREATE_RATE.per_hour,
        windowMs: HOUR_MS,
        count: (tx, s, since) => tx.teamsCreatedSince(s.principalRef, since),
      },
      {
        reason: "create_team",
        limit: TEAM_CREATE_RATE.per_day,
        windowMs: DAY_MS,
        count: (tx, s, since) => tx.teamsCreatedSince(s.principalRef, since),
      },
    ],
    team_invite: [
      {
        reason: "create_invitation",
        limit: INVITATION_LIMITS.per_team_per_day,
        windowMs: DAY_MS,
        count: (tx, s, since) => tx.invitationsCreatedSince(s.teamRef, since),
      },
    ],
    dashboard_login: [
      {
        reason: "dashboard_login",
        limit: DASHBOARD_LOGIN_LINKS_PER_HOUR,
        windowMs: HOUR_MS,
        count: (tx, s, since) => tx.webLoginsSince(s.principalRef, since),
      },
    ],
    team_join: [
      {
        reason: "join_attempts",
        limit: JOIN_ATTEMPT_LIMIT,
        windowMs: JOIN_ATTEMPT_WINDOW_MS,
        count: (tx, s, since) => tx.joinFailuresSince(s.principalRef, since),
      },
    ],
    session_register: [
      {
        reason: "register_session",
        limit: REGISTER_RATE.per_minute,
        windowMs: MINUTE_MS,
        count: (tx, s, since) => tx.sessionsCreatedSince(s.principalRef, since),
      },
      {
        reason: "register_session",
        limit: REGISTER_RATE.per_hour,
        windowMs: HOUR_MS,
        count: (tx, s, since) => tx.sessionsCreatedSince(s.principalRef, since),
      },
    ],
    message_send: [
      {
        reason: "send_per_minute",
        limit: PROTOCOL_LIMITS.send_rate.per_minute,
        windowMs: MINUTE_MS,
        count: (tx, s, since) => tx.sentBySessionSince(s.senderSessionId, since),
      },
      {
        reason: "send_per_hour",
        limit: PROTOCOL_LIMITS.send_rate.per_hour,
        windowMs: HOUR_MS,
        count: (tx, s, since) => tx.sentBySessionSince(s.senderSessionId, since),
      },
      {
        reason: "principal_per_minute",
        limit: PROTOCOL_LIMITS.principal_send_rate.per_minute,
        windowMs: MINUTE_MS,
        count: (tx, s, since) => tx.sentByPrincipalSince(s.principalRef, since),
      },
      {
        reason: "principal_per_hour",
        limit: PROTOCOL_LIMITS.principal_send_rate.per_hour,
        windowMs: HOUR_MS,
        count: (tx, s, since) => tx.sentByPrincipalSince(s.principalRef, since),
      },
      {
        reason: "sender_quota_for_recipient",
        limit: PROTOCOL_LIMITS.max_unacked_per_sender_recipient,
        windowMs: null,
        count: (tx, s) => standing(tx.unackedFromTo(s.senderSessionId, s.recipientSessionId)),
      },
      {
        reason: "recipient_inbox_full",
        limit: PROTOCOL_LIMITS.max_unacked_per_recipient,
        windowMs: null,
        count: (tx, s) => standing(tx.unackedFor(s.recipientSessionId)),
      },
    ],
  };

/** The first rule that trips: its reason and `retry_after_ms`. */
export interface TrippedRule {
  readonly reason: RateLimitedReason;
  readonly retryAfterMs: number;
}

/**
 * The first rule of `verb` that trips for `subject` at `now` (ms), walking the table in order
 * inside the verb's transaction, or `null` when none does. Counts one rule at a time, so a
 * refusal costs no more store reads than the rules before it.
 */
export async function findTrippedRule<V extends RateLimitedVerb>(
  tx: StoreTx,
  verb: V,
  subject: RateSubjects[V],
  now: number,
): Promise<TrippedRule | null> {
  for (const rule of RATE_RULES[verb]) {
    const since = rule.windowMs === null ? now : now - rule.windowMs;
    const counted = await rule.count(tx, subject, since);
    if (counted.count < rule.limit) continue;
    return { reason: rule.reason, retryAfterMs: retryAfterMs(rule.windowMs, counted, now) };
  }
  return null;
}

/**
 * Checks the rules of `verb` for `subject` at `now` (ms) in table order (see
 * {@link findTrippedRule}) and throws `rate_limited` with the first tripped rule's reason and
 * `retry_after_ms`; returns when none trips.
 */
export async function enforceRateRules<V extends RateLimitedVerb>(
  tx: StoreTx,
  verb: V,
  subject: RateSubjects[V],
  now: number,
): Promise<void> {
  const tripped = await findTrippedRule(tx, verb, subject, now);
  if (tripped !== null) fail(rateLimitedError(tripped.reason, tripped.retryAfterMs));
}

function retryAfterMs(windowMs: number | null, counted: WindowCount, now: number): number {
  if (windowMs === null) return CAP_RETRY_AFTER_MS;
  return Math.max(1, (counted.oldest ?? now) + windowMs - now);
}
