import {
  displayId,
  displayName,
  displayText,
  loadSessionContext,
  type SessionContext,
} from "../harness/session-context/index.ts";
import { readPendingRecords } from "../harness/state/index.ts";
import { isWatcherRunning, readWatcherStatus } from "../harness/watcher/index.ts";
import { isRfc3339Timestamp } from "../protocol/index.ts";
import type { CliIo } from "./cli-io.ts";
import { parseCommandFlags } from "./parse-command-flags.ts";

const HELP = `usage: brigade whoami

Shows this Claude Code session's Brigade identity (run it from the session's Bash tool): the
session name and full id, the team, the inbound policy, the frame level, and how messages reach
the session (the delivery watcher, the last delivery, messages held for your user).
`;

const POLICY_MEANING = {
  accept: "teammates' messages are shown to this session",
  hold: "teammates' messages wait until your user releases them in their own terminal",
  refuse: "teammates' messages are not shown to this session",
} as const;

/**
 * `brigade whoami`: reads the by-pid map through `CLAUDE_PID` and prints, one fact per line, the
 * session name and full id, the team name and ref, the inbound policy, the frame level, and a
 * delivery line (watcher running or not, its last delivery, the number of held messages from
 * `readPendingRecords`). Local only: no server call. Prints no path, token or native session id;
 * every remote string sanitised. Exit 0; 11 with one line when the session cannot be found.
 *
 * @example await runWhoami([], io) // "Session: api (s-51d0)\nTeam: core (t-9c1e)\n…"
 */
export async function runWhoami(argv: string[], io: CliIo): Promise<number> {
  parseFlags(argv);
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout(HELP);
    return 0;
  }
  const ctx = loadSessionContext(io.env);
  if (!ctx.ok) {
    io.stderr(`brigade whoami: ${ctx.line}\n`);
    return ctx.status;
  }
  const map = ctx.map;
  const lines = [
    `Session: ${displayName(map.session_name)} (${displayId(map.brigade_session_id)})`,
    `Team: ${displayName(map.team_name)} (${displayId(map.team_ref)})`,
  ];
  if (map.workspace_label !== undefined && map.workspace_label !== "") {
    lines.push(`Workspace: ${displayText(map.workspace_label, 128)}`);
  }
  lines.push(
    `Inbound policy: ${map.inbound} (${POLICY_MEANING[map.inbound]})`,
    `Frame level: ${map.frame_level}`,
    deliveryLine(ctx),
  );
  io.stdout(`${lines.join("\n")}\n`);
  return 0;
}

function parseFlags(argv: string[]): void {
  parseCommandFlags("whoami", argv, { help: { type: "boolean", short: "h" } });
}

function deliveryLine(ctx: SessionContext): string {
  const sessionId = ctx.map.brigade_session_id;
  const parts: string[] = [];
  if (ctx.map.socket_path === "") {
    parts.push("no inbox socket in this session: messages are shown at your next prompt");
  } else if (isWatcherRunning(ctx.layout, ctx.claudePid)) {
    const status = readWatcherStatus(ctx.layout, ctx.claudePid);
    const state =
      status !== undefined && status.brigade_session_id === sessionId ? ` (${status.state})` : "";
    parts.push(`watcher running${state}`);
  } else {
    parts.push("watcher not running (it is restarted at your next prompt)");
  }
  const status = readWatcherStatus(ctx.layout, ctx.claudePid);
  const last =
    status !== undefined &&
    status.brigade_session_id === sessionId &&
    status.last_delivery_at !== null &&
    isRfc3339Timestamp(status.last_delivery_at)
      ? status.last_delivery_at
      : undefined;
  parts.push(last === undefined ? "last delivery: none recorded" : `last delivery ${last}`);
  const held = readPendingRecords(ctx.layout, sessionId, ctx.uid).length;
  parts.push(
    held === 0
      ? "no messages held"
      : `${held} message${held === 1 ? "" : "s"} held for your user (they review them with brigade inbox in their own terminal)`,
  );
  return `Delivery: ${parts.join("; ")}`;
}
