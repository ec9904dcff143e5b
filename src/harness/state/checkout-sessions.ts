import { isJsonObject, parseJsonDocument } from "../../protocol/index.ts";
import { readPrivateStateFile, writePrivateStateFile } from "./private-state-file.ts";
import type { StateLayout } from "./state-layout.ts";

/** Most earlier Brigade sessions remembered per checkout (the newest are kept). */
export const MAX_CHECKOUT_SESSIONS = 16;

const MAX_CHECKOUT_FILE_BYTES = 16_384;

/**
 * The key of one checkout in one team: the team ref and the checkout's absolute path, hashed into
 * the file name by `fileStem`. Local to this machine and this user's state folder: the path never
 * leaves it.
 *
 * @example checkoutKey("t-9c1e", "/home/dana/api")
 */
export function checkoutKey(teamRef: string, checkout: string): string {
  return `${teamRef}\u0000${checkout}`;
}

/**
 * The Brigade session ids this checkout had in this team (`state/checkouts/<stem>.json`,
 * `{version: 1, session_ids: [...]}`), oldest first. Missing, foreign, non-private or malformed
 * → `[]`. The server checks every id again (only the caller's own ended sessions in the team
 * give anything up), so a planted file can name nothing it could not already take. Never throws.
 *
 * @example readCheckoutSessions(layout, checkoutKey(team, dir), uid)
 */
export function readCheckoutSessions(layout: StateLayout, key: string, uid: number): string[] {
  const read = readPrivateStateFile(layout.checkout(key), {
    maxBytes: MAX_CHECKOUT_FILE_BYTES,
    uid,
  });
  if (read.kind !== "ok") return [];
  const parsed = parseJsonDocument(read.bytes, { maxBytes: MAX_CHECKOUT_FILE_BYTES });
  if (!parsed.ok || !isJsonObject(parsed.value) || parsed.value.version !== 1) return [];
  const ids = parsed.value.session_ids;
  if (!Array.isArray(ids)) return [];
  const out: string[] = [];
  for (const id of ids) {
    if (typeof id === "string" && id !== "" && id.length <= 128 && !out.includes(id)) out.push(id);
  }
  return out.slice(-MAX_CHECKOUT_SESSIONS);
}

/**
 * Records that `sessionId` is now this checkout's session (moved to the end, the oldest beyond
 * {@link MAX_CHECKOUT_SESSIONS} forgotten).
 *
 * @throws PrivateFileError when the file cannot be written privately.
 * @example rememberCheckoutSession(layout, key, "s-51d0", uid)
 */
export function rememberCheckoutSession(
  layout: StateLayout,
  key: string,
  sessionId: string,
  uid: number,
): void {
  const ids = readCheckoutSessions(layout, key, uid).filter((id) => id !== sessionId);
  ids.push(sessionId);
  const file = { version: 1, session_ids: ids.slice(-MAX_CHECKOUT_SESSIONS) };
  writePrivateStateFile(layout.root, layout.checkout(key), `${JSON.stringify(file)}\n`);
}
