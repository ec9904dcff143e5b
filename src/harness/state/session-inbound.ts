import { type InboundDelivery, InboundPipeline, type SeenStore } from "../inbound/index.ts";
import type { ByPidMap } from "./by-pid-map.ts";
import { pendingFileStore, readPendingRecords } from "./pending-file.ts";
import { FileSeenStore } from "./seen-file.ts";
import { sha256Hex } from "./sha256-hex.ts";
import type { StateLayout } from "./state-layout.ts";

/** What {@link openSessionInbound} takes: the session's map, its state folder and the delivery. */
export interface SessionInboundOptions {
  /** The session's by-pid map: its Brigade session id, policy, team name and frame level. */
  readonly map: Pick<
    ByPidMap,
    "brigade_session_id" | "inbound" | "team_name" | "frame_level" | "frame_text"
  >;
  readonly layout: StateLayout;
  readonly uid: number;
  /** The clock, ms since the epoch. */
  readonly now: () => number;
  /** `socket` for the watcher and an adoption the watcher delivers, `poll` for hook output. */
  readonly delivery: InboundDelivery;
  /** The session's seen file when the caller already opened it; otherwise it is opened here. */
  readonly seen?: SeenStore;
}

/**
 * The inbound pipeline of one session of ours over its state files
 * (docs/spec/claude-code.md §7.5): the seen file and the pending file keyed by the Brigade session
 * id, the held records an earlier run left, the map's policy, team name and frame level, and the body digest
 * ({@link sha256Hex}). Every place that takes messages in (the watcher, the prompt poll, the
 * PostToolUse hook, an adoption at SessionStart) opens it here, so they agree on what was seen
 * and held. Never throws: unreadable state files read as empty.
 *
 * @example const pipeline = openSessionInbound({ map, layout, uid, now: Date.now, delivery: "poll" });
 */
export function openSessionInbound(options: SessionInboundOptions): InboundPipeline {
  const { map, layout, uid } = options;
  const sessionId = map.brigade_session_id;
  return new InboundPipeline({
    now: options.now,
    hashBody: sha256Hex,
    seen: options.seen ?? FileSeenStore.open(layout, sessionId, uid),
    pendingStore: pendingFileStore(layout, sessionId),
    pendingRecords: readPendingRecords(layout, sessionId, uid),
    policy: map.inbound,
    teamName: map.team_name,
    instruction: { level: map.frame_level, custom: map.frame_text },
    delivery: options.delivery,
  });
}
