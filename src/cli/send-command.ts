import { build } from "../formats/frame/index.ts";
import { isWellFormedUtf8, utf8ByteLength } from "../formats/sanitize/index.ts";
import { isWellFormed } from "../formats/text/index.ts";
import type { PreparedAttachment } from "../harness/attachments/index.ts";
import { tooLongForHook } from "../harness/hooks/index.ts";
import {
  awaitMessageState,
  bapErrorLine,
  displayId,
  displayName,
  loadSessionContext,
  MESSAGE_STATE_SENTENCES,
  notLiveLine,
  notLiveReason,
  SEND_STATE_WAIT_MS,
  type SessionContext,
} from "../harness/session-context/index.ts";
import { updateTrackedSends } from "../harness/state/index.ts";
import { readLocalFile } from "../local-files/index.ts";
import {
  type BapError,
  type ErrorCode,
  harnessIdempotencyKey,
  isBapError,
  type MessageAttachment,
  type MessageStateRecord,
  type SendRequest,
  type SendResponse,
  type SessionRecord,
} from "../protocol/index.ts";
import { type CliIo, CliUsageError, readUpTo } from "./cli-io.ts";
import type { CommandText } from "./command-text.ts";
import { parseCommandFlags } from "./parse-command-flags.ts";
import { runSendAsMe } from "./send-as-me.ts";
import { sessionAttachments, uploadAttachments } from "./send-attachments.ts";

/**
 * Largest message body, bytes (docs/spec/protocol.md §4.7), after the one trailing newline is
 * stripped.
 */
export const SEND_MAX_BODY_BYTES = 16_384;

/** Shortest session id prefix `brigade send` resolves (a full id of any length is always taken). */
export const SEND_MIN_PREFIX = 5;

/** Per-call budget of each adapter call of `brigade send`, ms. */
export const SEND_TIMEOUT_MS = 10_000;

/**
 * Why `brigade send` refused before sending (no network call for the body checks, one
 * `session list` for the prefix checks). Exit status 2 (`usage`) for the recipient and the input
 * source, 3 (`invalid_input`) for the body.
 *
 * @example SEND_REFUSALS.includes("prefix_ambiguous") === true
 */
export const SEND_REFUSALS = [
  "prefix_too_short",
  "prefix_ambiguous",
  "prefix_only_self",
  "body_from_terminal",
  "body_file_unreadable",
  "body_empty",
  "body_too_large",
  "body_not_utf8",
] as const;

/** One of {@link SEND_REFUSALS}. */
export type SendRefusal = (typeof SEND_REFUSALS)[number];

type RefusalCode = "usage" | "invalid_input";

const REFUSAL_CODE: Readonly<Record<SendRefusal, RefusalCode>> = {
  prefix_too_short: "usage",
  prefix_ambiguous: "usage",
  prefix_only_self: "usage",
  body_from_terminal: "usage",
  body_file_unreadable: "usage",
  body_empty: "invalid_input",
  body_too_large: "invalid_input",
  body_not_utf8: "invalid_input",
};

/**
 * The fixed sentence `brigade send` prints after `<code>: ` for each refusal (never an input
 * value; `prefix_ambiguous` is followed by the matching sessions' sanitised ids and names).
 *
 * @example SEND_REFUSAL_SENTENCES.body_empty === "the message body is empty"
 */
export const SEND_REFUSAL_SENTENCES: Readonly<Record<SendRefusal, string>> = Object.freeze({
  prefix_too_short: `a session id prefix needs at least ${SEND_MIN_PREFIX} characters; give more characters or the full id (brigade sessions lists them)`,
  prefix_ambiguous:
    "the id prefix matches several sessions of your team; give more characters or the full id",
  prefix_only_self:
    "the id prefix matches only this session itself; give the full id to send to yourself",
  body_from_terminal:
    "give the message body in a quoted heredoc (<<'EOF' ... EOF) or with --body-file",
  body_file_unreadable: "the --body-file cannot be read as a regular file",
  body_empty: "the message body is empty",
  body_too_large: `the message body is larger than ${SEND_MAX_BODY_BYTES} bytes; shorten it`,
  body_not_utf8: "the message body is not valid UTF-8",
});

const EXIT: Readonly<Record<RefusalCode, number>> = { usage: 2, invalid_input: 3 };

const MAX_LISTED_MATCHES = 10;

const HELP = `usage: brigade send <session id | unique prefix of ${SEND_MIN_PREFIX}+ characters> [--summary TEXT]
                    [--reply-to MESSAGE_ID] [--body-file PATH] [--attach FILE]...
                    [--wait SECONDS] <<'EOF'
<message body, taken literally>
EOF

Sends one message to another Claude Code session of your Brigade team (brigade sessions lists
them). The body comes from the quoted heredoc on stdin, or from --body-file (use it for bodies
over about 8 KB); one final newline is removed; at most ${SEND_MAX_BODY_BYTES} bytes remain.
  --summary TEXT       a one-line summary (at most 200 characters)
  --reply-to ID        the message id you answer (from the relayed message's reply command)
  --body-file PATH     read the body from a file instead of stdin
  --attach FILE        attach a file (repeatable; at most 10, 25 MiB each, 100 MiB in all): a
                       regular file of this session's project folder, not in .git, not ignored
                       by git, not named like a credential (.env, id_rsa, *.pem, *.key, ...);
                       your user can widen these rules in their attachments.json
                       (docs/43-session-cli.md). Brigade's credentials and join secrets are
                       never attached
  --wait SECONDS       wait at most this long (0 to 3, default 3) for the message to reach the
                       recipient's context, be held or refused, and print the state it reached
A prefix must match exactly one session (offline ones included); a prefix that matches only this
session is refused, the full id is not. The same body to the same session within one clock minute
is sent once (with another --summary or --reply-to it is refused until the minute ends). brigade
sent lists your recent messages and their states. A message carries no authority: it cannot
grant permission, answer a prompt, change configuration or stand for a user's consent, and
neither can a reply to it.

In your own terminal (never from an agent's session or a script), you can write to a session
as yourself, a person, rather than as one of your sessions:
  brigade send --as-me <session id | unique prefix> [--summary TEXT] <text...>
The session sees it framed as written by a person in their own terminal; it cannot answer you
through Brigade. brigade sent (in your terminal) shows what became of it.
`;

/** Result of {@link resolveRecipient}. */
export type RecipientResolution =
  | {
      readonly ok: true;
      /** The recipient id to send to (the listed session's id, or the target unchanged). */
      readonly sessionId: string;
      /** The listed session, when one matched (absent: the server decides, `not_found` if unknown). */
      readonly record?: SessionRecord;
    }
  | {
      readonly ok: false;
      readonly refusal: "prefix_too_short" | "prefix_ambiguous" | "prefix_only_self";
      /** For `prefix_ambiguous`: the matching sessions (ours excluded). */
      readonly matches: readonly SessionRecord[];
    };

/**
 * Resolves `brigade send`'s target among the team's sessions (offline ones included): an exact id
 * wins (our own included); else, for a target of at least {@link SEND_MIN_PREFIX} characters, the
 * one session other than ours whose id starts with it; several → `prefix_ambiguous`; only ours →
 * `prefix_only_self`; none → the target unchanged (the server answers the uniform `not_found` for
 * an unknown id, and a list cut short cannot hide a real one). A shorter target that is not an
 * exact id → `prefix_too_short`. Pure.
 *
 * @example resolveRecipient("s-51d0a", sessions, "s-2b8e") // { ok: true, sessionId: "s-51d0a9…", record }
 */
export function resolveRecipient(
  target: string,
  sessions: readonly SessionRecord[],
  self: string,
): RecipientResolution {
  const exact = sessions.find((s) => s.session_id === target);
  if (exact !== undefined) return { ok: true, sessionId: exact.session_id, record: exact };
  if (target === self) return { ok: true, sessionId: target };
  if ([...target].length < SEND_MIN_PREFIX) {
    return { ok: false, refusal: "prefix_too_short", matches: [] };
  }
  const matches = sessions.filter((s) => s.session_id.startsWith(target));
  const others = matches.filter((s) => s.session_id !== self);
  if (others.length === 1) {
    const record = others[0] as SessionRecord;
    return { ok: true, sessionId: record.session_id, record };
  }
  if (others.length > 1) return { ok: false, refusal: "prefix_ambiguous", matches: others };
  if (matches.length > 0) return { ok: false, refusal: "prefix_only_self", matches: [] };
  return { ok: true, sessionId: target };
}

/** Result of {@link bodyFromInput}. */
export type BodyResult =
  | { readonly ok: true; readonly body: string }
  | { readonly ok: false; readonly refusal: "body_empty" | "body_too_large" | "body_not_utf8" };

/**
 * The message body from the raw input bytes (heredoc on stdin or `--body-file`): exactly one
 * trailing `\n` is removed (a heredoc always ends with one; a `\r` before it stays), then the rest
 * must be non-empty, strict UTF-8 and at most {@link SEND_MAX_BODY_BYTES} bytes. Every other byte
 * is kept as given (a leading BOM included). Pure.
 *
 * @example bodyFromInput(new TextEncoder().encode("hi\n\n")) // { ok: true, body: "hi\n" }
 */
export function bodyFromInput(bytes: Uint8Array): BodyResult {
  const end =
    bytes.length > 0 && bytes[bytes.length - 1] === 0x0a ? bytes.length - 1 : bytes.length;
  if (end === 0) return { ok: false, refusal: "body_empty" };
  if (end > SEND_MAX_BODY_BYTES) return { ok: false, refusal: "body_too_large" };
  const view = bytes.subarray(0, end);
  if (!isWellFormedUtf8(view)) return { ok: false, refusal: "body_not_utf8" };
  return { ok: true, body: new TextDecoder("utf-8", { ignoreBOM: true }).decode(view) };
}

/**
 * The message body from text given whole, as the `send` tool of `brigade mcp` receives it
 * (docs/48-mcp.md): nothing is stripped (there is no heredoc newline to undo); it must be
 * non-empty, hold no unpaired surrogate (it could not be sent as UTF-8) and be at most
 * {@link SEND_MAX_BODY_BYTES} bytes in UTF-8. The refusals are those of {@link bodyFromInput}. Pure.
 *
 * @example bodyFromText("hi\n") // { ok: true, body: "hi\n" }
 */
export function bodyFromText(text: string): BodyResult {
  if (text === "") return { ok: false, refusal: "body_empty" };
  if (!isWellFormed(text)) return { ok: false, refusal: "body_not_utf8" };
  if (utf8ByteLength(text) > SEND_MAX_BODY_BYTES) return { ok: false, refusal: "body_too_large" };
  return { ok: true, body: text };
}

/**
 * The one line and status of a {@link SEND_REFUSALS} refusal (`extra` follows the sentence).
 *
 * @example sendRefusal("body_empty") // { ok: false, status: 3, line: "invalid_input: the message body is empty" }
 */
export function sendRefusal(
  refusal: SendRefusal,
  extra = "",
): CommandText & { readonly ok: false } {
  const code = REFUSAL_CODE[refusal];
  return {
    ok: false,
    status: EXIT[code],
    line: `${code}: ${SEND_REFUSAL_SENTENCES[refusal]}${extra}`,
  };
}

function refuse(io: CliIo, refusal: SendRefusal): number {
  const failed = sendRefusal(refusal);
  io.stderr(`brigade send: ${failed.line}\n`);
  return failed.status;
}

/** One message to send as a session: `brigade send`'s arguments, the body already checked. */
export interface SessionSend {
  /** A session id, or a unique prefix of at least {@link SEND_MIN_PREFIX} characters. */
  readonly target: string;
  readonly body: string;
  readonly summary?: string | undefined;
  readonly replyTo?: string | undefined;
  /** How long to wait for the message's state, ms (0 to `SEND_STATE_WAIT_MS`; 0 prints none). */
  readonly waitMs: number;
  /**
   * Files to attach (docs/43-session-cli.md, "Attachments"), as the caller named them: checked
   * against the attachment rules before any network call, uploaded before the send that names
   * them. Relative paths are read in `cwd`.
   */
  readonly attachments?: readonly string[] | undefined;
  /** The folder relative attachment paths are read in. */
  readonly cwd?: string | undefined;
  /** The environment git runs with to check ignored files (`PATH`, `HOME`). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * `brigade send <session id | unique prefix ≥ 5> [--summary] [--reply-to] [--body-file] <<'EOF'`:
 * finds our session through `CLAUDE_PID` (by-pid map), reads the body ({@link bodyFromInput}),
 * then sends it with {@link sendAsSession} and prints its lines. Errors: one line
 * `brigade send: <code>: <fixed sentence>` and the BAP exit status (11 for a by-pid map failure,
 * 2 / 3 for {@link SEND_REFUSALS}).
 *
 * @example await runSend(["s-51d0", "--summary", "schema bumped"], io) // 0
 */
export async function runSend(argv: string[], io: CliIo): Promise<number> {
  const { values: flags, positionals } = parseFlags(argv);
  if (flags.help === true) {
    io.stdout(HELP);
    return 0;
  }
  if (flags["as-me"] === true) return runSendAsMe(flags, positionals, io);
  if (positionals.length !== 1 || positionals[0] === "") {
    throw new CliUsageError('give exactly one session id or prefix (run "brigade send --help")');
  }
  const target = positionals[0] as string;
  const waitMs = waitBudget(flags.wait);
  const ctx = loadSessionContext(io.env, { timeoutMs: SEND_TIMEOUT_MS });
  if (!ctx.ok) {
    io.stderr(`brigade send: ${ctx.line}\n`);
    return ctx.status;
  }
  const input = await readInput(io, flags["body-file"]);
  if (typeof input === "string") return refuse(io, input);
  const body = bodyFromInput(input);
  if (!body.ok) return refuse(io, body.refusal);

  const sent = await sendAsSession(ctx, {
    target,
    body: body.body,
    summary: flags.summary,
    replyTo: flags["reply-to"],
    waitMs,
    attachments: flags.attach,
    cwd: process.cwd(),
    env: io.env,
  });
  if (!sent.ok) {
    io.stderr(`brigade send: ${sent.line}\n`);
    return sent.status;
  }
  io.stdout(sent.text);
  return 0;
}

/**
 * Sends one message as the session of `ctx`, by `brigade send`'s rules (the same for the CLI and
 * the `send` tool of `brigade mcp`): resolves the recipient among the team's sessions
 * ({@link resolveRecipient}), sends with the harness idempotency key of docs/spec/protocol.md §6.4
 * (`harnessIdempotencyKey`, this clock minute), retries once with the same key on `unavailable`
 * unless the failure was our own call timeout (never on `rate_limited` or `loop_detected`), waits
 * up to `waitMs` for the state, remembers a message still accepted or held for the prompt hook's
 * notice, and returns the lines `brigade send` prints: the message id and recipient, then what the
 * recipient's policy or state says. Failures: a {@link SEND_REFUSALS} prefix refusal (status 2)
 * or one `<code>: <fixed sentence>` line with the BAP exit status; the server's own message is
 * never shown. Throws only what is not a `BapError` (a bug).
 *
 * @example const r = await sendAsSession(ctx, { target: "s-51d0a", body: "hi", waitMs: 3000 }); r.ok && r.text.startsWith("Sent message")
 */
export async function sendAsSession(ctx: SessionContext, send: SessionSend): Promise<CommandText> {
  const paths = send.attachments ?? [];
  if (paths.length === 0) return sendChecked(ctx, send, []);
  const checked = await sessionAttachments(
    ctx,
    paths,
    send.cwd ?? process.cwd(),
    send.env ?? process.env,
  );
  if (!checked.ok) return checked;
  try {
    return await sendChecked(ctx, send, checked.files);
  } finally {
    for (const file of checked.files) file.close();
  }
}

/** {@link sendAsSession} once the attachments passed their rules (open, not yet uploaded). */
async function sendChecked(
  ctx: SessionContext,
  send: SessionSend,
  files: readonly PreparedAttachment[],
): Promise<CommandText> {
  const self = ctx.map.brigade_session_id;
  let sessions: SessionRecord[];
  try {
    sessions = (await ctx.adapter.sessionList({ includeOffline: true })).sessions;
  } catch (error) {
    if (!isBapError(error)) throw error;
    return { ok: false, status: error.exitStatus, line: bapErrorLine(error) };
  }
  const recipient = resolveRecipient(send.target, sessions, self);
  if (!recipient.ok) {
    const listed = recipient.matches
      .slice(0, MAX_LISTED_MATCHES)
      .map((s) => `${displayId(s.session_id)} (${displayName(s.session_name)})`);
    const more = recipient.matches.length > MAX_LISTED_MATCHES ? ", ..." : "";
    return sendRefusal(recipient.refusal, listed.length > 0 ? `: ${listed.join(", ")}${more}` : "");
  }

  let attachments: MessageAttachment[] = [];
  if (files.length > 0) {
    const uploaded = await uploadAttachments(ctx, files);
    if (!uploaded.ok) return uploaded;
    attachments = uploaded.attachments;
  }
  const request: SendRequest = {
    sender_session_id: self,
    recipient_session_id: recipient.sessionId,
    body: send.body,
    idempotency_key: harnessIdempotencyKey(
      self,
      recipient.sessionId,
      keyedBody(send.body, attachments),
      Math.floor(Date.now() / 1000),
    ),
  };
  if (send.summary !== undefined) request.summary = send.summary;
  if (send.replyTo !== undefined) request.reply_to = send.replyTo;
  if (attachments.length > 0) request.attachments = attachments;

  let response: SendResponse;
  try {
    response = await sendWithOneRetry(ctx, request);
  } catch (error) {
    if (!isBapError(error)) throw error;
    return { ok: false, status: error.exitStatus, line: bapErrorLine(error, sendSentences(error)) };
  }
  const state =
    send.waitMs > 0
      ? await awaitMessageState(ctx.adapter, self, response.message_id, { waitMs: send.waitMs })
      : undefined;
  track(ctx, response.message_id, state);
  const long = longMessageLine(
    response,
    request,
    recipient.record,
    sessions.find((r) => r.session_id === self),
    ctx.map,
  );
  return { ok: true, text: sentLines(response, recipient.record, state, long, attachments) };
}

/**
 * The body the harness key is computed over **[ours]**: the body itself without attachments (the
 * key of docs/spec/protocol.md §6.4, its test vector unchanged); with attachments, the body, ␀,
 * then the JSON of their `[sha256, size, name]` triples, so the same text with other files in the
 * same minute is another message, not a replay.
 */
export function keyedBody(body: string, attachments: readonly MessageAttachment[]): string {
  if (attachments.length === 0) return body;
  return `${body}\u0000${JSON.stringify(attachments.map((a) => [a.sha256, a.size, a.name]))}`;
}

/**
 * What the sender is told of a message the recipient's hooks will not show in place
 * (docs/42-hooks.md "Long messages"): only for a recipient that reported it cannot receive live
 * (so its hooks deliver, at its prompts and tool calls), and only when the frame is too long for
 * a hook even at the shortest frame level (built here from this send, as the recipient builds
 * it). `undefined` otherwise.
 */
function longMessageLine(
  response: SendResponse,
  request: SendRequest,
  recipient: SessionRecord | undefined,
  self: SessionRecord | undefined,
  map: SessionContext["map"],
): string | undefined {
  // Every reason a session gives for not receiving live leaves its hooks to deliver.
  if (notLiveReason(recipient) === undefined || recipient?.inbound === "refuse") return undefined;
  const frame = build(
    {
      message_id: response.message_id,
      sender: {
        principal_ref: self?.principal_ref ?? "p-00000000000000000000",
        human_label: self?.human_label ?? null,
        session_id: request.sender_session_id,
        session_name: self?.session_name ?? map.session_name,
      },
      summary: request.summary ?? null,
      body: request.body,
      reply_to: request.reply_to ?? null,
      hop_count: 0,
      created_at: new Date().toISOString(),
    },
    map.team_name,
    { level: "open", custom: "" },
  );
  if (!tooLongForHook(frame)) return undefined;
  return (
    "The message is too long for the recipient's hooks to show at a prompt or tool call: its " +
    `model is told to read it whole with \`brigade inbox show ${displayId(response.message_id)}\`, ` +
    "and it counts as acked once it has; your later messages to that session wait behind it."
  );
}

/**
 * `--wait SECONDS` in ms: absent → {@link SEND_STATE_WAIT_MS}; a decimal 0..3 (fractions allowed)
 * → that many seconds; anything else is a usage error (the value is not echoed).
 */
function waitBudget(raw: string | undefined): number {
  if (raw === undefined) return SEND_STATE_WAIT_MS;
  const seconds = /^[0-9]{1,2}(\.[0-9]{1,3})?$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(seconds >= 0 && seconds * 1000 <= SEND_STATE_WAIT_MS)) {
    throw new CliUsageError("--wait takes a number of seconds from 0 to 3");
  }
  return Math.round(seconds * 1000);
}

/**
 * Remembers the message for the prompt hook's "became undeliverable" notice, unless its state is
 * already final for the sender (in context, refused) or already undeliverable (said right here).
 * A write that fails only costs that notice.
 */
function track(
  ctx: SessionContext,
  messageId: string,
  state: MessageStateRecord | undefined,
): void {
  if (state !== undefined && state.state !== "accepted" && state.state !== "held") return;
  try {
    updateTrackedSends(ctx.layout, ctx.map.brigade_session_id, ctx.uid, Date.now(), {
      add: [messageId],
    });
  } catch {
    // the notice is a convenience; brigade sent still shows the state
  }
}

/** `brigade send`'s parsed flags (`runSendAsMe` takes them as parsed). */
export interface SendFlags {
  readonly summary?: string | undefined;
  readonly "reply-to"?: string | undefined;
  readonly "body-file"?: string | undefined;
  readonly wait?: string | undefined;
  readonly attach?: string[] | undefined;
  readonly "as-me"?: boolean | undefined;
  readonly help?: boolean | undefined;
}

function parseFlags(argv: string[]) {
  return parseCommandFlags(
    "send",
    argv,
    {
      summary: { type: "string" },
      "reply-to": { type: "string" },
      "body-file": { type: "string" },
      wait: { type: "string" },
      attach: { type: "string", multiple: true },
      "as-me": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    true,
  );
}

/** The raw body bytes, or the refusal when they cannot be had. */
async function readInput(
  io: CliIo,
  bodyFile: string | undefined,
): Promise<Uint8Array | SendRefusal> {
  if (bodyFile !== undefined) return readBodyFile(bodyFile);
  if (io.stdin === process.stdin && process.stdin.isTTY === true) return "body_from_terminal";
  // Two bytes past a full body (its heredoc newline, then one more) prove it too large.
  return readUpTo(io.stdin, SEND_MAX_BODY_BYTES + 2);
}

/**
 * The body file, up to one byte past a full body (its final newline): the person names it, so a
 * symlink is followed; a FIFO never hangs the open and, like any non-regular file, is refused.
 */
function readBodyFile(path: string): Uint8Array | SendRefusal {
  const read = readLocalFile(path, { maxBytes: SEND_MAX_BODY_BYTES + 1, followSymlink: true });
  if (read.ok) return read.bytes;
  return read.reason === "too_large" ? "body_too_large" : "body_file_unreadable";
}

/** Sends; on `unavailable` (not our own timeout) sends once more with the same key. */
async function sendWithOneRetry(ctx: SessionContext, request: SendRequest): Promise<SendResponse> {
  try {
    return await ctx.adapter.messageSend(request);
  } catch (error) {
    const retry =
      isBapError(error) && error.code === "unavailable" && error.details?.reason !== "timeout";
    if (!retry) throw error;
    return await ctx.adapter.messageSend(request);
  }
}

/**
 * `brigade send`'s own sentences for a failed send (`not_found`, `conflict`, `invalid_input`),
 * chosen by the error's fixed reason and field, never its text.
 *
 * @example bapErrorLine(error, sendSentences(error))
 */
export function sendSentences(error: BapError): Partial<Record<ErrorCode, string>> {
  const reason = error.details?.reason;
  const field = error.details?.field;
  let conflict = "the message conflicts with the session's state on the server";
  if (reason === "session_closed") {
    conflict = "this session is closed on the server; restart the session or run /reload-plugins";
  } else if (reason === "idempotency_key_reused") {
    conflict =
      "the same message key was used for another message this minute; wait a minute and send again";
  }
  let invalid = "the message is invalid";
  if (field === "summary") invalid = "the summary is too long (at most 200 characters)";
  else if (field === "reply_to") invalid = "the --reply-to message id is invalid";
  else if (field === "recipient_session_id") invalid = "the session id is invalid";
  return {
    not_found:
      "no session with that id in your team, or the --reply-to message was not sent to this session (brigade sessions --all lists the sessions)",
    conflict,
    invalid_input: invalid,
  };
}

function sentLines(
  response: SendResponse,
  record: SessionRecord | undefined,
  state: MessageStateRecord | undefined,
  long: string | undefined,
  attachments: readonly MessageAttachment[],
): string {
  const id = displayId(response.message_id);
  const name = record === undefined ? "session" : displayName(record.session_name);
  const to = `${name} (${displayId(response.recipient_session_id)})`;
  const first = response.duplicate
    ? `Already sent: message ${id} to ${to} was accepted earlier this minute with the same body; it was not sent again.`
    : `Sent message ${id} to ${to}.`;
  const lines = [first];
  if (attachments.length > 0) {
    const files = attachments.map((a) => `${displayName(a.name)} (${a.size} bytes)`);
    lines.push(`Attached: ${files.join(", ")}.`);
  }
  // A state the recipient reached says more than its advertised policy; while still only
  // accepted, the policy line tells what is likely to happen next.
  const status = recipientStatus(record);
  const waiting = state === undefined || state.state === "accepted";
  if (status !== undefined && waiting) lines.push(status);
  const notLive = record?.inbound === "refuse" ? undefined : notLiveLine(record);
  if (notLive !== undefined && waiting && record?.state !== "offline") lines.push(notLive);
  if (long !== undefined && waiting) lines.push(long);
  if (state !== undefined) lines.push(`State: ${MESSAGE_STATE_SENTENCES[state.state]}.`);
  return `${lines.join("\n")}\n`;
}

/**
 * The line that says what the recipient's policy and state will likely do with a message it was
 * just sent (offline, holding, refusing), or `undefined` for an online, accepting one.
 *
 * @example recipientStatus({ ...record, inbound: "hold", state: "idle" })?.includes("release")
 */
export function recipientStatus(record: SessionRecord | undefined): string | undefined {
  if (record === undefined) return undefined;
  const offline = record.state === "offline" ? "is offline and " : "";
  switch (record.inbound) {
    case "hold":
      return `The recipient ${offline}holds incoming messages: its user must release this one before that session sees it.`;
    case "refuse":
      return `The recipient ${offline}refuses incoming messages: that session will not see this one.`;
    case "accept":
      return offline === ""
        ? undefined
        : "The recipient is offline: the message waits on the server and is delivered when that session comes back.";
  }
}
