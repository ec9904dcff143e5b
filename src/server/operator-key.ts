import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { createFileExclusive, privateToThisUser, readLocalFile } from "../local-files/index.ts";

/** How `brigade serve` admits team creation: anyone with a principal, or only with the key. */
export const REGISTRATION_MODES = ["open", "closed"] as const;

/** One of {@link REGISTRATION_MODES}. */
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

/** The largest operator key file read, bytes (one digest line is 72). */
const MAX_OPERATOR_KEY_FILE_BYTES = 1024;

/** The operator key's shape: `brgop1.` and 43 base64url characters (32 random bytes). */
export const OPERATOR_KEY_PATTERN: RegExp = /^brgop1\.[A-Za-z0-9_-]{43}$/;

/** Why the operator key file was refused. */
export const OPERATOR_KEY_FILE_ERROR_CODES = [
  "operator_key_file_unsafe",
  "operator_key_file_invalid",
  "operator_key_file_missing",
] as const;

/** One of {@link OPERATOR_KEY_FILE_ERROR_CODES}. */
export type OperatorKeyFileErrorCode = (typeof OPERATOR_KEY_FILE_ERROR_CODES)[number];

const MESSAGES: Readonly<Record<OperatorKeyFileErrorCode, string>> = {
  operator_key_file_unsafe:
    "the operator key file is a symbolic link, not a regular file, foreign or accessible to others",
  operator_key_file_invalid: "the operator key file does not hold an operator key digest",
  operator_key_file_missing:
    "--registration closed on a shared PostgreSQL database needs the operator key file (the --data path with .operator-key added), the same on every process: copy it from the process that made it, or make the first one with --create-operator-key",
};

/** The operator key file cannot be used; the message names no path and no content. */
export class OperatorKeyFileError extends Error {
  readonly code: OperatorKeyFileErrorCode;
  constructor(code: OperatorKeyFileErrorCode) {
    super(MESSAGES[code]);
    this.name = "OperatorKeyFileError";
    this.code = code;
  }
}

/**
 * Where the digest of a data file's operator key lives: beside the data file, `<data>.operator-key`,
 * so it moves, is backed up and is protected with the database it guards.
 *
 * @example operatorKeyFileFor("/srv/brigade.sqlite") === "/srv/brigade.sqlite.operator-key";
 */
export function operatorKeyFileFor(dataFile: string): string {
  return `${dataFile}.operator-key`;
}

/**
 * The stored form of an operator key: `sha256:` and the hex SHA-256 of its UTF-8 text.
 *
 * @example digestOperatorKey("brgop1.…").startsWith("sha256:");
 */
export function digestOperatorKey(key: string): string {
  return `sha256:${createHash("sha256").update(key, "utf8").digest("hex")}`;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * Whether `presented` is the key whose digest is `digest`, compared in constant time over the
 * digests (so neither the length nor the content of the key shapes the timing).
 */
export function operatorKeyMatches(presented: string, digest: string): boolean {
  const offered = Buffer.from(digestOperatorKey(presented), "utf8");
  const stored = Buffer.from(digest, "utf8");
  return offered.length === stored.length && timingSafeEqual(offered, stored);
}

/** The operator key in force: its digest, and the key itself only when it was just created. */
export interface OperatorKeyState {
  readonly digest: string;
  /** Present only on the start that created the key: shown once, never stored. */
  readonly newKey?: string;
}

/**
 * Loads the digest from `path`, or, when the file does not exist, creates a new operator key,
 * stores its digest there (`createFileExclusive`: mode 0600, complete from the first moment,
 * never replacing anything, a dangling symlink included) and returns the key once. An existing
 * file is read through `readLocalFile`: a regular file of at most 1 KiB, of this user with no
 * group or other bit, never through a symlink and never hanging on a FIFO, holding exactly one
 * digest line. Deleting the file and restarting replaces a lost key. With `create: false` a
 * missing file is refused instead of made (several processes sharing one database must share one
 * key, so none may quietly make its own).
 *
 * @throws OperatorKeyFileError `operator_key_file_unsafe` (any refusal, or a file that cannot be
 * created), `operator_key_file_invalid` (not one digest line), `operator_key_file_missing` (no
 * file, and `create` is false).
 * @example
 * const { digest, newKey } = loadOrCreateOperatorKey("/srv/brigade.sqlite.operator-key");
 */
export function loadOrCreateOperatorKey(
  path: string,
  options: { readonly create?: boolean } = {},
): OperatorKeyState {
  const read = readLocalFile(path, {
    maxBytes: MAX_OPERATOR_KEY_FILE_BYTES,
    ...privateToThisUser(),
  });
  if (!read.ok) {
    if (read.reason === "missing") {
      if (options.create === false) throw new OperatorKeyFileError("operator_key_file_missing");
      return createKey(path);
    }
    throw new OperatorKeyFileError("operator_key_file_unsafe");
  }
  const { buffer, byteOffset, byteLength } = read.bytes;
  const digest = Buffer.from(buffer, byteOffset, byteLength).toString("utf8").trim();
  if (!DIGEST.test(digest)) throw new OperatorKeyFileError("operator_key_file_invalid");
  return { digest };
}

function createKey(path: string): OperatorKeyState {
  const key = `brgop1.${randomBytes(32).toString("base64url")}`;
  const digest = digestOperatorKey(key);
  if (!createFileExclusive(path, `${digest}\n`).ok) {
    throw new OperatorKeyFileError("operator_key_file_unsafe");
  }
  return { digest, newKey: key };
}
