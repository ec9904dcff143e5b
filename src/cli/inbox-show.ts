import { MessageFiles } from "../harness/attachments/index.ts";
import { insideClaudeCode } from "../harness/claude-code/index.ts";
import { bapErrorLine, loadSessionContext } from "../harness/session-context/index.ts";
import {
  lockShown,
  openSessionInbound,
  readShownRecords,
  shownRecord,
  writeShownRecords,
} from "../harness/state/index.ts";
import { DEFAULT_RECEIVE_LIMIT, isBapError } from "../protocol/index.ts";
import { type CliIo, CliUsageError } from "./cli-io.ts";
import { parseCommandFlags } from "./parse-command-flags.ts";

/**
 * Why `brigade inbox show` printed no frame: `show_outside_session` (run without `CLAUDE_PID`:
 * it reads a message into a Claude Code session, exit 2), `message_not_waiting` (no message of
 * that id waits for this session among the oldest 50: read and acknowledged already, or expired;
 * exit 6), `message_held` (the session's policy holds it, or it was taken over from an earlier
 * session: only the user releases it; exit 6), `inbound_refused` (the session's policy refuses
 * teammates' messages; exit 6), `message_invalid` (the server's copy breaks the message rules, so
 * no frame can be built; exit 1), `files_unavailable` (its attachments could not be downloaded and
 * verified now, so it is not shown without them; it stays waiting; exit 6).
 *
 * @example INBOX_SHOW_REFUSALS.includes("message_not_waiting") === true
 */
export const INBOX_SHOW_REFUSALS = [
  "show_outside_session",
  "message_not_waiting",
  "message_held",
  "inbound_refused",
  "message_invalid",
  "files_unavailable",
] as const;

/** One of {@link INBOX_SHOW_REFUSALS}. */
export type InboxShowRefusal = (typeof INBOX_SHOW_REFUSALS)[number];

const REFUSAL_EXIT: Readonly<Record<InboxShowRefusal, number>> = {
  show_outside_session: 2,
  message_not_waiting: 6,
  message_held: 6,
  inbound_refused: 6,
  message_invalid: 1,
  files_unavailable: 6,
};

/**
 * The fixed sentence printed for each {@link InboxShowRefusal}; none carries a value.
 *
 * @example INBOX_SHOW_SENTENCES.message_held.includes("user")
 */
export const INBOX_SHOW_SENTENCES: Readonly<Record<InboxShowRefusal, string>> = Object.freeze({
  show_outside_session:
    "it reads a teammate's message into a Claude Code session; run it from the session's Bash tool",
  message_not_waiting:
    "no message with that id waits for this session (it was read already, or it expired)",
  message_held:
    "that message is held for this session's user; only the user can release it (brigade inbox)",
  inbound_refused: "this session refuses teammates' messages",
  message_invalid: "the server's copy of that message is malformed; it cannot be shown",
  files_unavailable:
    "that message's attached files could not be downloaded and verified now; it stays waiting, try again later",
});

const HELP = `usage: brigade inbox show <message id>

Prints one teammate message waiting for this session as its <brigade-message> frame, whole. A
hook names this command for a message too long to show at a prompt or between tool calls. The
message counts as read (and its sender sees it acknowledged) once Claude Code has shown this
output to the model. Run it from the session's Bash tool.
`;

/** The oldest messages looked through for the id (the server's default receive page). */
const SEARCHED = DEFAULT_RECEIVE_LIMIT;

/**
 * `brigade inbox show <message id>` (docs/43-session-cli.md; docs/42-hooks.md "Long messages"):
 * inside a session only, finds the message among the oldest unacknowledged ones of this session
 * (`message receive`, 50), runs it through the session's inbound pipeline (its policy, the seen
 * file: a message already read answers so and exits 0) and prints its bare frame, whole, on
 * stdout. It never acks: it records the message as shown (`state/shown/`, with the transcript's
 * size now), and a hook acks it once the transcript shows the model read this output. Exit 0;
 * 2 for a usage error or `show_outside_session`; the exits of {@link INBOX_SHOW_REFUSALS}; 11
 * when the session cannot be found; the BAP status with one line for an adapter error.
 *
 * @example await runInboxShow(["m-7f3a"], io) // 0, the frame on stdout
 */
export async function runInboxShow(argv: string[], io: CliIo): Promise<number> {
  const { values: flags, positionals } = parseCommandFlags(
    "inbox",
    argv,
    { help: { type: "boolean", short: "h" } },
    true,
  );
  if (flags.help === true) {
    io.stdout(HELP);
    return 0;
  }
  const id = positionals[0];
  if (id === undefined || positionals.length !== 1) {
    throw new CliUsageError("give exactly one message id");
  }
  if (!insideClaudeCode(io.env)) return refuse(io, "show_outside_session");
  const ctx = loadSessionContext(io.env);
  if (!ctx.ok) {
    io.stderr(`brigade inbox show: ${ctx.line}\n`);
    return ctx.status;
  }
  const { map, layout, uid } = ctx;
  let envelopes: readonly unknown[];
  try {
    envelopes = (await ctx.adapter.messageReceive(map.brigade_session_id, { limit: SEARCHED }))
      .messages;
  } catch (error) {
    if (!isBapError(error)) throw error;
    io.stderr(`brigade inbox show: ${bapErrorLine(error)}\n`);
    return error.exitStatus;
  }
  const envelope = envelopes.find(
    (e) => typeof e === "object" && e !== null && (e as { message_id?: unknown }).message_id === id,
  );
  if (envelope === undefined) return refuse(io, "message_not_waiting");
  const pipeline = openSessionInbound({ map, layout, uid, now: Date.now, delivery: "poll" });
  const offered = pipeline.offer(envelope);
  switch (offered.outcome) {
    case "duplicate":
      io.stdout("That message was already read in this session.\n");
      return 0;
    case "refused":
      return refuse(io, "inbound_refused");
    case "rejected":
      return refuse(io, "message_invalid");
    case "queued":
      break;
    default:
      return refuse(io, "message_held");
  }
  const files = new MessageFiles({
    adapter: ctx.adapter,
    sessionId: map.brigade_session_id,
    project: map.checkout,
    env: io.env,
  });
  if ((await files.settleHead(pipeline)) === "failed") return refuse(io, "files_unavailable");
  const item = pipeline.next();
  if (item?.kind !== "message") return refuse(io, "message_invalid");
  // A hook of a parallel tool call may be rewriting the records: wait for it (briefly).
  const release = await lockShownWaiting(layout, map.brigade_session_id);
  try {
    writeShownRecords(layout, map.brigade_session_id, [
      ...readShownRecords(layout, map.brigade_session_id, uid),
      shownRecord(item.message, "show", item.frame, map.transcript_path ?? "", Date.now()),
    ]);
  } catch {
    // the hooks announce it again later; what is printed here is still read
  } finally {
    release?.();
  }
  io.stdout(`${item.frame}\n`);
  return 0;
}

/** The session's delivery lock, tried for up to 2 s; `undefined` when a hook kept it that long. */
async function lockShownWaiting(
  layout: Parameters<typeof lockShown>[0],
  sessionId: string,
): Promise<(() => void) | undefined> {
  for (let waited = 0; waited < 2_000; waited += 50) {
    const release = lockShown(layout, sessionId);
    if (release !== undefined) return release;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

function refuse(io: CliIo, refusal: InboxShowRefusal): number {
  io.stderr(`brigade inbox show: ${INBOX_SHOW_SENTENCES[refusal]}\n`);
  return REFUSAL_EXIT[refusal];
}
