import { normalizeServerUrl } from "../../adapters/http/index.ts";
import {
  createFileExclusive,
  type LocalWriteResult,
  readLocalFile,
} from "../../local-files/index.ts";
import { decodeUtf8Strict, type JoinSecret, parseJoinSecret } from "../../protocol/index.ts";

/** The largest join-secret file read, bytes (4 KiB; a secret and a server line are far shorter). */
export const MAX_JOIN_SECRET_FILE_BYTES = 4096;

/**
 * Why a join-secret file was not taken (stable tokens; none carries the path or the content):
 * `cannot_open` (missing, a folder on the way missing, or not readable by us), `not_regular`
 * (a folder, a FIFO, a device…), `too_large` (over {@link MAX_JOIN_SECRET_FILE_BYTES}),
 * `not_a_join_secret` (not strict UTF-8, no secret line, a malformed secret, or a second line
 * that is not `server <http(s) url>`, or more lines).
 *
 * @example JOIN_SECRET_FILE_REFUSALS.includes("too_large") === true
 */
export const JOIN_SECRET_FILE_REFUSALS = [
  "cannot_open",
  "not_regular",
  "too_large",
  "not_a_join_secret",
] as const;

/** One {@link JOIN_SECRET_FILE_REFUSALS} token. */
export type JoinSecretFileRefusal = (typeof JOIN_SECRET_FILE_REFUSALS)[number];

/** A join-secret file's content: the secret and, when the file names it, the team's server. */
export type JoinSecretFileRead =
  | { readonly ok: true; readonly secret: JoinSecret; readonly server: string | undefined }
  | { readonly ok: false; readonly reason: JoinSecretFileRefusal };

const SERVER_LINE = /^server\s+(\S+)$/;

/**
 * The join-secret file text: two lines, the join secret, then `server <url>` — the server travels
 * with the secret through the same private channel, so `team join` never takes it from a
 * repository's file alone.
 *
 * @example serializeJoinSecretFile("brg1.t-9c1e.…", "http://127.0.0.1:7777") === "brg1.t-9c1e.…\nserver http://127.0.0.1:7777\n"
 */
export function serializeJoinSecretFile(secret: string, server: string): string {
  return `${secret}\nserver ${server}\n`;
}

/**
 * The one-line form of a join secret and its server, `<secret> server <url>`: what
 * `brigade team invite` prints, so a person can paste one line (docs/44-team-binding.md).
 *
 * @example joinSecretLine("brg1.t-9c1e.…", "http://127.0.0.1:7777") === "brg1.t-9c1e.… server http://127.0.0.1:7777"
 */
export function joinSecretLine(secret: string, server: string): string {
  return `${secret} server ${server}`;
}

/**
 * Parses a join-secret file's bytes: strict UTF-8; the first non-blank line is the join secret
 * (`parseJoinSecret`), an optional second one `server <url>` names the team's server (normalised,
 * http(s) only), or the one line is `<secret> server <url>` ({@link joinSecretLine}); surrounding
 * whitespace and blank lines are ignored, anything more is `not_a_join_secret`. Never throws.
 *
 * @example parseJoinSecretFile(bytes).ok
 */
export function parseJoinSecretFile(bytes: Uint8Array): JoinSecretFileRead {
  const text = (decodeUtf8Strict(bytes) ?? "").replaceAll("\r\n", "\n");
  let lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const oneLine = lines.length === 1 ? /^(\S+)\s+(server\s+\S+)$/.exec(lines[0] as string) : null;
  if (oneLine !== null) lines = [oneLine[1] as string, oneLine[2] as string];
  const parsed = lines.length === 0 ? undefined : parseJoinSecret(lines[0] as string);
  const serverText = lines.length === 2 ? SERVER_LINE.exec(lines[1] as string)?.[1] : undefined;
  const server = serverText === undefined ? undefined : normalizeServerUrl(serverText);
  if (
    parsed === undefined ||
    !parsed.ok ||
    lines.length > 2 ||
    (lines.length === 2 && server === undefined)
  ) {
    return { ok: false, reason: "not_a_join_secret" };
  }
  return { ok: true, secret: parsed.value, server };
}

/**
 * Reads and parses the join-secret file a person names (`readLocalFile`: a symlink is followed —
 * the person chose the path —, a FIFO never hangs, a regular file of at most 4 KiB). Never throws.
 *
 * @example const r = readJoinSecretFile("/home/lee/team.secret"); if (r.ok) r.secret.teamRef;
 */
export function readJoinSecretFile(path: string): JoinSecretFileRead {
  const read = readLocalFile(path, { maxBytes: MAX_JOIN_SECRET_FILE_BYTES, followSymlink: true });
  if (read.ok) return parseJoinSecretFile(read.bytes);
  if (read.reason === "not_regular" || read.reason === "too_large") {
    return { ok: false, reason: read.reason };
  }
  return { ok: false, reason: "cannot_open" };
}

/**
 * Creates the join-secret file `path` ({@link serializeJoinSecretFile}) with `createFileExclusive`:
 * 0600 and complete from the first moment, never replacing anything there (a dangling symlink
 * included). `exists`, `not_private` or `io_error` when not written. Never throws.
 *
 * @example writeJoinSecretFile("/home/dana/team.secret", secret, "http://127.0.0.1:7777").ok
 */
export function writeJoinSecretFile(
  path: string,
  secret: string,
  server: string,
): LocalWriteResult {
  return createFileExclusive(path, serializeJoinSecretFile(secret, server));
}
