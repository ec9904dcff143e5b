import { rmSync } from "node:fs";
import { isJsonObject, parseJsonDocument } from "../../protocol/index.ts";
import { readPrivateStateFile, writePrivateStateFile } from "./private-state-file.ts";
import type { StateLayout } from "./state-layout.ts";

/** One message this session sent whose state the prompt hook still checks. */
export interface TrackedSend {
  readonly message_id: string;
  /** When `brigade send` recorded it, ms since the epoch. */
  readonly sent_at: number;
}

/** Most sent messages tracked per session (the newest are kept). */
export const MAX_TRACKED_SENDS = 50;

/**
 * How long a sent message is tracked, ms: the 7-day floor for unacknowledged messages
 * (docs/spec/protocol.md §6.9), after which the server may have collected it.
 */
export const TRACKED_SEND_MS = 604_800_000;

const MAX_SENT_FILE_BYTES = 65_536;

/**
 * The tracked sends of `state/sent/<stem>.json` (`{version: 1, messages: [...]}`), oldest first,
 * at most {@link MAX_TRACKED_SENDS}, none older than {@link TRACKED_SEND_MS} at `now`. Missing,
 * foreign, non-private or malformed → `[]` (a planted file can only cost a lookup). Never throws.
 *
 * @example readTrackedSends(layout, "s-1", uid, Date.now())
 */
export function readTrackedSends(
  layout: StateLayout,
  sessionId: string,
  uid: number,
  now: number,
): TrackedSend[] {
  const read = readPrivateStateFile(layout.sent(sessionId), { maxBytes: MAX_SENT_FILE_BYTES, uid });
  if (read.kind !== "ok") return [];
  const parsed = parseJsonDocument(read.bytes, { maxBytes: MAX_SENT_FILE_BYTES });
  if (!parsed.ok || !isJsonObject(parsed.value) || parsed.value.version !== 1) return [];
  const messages = parsed.value.messages;
  if (!Array.isArray(messages)) return [];
  const out: TrackedSend[] = [];
  for (const m of messages) {
    if (!isJsonObject(m)) continue;
    const { message_id: id, sent_at: at } = m;
    if (typeof id !== "string" || id === "" || id.length > 128) continue;
    if (typeof at !== "number" || !Number.isFinite(at) || now - at > TRACKED_SEND_MS) continue;
    if (!out.some((t) => t.message_id === id)) out.push({ message_id: id, sent_at: at });
  }
  return out.slice(-MAX_TRACKED_SENDS);
}

/**
 * Rewrites the tracked sends: `add` appended (unless already tracked), `drop` removed, trimmed
 * to the newest {@link MAX_TRACKED_SENDS}; an empty list removes the file. Two writers racing
 * (a send and a prompt hook) may lose one change: at worst a notice is missed or repeated once.
 *
 * @throws PrivateFileError when the file cannot be written privately.
 * @example updateTrackedSends(layout, "s-1", uid, Date.now(), { add: ["m-1"] })
 */
export function updateTrackedSends(
  layout: StateLayout,
  sessionId: string,
  uid: number,
  now: number,
  change: { readonly add?: readonly string[]; readonly drop?: readonly string[] },
): void {
  const drop = new Set(change.drop ?? []);
  const kept = readTrackedSends(layout, sessionId, uid, now).filter((t) => !drop.has(t.message_id));
  for (const id of change.add ?? []) {
    if (!kept.some((t) => t.message_id === id)) kept.push({ message_id: id, sent_at: now });
  }
  const messages = kept.slice(-MAX_TRACKED_SENDS);
  const path = layout.sent(sessionId);
  if (messages.length === 0) {
    rmSync(path, { force: true });
    return;
  }
  writePrivateStateFile(layout.root, path, `${JSON.stringify({ version: 1, messages })}\n`);
}
