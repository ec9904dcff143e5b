import { SEND_REQUEST_FORBIDDEN_MEMBERS, type SendResponse } from "../../protocol/index.ts";
import type { MessageRow, StoreTx } from "../../service/index.ts";
import { overrideTx } from "./decorated-store.ts";
import { UnitDecoratingService } from "./unit-decorating-service.ts";

/**
 * The identity members a `trusted_sender` caller may claim (docs/spec/protocol.md §4.7's forbidden
 * members).
 */
export type ClaimedMembers = Partial<
  Record<(typeof SEND_REQUEST_FORBIDDEN_MEMBERS)[number], unknown>
>;

/**
 * Splits a raw `message send` document into the request the real service validates and the
 * forbidden members it carried. A non-object passes through untouched (the service refuses it).
 *
 * @example splitClaims({ body: "x", hop_count: 3 }) // { request: { body: "x" }, claims: { hop_count: 3 } }
 */
export function splitClaims(send: unknown): { request: unknown; claims: ClaimedMembers } {
  if (typeof send !== "object" || send === null || Array.isArray(send)) {
    return { request: send, claims: {} };
  }
  const request: Record<string, unknown> = { ...(send as Record<string, unknown>) };
  const claims: ClaimedMembers = {};
  for (const name of SEND_REQUEST_FORBIDDEN_MEMBERS) {
    if (Object.hasOwn(request, name)) {
      claims[name] = request[name];
      delete request[name];
    }
  }
  return { request, claims };
}

/**
 * The stored row with the caller's claims honoured where they are well-typed: `sender`
 * (`principal_ref`, `session_id`, `session_name` strings), `principal_ref`, `human_label` (string
 * or null), `team_ref`, `created_at` (RFC 3339), `hop_count` (integer ≥ 0). Others are ignored.
 *
 * @example applyClaims(row, { hop_count: 7 }).hop_count // 7
 */
export function applyClaims(row: MessageRow, claims: ClaimedMembers): MessageRow {
  const out: MessageRow = { ...row };
  const sender = claims.sender;
  if (typeof sender === "object" && sender !== null) {
    const s = sender as Record<string, unknown>;
    if (typeof s.principal_ref === "string") out.sender_principal_ref = s.principal_ref;
    if (typeof s.session_id === "string") out.sender_session_id = s.session_id;
    if (typeof s.session_name === "string") out.sender_session_name = s.session_name;
  }
  if (typeof claims.principal_ref === "string") out.sender_principal_ref = claims.principal_ref;
  if (typeof claims.human_label === "string" || claims.human_label === null) {
    out.sender_human_label = claims.human_label;
  }
  if (typeof claims.team_ref === "string") out.team_ref = claims.team_ref;
  if (typeof claims.created_at === "string") {
    const at = Date.parse(claims.created_at);
    if (Number.isFinite(at)) out.created_at = at;
  }
  const hop = claims.hop_count;
  if (typeof hop === "number" && Number.isInteger(hop) && hop >= 0) out.hop_count = hop;
  return out;
}

/**
 * The `trusted_sender` unit of work for one send by `callerRef` in `teamRef`: the sender session
 * reads as owned by the caller when it is a session of the team (so the ownership check of
 * `sender_session_id` passes for any session of the team), and the inserted message carries the
 * caller's claims ({@link applyClaims}).
 *
 * @example store.withNextTransaction((tx) => trustedSendTx(tx, p, t, "s-1", {}), () => send())
 */
export function trustedSendTx(
  tx: StoreTx,
  callerRef: string,
  teamRef: string,
  senderSessionId: unknown,
  claims: ClaimedMembers,
): StoreTx {
  return overrideTx(tx, {
    async getSession(sessionId) {
      const row = await tx.getSession(sessionId);
      if (row === null || sessionId !== senderSessionId || row.team_ref !== teamRef) return row;
      return { ...row, principal_ref: callerRef };
    },
    async insertMessage(row) {
      await tx.insertMessage(applyClaims(row, claims));
    },
  });
}

/**
 * Mutant `trusted_sender`, server half (docs/22-conformance.md, "Mutant contract"): `message send`
 * accepts the forbidden members of docs/spec/protocol.md §4.7 and honours them
 * ({@link applyClaims}), and skips the ownership check of `sender_session_id` — an active member of
 * the team may send as any session of the team (membership, team, closed-sender and recipient
 * checks stay). With the adapter half (which forwards those members) the suite must fail C-23 and
 * C-24, and nothing else.
 *
 * @example const service = new TrustedSenderService(openSqliteStore(":memory:"));
 */
export class TrustedSenderService extends UnitDecoratingService {
  /** `message send` trusting the caller's identity claims and any team session as sender. */
  override sendMessage(
    principalRef: string,
    teamRef: string,
    send: unknown,
  ): Promise<SendResponse> {
    const { request, claims } = splitClaims(send);
    const senderId = (request as Partial<Record<string, unknown>> | null)?.sender_session_id;
    return this.decorateNext(
      (tx) => trustedSendTx(tx, principalRef, teamRef, senderId, claims),
      () => super.sendMessage(principalRef, teamRef, request),
    );
  }
}
