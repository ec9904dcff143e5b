import { rmSync } from "node:fs";
import { isJsonObject, parseJsonDocument } from "../../protocol/index.ts";
import { readPrivateStateFile, writePrivateStateFile } from "./private-state-file.ts";
import type { StateLayout } from "./state-layout.ts";

/**
 * How a message was last shown to the model without the inbox socket: `frame` (a hook printed its
 * frame), `notice` (a hook printed the line asking the model to run `brigade inbox show <id>`,
 * because the frame is too long for a hook), `show` (`brigade inbox show` printed the frame).
 *
 * @example SHOWN_AS.includes("notice") === true
 */
export const SHOWN_AS = ["frame", "notice", "show"] as const;

/** One of {@link SHOWN_AS}. */
export type ShownAs = (typeof SHOWN_AS)[number];

/**
 * A message shown to the model by a hook or by `brigade inbox show`, not yet seen in the
 * conversation: it stays unacknowledged until a later hook run finds its whole frame in the
 * transcript (docs/42-hooks.md "Acked means read").
 */
export interface ShownRecord {
  readonly message_id: string;
  /** The sender's session id: the sender's later messages wait behind this one. */
  readonly sender_session_id: string;
  readonly shown_as: ShownAs;
  /** SHA-256 (hex) of the frame's UTF-8 bytes: the evidence looked for in the transcript. */
  readonly frame_sha256: string;
  /** When it was last shown, ms since the epoch. */
  readonly shown_at: number;
  /** The transcript it was shown into (absolute, or `""` when none was known). */
  readonly transcript_path: string;
  /** The transcript's size when it was shown, bytes: its record comes after this point. */
  readonly transcript_offset: number;
}

/** Most records kept per session (the newest). */
export const MAX_SHOWN_RECORDS = 200;

const MAX_SHOWN_FILE_BYTES = 262_144;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * The records of `state/shown/<stem>.json` (`{version: 1, records: [...]}`), oldest first, at
 * most {@link MAX_SHOWN_RECORDS}, one per message id (the last one wins). Missing, foreign,
 * non-private or malformed files and malformed records read as nothing: a message whose record
 * is lost is shown again, never acked unseen. Never throws.
 *
 * @example readShownRecords(layout, "s-1", uid).map((r) => r.message_id)
 */
export function readShownRecords(
  layout: StateLayout,
  sessionId: string,
  uid: number,
): ShownRecord[] {
  const read = readPrivateStateFile(layout.shown(sessionId), {
    maxBytes: MAX_SHOWN_FILE_BYTES,
    uid,
  });
  if (read.kind !== "ok") return [];
  const parsed = parseJsonDocument(read.bytes, { maxBytes: MAX_SHOWN_FILE_BYTES });
  if (!parsed.ok || !isJsonObject(parsed.value) || parsed.value.version !== 1) return [];
  const records = parsed.value.records;
  if (!Array.isArray(records)) return [];
  const byId = new Map<string, ShownRecord>();
  for (const value of records) {
    const record = shownRecordOf(value);
    if (record === undefined) continue;
    byId.delete(record.message_id);
    byId.set(record.message_id, record);
  }
  return [...byId.values()].slice(-MAX_SHOWN_RECORDS);
}

function shownRecordOf(value: unknown): ShownRecord | undefined {
  if (!isJsonObject(value)) return undefined;
  const {
    message_id: id,
    sender_session_id: sender,
    shown_as: as,
    frame_sha256: digest,
    shown_at: at,
    transcript_path: path,
    transcript_offset: offset,
  } = value;
  if (typeof id !== "string" || id === "" || id.length > 200) return undefined;
  if (typeof sender !== "string" || sender === "" || sender.length > 200) return undefined;
  if (!SHOWN_AS.some((known) => known === as)) return undefined;
  if (typeof digest !== "string" || !SHA256_HEX.test(digest)) return undefined;
  if (typeof at !== "number" || !Number.isFinite(at)) return undefined;
  if (typeof path !== "string" || path.length > 4096) return undefined;
  if (typeof offset !== "number" || !Number.isSafeInteger(offset) || offset < 0) return undefined;
  return {
    message_id: id,
    sender_session_id: sender,
    shown_as: as as ShownAs,
    frame_sha256: digest,
    shown_at: at,
    transcript_path: path,
    transcript_offset: offset,
  };
}

/**
 * Replaces the session's shown records with `records` (one per message id, the last one wins,
 * the newest {@link MAX_SHOWN_RECORDS} kept); none removes the file. Two writers racing (two
 * hooks of parallel tool calls, or a hook and `brigade inbox show`) may lose one change: a record
 * lost only makes its message shown again.
 *
 * @throws PrivateFileError when the file cannot be written privately.
 * @example writeShownRecords(layout, "s-1", [])
 */
export function writeShownRecords(
  layout: StateLayout,
  sessionId: string,
  records: readonly ShownRecord[],
): void {
  const byId = new Map<string, ShownRecord>();
  for (const record of records) {
    byId.delete(record.message_id);
    byId.set(record.message_id, record);
  }
  const kept = [...byId.values()].slice(-MAX_SHOWN_RECORDS);
  const path = layout.shown(sessionId);
  if (kept.length === 0) {
    rmSync(path, { force: true });
    return;
  }
  writePrivateStateFile(layout.root, path, `${JSON.stringify({ version: 1, records: kept })}\n`);
}
