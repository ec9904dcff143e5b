import { rmSync } from "node:fs";
import { join } from "node:path";
import { isJsonObject, parseJsonDocument } from "../../protocol/index.ts";
import { readPrivateStateFile, type StateLayout, writePrivateStateFile } from "../state/index.ts";

/**
 * `state/<pid>.retry.json`: SessionStart could not register this Claude process's session, and the
 * prompt hook may try again (at most once a minute). `{claude_session_id, last_attempt_at}` (ms).
 *
 * @example registrationRetryPath(layout, "4242") // <state>/state/4242.retry.json
 */
export function registrationRetryPath(layout: StateLayout, claudePid: string): string {
  return join(layout.root, "state", `${claudePid}.retry.json`);
}

/** The retry marker's content. */
export interface RegistrationRetry {
  readonly claude_session_id: string;
  readonly last_attempt_at: number;
}

/**
 * Reads the marker (missing, foreign, non-private or malformed → `undefined`). Never throws.
 *
 * @example readRegistrationRetry(layout, "4242", uid)?.last_attempt_at
 */
export function readRegistrationRetry(
  layout: StateLayout,
  claudePid: string,
  uid: number,
): RegistrationRetry | undefined {
  const read = readPrivateStateFile(registrationRetryPath(layout, claudePid), {
    maxBytes: 4_096,
    uid,
  });
  if (read.kind !== "ok") return undefined;
  const parsed = parseJsonDocument(read.bytes, { maxBytes: 4_096 });
  if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
  const { claude_session_id: id, last_attempt_at: at } = parsed.value;
  if (typeof id !== "string" || typeof at !== "number" || !Number.isFinite(at)) return undefined;
  return { claude_session_id: id, last_attempt_at: at };
}

/**
 * Writes the marker; failures are ignored (the prompt hook then simply does not retry).
 *
 * @example writeRegistrationRetry(layout, "4242", { claude_session_id: "5d1c…", last_attempt_at: Date.now() });
 */
export function writeRegistrationRetry(
  layout: StateLayout,
  claudePid: string,
  retry: RegistrationRetry,
): void {
  try {
    writePrivateStateFile(
      layout.root,
      registrationRetryPath(layout, claudePid),
      `${JSON.stringify(retry)}\n`,
    );
  } catch {
    // no marker: no retry at the next prompt, the next SessionStart tries again
  }
}

/** Removes the marker (after a registration, or at SessionEnd). Never throws. */
export function clearRegistrationRetry(layout: StateLayout, claudePid: string): void {
  try {
    rmSync(registrationRetryPath(layout, claudePid), { force: true });
  } catch {
    // a stale marker only causes one harmless retry
  }
}
