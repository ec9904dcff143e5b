import { notFoundError } from "../protocol/index.ts";
import { activeMembership, fail, ownedSession, requireMember } from "./access-checks.ts";
import { messageStateOf } from "./message-state-verbs.ts";
import { enforceRateRules } from "./rate-rules.ts";
import { base64url, sha256Hex } from "./secrets.ts";
import { DASHBOARD_LOGIN_TTL_MS, DASHBOARD_SESSION_TTL_MS } from "./service-config.ts";
import type { ServiceContext } from "./service-context.ts";
import type { MemberSummaryRow, PersonMessageRow, SessionListRow, TeamRow } from "./store.ts";
import { isLive } from "./wire-records.ts";

/** Most sessions and most messages one dashboard view holds. */
export const DASHBOARD_VIEW_LIMIT = 100;

/** Longest secret a login link or a session cookie carries that is worth a store lookup (ours are 43). */
const MAX_SECRET_CHARS = 64;

/** A login link just made: its secret (shown once, in the link) and when it stops admitting (ms). */
export interface NewWebLogin {
  readonly secret: string;
  readonly expiresAt: number;
}

/** Who a browser session signs in, and until when (ms). */
export interface WebIdentity {
  readonly principalRef: string;
  readonly teamRef: string;
  readonly expiresAt: number;
}

/** A browser session just opened: the cookie's secret (never stored), who it signs in, since when (ms). */
export interface NewWebSession extends WebIdentity {
  readonly secret: string;
  readonly openedAt: number;
}

/** A message of the view with its state at the view's time (state names of docs/20). */
export interface DashboardMessage extends PersonMessageRow {
  readonly state: "accepted" | "held" | "acked" | "refused" | "undeliverable";
  readonly state_since: number;
  /** The viewer sent it. */
  readonly outgoing: boolean;
}

/** Everything one person's dashboard shows, read in one unit of work at `now` (ms). */
export interface DashboardView {
  readonly now: number;
  readonly principalRef: string;
  readonly team: TeamRow;
  readonly viewerLabel: string | null;
  readonly isCreator: boolean;
  readonly members: readonly MemberSummaryRow[];
  /** The team's sessions, offline ones too, oldest first (at most {@link DASHBOARD_VIEW_LIMIT}). */
  readonly sessions: readonly SessionListRow[];
  /** The viewer's sent and received messages, newest first (at most {@link DASHBOARD_VIEW_LIMIT}). */
  readonly messages: readonly DashboardMessage[];
}

/**
 * Makes a one-time login link for the caller in the team: 32 random bytes (base64url), stored
 * only as their SHA-256 digest, good once for {@link DASHBOARD_LOGIN_TTL_MS}. Errors: the
 * uniform `unauthorized` for a non-member; `rate_limited` `dashboard_login` past 30 an hour.
 */
export async function createWebLogin(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
): Promise<NewWebLogin> {
  const secret = base64url(ctx.deps.randomBytes(32));
  const now = ctx.deps.now();
  const expiresAt = now + DASHBOARD_LOGIN_TTL_MS;
  await ctx.store.transact(async (tx) => {
    await requireMember(tx, teamRef, principalRef);
    await enforceRateRules(tx, "dashboard_login", { principalRef }, now);
    await tx.insertWebLogin({
      login_digest: sha256Hex(secret),
      principal_ref: principalRef,
      team_ref: teamRef,
      created_at: now,
      expires_at: expiresAt,
      used_at: null,
    });
  });
  return { secret, expiresAt };
}

/**
 * Exchanges a login link's secret for a browser session (its own 32 random bytes, stored as a
 * digest, for {@link DASHBOARD_SESSION_TTL_MS}), in one unit that takes the link: a link opens
 * one session at most, whatever races it. `null` for a secret that is unknown, used, expired, or
 * whose person is no longer an active member; never throws on a bad secret.
 */
export async function redeemWebLogin(
  ctx: ServiceContext,
  loginSecret: string,
): Promise<NewWebSession | null> {
  if (!plausibleSecret(loginSecret)) return null;
  const secret = base64url(ctx.deps.randomBytes(32));
  const now = ctx.deps.now();
  return ctx.store.transact(async (tx) => {
    const login = await tx.useWebLogin(sha256Hex(loginSecret), now);
    if (login === null) return null;
    if ((await activeMembership(tx, login.team_ref, login.principal_ref)) === null) return null;
    const expiresAt = now + DASHBOARD_SESSION_TTL_MS;
    await tx.insertWebSession({
      session_digest: sha256Hex(secret),
      principal_ref: login.principal_ref,
      team_ref: login.team_ref,
      created_at: now,
      expires_at: expiresAt,
      ended_at: null,
    });
    return {
      secret,
      principalRef: login.principal_ref,
      teamRef: login.team_ref,
      expiresAt,
      openedAt: now,
    };
  });
}

/**
 * Who the browser session whose cookie carries `sessionSecret` signs in, or `null` when it is
 * unknown, signed out, expired, or its person left or was removed from the team.
 */
export async function webIdentity(
  ctx: ServiceContext,
  sessionSecret: string,
): Promise<WebIdentity | null> {
  if (!plausibleSecret(sessionSecret)) return null;
  const now = ctx.deps.now();
  return ctx.store.transact(async (tx) => {
    const row = await tx.getWebSession(sha256Hex(sessionSecret));
    if (row === null || row.ended_at !== null || row.expires_at <= now) return null;
    if ((await activeMembership(tx, row.team_ref, row.principal_ref)) === null) return null;
    return { principalRef: row.principal_ref, teamRef: row.team_ref, expiresAt: row.expires_at };
  });
}

/** Signs the browser session out (nothing for an unknown or ended one). */
export async function endWebSession(ctx: ServiceContext, sessionSecret: string): Promise<void> {
  if (!plausibleSecret(sessionSecret)) return;
  const now = ctx.deps.now();
  await ctx.store.transact((tx) => tx.endWebSession(sha256Hex(sessionSecret), now));
}

/**
 * The person's dashboard: the team, its members and sessions, and the person's own sent and
 * received messages with their states and bodies. Errors: the uniform `unauthorized`.
 */
export async function dashboardView(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
): Promise<DashboardView> {
  const now = ctx.deps.now();
  return ctx.store.transact(async (tx) => {
    const { team, membership } = await requireMember(tx, teamRef, principalRef);
    const members = await tx.listActiveMembers(teamRef, now);
    const sessions = await tx.listTeamSessions(teamRef, {
      now,
      includeOffline: true,
      limit: DASHBOARD_VIEW_LIMIT,
    });
    const rows = await tx.personMessages(teamRef, principalRef, DASHBOARD_VIEW_LIMIT);
    const messages = rows.map((row): DashboardMessage => {
      const { state, since } = messageStateOf(row, now);
      return {
        ...row,
        state,
        state_since: since,
        outgoing: row.sender_principal_ref === principalRef,
      };
    });
    return {
      now,
      principalRef,
      team,
      viewerLabel: membership.human_label,
      isCreator: team.creator_principal_ref === principalRef,
      members,
      sessions,
      messages,
    };
  });
}

/**
 * The recipient's person decides on a held message from the dashboard: `release` records the
 * release (docs/52-dashboard.md), `refuse` reports it refused as the harness would. Only a held,
 * unacknowledged message addressed now to one of the caller's own sessions in the team; anything
 * else is the uniform `not_found`. Errors: the uniform `unauthorized` for a non-member.
 */
export async function decideHeld(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  messageId: string,
  decision: "release" | "refuse",
): Promise<void> {
  const now = ctx.deps.now();
  await ctx.store.transact(async (tx) => {
    await requireMember(tx, teamRef, principalRef);
    const message = await tx.getMessage(messageId);
    if (message === null || message.team_ref !== teamRef || message.acked_at !== null) {
      fail(notFoundError());
    }
    const session = await ownedSession(tx, teamRef, principalRef, message.recipient_session_id);
    if (session === null || !isLive(session, now)) fail(notFoundError());
    const [row] = await tx.sentMessages(message.sender_session_id, { messageIds: [messageId] });
    if (row?.disposition !== "held") fail(notFoundError());
    const done =
      decision === "release"
        ? await tx.releaseMessage(messageId, session.session_id, now)
        : await tx.setDisposition(messageId, session.session_id, "refused", now);
    if (!done) fail(notFoundError());
  });
}

/** A secret of our shape (base64url, at most {@link MAX_SECRET_CHARS}): worth a lookup. */
function plausibleSecret(secret: string): boolean {
  return (
    typeof secret === "string" &&
    secret.length > 0 &&
    secret.length <= MAX_SECRET_CHARS &&
    /^[A-Za-z0-9_-]+$/.test(secret)
  );
}
