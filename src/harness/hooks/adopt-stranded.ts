import { hasCapability, PROTOCOL_LIMITS } from "../../protocol/index.ts";
import { senderDisplayName } from "../inbound/index.ts";
import {
  type ByPidMap,
  checkoutKey,
  openSessionInbound,
  pendingFileStore,
  readCheckoutSessions,
  readPendingRecords,
  rememberCheckoutSession,
  type StateLayout,
} from "../state/index.ts";
import type { HookContext } from "./hook-context.ts";
import { HOOK_LIMITS } from "./hook-limits.ts";
import { noticeSenders } from "./hook-lines.ts";
import type { HookOutput } from "./hook-output.ts";

/**
 * Most adopted messages one SessionStart takes in: the recipient inbox cap of
 * docs/spec/protocol.md §7, which an adoption on an honest server never exceeds (the moved
 * messages count against the new session's inbox). A broken server's answer past it is not taken
 * in here, so it cannot make the hook write thousands of records within its time budget; those
 * messages are this session's on the server and reach it through the watcher like any other.
 */
export const MAX_ADOPTED_PER_START: number = PROTOCOL_LIMITS.max_unacked_per_recipient;

/**
 * The SessionStart line for messages taken over from this checkout's earlier sessions: the count
 * and up to three sender names, and where the user releases them.
 *
 * @example adoptedLine(["api"]) === "Brigade: 1 teammate message sent to an earlier session in this checkout is held for the user (from api). The user can review and release it with `brigade inbox` in their own terminal."
 */
export function adoptedLine(senderNames: readonly string[]): string {
  const from = noticeSenders(senderNames);
  const count = senderNames.length;
  const what =
    count === 1
      ? "teammate message sent to an earlier session in this checkout is"
      : "teammate messages sent to earlier sessions in this checkout are";
  const it = count === 1 ? "it" : "them";
  return (
    `Brigade: ${count} ${what} held for the user (from ${from}). ` +
    `The user can review and release ${it} with \`brigade inbox\` in their own terminal.`
  );
}

/**
 * Removes the moved messages from the earlier sessions' held records here, so `brigade inbox` no
 * longer lists them under a session that cannot receive them. A write that fails only leaves a
 * stale line in that listing.
 */
function forgetMovedRecords(
  layout: StateLayout,
  earlier: readonly string[],
  moved: readonly { readonly message_id: string }[],
  uid: number,
): void {
  const ids = new Set(moved.map((m) => m.message_id));
  for (const sessionId of earlier) {
    const records = readPendingRecords(layout, sessionId, uid);
    const kept = records.filter((r) => !ids.has(r.message_id));
    if (kept.length === records.length) continue;
    try {
      pendingFileStore(layout, sessionId).save(kept);
    } catch {
      // a stale record names a message the server no longer holds for that session
    }
  }
}

/**
 * Offers this session what this checkout's ended sessions left unacknowledged (docs/43, "Messages
 * left for an earlier session"). The checkout's earlier Brigade session ids come from the state
 * folder (`state/checkouts/`, keyed by team and checkout path, this machine only); with the
 * capability `message.adopt` one `message adopt` (capped by `adoptMs`) moves their unacknowledged
 * messages to this session on the server, which checks that each named session is the caller's
 * own, in this team, and ended. Each moved message becomes a held record (`adopted`: held
 * whatever the policy, until the user releases it), announced in one line; one already injected
 * here is acked instead. Then this session is remembered for the checkout. Call it before the
 * watcher starts, so its catch-up finds the records. Never throws.
 *
 * @example await adoptStranded(ctx, layout, map, "/home/dana/api", out);
 */
export async function adoptStranded(
  ctx: HookContext,
  layout: StateLayout,
  map: ByPidMap,
  checkout: string,
  out: HookOutput,
): Promise<void> {
  const self = map.brigade_session_id;
  const key = checkoutKey(map.team_ref, checkout);
  const earlier = readCheckoutSessions(layout, key, ctx.uid).filter((id) => id !== self);
  try {
    rememberCheckoutSession(layout, key, self, ctx.uid);
  } catch {
    ctx.log("brigade hook: checkout_sessions_not_written\n");
  }
  if (earlier.length === 0) return;
  try {
    const adapter = ctx.services.openAdapter({ configDir: map.config_dir, teamKey: map.team_key });
    const adopt = adapter.messageAdopt?.bind(adapter);
    if (adopt === undefined) return;
    if (!hasCapability((await adapter.describe()).capabilities, "message.adopt")) return;
    const result = await adopt(
      self,
      { from_session_ids: earlier },
      { signal: AbortSignal.timeout(HOOK_LIMITS.adoptMs) },
    );
    if (result.messages.length === 0) return;
    const pipeline = openSessionInbound({
      map,
      layout,
      uid: ctx.uid,
      now: ctx.now,
      delivery: "socket",
    });
    const senders: string[] = [];
    const acks: string[] = [];
    if (result.messages.length > MAX_ADOPTED_PER_START) ctx.log("brigade hook: adopt_capped\n");
    for (const envelope of result.messages.slice(0, MAX_ADOPTED_PER_START)) {
      const held = pipeline.adopt(envelope);
      if (held.outcome === "held") senders.push(senderDisplayName(envelope));
      if (held.ack) acks.push(held.messageId);
    }
    if (senders.length > 0) out.line(adoptedLine(senders));
    forgetMovedRecords(layout, earlier, result.messages, ctx.uid);
    if (acks.length > 0) {
      await adapter.messageAck(self, { message_ids: acks }, { signal: AbortSignal.timeout(500) });
    }
  } catch {
    // what was not taken over stays with the ended session; the next session tries again
    ctx.log("brigade hook: adopt_failed\n");
  }
}
