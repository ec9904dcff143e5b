import { join } from "node:path";
import {
  type ByPidMap,
  type ByPidMapRead,
  fileStem,
  readSessionMapFile,
  type StateLayout,
  serializeByPidMap,
  writePrivateStateFile,
} from "../state/index.ts";

/** A host's name as a binding folder: a lower-case letter, then letters, digits, `-`; ≤ 32. */
const HOST_NAME = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * Where the session-start hook of an MCP host that names its sessions per request (Codex's
 * `threadId`, OpenCode's `sessionID`) binds one of them: `sessions/by-harness/<host>/<stem>.json`
 * under the state folder, `<stem>` being the host's session id through `fileStem`.
 *
 * @throws TypeError when `host` is not a lower-case name (a caller bug).
 * @example harnessBindingPath(layout, "codex", "th-1") // "<state>/sessions/by-harness/codex/th-1.json"
 */
export function harnessBindingPath(layout: StateLayout, host: string, nativeId: string): string {
  if (!HOST_NAME.test(host)) throw new TypeError("a host name is lower-case letters and digits");
  return join(layout.root, "sessions", "by-harness", host, `${fileStem(nativeId)}.json`);
}

/**
 * Reads the binding of the host's session `nativeId`: the by-pid map's document (docs/40-harness.md,
 * the same validator and private-file checks; `claude_pid` holds the host's pid and
 * `claude_session_id` the host's session id, which must equal `nativeId`, else `map_mismatch`).
 * A missing file is `not_registered`. Never throws.
 *
 * @example const read = readHarnessBinding(layout, "codex", threadId, uid); if (read.ok) read.map.brigade_session_id
 */
export function readHarnessBinding(
  layout: StateLayout,
  host: string,
  nativeId: string,
  uid: number,
): ByPidMapRead {
  const belongs = (map: ByPidMap): boolean => map.claude_session_id === nativeId;
  return readSessionMapFile(harnessBindingPath(layout, host, nativeId), uid, belongs);
}

/**
 * Writes the binding of the host's session `map.claude_session_id` (0700 folders, 0600 file,
 * atomic), as that host's session-start hook does once it registered the Brigade session.
 *
 * @throws TypeError for an invalid map or host name; PrivateFileError when it cannot be written privately.
 * @example writeHarnessBinding(layout, "codex", { ...map, claude_session_id: threadId });
 */
export function writeHarnessBinding(layout: StateLayout, host: string, map: ByPidMap): void {
  const path = harnessBindingPath(layout, host, map.claude_session_id);
  writePrivateStateFile(layout.root, path, serializeByPidMap(map));
}
