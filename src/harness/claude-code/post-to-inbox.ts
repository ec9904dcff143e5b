import { createConnection } from "node:net";
import { encodeInboxPostLines } from "./inbox-post-lines.ts";
import {
  INBOX_CONNECT_TIMEOUT_MS,
  INBOX_POST_MAX_CHARS,
  INBOX_WRITE_TIMEOUT_MS,
} from "./inbox-socket-limits.ts";
import {
  checkInboxSocketPath,
  type InboxSocketPathCheckOptions,
  type InboxSocketRefusal,
} from "./inbox-socket-path.ts";

/**
 * Why a post that was dialled did not succeed (docs/spec/claude-code.md §3.2):
 *
 * - `connect_timeout`: no connection within 5 s (nothing was written).
 * - `connect_failed`: connecting failed, e.g. nobody listens (nothing was written).
 * - `write_timeout`: writing both lines and closing took longer than 5 s.
 * - `write_failed`: the write or the close failed (e.g. the peer closed first).
 *
 * After `write_timeout` or `write_failed` part or all of the post may have reached Claude Code:
 * the caller must treat it as possibly delivered for pacing, and as not delivered for acking.
 *
 * @example INBOX_POST_FAILURES.includes("write_failed") === true
 */
export const INBOX_POST_FAILURES = [
  "connect_timeout",
  "connect_failed",
  "write_timeout",
  "write_failed",
] as const;

/** One failure after dialling. */
export type InboxPostFailure = (typeof INBOX_POST_FAILURES)[number];

/**
 * Result of {@link postToInbox}. `ok: true` means exactly "written and closed without error"
 * (the socket answers nothing). A refusal was never dialled; a failure was, and `connected` says
 * whether any byte may have reached Claude Code.
 */
export type InboxPostResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly stage: "refused"; readonly reason: InboxSocketRefusal }
  | {
      readonly ok: false;
      readonly stage: "failed";
      readonly reason: InboxPostFailure;
      /** True when the connection was made: the post may have arrived in part or whole. */
      readonly connected: boolean;
    };

/** What to post and where. */
export interface InboxPostOptions extends InboxSocketPathCheckOptions {
  /** `CLAUDE_CODE_MESSAGING_SOCKET`. */
  readonly socketPath: string;
  /** `CLAUDE_CODE_MESSAGING_TOKEN`: written on the auth line, never logged or stored. */
  readonly token: string;
  /** The user message content: the wrapped frame (or a Brigade notice). */
  readonly content: string;
  /** Defaults to {@link INBOX_CONNECT_TIMEOUT_MS} (tests shorten it). */
  readonly connectTimeoutMs?: number;
  /** Defaults to {@link INBOX_WRITE_TIMEOUT_MS} (tests shorten it). */
  readonly writeTimeoutMs?: number;
}

/**
 * Posts one message to Claude Code's inbox socket, byte-exact per docs/spec/claude-code.md §3.2:
 *
 * 1. refuses before dialling: empty content; the two lines over {@link INBOX_POST_MAX_CHARS};
 *    then the one-`lstat` path pre-checks of `checkInboxSocketPath`;
 * 2. connects (5 s timeout);
 * 3. writes `{"type":"auth","token":…}\n{"type":"user","message":{"role":"user","content":…}}\n`
 *    and closes, under one 5 s deadline;
 * 4. reads nothing.
 *
 * Never throws; logs nothing. The token appears only in the bytes written to the socket.
 *
 * @example
 * const r = await postToInbox({ socketPath, token, content: wrap(frame, name) });
 * if (r.ok) ack(); else if (r.stage === "failed" && r.connected) pacer.record(now, content);
 */
export async function postToInbox(options: InboxPostOptions): Promise<InboxPostResult> {
  const { content } = options;
  if (typeof content !== "string" || content.length === 0) {
    return { ok: false, stage: "refused", reason: "content_empty" };
  }
  const payload = encodeInboxPostLines(String(options.token), content);
  if (payload.length > INBOX_POST_MAX_CHARS) {
    return { ok: false, stage: "refused", reason: "message_too_large" };
  }
  const check = await checkInboxSocketPath(options.socketPath, options);
  if (!check.ok) return { ok: false, stage: "refused", reason: check.reason };
  return dialAndWrite(
    options.socketPath,
    payload,
    options.connectTimeoutMs ?? INBOX_CONNECT_TIMEOUT_MS,
    options.writeTimeoutMs ?? INBOX_WRITE_TIMEOUT_MS,
  );
}

function dialAndWrite(
  path: string,
  payload: string,
  connectTimeoutMs: number,
  writeTimeoutMs: number,
): Promise<InboxPostResult> {
  return new Promise((resolve) => {
    let connected = false;
    let finished = false;
    let settled = false;
    const socket = createConnection({ path });
    const settle = (result: InboxPostResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const fail = (reason: InboxPostFailure): void =>
      settle({ ok: false, stage: "failed", reason, connected });
    let timer = setTimeout(() => fail("connect_timeout"), connectTimeoutMs);
    socket.on("error", () => fail(connected ? "write_failed" : "connect_failed"));
    socket.on("connect", () => {
      connected = true;
      clearTimeout(timer);
      timer = setTimeout(() => fail("write_timeout"), writeTimeoutMs);
      // Both lines in one write, then FIN; whatever the peer might send is never read.
      socket.end(payload, "utf8");
    });
    socket.on("finish", () => {
      finished = true;
      // Written and half-closed: close fully now instead of waiting for the peer's FIN,
      // which would need reading from a socket that answers nothing.
      socket.destroy();
    });
    socket.on("close", (hadError: boolean) => {
      if (finished && !hadError) settle({ ok: true });
      else fail(connected ? "write_failed" : "connect_failed");
    });
  });
}
