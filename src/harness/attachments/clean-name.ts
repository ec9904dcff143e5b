import { createHash } from "node:crypto";

/** Longest cleaned name, in characters (all ASCII): the file name stays well under 255 bytes. */
export const MAX_CLEAN_NAME = 200;

/** Longest extension kept whole when a name is cut. */
const MAX_EXTENSION = 16;

const UNSAFE = /[^A-Za-z0-9._-]/g;

/**
 * The name a received file is written under, after its UUID (docs/15-attachments.md
 * "Receiving"): the sender's name with every character outside `A–Z a–z 0–9 . _ -` replaced by
 * `_` (so no `/`, no quote, no control, no shell or markup character, no Unicode look-alike), runs
 * of dots collapsed (no `..`), cut to {@link MAX_CLEAN_NAME} characters keeping a short extension
 * (a reader such as Claude Code's Read tool picks how to open a file by it). Never empty: `file`.
 *
 * @example cleanAttachmentName("../../etc/pass wd;rm -rf.txt") === "_._etc_pass_wd_rm_-rf.txt"
 */
export function cleanAttachmentName(name: string): string {
  let clean = name
    .normalize("NFC")
    .replace(UNSAFE, "_")
    .replace(/\.{2,}/g, ".");
  if (clean.length > MAX_CLEAN_NAME) {
    const dot = clean.lastIndexOf(".");
    const ext = dot > 0 && clean.length - dot <= MAX_EXTENSION ? clean.slice(dot) : "";
    clean = clean.slice(0, MAX_CLEAN_NAME - ext.length) + ext;
  }
  return clean === "" || clean === "." ? "file" : clean;
}

/**
 * The UUID-shaped (lower-case hex, 8-4-4-4-12) name prefix of one received file: derived from the
 * recipient session, the message, the file's position and its digest, so every delivery path of
 * one session (watcher, hooks, MCP) and every retry meets the same path, and a path never holds
 * another blob. Not a random UUID (no version or variant bits): the manifest does not check them
 * (docs/spec/formats.md §4.2).
 *
 * @example receivedFileId("s-1", "m-1", 0, "e3b0…").length === 36
 */
export function receivedFileId(
  sessionId: string,
  messageId: string,
  index: number,
  sha256: string,
): string {
  const h = createHash("sha256")
    .update(`${sessionId}\n${messageId}\n${index}\n${sha256}`)
    .digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
