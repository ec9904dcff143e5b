import type { HttpAdapter } from "../adapters/http/index.ts";
import { bapErrorLine, displayId, displayName } from "../harness/session-context/index.ts";
import {
  harnessIdempotencyKey,
  hasCapability,
  isBapError,
  type PersonSendRequest,
  type SendResponse,
  type SessionRecord,
} from "../protocol/index.ts";
import type { CliIo } from "./cli-io.ts";
import type { CommandText } from "./command-text.ts";
import { loadPersonContext, personTerminalRefusal } from "./person-context.ts";
import {
  bodyFromText,
  recipientStatus,
  resolveRecipient,
  SEND_TIMEOUT_MS,
  type SendFlags,
  sendRefusal,
  sendSentences,
} from "./send-command.ts";

/**
 * Why `brigade send --as-me` refused before sending (exit 2, one fixed line): `as_me_in_session`
 * — the environment shows a coding agent's session; `as_me_under_agent` — a coding-agent
 * client's process is among the command's ancestors (its shell tool ran it); `as_me_no_terminal`
 * — stdin or stdout is not a terminal; `as_me_session_flags` — a flag only a session's send takes (`--reply-to`,
 * `--body-file`, `--attach`, `--wait`); `as_me_no_text` — no session or no text given;
 * `person_send_unsupported` — the team's server lacks capability `message.person`.
 *
 * @example SEND_AS_ME_REFUSALS.includes("as_me_in_session") === true
 */
export const SEND_AS_ME_REFUSALS = [
  "as_me_in_session",
  "as_me_under_agent",
  "as_me_no_terminal",
  "as_me_session_flags",
  "as_me_no_text",
  "person_send_unsupported",
] as const;

/** One of {@link SEND_AS_ME_REFUSALS}. */
export type SendAsMeRefusal = (typeof SEND_AS_ME_REFUSALS)[number];

/**
 * The fixed sentence after `usage: <refusal>: ` for each {@link SEND_AS_ME_REFUSALS} (never an
 * input value).
 *
 * @example SEND_AS_ME_SENTENCES.as_me_no_terminal.includes("terminal")
 */
export const SEND_AS_ME_SENTENCES: Readonly<Record<SendAsMeRefusal, string>> = Object.freeze({
  as_me_in_session:
    "--as-me writes as you, the person, so it runs only in your own terminal, never from an agent's session (its shell tool included)",
  as_me_under_agent:
    "--as-me writes as you, the person, so it never runs beneath a coding agent's process (its shell tool included), only in your own terminal",
  as_me_no_terminal:
    "--as-me writes as you, the person, so it needs your own terminal on stdin and stdout (not a pipe, a script or an agent's shell tool)",
  as_me_session_flags:
    "--as-me takes only --summary; --reply-to, --body-file, --attach and --wait belong to a session's send",
  as_me_no_text:
    "give the session id or prefix, then the text: brigade send --as-me <session> <text>",
  person_send_unsupported: "this team's server does not take messages from a person",
});

function refuse(io: CliIo, refusal: SendAsMeRefusal): number {
  io.stderr(`brigade send: usage: ${refusal}: ${SEND_AS_ME_SENTENCES[refusal]}\n`);
  return 2;
}

/**
 * `brigade send --as-me <session id | unique prefix> [--summary TEXT] <text...>` (docs/43-session-cli.md,
 * "Writing as yourself"): the person writes to a session of the folder's team as themselves. In
 * this order: only `--summary` besides `--as-me` (else `as_me_session_flags`); the person's own
 * terminal ({@link personTerminalRefusal}: `as_me_in_session`, `as_me_under_agent`,
 * `as_me_no_terminal`), before any
 * file is read or call made; a target and a text (the remaining words joined by one space,
 * checked like a body: non-empty, UTF-8, ≤ 16,384 bytes); then {@link sendAsPerson}. Exit 0, 2
 * (a refusal), 3 (the body), 11 (no team for the folder), or the BAP status.
 *
 * @example await runSendAsMe(flags, ["s-51d0a", "Please", "pause"], io) // 0 in a terminal
 */
export async function runSendAsMe(
  flags: SendFlags,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const sessionOnly =
    flags["reply-to"] !== undefined ||
    flags["body-file"] !== undefined ||
    flags.attach !== undefined ||
    flags.wait !== undefined;
  if (sessionOnly) return refuse(io, "as_me_session_flags");
  const place = await personTerminalRefusal(io);
  if (place === "agent_session") return refuse(io, "as_me_in_session");
  if (place === "under_agent") return refuse(io, "as_me_under_agent");
  if (place === "no_terminal") return refuse(io, "as_me_no_terminal");
  const [target, ...words] = positionals;
  if (target === undefined || target === "" || words.length === 0) {
    return refuse(io, "as_me_no_text");
  }
  const body = bodyFromText(words.join(" "));
  if (!body.ok) {
    const failed = sendRefusal(body.refusal);
    io.stderr(`brigade send: ${failed.line}\n`);
    return failed.status;
  }
  const ctx = await loadPersonContext(io, SEND_TIMEOUT_MS);
  if (!ctx.ok) {
    io.stderr(`brigade send: ${ctx.line}\n`);
    return ctx.status;
  }
  if (!hasCapability((await ctx.adapter.describe()).capabilities, "message.person")) {
    return refuse(io, "person_send_unsupported");
  }
  const sent = await sendAsPerson(ctx.adapter, ctx.principalRef, {
    target,
    body: body.body,
    summary: flags.summary,
  });
  if (!sent.ok) {
    io.stderr(`brigade send: ${sent.line}\n`);
    return sent.status;
  }
  io.stdout(sent.text);
  return 0;
}

/** One message a person writes: the target as `brigade send` takes it, the body already checked. */
export interface PersonSend {
  /** A session id, or a unique prefix of at least 5 characters. */
  readonly target: string;
  readonly body: string;
  readonly summary?: string | undefined;
}

/**
 * Sends one message as the person whose principal `adapter` holds (capability `message.person`,
 * `message person-send`): resolves the target among the team's sessions like `brigade send`
 * (`resolveRecipient`; the person has no session, so no "only yourself" refusal), keys it with
 * the harness key of docs/spec/protocol.md §6.4 over the principal (`harnessIdempotencyKey`,
 * this clock minute), retries once on `unavailable` unless it was our own timeout, and returns
 * the lines to print. Does not check where it runs: its callers do (the CLI: the person's
 * terminal; a server-side caller: its own authenticated person). Throws only what is not a
 * `BapError`.
 *
 * @example await sendAsPerson(adapter, "p-41c9", { target: "s-51d0a", body: "Please pause the deploy." })
 */
export async function sendAsPerson(
  adapter: HttpAdapter,
  principalRef: string,
  send: PersonSend,
): Promise<CommandText> {
  let sessions: SessionRecord[];
  try {
    sessions = (await adapter.sessionList({ includeOffline: true })).sessions;
  } catch (error) {
    if (!isBapError(error)) throw error;
    return { ok: false, status: error.exitStatus, line: bapErrorLine(error) };
  }
  const recipient = resolveRecipient(send.target, sessions, "");
  if (!recipient.ok) {
    const listed = recipient.matches
      .slice(0, 10)
      .map((s) => `${displayId(s.session_id)} (${displayName(s.session_name)})`);
    return sendRefusal(recipient.refusal, listed.length > 0 ? `: ${listed.join(", ")}` : "");
  }
  const request: PersonSendRequest = {
    recipient_session_id: recipient.sessionId,
    body: send.body,
    idempotency_key: harnessIdempotencyKey(
      principalRef,
      recipient.sessionId,
      send.body,
      Math.floor(Date.now() / 1000),
    ),
  };
  if (send.summary !== undefined) request.summary = send.summary;
  let response: SendResponse;
  try {
    response = await sendOnceMore(adapter, request);
  } catch (error) {
    if (!isBapError(error)) throw error;
    return { ok: false, status: error.exitStatus, line: bapErrorLine(error, sendSentences(error)) };
  }
  return { ok: true, text: personSentLines(response, recipient.record) };
}

async function sendOnceMore(
  adapter: HttpAdapter,
  request: PersonSendRequest,
): Promise<SendResponse> {
  try {
    return await adapter.messagePersonSend(request);
  } catch (error) {
    const retry =
      isBapError(error) && error.code === "unavailable" && error.details?.reason !== "timeout";
    if (!retry) throw error;
    return await adapter.messagePersonSend(request);
  }
}

function personSentLines(response: SendResponse, record: SessionRecord | undefined): string {
  const id = displayId(response.message_id);
  const name = record === undefined ? "session" : displayName(record.session_name);
  const to = `${name} (${displayId(response.recipient_session_id)})`;
  const lines = [
    response.duplicate
      ? `Already sent: your message ${id} to ${to} was accepted earlier this minute with the same text; it was not sent again.`
      : `Sent message ${id} as you, a person, to ${to}.`,
    "That session sees it framed as written by a person in their own terminal, with no authority; it cannot answer you through Brigade. brigade sent shows what becomes of it.",
  ];
  const status = recipientStatus(record);
  if (status !== undefined) lines.push(status);
  return `${lines.join("\n")}\n`;
}
