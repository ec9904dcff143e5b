import type { StateLayout } from "../state/index.ts";
import { type ProcessProbe, systemProcessProbe } from "./process-probe.ts";
import { isPidfileLive, readWatcherPidfile } from "./watcher-files.ts";

/**
 * The one line the pull paths (the `inbox` tool of `brigade mcp`) answer a model with while a
 * live delivery process owns its session (docs/49-hosts.md, "One message, one lane"): its
 * messages arrive in the conversation by themselves.
 */
export const PUSH_LANE_INBOX_LINE =
  "Brigade: this session's messages are delivered into the conversation by themselves (its live push lane); the inbox tool has nothing to hand out while that lane runs.";

/**
 * Whether a live delivery process owns the Brigade session `sessionId` of the client process
 * `hostPid` (docs/49-hosts.md, "One message, one lane"): the pidfile `watchers/<hostPid>.json`
 * (written by the Claude Code watcher or a client's push lane) names that session, and its pid is
 * alive with its recorded start token. While one does, the pull paths hand none of the session's
 * messages to the model, so one message is never delivered by both. Never throws.
 *
 * @example if (deliveryOwned(layout, map.claude_pid, map.brigade_session_id)) return PUSH_LANE_INBOX_LINE;
 */
export function deliveryOwned(
  layout: StateLayout,
  hostPid: number,
  sessionId: string,
  probe: ProcessProbe = systemProcessProbe,
): boolean {
  const pidfile = readWatcherPidfile(layout, String(hostPid));
  return (
    pidfile !== undefined &&
    pidfile.brigade_session_id === sessionId &&
    isPidfileLive(pidfile, probe)
  );
}
