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

/** What the last 8 hex digits of a received file's id check (see {@link receivedFileId}). */
const ID_CHECK = "brigade-received\n";

function idCheck(head: string): string {
  return createHash("sha256").update(`${ID_CHECK}${head}`).digest("hex").slice(0, 8);
}

function uuidShape(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The UUID-shaped (lower-case hex, 8-4-4-4-12) name prefix of one received file: 24 hex digits
 * derived from the recipient session, the message, the file's position and its digest, so every
 * delivery path of one session (watcher, hooks, MCP) and every retry meets the same path and a
 * path never holds another blob; then 8 hex digits that check the first 24
 * ({@link isReceivedFileId}), so the sweep can tell Brigade's files from others in a shared
 * folder such as `/workspace/uploads/` (a foreign UUID passes by chance once in 2³²). Not a
 * random UUID (no version or variant bits): the manifest does not check them
 * (docs/spec/formats.md §4.2).
 *
 * @example isReceivedFileId(receivedFileId("s-1", "m-1", 0, "e3b0…")) === true
 */
export function receivedFileId(
  sessionId: string,
  messageId: string,
  index: number,
  sha256: string,
): string {
  const head = createHash("sha256")
    .update(`${sessionId}\n${messageId}\n${index}\n${sha256}`)
    .digest("hex")
    .slice(0, 24);
  return uuidShape(head + idCheck(head));
}

/**
 * Whether `id` (36 characters, 8-4-4-4-12 lower-case hex) is one {@link receivedFileId} made:
 * its last 8 hex digits check the first 24.
 *
 * @example isReceivedFileId("0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d") === false
 */
export function isReceivedFileId(id: string): boolean {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) return false;
  const hex = id.replaceAll("-", "");
  return idCheck(hex.slice(0, 24)) === hex.slice(24);
}
