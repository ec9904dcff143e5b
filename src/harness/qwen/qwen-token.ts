import { join } from "node:path";
import { ensurePrivateFolder, readLocalFile, writeFileAtomic } from "../../local-files/index.ts";

/**
 * The file in Brigade's configuration folder that keeps the person's Qwen Code controller token
 * (docs/49-qwen.md "The controller token"): 0600, one line, written only by `brigade qwen token`
 * in the person's own terminal and read only by the push lane of their Qwen Code sessions.
 */
export const QWEN_TOKEN_FILE = "qwen-controller-token";

/** A controller token as `qwen sessions controllers add` prints it (0.24.4). */
const TOKEN = /^qpc_[0-9a-f]{64}$/;

/**
 * Why a controller token was not stored or read (docs/errors.md `QWEN_TOKEN_FAILURES`):
 * `bad_token` (not one `qpc_` + 64 lowercase hex line), `no_config_dir` (Brigade's configuration
 * folder cannot be found), `write_failed`, `unreadable` (a file at the place that is not a
 * private regular file of this user, or not a token).
 */
export const QWEN_TOKEN_FAILURES = [
  "bad_token",
  "no_config_dir",
  "write_failed",
  "unreadable",
] as const;

/** One of {@link QWEN_TOKEN_FAILURES}. */
export type QwenTokenFailure = (typeof QWEN_TOKEN_FAILURES)[number];

/**
 * The controller token in `text` (what the person pasted: surrounding white space is dropped),
 * or `undefined` when it is not exactly one token. Never throws; never echoes the text.
 *
 * @example parseQwenControllerToken(`qpc_${"ab".repeat(32)}\n`) === `qpc_${"ab".repeat(32)}`
 */
export function parseQwenControllerToken(text: string): string | undefined {
  const token = text.trim();
  return TOKEN.test(token) ? token : undefined;
}

/**
 * Stores `token` as `<configDir>/qwen-controller-token`, 0600, atomically (the folder made 0700
 * when missing). Never throws.
 *
 * @example writeQwenControllerToken("/home/dana/.config/brigade", token).ok
 */
export function writeQwenControllerToken(
  configDir: string,
  token: string,
):
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly code: QwenTokenFailure } {
  if (parseQwenControllerToken(token) !== token) return { ok: false, code: "bad_token" };
  if (!ensurePrivateFolder(configDir).ok) return { ok: false, code: "write_failed" };
  const path = join(configDir, QWEN_TOKEN_FILE);
  const written = writeFileAtomic(path, `${token}\n`);
  return written.ok ? { ok: true, path } : { ok: false, code: "write_failed" };
}

/**
 * The person's controller token from `<configDir>/qwen-controller-token`: `undefined` when there
 * is none; `unreadable` when a file is there that is not a private regular file of `uid` (no
 * link followed) holding one token — then no token is used and Qwen Code holds every message.
 * Never throws.
 *
 * @example readQwenControllerToken(configDir, process.getuid())
 */
export function readQwenControllerToken(
  configDir: string,
  uid: number,
):
  | { readonly ok: true; readonly token: string | undefined }
  | { readonly ok: false; readonly code: "unreadable" } {
  const read = readLocalFile(join(configDir, QWEN_TOKEN_FILE), { maxBytes: 256, privateTo: uid });
  if (!read.ok)
    return read.reason === "missing"
      ? { ok: true, token: undefined }
      : { ok: false, code: "unreadable" };
  const token = parseQwenControllerToken(new TextDecoder().decode(read.bytes));
  return token === undefined ? { ok: false, code: "unreadable" } : { ok: true, token };
}
