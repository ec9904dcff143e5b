import { chmod } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { StringDecoder } from "node:string_decoder";
import type { AdmissionOutcome, InboxModel } from "./inbox-model.ts";

/**
 * Claude Code's per-line limit on its inbox socket, characters (docs/spec/cross-session.md §12).
 */
export const INBOX_LINE_MAX_CHARS = 1_048_576;

/**
 * What became of one connection. The admission outcomes come from {@link InboxModel}; the others:
 * `malformed` (the message line is not JSON), `not_user` (no `type: "user"`), `empty_content`
 * (content not a non-empty string), `foreign_session` (a `session_id` that is not ours),
 * `no_message` (closed without a message line), `line_timeout` (no complete line in time: dropped),
 * `line_too_long` (a line over 1,048,576 characters: dropped).
 */
export type PostOutcome =
  | AdmissionOutcome
  | "held"
  | "refused"
  | "malformed"
  | "not_user"
  | "empty_content"
  | "foreign_session"
  | "no_message"
  | "line_timeout"
  | "line_too_long";

/** One connection to the inbox socket, recorded when it closed. */
export interface PostRecord {
  /** 0-based connection number. */
  readonly index: number;
  /** Everything received, decoded as UTF-8 (the exact bytes for well-formed input). */
  readonly raw: string;
  /** The token of an auth first line, if one was sent (tests compare it to the host's token). */
  readonly authToken: string | undefined;
  /** True iff an auth line was sent and its token equals the session's token. */
  readonly authOk: boolean;
  /** The `message.content` of the message line, when it had one. */
  readonly content: string | undefined;
  /** The sender key the post was admitted under. */
  readonly sender: string;
  readonly outcome: PostOutcome;
}

/** Options of {@link startInboxServer}. */
export interface InboxServerOptions {
  readonly socketPath: string;
  /** The session's messaging token. */
  readonly token: string;
  /** The session's id (a message naming another `session_id` is dropped). */
  readonly sessionId: () => string;
  readonly model: InboxModel;
  /** Drop a connection with no complete line for this long, ms (Claude Code: 30 s). */
  readonly lineTimeoutMs: number;
  /** The sender key of a connection; Claude Code keys by the connection's peer. */
  readonly senderOf: (info: {
    readonly index: number;
    readonly authToken: string | undefined;
  }) => string;
  /** Called with every finished record. */
  readonly onRecord: (record: PostRecord) => void;
  /**
   * Claude Code's inbound gate (docs/spec/cross-session.md §12 step 4), asked for each well-formed
   * post before admission: `hold` and `refuse` keep it from the model (outcomes `held`, `refused`).
   * Absent: every post passes.
   */
  readonly gate?: () => "accept" | "hold" | "refuse";
}

/**
 * Binds the inbox socket (mode 0600; the caller made its folder 0700) and applies Claude Code's
 * wire rules: NDJSON, an optional auth first line (recorded, never required, as on Linux/macOS),
 * one message per connection, lines over 1,048,576 characters and connections silent for
 * `lineTimeoutMs` dropped. Nothing is ever written back.
 */
export async function startInboxServer(options: InboxServerOptions): Promise<Server> {
  let next = 0;
  const server = createServer((socket) => handle(socket, next++, options));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  await chmod(options.socketPath, 0o600);
  return server;
}

interface Incoming {
  raw: string;
  buffer: string;
  lines: number;
  authToken: string | undefined;
  content: string | undefined;
  sender: string | undefined;
  outcome: PostOutcome | undefined;
  finished: boolean;
}

function handle(socket: Socket, index: number, options: InboxServerOptions): void {
  const decoder = new StringDecoder("utf8");
  const state: Incoming = {
    raw: "",
    buffer: "",
    lines: 0,
    authToken: undefined,
    content: undefined,
    sender: undefined,
    outcome: undefined,
    finished: false,
  };
  let timer = setTimeout(() => drop("line_timeout"), options.lineTimeoutMs);
  const finish = (): void => {
    if (state.finished) return;
    state.finished = true;
    clearTimeout(timer);
    state.raw += decoder.end();
    options.onRecord({
      index,
      raw: state.raw,
      authToken: state.authToken,
      authOk: state.authToken !== undefined && state.authToken === options.token,
      content: state.content,
      sender: state.sender ?? options.senderOf({ index, authToken: state.authToken }),
      outcome: state.outcome ?? "no_message",
    });
  };
  const drop = (outcome: PostOutcome): void => {
    state.outcome ??= outcome;
    socket.destroy();
  };
  socket.on("data", (chunk: Buffer) => {
    const text = decoder.write(chunk);
    state.raw += text;
    if (state.outcome !== undefined) return; // one message per connection: the rest is ignored
    state.buffer += text;
    let newline = state.buffer.indexOf("\n");
    while (newline !== -1 && state.outcome === undefined) {
      const line = state.buffer.slice(0, newline);
      state.buffer = state.buffer.slice(newline + 1);
      if (line.length > INBOX_LINE_MAX_CHARS) return drop("line_too_long");
      clearTimeout(timer);
      timer = setTimeout(() => drop("line_timeout"), options.lineTimeoutMs);
      onLine(line);
      newline = state.buffer.indexOf("\n");
    }
    if (state.buffer.length > INBOX_LINE_MAX_CHARS) drop("line_too_long");
  });
  socket.on("error", () => socket.destroy());
  socket.on("close", finish);

  function onLine(line: string): void {
    state.lines += 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      state.outcome = "malformed";
      return;
    }
    const object = isRecord(value) ? value : {};
    if (state.lines === 1 && object.type === "auth") {
      state.authToken = typeof object.token === "string" ? object.token : "";
      return;
    }
    const message = isRecord(object.message) ? object.message : {};
    state.content = typeof message.content === "string" ? message.content : undefined;
    state.sender = options.senderOf({ index, authToken: state.authToken });
    if (object.type !== "user") state.outcome = "not_user";
    else if (state.content === undefined || state.content === "") state.outcome = "empty_content";
    else if (object.session_id !== undefined && object.session_id !== options.sessionId()) {
      state.outcome = "foreign_session";
    } else {
      const gate = options.gate?.() ?? "accept";
      if (gate === "hold") state.outcome = "held";
      else if (gate === "refuse") state.outcome = "refused";
      else state.outcome = options.model.admit(state.sender, state.content);
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
