import { oneLine } from "../formats/sanitize/index.ts";
import { insideAgentSession } from "../harness/host-clients.ts";
import {
  bapErrorLine,
  displayId,
  displayName,
  loadSessionContext,
  supportsMessageStates,
} from "../harness/session-context/index.ts";
import {
  hasCapability,
  isBapError,
  isReceiveLimit,
  MAX_RECEIVE_LIMIT,
  type MessageSentResult,
  type MessageStateRecord,
  MIN_RECEIVE_LIMIT,
  type PersonSentResult,
  type SessionRecord,
} from "../protocol/index.ts";
import {
  type AttachmentState,
  attachmentsText,
  type ListedFile,
  listedFiles,
} from "./attachment-listing.ts";
import { type CliIo, CliUsageError } from "./cli-io.ts";
import { parseCommandFlags } from "./parse-command-flags.ts";
import { loadPersonContext } from "./person-context.ts";

/** Per-call budget of `brigade sent`'s adapter calls, ms. */
export const SENT_TIMEOUT_MS = 10_000;

/** Messages `brigade sent` lists by default (`--limit` 1..200). */
export const SENT_DEFAULT_LIMIT = 20;

/**
 * Why `brigade sent` could not list: the team's server does not report message states
 * (capability `message.state`); exit 2 with one fixed line.
 *
 * @example SENT_REFUSALS.includes("states_unsupported") === true
 */
export const SENT_REFUSALS = ["states_unsupported"] as const;

const SUMMARY_CODEPOINTS = 200;

const LIMIT_RANGE = `${MIN_RECEIVE_LIMIT} to ${MAX_RECEIVE_LIMIT}`;

const HELP = `usage: brigade sent [--limit N] [--json]

From a session's Bash tool: the messages this session sent most recently. In your own terminal:
the messages you sent in the folder's team, as yourself (brigade send --as-me) and from every one
of your sessions. Newest first, with what became of each:
  accepted       the server has it; the recipient has not taken it into its context yet
  acked          in the recipient session's context
  held           the recipient's user must release it first
  refused        the recipient's inbound policy turns it away
  undeliverable  the recipient session ended; it waits for that session or its user's next
                 session in the same checkout (then it shows as held there)
  --limit N   how many to list (${LIMIT_RANGE}, default ${SENT_DEFAULT_LIMIT})
  --json      print the list as one JSON document
Recipient names are set by each teammate's machine and are unverified.
`;

/** One row of `brigade sent --json` (every string sanitised). */
export interface SentJsonRow {
  readonly message_id: string;
  readonly recipient_session_id: string;
  readonly recipient_name: string;
  readonly offered_to_session_id?: string;
  readonly state: string;
  readonly state_changed_at: string;
  readonly created_at: string;
  readonly summary: string;
  /** The files the message names: sanitised name, bytes, and what became of them. */
  readonly files?: readonly ListedFile[];
}

/**
 * `brigade sent [--limit N] [--json]`: this session's latest sent messages with their states
 * (`message sent`, capability `message.state`), recipients named through one `session list`
 * (offline included). Exit 0; 2 for a bad flag or `states_unsupported`; 11 when the session
 * cannot be found; the BAP status with one `<code>: <sentence>` line for an adapter error.
 *
 * @example await runSent(["--json"], io) // 0
 */
export async function runSent(argv: string[], io: CliIo): Promise<number> {
  const flags = parseCommandFlags("sent", argv, {
    limit: { type: "string" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  }).values;
  if (flags.help === true) {
    io.stdout(HELP);
    return 0;
  }
  const limit = limitOf(flags.limit);
  if (!insideAgentSession(io.env)) return personSent(io, limit, flags.json === true);
  const ctx = loadSessionContext(io.env, { timeoutMs: SENT_TIMEOUT_MS });
  if (!ctx.ok) {
    io.stderr(`brigade sent: ${ctx.line}\n`);
    return ctx.status;
  }
  if (!(await supportsMessageStates(ctx.adapter))) {
    io.stderr(
      "brigade sent: usage: states_unsupported: this team's server does not report message states\n",
    );
    return 2;
  }
  const self = ctx.map.brigade_session_id;
  let sent: MessageSentResult;
  let sessions: SessionRecord[];
  try {
    sent = await ctx.adapter.messageSent(self, { limit });
    sessions = (await ctx.adapter.sessionList({ includeOffline: true })).sessions;
  } catch (error) {
    if (!isBapError(error)) throw error;
    io.stderr(`brigade sent: ${bapErrorLine(error)}\n`);
    return error.exitStatus;
  }
  const names = new Map(sessions.map((s) => [s.session_id, s.session_name]));
  const rows = sent.messages.map((m) => jsonRow(m, names));
  if (flags.json === true) {
    io.stdout(`${JSON.stringify({ session_id: displayId(self), messages: rows })}\n`);
    return 0;
  }
  io.stdout(textListing(rows));
  return 0;
}

/** One row of `brigade sent --json` in the person's terminal: who of the person sent it, too. */
export interface PersonSentJsonRow extends SentJsonRow {
  /** `person` (written as the person, `brigade send --as-me`) or `session` (one of their sessions). */
  readonly sender: string;
  /** The sending session, for `sender: "session"`. */
  readonly sender_session_id?: string;
  readonly sender_session_name?: string;
}

/**
 * The person's view (outside any agent session): the latest messages the person sent in the
 * folder's team, as a person and from every one of their sessions (`message person-sent`,
 * capability `message.person`), recipients and sending sessions named through one `session list`.
 */
async function personSent(io: CliIo, limit: number, json: boolean): Promise<number> {
  const ctx = await loadPersonContext(io, SENT_TIMEOUT_MS);
  if (!ctx.ok) {
    io.stderr(`brigade sent: ${ctx.line}\n`);
    return ctx.status;
  }
  const capabilities = (await ctx.adapter.describe()).capabilities;
  if (!hasCapability(capabilities, "message.person")) {
    io.stderr(
      "brigade sent: usage: states_unsupported: this team's server does not list a person's messages; run brigade sent from one of your sessions\n",
    );
    return 2;
  }
  let sent: PersonSentResult;
  let sessions: SessionRecord[];
  try {
    sent = await ctx.adapter.messagePersonSent({ limit });
    sessions = (await ctx.adapter.sessionList({ includeOffline: true })).sessions;
  } catch (error) {
    if (!isBapError(error)) throw error;
    io.stderr(`brigade sent: ${bapErrorLine(error)}\n`);
    return error.exitStatus;
  }
  const names = new Map(sessions.map((s) => [s.session_id, s.session_name]));
  const rows: PersonSentJsonRow[] = sent.messages.map((m) => {
    const row = jsonRow(m, names);
    if (m.sender === "person" || m.sender_session_id === undefined) {
      return { ...row, sender: "person" };
    }
    const name = names.get(m.sender_session_id);
    return {
      ...row,
      sender: "session",
      sender_session_id: displayId(m.sender_session_id),
      sender_session_name: name === undefined ? "-" : displayName(name),
    };
  });
  if (json) {
    io.stdout(
      `${JSON.stringify({ principal_ref: displayId(ctx.principalRef), messages: rows })}\n`,
    );
    return 0;
  }
  if (rows.length === 0) {
    io.stdout("You have sent no message in this team that the server still keeps.\n");
    return 0;
  }
  const lines = [
    `${rows.length} most recent message${rows.length === 1 ? "" : "s"} you sent in team ${displayName(ctx.teamName)}, as yourself or from your sessions, newest first (recipient names are unverified):`,
  ];
  for (const r of rows) {
    const from =
      r.sender === "person"
        ? "from you (as a person)"
        : `from your session ${r.sender_session_name ?? "-"} (${r.sender_session_id ?? "-"})`;
    lines.push(`${r.message_id} ${from} ${rowTail(r)}`);
  }
  io.stdout(`${lines.join("\n")}\n`);
  return 0;
}

function limitOf(raw: string | undefined): number {
  if (raw === undefined) return SENT_DEFAULT_LIMIT;
  const n = /^[1-9][0-9]*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!isReceiveLimit(n)) throw new CliUsageError(`--limit takes a number from ${LIMIT_RANGE}`);
  return n;
}

function jsonRow(m: MessageStateRecord, names: ReadonlyMap<string, string>): SentJsonRow {
  const name = names.get(m.recipient_session_id);
  return {
    message_id: displayId(m.message_id),
    recipient_session_id: displayId(m.recipient_session_id),
    recipient_name: name === undefined ? "-" : displayName(name),
    ...(m.offered_to_session_id === undefined
      ? {}
      : { offered_to_session_id: displayId(m.offered_to_session_id) }),
    state: m.state,
    state_changed_at: oneLine(m.state_changed_at, 64),
    created_at: oneLine(m.created_at, 64),
    summary: oneLine(m.summary ?? "", SUMMARY_CODEPOINTS),
    ...(m.attachments === undefined
      ? {}
      : { files: listedFiles(m.attachments, fileState(m.state)) }),
  };
}

/** What became of a message's files, from the message's own state. */
function fileState(state: MessageStateRecord["state"]): AttachmentState {
  switch (state) {
    case "acked":
      return "delivered";
    case "held":
      return "held";
    case "refused":
      return "refused";
    case "accepted":
    case "undeliverable":
      return "waiting";
  }
}

function textListing(rows: readonly SentJsonRow[]): string {
  if (rows.length === 0) return "This session has sent no message that the server still keeps.\n";
  const lines = [
    `${rows.length} most recent message${rows.length === 1 ? "" : "s"} sent by this session, newest first (recipient names are unverified):`,
  ];
  for (const r of rows) {
    lines.push(`${r.message_id} ${rowTail(r)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** `to <name> (<id>): <state> since …; sent …` and the summary, as every listing line ends. */
function rowTail(r: SentJsonRow): string {
  const taken =
    r.offered_to_session_id === undefined
      ? ""
      : `; offered to the user's newer session ${r.offered_to_session_id}`;
  const summary = r.summary === "" ? "" : ` "${r.summary}"`;
  const files = r.files === undefined ? "" : `; ${attachmentsText(r.files)}`;
  return `to ${r.recipient_name} (${r.recipient_session_id}): ${r.state} since ${r.state_changed_at}${taken}; sent ${r.created_at}${summary}${files}`;
}
