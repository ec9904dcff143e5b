import { sanitizeId } from "../../formats/sanitize/index.ts";
import { hasCapability, type MessageStateRecord } from "../../protocol/index.ts";
import { type ByPidMap, readTrackedSends, updateTrackedSends } from "../state/index.ts";
import type { HookContext } from "./hook-context.ts";
import { HOOK_LIMITS } from "./hook-limits.ts";
import type { HookOutput } from "./hook-output.ts";
import type { HookSession } from "./session-start-hook.ts";

/** Most message ids one undeliverable notice names. */
const NAMED = 3;

/**
 * The prompt hook's line for messages this session sent that became undeliverable (their
 * recipient session closed, or its lease lapsed, with them unacknowledged), naming up to three
 * ids and recipients. Worded as `brigade send`'s undeliverable state (`MESSAGE_STATE_SENTENCES`).
 *
 * @example undeliverableLine([{ message_id: "m-1", recipient_session_id: "s-2", … }])
 */
export function undeliverableLine(records: readonly MessageStateRecord[]): string {
  const named = records
    .slice(0, NAMED)
    .map((r) => `${sanitizeId(r.message_id)} to ${sanitizeId(r.recipient_session_id)}`);
  const more = records.length > NAMED ? ` and ${records.length - NAMED} more` : "";
  const count = records.length;
  const noun = count === 1 ? "message you sent was" : "messages you sent were";
  return (
    `Brigade: ${count} ${noun} not delivered: the recipient session ended or went silent ` +
    "(closed, or its lease ran out without a heartbeat) before taking it in " +
    `(${named.join(", ")}${more}). It waits on the server for that session, or for its user's ` +
    "next session in the same checkout; `brigade sent` shows what becomes of it."
  );
}

/**
 * Tells the sender, once, about its messages that became undeliverable (docs/43-session-cli.md):
 * the sends `brigade send` tracked are looked up with one `message state` (capability
 * `message.state`, capped by `stateCheckMs` and the prompt budget); an undeliverable one is
 * announced and no longer tracked, and so is one in the recipient's context, refused or no longer
 * known; accepted and held ones stay tracked. Nothing tracked → no call. Never throws.
 *
 * @example await noticeUndeliverable(ctx, where, map, out, deadline);
 */
export async function noticeUndeliverable(
  ctx: HookContext,
  where: HookSession,
  map: ByPidMap,
  out: HookOutput,
  deadline: number,
): Promise<void> {
  const self = map.brigade_session_id;
  const tracked = readTrackedSends(where.layout, self, ctx.uid, ctx.now());
  if (tracked.length === 0) return;
  const ms = Math.min(HOOK_LIMITS.stateCheckMs, deadline - ctx.now() - 200);
  if (ms < 100) return;
  try {
    const adapter = ctx.services.openAdapter({ configDir: map.config_dir, teamKey: map.team_key });
    const lookup = adapter.messageState?.bind(adapter);
    if (lookup === undefined) return;
    if (!hasCapability((await adapter.describe()).capabilities, "message.state")) return;
    const result = await lookup(
      self,
      { message_ids: tracked.map((t) => t.message_id) },
      { signal: AbortSignal.timeout(ms) },
    );
    const ended = result.messages.filter((m) => m.state === "undeliverable");
    const settled = result.messages.filter((m) => m.state !== "accepted" && m.state !== "held");
    if (ended.length > 0) out.line(undeliverableLine(ended));
    const drop = [...settled.map((m) => m.message_id), ...result.unknown];
    if (drop.length > 0) {
      updateTrackedSends(where.layout, self, ctx.uid, ctx.now(), { drop });
    }
  } catch {
    ctx.log("brigade hook: state_check_failed\n");
  }
}
