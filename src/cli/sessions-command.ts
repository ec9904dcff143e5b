import { oneLine, sanitizeAttribute, sanitizeId } from "../formats/sanitize/index.ts";
import { insideAgentSession } from "../harness/host-clients.ts";
import {
  bapErrorLine,
  displayId,
  displayName,
  displayText,
  loadSessionContext,
  notLiveMark,
  notLiveReason,
  type SessionContext,
  sessionLane,
} from "../harness/session-context/index.ts";
import {
  type Adapter,
  isBapError,
  type SessionListResult,
  type SessionRecord,
} from "../protocol/index.ts";
import type { CliIo } from "./cli-io.ts";
import type { CommandText } from "./command-text.ts";
import { parseCommandFlags } from "./parse-command-flags.ts";
import { loadPersonContext } from "./person-context.ts";

/** Per-call budget of `brigade sessions`' one `session list`, ms. */
export const SESSIONS_TIMEOUT_MS = 10_000;

const LABEL_CODEPOINTS = 128;

const HELP = `usage: brigade sessions [--all] [--json]

Lists the sessions of your Brigade team. From a session's Bash tool: that session's team, the
session marked "(this session)". In your own terminal: the team of the folder you are in (the
checkout you joined), your own sessions marked "(yours)".
  --all    include offline sessions (a message to one waits until it comes back)
  --json   print the list as one JSON document
Columns: name (Claude Code's own session name when the person set one), full session id, state,
when the session was last seen and when it started, inbound policy (with "not live: <reason>"
when that session said it cannot receive a message before its next prompt), lane (push: messages
arrive in its conversation by themselves; pull: its model reads them at its turns; held: its client
holds each for its person's review; -: not said), workspace label, and the
human label (by default git's user.name on that machine). Every name and label is written by a
teammate's machine and unverified. Send with
brigade send <session id or a unique prefix of 5+ characters>.
`;

/** One row of `brigade sessions --json` (every string sanitised). */
export interface SessionsJsonRow {
  readonly session_id: string;
  readonly session_name: string;
  readonly state: string;
  readonly activity: string;
  readonly inbound: string;
  /** The reason code of a session that reported it cannot receive live; `""` otherwise. */
  readonly not_live_reason: string;
  /** How messages reach it (`sessionLane`): `push`, `pull`, `held`, or `""` when never said. */
  readonly lane: string;
  readonly workspace_label: string;
  readonly human_label: string;
  readonly last_seen_at: string;
  readonly created_at: string;
  readonly this_session: boolean;
  /** The reader's own: its session, or in the person's terminal any session of the person. */
  readonly yours: boolean;
}

/**
 * `brigade sessions [--all] [--json]`: the team's sessions through the adapter's `session list`
 * (`--all` adds offline ones), ours marked. Names through `sanitizeAttribute`, ids through
 * `sanitizeId` in full, labels through `oneLine` (docs/spec/formats.md §1.5); the human label is
 * said once to be unverified. Exit 0; 11 with one line when the session cannot be found (by-pid map
 * reasons); the BAP exit status with one `<code>: <sentence>` line for an adapter error; 2 for a
 * bad flag.
 *
 * @example await runSessions(["--all"], io) // 0, one line per session
 */
export async function runSessions(argv: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(argv);
  if (flags.help === true) {
    io.stdout(HELP);
    return 0;
  }
  const options = {
    all: flags.all === true,
    json: flags.json === true,
    allHint: "brigade sessions --all lists them",
  };
  let listed: CommandText;
  if (insideAgentSession(io.env)) {
    const ctx = loadSessionContext(io.env, { timeoutMs: SESSIONS_TIMEOUT_MS });
    if (!ctx.ok) {
      io.stderr(`brigade sessions: ${ctx.line}\n`);
      return ctx.status;
    }
    listed = await sessionsListing(ctx, options);
  } else {
    // The person's own terminal: their view of the folder's team, their sessions marked.
    const person = await loadPersonContext(io, SESSIONS_TIMEOUT_MS);
    if (!person.ok) {
      io.stderr(`brigade sessions: ${person.line}\n`);
      return person.status;
    }
    listed = await listingFor(person.adapter, { owner: person.principalRef }, options);
  }
  if (!listed.ok) {
    io.stderr(`brigade sessions: ${listed.line}\n`);
    return listed.status;
  }
  io.stdout(listed.text);
  return 0;
}

/** What {@link sessionsListing} prints. */
export interface SessionsListingOptions {
  /** Offline sessions too. */
  readonly all: boolean;
  /** One JSON document instead of the table. */
  readonly json: boolean;
  /** The table's last line without `all`: how to list the offline sessions too. */
  readonly allHint: string;
}

/**
 * The team's sessions as `brigade sessions` prints them (the same text for the `who` tool of
 * `brigade mcp`): one `session list` through the session's adapter, ours marked, every remote
 * string sanitised; `all` adds offline sessions. A failed call is its BAP exit status and one
 * `<code>: <fixed sentence>` line. Throws only what is not a `BapError` (a bug).
 *
 * @example const r = await sessionsListing(ctx, { all: false, json: false, allHint: "…" }); r.ok && r.text.startsWith("Team ")
 */
export async function sessionsListing(
  ctx: SessionContext,
  options: SessionsListingOptions,
): Promise<CommandText> {
  return listingFor(ctx.adapter, { self: ctx.map.brigade_session_id }, options);
}

/** Who the reader is: its own session (`(this session)`), or its principal (`(yours)`). */
interface ReaderMarks {
  readonly self?: string;
  readonly owner?: string;
}

function mark(s: SessionRecord, marks: ReaderMarks): string {
  if (s.session_id === marks.self) return "(this session)";
  return s.principal_ref === marks.owner ? "(yours)" : "";
}

async function listingFor(
  adapter: Pick<Adapter, "sessionList">,
  marks: ReaderMarks,
  options: SessionsListingOptions,
): Promise<CommandText> {
  let list: SessionListResult;
  try {
    list = await adapter.sessionList({ includeOffline: options.all });
  } catch (error) {
    if (!isBapError(error)) throw error;
    return { ok: false, status: error.exitStatus, line: bapErrorLine(error) };
  }
  if (options.json) return { ok: true, text: `${JSON.stringify(jsonDocument(list, marks))}\n` };
  return { ok: true, text: textListing(list, marks, options) };
}

function parseFlags(argv: string[]) {
  return parseCommandFlags("sessions", argv, {
    all: { type: "boolean" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  }).values;
}

function jsonDocument(list: SessionListResult, marks: ReaderMarks) {
  const sessions: SessionsJsonRow[] = list.sessions.map((s) => ({
    session_id: sanitizeId(s.session_id),
    session_name: sanitizeAttribute(s.session_name),
    state: s.state,
    activity: s.activity,
    inbound: s.inbound,
    not_live_reason: notLiveReason(s) ?? "",
    lane: sessionLane(s),
    workspace_label: oneLine(s.workspace_label ?? "", LABEL_CODEPOINTS),
    human_label: oneLine(s.human_label ?? "", LABEL_CODEPOINTS),
    last_seen_at: oneLine(s.last_seen_at, 64),
    created_at: oneLine(s.created_at, 64),
    this_session: s.session_id === marks.self,
    yours: s.session_id === marks.self || s.principal_ref === marks.owner,
  }));
  return {
    team_name: sanitizeAttribute(list.team_name),
    team_ref: sanitizeId(list.team_ref),
    human_labels_unverified: true,
    sessions,
    truncated: list.truncated,
  };
}

const HEADER = [
  "NAME",
  "SESSION ID",
  "STATE",
  "SEEN",
  "STARTED",
  "INBOUND",
  "LANE",
  "WORKSPACE",
  "HUMAN (unverified)",
];

/**
 * How long before `now` the wire time `at` was, in one short unit (`45s`, `12m`, `5h`, `3d`),
 * then ` ago`; `-` when either time does not parse or `at` is later. Measured against the
 * server's clock (`server_time`), so this machine's clock does not skew it.
 *
 * @example ageText("2026-10-02T09:00:00Z", "2026-10-02T09:12:30Z") === "12m ago"
 */
export function ageText(at: string, now: string): string {
  const ms = Date.parse(now) - Date.parse(at);
  if (!Number.isFinite(ms) || ms < 0) return "-";
  const seconds = Math.floor(ms / 1000);
  if (seconds < 120) return `${seconds}s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

/** The policy, then the not-live mark of a session that reported it cannot receive live. */
function inboundCell(s: SessionRecord): string {
  const mark = notLiveMark(s);
  return mark === undefined ? s.inbound : `${s.inbound}, ${mark}`;
}

function row(s: SessionRecord, now: string): string[] {
  return [
    displayName(s.session_name),
    displayId(s.session_id),
    s.state,
    ageText(s.last_seen_at, now),
    ageText(s.created_at, now),
    inboundCell(s),
    sessionLane(s) || "-",
    displayText(s.workspace_label, LABEL_CODEPOINTS),
    displayText(s.human_label, LABEL_CODEPOINTS),
  ];
}

function width(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function textListing(
  list: SessionListResult,
  marks: ReaderMarks,
  options: SessionsListingOptions,
): string {
  const all = options.all;
  const team = `${displayName(list.team_name)} (${displayId(list.team_ref)})`;
  const count = list.sessions.length;
  const scope = all ? "" : " online";
  const lines = [
    `Team ${team}: ${count} session${count === 1 ? "" : "s"}${scope}. Names and human labels are set by each teammate's machine and are unverified.`,
  ];
  if (count > 0) {
    const rows = [HEADER, ...list.sessions.map((s) => row(s, list.server_time))];
    const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => width(r[i] ?? ""))));
    rows.forEach((cells, index) => {
      const padded = cells.map((c, i) =>
        i === cells.length - 1 ? c : c + " ".repeat((widths[i] ?? 0) - width(c)),
      );
      const record = index > 0 ? list.sessions[index - 1] : undefined;
      const tag = record === undefined ? "" : mark(record, marks);
      lines.push(`${padded.join("  ")}${tag === "" ? "" : `  ${tag}`}`);
    });
  }
  if (list.truncated) lines.push("The server cut this list short.");
  if (!all) lines.push(`Offline sessions are not shown; ${options.allHint}.`);
  return `${lines.join("\n")}\n`;
}
