import {
  readTranscriptWindow,
  shownFrames,
  TRANSCRIPT_READ_MAX_BYTES,
  transcriptEnd,
} from "../claude-code/index.ts";
import { sha256Hex } from "./sha256-hex.ts";
import type { ShownAs, ShownRecord } from "./shown-file.ts";

/** Most transcript windows one confirmation reads (each at most 1 MiB). */
const MAX_WINDOWS = 4;

/**
 * The record of a message shown to the model now (docs/42-hooks.md "Acked means read"): its
 * frame's SHA-256, the time, and where in the transcript its entry will come (the file's size
 * now; `transcript_offset` 0 and `transcript_path` `""` when no transcript is known, which no
 * confirmation can find).
 *
 * @example shownRecord(item.message, "frame", item.frame, input.transcript_path, Date.now())
 */
export function shownRecord(
  message: { readonly message_id: string; readonly sender: { readonly session_id: string } },
  shownAs: ShownAs,
  frame: string,
  transcriptPath: string,
  now: number,
): ShownRecord {
  const end = transcriptEnd(transcriptPath);
  return {
    message_id: message.message_id,
    sender_session_id: message.sender.session_id,
    shown_as: shownAs,
    frame_sha256: sha256Hex(frame),
    shown_at: now,
    transcript_path: end === undefined ? "" : transcriptPath,
    transcript_offset: end ?? 0,
  };
}

/**
 * Splits `records` into those whose whole frame the transcript shows in the model's conversation
 * (`confirmed`: a hook's output or a tool's result as the model read it, `shownFrames`) and the
 * rest. Each record is looked for from the transcript offset it was shown at: the transcript is
 * read from the smallest such offset, 1 MiB at a time, at most four windows (a record beyond them
 * waits for a later run). A frame Claude Code showed only as a preview is not whole there, so its
 * message is not confirmed. Never throws.
 *
 * @example const { confirmed } = confirmShown(readShownRecords(layout, sessionId, uid));
 */
export function confirmShown(records: readonly ShownRecord[]): {
  readonly confirmed: ShownRecord[];
  readonly unconfirmed: ShownRecord[];
} {
  const seen = new Set<string>();
  const paths = new Set(records.map((r) => r.transcript_path).filter((p) => p !== ""));
  for (const path of paths) {
    const offsets = records
      .filter((r) => r.transcript_path === path)
      .map((r) => r.transcript_offset)
      .sort((a, b) => a - b);
    let windows = 0;
    let covered = -1;
    for (const offset of offsets) {
      if (offset < covered || windows >= MAX_WINDOWS) continue;
      windows += 1;
      covered = offset + TRANSCRIPT_READ_MAX_BYTES;
      for (const line of readTranscriptWindow(path, offset)) {
        for (const frame of shownFrames(line)) seen.add(sha256Hex(frame));
      }
    }
  }
  const confirmed: ShownRecord[] = [];
  const unconfirmed: ShownRecord[] = [];
  for (const record of records) {
    (seen.has(record.frame_sha256) ? confirmed : unconfirmed).push(record);
  }
  return { confirmed, unconfirmed };
}
