import { readdirSync } from "node:fs";
import { dirname } from "node:path";
import { oneLine, sanitizeAttribute, sanitizeId } from "../formats/sanitize/index.ts";
import { insideClaudeCode } from "../harness/claude-code/index.ts";
import type { PendingRecord } from "../harness/inbound/index.ts";
import {
  displayId,
  displayName,
  displayText,
  loadSessionContext,
} from "../harness/session-context/index.ts";
import {
  fileStem,
  readByPidMap,
  readPendingRecords,
  requestRelease,
  resolveStateDir,
  type StateLayout,
  stateLayout,
} from "../harness/state/index.ts";
import { currentUid } from "../local-files/index.ts";
import { attachmentsText, type ListedFile, listedFiles } from "./attachment-listing.ts";
import { type CliIo, CliUsageError } from "./cli-io.ts";
import { parseCommandFlags } from "./parse-command-flags.ts";

/**
 * Why `brigade inbox` or `brigade inbox release` refused. Exit status: `release_in_session`,
 * `session_ambiguous` → 2; `session_not_holding`, `message_not_held` → 6 (`not_found`);
 * `state_dir_relative` → 11; `release_write_failed` → 1.
 *
 * @example INBOX_REFUSALS.includes("release_in_session") === true
 */
export const INBOX_REFUSALS = [
  "release_in_session",
  "session_ambiguous",
  "session_not_holding",
  "message_not_held",
  "state_dir_relative",
  "release_write_failed",
] as const;

/** One of {@link INBOX_REFUSALS}. */
export type InboxRefusal = (typeof INBOX_REFUSALS)[number];

const REFUSAL_EXIT: Readonly<Record<InboxRefusal, number>> = {
  release_in_session: 2,
  session_ambiguous: 2,
  session_not_holding: 6,
  message_not_held: 6,
  state_dir_relative: 11,
  release_write_failed: 1,
};

/**
 * The fixed sentence printed for each {@link InboxRefusal} (`session_ambiguous` is followed by
 * the holding sessions' sanitised ids and names; nothing else carries a value).
 *
 * @example INBOX_REFUSAL_SENTENCES.release_in_session.startsWith("refused")
 */
export const INBOX_REFUSAL_SENTENCES: Readonly<Record<InboxRefusal, string>> = Object.freeze({
  release_in_session:
    "refused inside a Claude Code session: only the user releases held messages; run it in your own terminal",
  session_ambiguous: "several sessions hold messages; choose one with --session <id>",
  session_not_holding: "that session holds no messages (brigade inbox lists the held ones)",
  message_not_held:
    "a given message id is not held for that session (brigade inbox lists the held ones)",
  state_dir_relative:
    "the Brigade state folder is not an absolute path; XDG_STATE_HOME or HOME must be absolute",
  release_write_failed: "the release request could not be written privately to the state folder",
});

const SUMMARY_CODEPOINTS = 200;
const MAX_LISTED_SESSIONS = 20;

const HELP = `usage: brigade inbox [--json]
       brigade inbox release [--session <session id>] (--all | <message id>...)
       brigade inbox show <message id>

Lists messages held for your Claude Code sessions under the inbound policy "hold" (sender name,
sender session id, message id, times; never the body). In a session's Bash tool it lists that
session's, without summaries; in your own terminal, every session's with their summaries, grouped
by session.
"release" (your own terminal only; refused inside a Claude Code session) asks the session's
watcher to deliver the named held messages (or --all of them). With several sessions holding,
name one with --session.
"show" (a session's Bash tool only) prints one message waiting for the session whole, as its
frame: the hooks name it for a message too long to show at a prompt or between tool calls.
`;

/** One held message as `brigade inbox --json` prints it (sanitised; never the body). */
export interface InboxJsonMessage {
  readonly message_id: string;
  readonly sender_name: string;
  readonly sender_session_id: string;
  /** Only in the user's terminal: a session (the model) never reads a held message's text. */
  readonly summary?: string;
  readonly created_at: string;
  readonly held_at: string;
  /** Present when the message was sent to an earlier session of this checkout and taken over. */
  readonly earlier_session?: true;
  /** The files it names (sanitised name, bytes, `held`: nothing downloaded before release). */
  readonly files?: readonly ListedFile[];
}

/** The held messages of one session. */
/** A session holding messages on this machine, as its pending file and by-pid map tell. */
export interface HoldingSession {
  readonly sessionId: string;
  readonly sessionName: string | undefined;
  readonly teamName: string | undefined;
  readonly records: readonly PendingRecord[];
}

/**
 * `brigade inbox [--json]` and `brigade inbox release [--session <id>] (--all | <id>...)`.
 * Listing: with `CLAUDE_PID` set, the held messages of that session (found through the by-pid
 * map, exit 11 when it cannot be); in a terminal, every session with a pending file under the
 * state directory, grouped by session. Never a body, and in a session no summary either (a held
 * message's text waits for its user); every remote string sanitised. Release: refused
 * (exit 2) whenever `CLAUDE_PID` is set — the model can never release what its user holds; else
 * writes a release request (`requestRelease`) the session's watcher or next poll consumes. See
 * {@link INBOX_REFUSALS} for the failures. `show <id>` is `runInboxShow` (inbox-show.ts).
 *
 * @example await runInbox(["release", "--all"], io) // 0 in a terminal with one holding session
 */
export async function runInbox(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === "release") return runRelease(argv.slice(1), io);
  if (argv[0] === "show") return (await import("./inbox-show.ts")).runInboxShow(argv.slice(1), io);
  const flags = parseListFlags(argv);
  if (flags.help === true) {
    io.stdout(HELP);
    return 0;
  }
  let sessions: HoldingSession[];
  let unknownFiles = 0;
  if (inSession(io.env)) {
    const ctx = loadSessionContext(io.env);
    if (!ctx.ok) {
      io.stderr(`brigade inbox: ${ctx.line}\n`);
      return ctx.status;
    }
    const id = ctx.map.brigade_session_id;
    sessions = [
      {
        sessionId: id,
        sessionName: ctx.map.session_name,
        teamName: ctx.map.team_name,
        records: readPendingRecords(ctx.layout, id, ctx.uid),
      },
    ];
  } else {
    const scan = scanTerminal(io.env);
    if (scan === undefined) return refuse(io, "inbox", "state_dir_relative");
    sessions = scan.sessions;
    unknownFiles = scan.unknownFiles;
  }
  if (flags.json === true) {
    io.stdout(`${JSON.stringify(jsonDocument(sessions, !inSession(io.env)))}\n`);
    return 0;
  }
  io.stdout(textListing(sessions, inSession(io.env), unknownFiles));
  return 0;
}

function inSession(env: CliIo["env"]): boolean {
  return insideClaudeCode(env);
}

function refuse(io: CliIo, command: string, refusal: InboxRefusal, extra = ""): number {
  io.stderr(`brigade ${command}: ${INBOX_REFUSAL_SENTENCES[refusal]}${extra}\n`);
  return REFUSAL_EXIT[refusal];
}

function parseListFlags(argv: string[]) {
  return parseCommandFlags("inbox", argv, {
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  }).values;
}

function parseReleaseFlags(argv: string[]) {
  return parseCommandFlags(
    "inbox",
    argv,
    {
      session: { type: "string" },
      all: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    true,
  );
}

/** What a terminal sees: every session with a pending file, and files whose session is unknown. */
export interface TerminalScan {
  readonly layout: StateLayout;
  readonly uid: number;
  readonly sessions: HoldingSession[];
  readonly unknownFiles: number;
}

function listJsonNames(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(".json"))
      .sort();
  } catch {
    return [];
  }
}

/**
 * Every session holding messages under the state directory. A pending file's name is the
 * session's file stem: the id itself for safe ids; a hashed stem is matched against the session
 * ids of the by-pid maps on this machine (names and teams come from those maps too). `undefined`
 * without a usable state folder. Reads only this user's own, private files.
 *
 * @example scanTerminal(process.env)?.sessions.length
 */
export function scanTerminal(env: CliIo["env"]): TerminalScan | undefined {
  const stateEnv = { XDG_STATE_HOME: env.XDG_STATE_HOME, HOME: env.HOME };
  const dir = resolveStateDir(stateEnv);
  if (!dir.ok) return undefined;
  const layout = stateLayout(dir.dir);
  const me = currentUid();
  const known = new Map<string, { name: string; team: string; id: string }>();
  for (const file of listJsonNames(dirname(layout.byPid("0")))) {
    const pid = file.slice(0, -".json".length);
    const read = readByPidMap({ claudePid: pid, env: stateEnv, uid: me });
    if (!read.ok) continue;
    const id = read.map.brigade_session_id;
    known.set(fileStem(id), { id, name: read.map.session_name, team: read.map.team_name });
  }
  const sessions: HoldingSession[] = [];
  let unknownFiles = 0;
  for (const file of listJsonNames(dirname(layout.pending("x")))) {
    const stem = file.slice(0, -".json".length);
    const mapped = known.get(stem);
    const id = mapped?.id ?? (fileStem(stem) === stem ? stem : undefined);
    if (id === undefined) {
      unknownFiles++;
      continue;
    }
    const records = readPendingRecords(layout, id, me);
    if (records.length === 0) continue;
    sessions.push({ sessionId: id, sessionName: mapped?.name, teamName: mapped?.team, records });
  }
  return { layout, uid: me, sessions, unknownFiles };
}

function isoFromMs(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? "" : `${date.toISOString().slice(0, 19)}Z`;
}

function jsonMessage(r: PendingRecord, withSummary: boolean): InboxJsonMessage {
  return {
    message_id: sanitizeId(r.message_id),
    sender_name: sanitizeAttribute(r.sender_name),
    sender_session_id: sanitizeId(r.sender_session_id),
    ...(withSummary ? { summary: oneLine(r.summary, SUMMARY_CODEPOINTS) } : {}),
    created_at: oneLine(r.created_at, 40),
    held_at: isoFromMs(r.held_at),
    ...(r.adopted === true ? { earlier_session: true as const } : {}),
    ...(r.files === undefined ? {} : { files: listedFiles(r.files, "held") }),
  };
}

function jsonDocument(sessions: readonly HoldingSession[], withSummary: boolean) {
  return {
    sessions: sessions.map((s) => ({
      session_id: sanitizeId(s.sessionId),
      session_name: s.sessionName === undefined ? null : sanitizeAttribute(s.sessionName),
      team_name: s.teamName === undefined ? null : sanitizeAttribute(s.teamName),
      messages: s.records.map((r) => jsonMessage(r, withSummary)),
    })),
  };
}

function sessionLabel(s: HoldingSession): string {
  const name = s.sessionName === undefined ? "session" : `session ${displayName(s.sessionName)}`;
  const team = s.teamName === undefined ? "" : `, team ${displayName(s.teamName)}`;
  return `${name} (${displayId(s.sessionId)})${team}`;
}

function messageLine(r: PendingRecord, withSummary: boolean): string {
  const held = isoFromMs(r.held_at);
  return [
    `  ${displayId(r.message_id)}`,
    `from ${displayName(r.sender_name)} (${displayId(r.sender_session_id)})`,
    `sent ${displayText(r.created_at, 40)}`,
    `held ${held === "" ? "-" : held}`,
    ...(r.adopted === true ? ["(sent to an earlier session in this checkout)"] : []),
    ...(r.files === undefined ? [] : [attachmentsText(listedFiles(r.files, "held"))]),
    ...(withSummary ? [`summary: ${displayText(r.summary, SUMMARY_CODEPOINTS)}`] : []),
  ].join("  ");
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function textListing(
  sessions: readonly HoldingSession[],
  fromSession: boolean,
  unknownFiles: number,
): string {
  const lines: string[] = [];
  if (fromSession) {
    const records = sessions[0]?.records ?? [];
    if (records.length === 0) lines.push("No messages are held for this session.");
    else {
      lines.push(
        `${plural(records.length, "message")} held for this session. Only your user can release them, from their own terminal (brigade inbox release). Neither bodies nor summaries are shown here; names are the senders' own text.`,
      );
      for (const r of records) lines.push(messageLine(r, false));
    }
  } else if (sessions.length === 0) {
    lines.push("No messages are held for any session on this machine.");
  } else {
    lines.push(
      "Held messages (bodies are not shown; names and summaries are the senders' own text):",
    );
    for (const s of sessions) {
      lines.push(`${sessionLabel(s)}: ${plural(s.records.length, "message")} held`);
      for (const r of s.records) lines.push(messageLine(r, true));
    }
    lines.push(
      "Release with brigade inbox release [--session <session id>] (--all | <message id>...).",
    );
  }
  if (unknownFiles > 0) {
    lines.push(
      `${plural(unknownFiles, "held-message file")} belong to sessions whose id is not known on this machine any more.`,
    );
  }
  return `${lines.join("\n")}\n`;
}

async function runRelease(argv: string[], io: CliIo): Promise<number> {
  // First, before any flag or file: the model must never release what its user holds.
  if (inSession(io.env)) return refuse(io, "inbox release", "release_in_session");
  const { values: flags, positionals: ids } = parseReleaseFlags(argv);
  if (flags.help === true) {
    io.stdout(HELP);
    return 0;
  }
  if ((flags.all === true) === ids.length > 0) {
    throw new CliUsageError("give --all or one or more message ids (not both)");
  }
  const scan = scanTerminal(io.env);
  if (scan === undefined) return refuse(io, "inbox release", "state_dir_relative");
  let target: HoldingSession | undefined;
  if (flags.session !== undefined) {
    target = scan.sessions.find((s) => s.sessionId === flags.session);
    if (target === undefined) return refuse(io, "inbox release", "session_not_holding");
  } else if (scan.sessions.length === 0) {
    if (flags.all === true) {
      io.stdout("No messages are held; nothing to release.\n");
      return 0;
    }
    return refuse(io, "inbox release", "message_not_held");
  } else if (scan.sessions.length > 1) {
    const listed = scan.sessions.slice(0, MAX_LISTED_SESSIONS).map(sessionLabel);
    const more = scan.sessions.length > MAX_LISTED_SESSIONS ? "; ..." : "";
    return refuse(io, "inbox release", "session_ambiguous", `: ${listed.join("; ")}${more}`);
  } else {
    target = scan.sessions[0] as HoldingSession;
  }
  const held = new Set(target.records.map((r) => r.message_id));
  if (ids.some((id) => !held.has(id))) return refuse(io, "inbox release", "message_not_held");
  const release = flags.all === true ? [...held] : [...new Set(ids)];
  try {
    requestRelease(scan.layout, target.sessionId, release, scan.uid);
  } catch {
    return refuse(io, "inbox release", "release_write_failed");
  }
  io.stdout(
    `Release requested for ${plural(release.length, "held message")} of ${sessionLabel(target)}; the session's watcher delivers them shortly, or its next prompt does.\n`,
  );
  return 0;
}
