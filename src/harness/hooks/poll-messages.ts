import { POLL_PREAMBLE } from "../../formats/frame/index.ts";
import type { Adapter } from "../../protocol/index.ts";
import { DispositionReporter } from "../adapter/index.ts";
import { MessageFiles } from "../attachments/index.ts";
import { type InboundItem, type InboundPipeline, senderDisplayName } from "../inbound/index.ts";
import {
  type ByPidMap,
  confirmShown,
  consumeReleaseRequests,
  FileSeenStore,
  lockShown,
  openSessionInbound,
  readShownRecords,
  type ShownRecord,
  type StateLayout,
  shownRecord,
  writeShownRecords,
} from "../state/index.ts";
import type { HookContext } from "./hook-context.ts";
import { HOOK_LIMITS } from "./hook-limits.ts";
import { inboxShowLine } from "./hook-lines.ts";
import { blockUnits, type HookOutput } from "./hook-output.ts";

/** What one poll did. */
export interface PollResult {
  /** Frames printed (shown, not acked: a later run acks them once the transcript shows them). */
  readonly printed: number;
  /** Messages announced for `brigade inbox show` (too long for a hook). */
  readonly announced: number;
  /** Ids acked by this run: shown earlier and now seen read in the transcript, or duplicates. */
  readonly acked: readonly string[];
}

/** Inputs of {@link pollMessages}. */
export interface PollOptions {
  readonly adapter: Adapter;
  readonly map: ByPidMap;
  readonly layout: StateLayout;
  readonly uid: number;
  readonly now: () => number;
  readonly out: HookOutput;
  /** UTF-16 code units of `out` to leave for lines printed after the poll. */
  readonly reserve: number;
  /** `message receive --limit` (50 at a prompt, 10 after a tool call). */
  readonly receiveLimit: number;
  /** Cap of the `message receive` call, ms. */
  readonly receiveMs: number;
  /** Cap of the closing `message ack` (and report) calls, ms, asked when they start. */
  readonly ackMs: () => number;
  /** This run's transcript (stdin `transcript_path`, else the map's); `""` when none. */
  readonly transcriptPath: string;
  /**
   * Cap of this run's attachment downloads, ms, asked when they start (default 5,000): a message
   * whose files do not arrive in time waits for a later run, which resumes the download.
   */
  readonly filesMs?: () => number;
}

/**
 * Whether `frame` is too long for a hook to show (its block, the `POLL_PREAMBLE` line and the
 * frame, is over `HOOK_LIMITS.maxPollBlockUnits` UTF-16 code units): the hooks announce such a
 * message for `brigade inbox show` instead of printing it (docs/42-hooks.md "Long messages").
 *
 * @example tooLongForHook(build(envelope, team, instruction))
 */
export function tooLongForHook(frame: string): boolean {
  return blockUnits([POLL_PREAMBLE, ...frame.split("\n")]) > HOOK_LIMITS.maxPollBlockUnits;
}

/** Why a message handed out is left to the server this run (never acked). */
const LEFT_FOR_LATER = new Error("left for a later hook run");

/**
 * The pull paths' delivery (docs/42-hooks.md "Acked means read", "Long messages"; the prompt
 * hook's poll and PostToolUse): first the messages shown by earlier runs whose whole frame the
 * transcript now shows the model read are recorded as seen; then `message receive`
 * (`receiveLimit`, capped by `receiveMs`), the terminal's release requests, and every envelope
 * through the inbound pipeline (delivery `poll`). In the pipeline's order (each sender oldest
 * first): a notice prints as one line; a frame prints as `POLL_PREAMBLE` and the bare frame,
 * whole or not at all, within `out`'s budget (UTF-16 code units, `reserve` left over). A frame
 * over `HOOK_LIMITS.maxPollBlockUnits` is announced instead by one line naming `brigade inbox
 * show <id>`. A message that does not fit this run, that was announced, or that was shown less
 * than a minute ago and not yet seen read, waits, and its sender's later messages wait behind
 * it; other senders go on. Nothing printed is acked: it is recorded as shown (`state/shown/`),
 * and a later run acks it once the transcript shows the model read it. Then one `message ack`
 * of the confirmed ids and the duplicates, capped by `ackMs`, beside the held and refused
 * reports. One run at a time per session (`lockShown`: PostToolUse hooks of parallel tool calls run
 * at once); a run that finds another holding the lock does nothing. Never throws.
 *
 * @example await pollMessages({ adapter, map, layout, uid, now: Date.now, out, reserve: 800, receiveLimit: 50, receiveMs: 4000, ackMs: () => 500, transcriptPath });
 */
export async function pollMessages(options: PollOptions): Promise<PollResult> {
  const release = lockShown(options.layout, options.map.brigade_session_id);
  if (release === undefined) return { printed: 0, announced: 0, acked: [] };
  try {
    return await pollLocked(options);
  } finally {
    release();
  }
}

async function pollLocked(options: PollOptions): Promise<PollResult> {
  const { adapter, map, layout, uid } = options;
  const sessionId = map.brigade_session_id;
  const seen = FileSeenStore.open(layout, sessionId, uid);
  const { confirmed, unconfirmed } = confirmShown(readShownRecords(layout, sessionId, uid));
  const acks = new Set(markSeen(seen, confirmed));
  let envelopes: readonly unknown[];
  try {
    const received = await adapter.messageReceive(sessionId, {
      limit: options.receiveLimit,
      signal: AbortSignal.timeout(options.receiveMs),
    });
    envelopes = received.messages;
  } catch {
    saveShown(layout, sessionId, unconfirmed);
    const acked = await ackIds(adapter, sessionId, [...acks], options.ackMs);
    return { printed: 0, announced: 0, acked };
  }
  const pipeline = openSessionInbound({
    map,
    layout,
    uid,
    now: options.now,
    delivery: "poll",
    seen,
  });
  pipeline.release(consumeReleaseRequests(layout, sessionId, uid));
  const reporter = new DispositionReporter(adapter, sessionId);
  const fetched = new Set<string>();
  for (const envelope of envelopes) {
    const id = messageIdOf(envelope);
    if (id !== undefined) fetched.add(id);
    try {
      const offered = pipeline.offer(envelope);
      if (offered.ack) acks.add(offered.messageId);
      if (offered.outcome !== "rejected") reporter.note(offered.outcome, offered.messageId);
    } catch {
      // a pending file that cannot be written: the message stays unacked on the server
    }
  }
  // A fetch shorter than its limit returned every message still waiting: a record of one it did
  // not return (acked elsewhere, expired) holds nothing back any more.
  const complete = envelopes.length < options.receiveLimit;
  const shown = new Map<string, ShownRecord>();
  for (const record of unconfirmed) {
    if (!complete || fetched.has(record.message_id)) shown.set(record.message_id, record);
  }
  const files = new MessageFiles({
    adapter,
    sessionId,
    project: map.checkout,
  });
  const printed = await printItems(pipeline, shown, options, files);
  saveShown(layout, sessionId, [...shown.values()]);
  // Reported beside the ack, within the same budget: the sender reads held and refused as states.
  const reported = reporter.flush(AbortSignal.timeout(Math.max(1, options.ackMs())));
  const acked = await ackIds(adapter, sessionId, [...acks], options.ackMs);
  await reported;
  return { ...printed, acked };
}

/**
 * Prints what the pipeline hands out, in its order, under the rules of {@link pollMessages};
 * `shown` (by message id, oldest first) gets a record for each message shown now.
 */
async function printItems(
  pipeline: InboundPipeline,
  shown: Map<string, ShownRecord>,
  options: PollOptions,
  files: MessageFiles,
): Promise<{ printed: number; announced: number }> {
  const { out } = options;
  const room = () => out.remaining - options.reserve;
  const now = options.now();
  let printed = 0;
  let announced = 0;
  const record = (item: Extract<InboundItem, { kind: "message" }>, as: "frame" | "notice") => {
    shown.delete(item.message.message_id);
    shown.set(
      item.message.message_id,
      shownRecord(item.message, as, item.frame, options.transcriptPath, now),
    );
  };
  const filesSignal = AbortSignal.timeout(Math.max(1, options.filesMs?.() ?? 5_000));
  for (;;) {
    // A message's files are received before it can be printed; one that fails stays unacked.
    if ((await files.settleHead(pipeline, filesSignal)) === "failed") continue;
    const item = pipeline.next();
    if (item === undefined) break;
    if (item.kind === "notice") {
      if (blockUnits([item.text]) <= room()) out.line(item.text);
      pipeline.done(item);
      continue;
    }
    if (item.kind === "files") {
      pipeline.done(item, LEFT_FOR_LATER);
      continue;
    }
    const before = shown.get(item.message.message_id);
    if (before !== undefined && now - before.shown_at < HOOK_LIMITS.reshowAfterMs) {
      // Shown moments ago and not yet seen read: it waits, and so do its sender's later ones.
      pipeline.done(item, LEFT_FOR_LATER);
      continue;
    }
    const block = [POLL_PREAMBLE, ...item.frame.split("\n")];
    if (tooLongForHook(item.frame)) {
      // Too long for any hook output: the model reads it through `brigade inbox show`, and the
      // sender's later messages wait until it has (the pipeline takes them back with it).
      const line = inboxShowLine(senderDisplayName(item.message), item.message.message_id);
      if (blockUnits([line]) <= room() && out.line(line)) {
        record(item, "notice");
        announced += 1;
      }
      pipeline.done(item, LEFT_FOR_LATER);
      continue;
    }
    if (blockUnits(block) > room() || !out.block(block)) {
      // The next run shows it first: nothing newer of its sender goes ahead of it.
      pipeline.done(item, LEFT_FOR_LATER);
      continue;
    }
    // Shown, not acked: it stays handed out until a later run sees the model read it.
    record(item, "frame");
    printed += 1;
  }
  return { printed, announced };
}

/**
 * The confirmation alone, for a hook run that delivers nothing itself (beside a running watcher,
 * under `hold` or `refuse`, or a prompt that does not poll): the messages shown earlier whose
 * whole frame the transcript now shows the model read are recorded as seen and acked (one
 * `message ack` through `ctx`'s adapter, capped at 1 s and by `deadline`); the others stay
 * recorded. No record → nothing is opened. Returns the ids acked. Never throws.
 *
 * @example await confirmShownMessages(ctx, layout, map, Date.now() + 4_500);
 */
export async function confirmShownMessages(
  ctx: HookContext,
  layout: StateLayout,
  map: ByPidMap,
  deadline: number,
): Promise<readonly string[]> {
  const sessionId = map.brigade_session_id;
  if (readShownRecords(layout, sessionId, ctx.uid).length === 0) return [];
  const release = lockShown(layout, sessionId);
  if (release === undefined) return [];
  let ids: string[];
  try {
    const { confirmed, unconfirmed } = confirmShown(readShownRecords(layout, sessionId, ctx.uid));
    if (confirmed.length === 0) return [];
    ids = markSeen(FileSeenStore.open(layout, sessionId, ctx.uid), confirmed);
    saveShown(layout, sessionId, unconfirmed);
  } finally {
    release();
  }
  try {
    const adapter = ctx.services.openAdapter({ configDir: map.config_dir, teamKey: map.team_key });
    return await ackIds(adapter, sessionId, ids, () => Math.min(1_000, deadline - ctx.now() - 50));
  } catch {
    return [];
  }
}

/**
 * Records the confirmed messages as seen, so that a later fetch meets them as duplicates (acked,
 * never shown again) even when the ack below fails. Returns their ids.
 */
function markSeen(seen: FileSeenStore, confirmed: readonly ShownRecord[]): string[] {
  const ids = confirmed.map((r) => r.message_id);
  for (const id of ids) {
    try {
      seen.add(id);
    } catch {
      // the ack still runs; without the seen file a later fetch shows the message again
    }
  }
  return ids;
}

/** One `message ack` of `ids` (none → no call); the ids acked, `[]` when it failed. */
async function ackIds(
  adapter: Adapter,
  sessionId: string,
  ids: readonly string[],
  ackMs: () => number,
): Promise<readonly string[]> {
  if (ids.length === 0) return [];
  try {
    await adapter.messageAck(
      sessionId,
      { message_ids: [...ids] },
      { signal: AbortSignal.timeout(Math.max(1, ackMs())) },
    );
    return ids;
  } catch {
    // unacked messages come back; the seen file makes them duplicates, acked next time
    return [];
  }
}

function saveShown(layout: StateLayout, sessionId: string, records: readonly ShownRecord[]): void {
  try {
    writeShownRecords(layout, sessionId, records);
  } catch {
    // a record lost only makes its message shown again, never acked unseen
  }
}

function messageIdOf(envelope: unknown): string | undefined {
  if (typeof envelope !== "object" || envelope === null) return undefined;
  const id = (envelope as { readonly message_id?: unknown }).message_id;
  return typeof id === "string" ? id : undefined;
}
