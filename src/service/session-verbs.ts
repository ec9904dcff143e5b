import {
  conflictError,
  type HeartbeatResult,
  MAX_RELEASED_IDS,
  type NotLiveReason,
  type SessionCloseResult,
  type SessionListResult,
  type SessionRegistrationResult,
  validateHeartbeatRequest,
  validateSessionRegistration,
  valueOrThrow,
} from "../protocol/index.ts";
import { fail, requireMember, requireOwnedSession } from "./access-checks.ts";
import { enforceRateRules } from "./rate-rules.ts";
import { SERVICE_LEASE, SESSION_LIST_MAX } from "./service-config.ts";
import type { ServiceContext } from "./service-context.ts";
import type { SessionRow } from "./store.ts";
import { isLive, isoTime, sessionState, toSessionRecord } from "./wire-records.ts";

const SECOND_MS = 1000;

/**
 * The stored live-delivery value a validated registration or heartbeat carries: `"yes"`, the
 * reason code, or `null` when it said nothing (a registration then stores that the harness never
 * said; a heartbeat leaves the column as it was).
 */
function liveDeliveryColumn(request: {
  live_delivery?: "yes" | "no" | null;
  live_delivery_reason?: NotLiveReason;
}): string | null {
  if (request.live_delivery === "yes") return "yes";
  if (request.live_delivery === "no" && request.live_delivery_reason !== undefined) {
    return request.live_delivery_reason;
  }
  return null;
}

/** `session list` options: `session_id` marks `is_self` (must be owned); offline only on request. */
export interface SessionListOptions {
  session_id?: string;
  include_offline?: boolean;
}

/** `session register`; the contract is `BrigadeService.registerSession`. */
export async function registerSession(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  registration: unknown,
): Promise<SessionRegistrationResult> {
  const request = valueOrThrow(validateSessionRegistration(registration, { lease: SERVICE_LEASE }));
  const lease = request.lease_seconds ?? SERVICE_LEASE.default_seconds;
  return ctx.store.transact(async (tx) => {
    // It may write the membership (the label) and reopens or adds a session a revocation closes.
    await tx.lockTeam(teamRef);
    const { membership } = await requireMember(tx, teamRef, principalRef);
    const now = ctx.deps.now();
    const resumeId = request.resume?.session_id;
    let row: SessionRow;
    let resumed = false;
    const live = liveDeliveryColumn(request);
    const fields = {
      session_name: request.session_name,
      activity: request.activity,
      inbound: request.inbound,
      session_description:
        request.session_description === "" ? null : (request.session_description ?? null),
      workspace_label: request.workspace_label ?? null,
      model: request.model ?? null,
      context_used_tokens: request.context_used_tokens ?? null,
      brigade_version: request.brigade_version ?? null,
      sync_peer: request.sync_peer ?? null,
      live_delivery: live,
      live_delivery_at: live === null ? null : now,
      harness: request.harness,
      harness_version: request.harness_version,
      lease_seconds: lease,
      lease_until: now + lease * SECOND_MS,
      last_seen_at: now,
      closed_at: null,
    };
    if (resumeId !== undefined) {
      const existing = await requireOwnedSession(tx, teamRef, principalRef, resumeId);
      if (isLive(existing, now)) fail(conflictError("session_live"));
      row = { ...existing, ...fields };
      await tx.updateSession(row);
      resumed = true;
    } else {
      await enforceRateRules(tx, "session_register", { principalRef }, now);
      row = {
        session_id: ctx.deps.newId("s"),
        team_ref: teamRef,
        principal_ref: principalRef,
        created_at: now,
        ...fields,
      };
      await tx.insertSession(row);
      await tx.markTeamUsed(teamRef, now);
    }
    let label = membership.human_label;
    const offered = request.human_label;
    if ((label === null || label === "") && typeof offered === "string" && offered !== "") {
      label = offered;
      await tx.putMembership({ ...membership, human_label: offered, updated_at: now });
    }
    return {
      ...toSessionRecord(row, label, now, false),
      resumed,
      lease_seconds: lease,
      server_time: isoTime(now),
    };
  });
}

/** `session heartbeat`; the contract is `BrigadeService.heartbeatSession`. */
export async function heartbeatSession(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  sessionId: string,
  heartbeat: unknown,
): Promise<HeartbeatResult> {
  const request = valueOrThrow(validateHeartbeatRequest(heartbeat, { lease: SERVICE_LEASE }));
  return ctx.store.transact(async (tx) => {
    await requireMember(tx, teamRef, principalRef);
    // The row is written whole: without the lock a concurrent heartbeat of the same session (the
    // watcher's and a hook's) would lose the members the other one changed, its live delivery
    // included (docs/41-watcher.md, "Concurrent heartbeats").
    await tx.lockSessionRow(sessionId);
    const session = await requireOwnedSession(tx, teamRef, principalRef, sessionId);
    if (session.closed_at !== null) fail(conflictError("session_closed"));
    const now = ctx.deps.now();
    const row: SessionRow = { ...session };
    if (request.activity != null) row.activity = request.activity;
    if (request.session_name != null) row.session_name = request.session_name;
    if (request.session_description != null) {
      row.session_description =
        request.session_description === "" ? null : request.session_description;
    }
    if (request.inbound != null) row.inbound = request.inbound;
    if (request.lease_seconds != null) row.lease_seconds = request.lease_seconds;
    if (request.model != null) row.model = request.model;
    if (request.context_used_tokens != null) row.context_used_tokens = request.context_used_tokens;
    if (request.brigade_version != null) row.brigade_version = request.brigade_version;
    if (request.sync_peer != null) row.sync_peer = request.sync_peer;
    const live = liveDeliveryColumn(request);
    if (live !== null) {
      row.live_delivery = live;
      row.live_delivery_at = now;
    }
    row.lease_until = now + row.lease_seconds * SECOND_MS;
    row.last_seen_at = now;
    // A close that committed after the read above wins: a heartbeat never reopens a session.
    if (!(await tx.updateOpenSession(row))) fail(conflictError("session_closed"));
    const result: HeartbeatResult = {
      session_id: row.session_id,
      state: sessionState(row, now),
      lease_until: isoTime(row.lease_until),
      server_time: isoTime(now),
    };
    // What its person released on the dashboard (docs/52-dashboard.md): the harness delivers it.
    const released = await tx.releasedFor(sessionId, MAX_RELEASED_IDS);
    if (released.length > 0) result.released_message_ids = released;
    return result;
  });
}

/** `session list`; the contract is `BrigadeService.listSessions`. */
export async function listSessions(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  options: SessionListOptions,
): Promise<SessionListResult> {
  return ctx.store.transact(async (tx) => {
    const { team } = await requireMember(tx, teamRef, principalRef);
    const self = options.session_id;
    if (self !== undefined) await requireOwnedSession(tx, teamRef, principalRef, self);
    const now = ctx.deps.now();
    const rows = await tx.listTeamSessions(teamRef, {
      now,
      includeOffline: options.include_offline === true,
      limit: SESSION_LIST_MAX + 1,
    });
    const truncated = rows.length > SESSION_LIST_MAX;
    return {
      team_ref: team.team_ref,
      team_name: team.team_name,
      server_time: isoTime(now),
      sessions: rows
        .slice(0, SESSION_LIST_MAX)
        .map((row) => toSessionRecord(row, row.human_label, now, row.session_id === self)),
      truncated,
    };
  });
}

/** `session close`; the contract is `BrigadeService.closeSession`. */
export async function closeSession(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  sessionId: string,
): Promise<SessionCloseResult> {
  await ctx.store.transact(async (tx) => {
    await requireMember(tx, teamRef, principalRef);
    const session = await requireOwnedSession(tx, teamRef, principalRef, sessionId);
    if (session.closed_at === null)
      await tx.updateOpenSession({ ...session, closed_at: ctx.deps.now() });
  });
  return { session_id: sessionId, state: "offline" };
}
