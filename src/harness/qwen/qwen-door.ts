import { randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkInboxSocketPath } from "../claude-code/index.ts";
import { QWEN_FRAME_VERSION, QWEN_INBOX_LIMITS } from "./qwen-facts.ts";
import { encodeQwenPost, parseQwenReceipt, QWEN_MSG_ID } from "./qwen-frames.ts";
import { QwenReceiptTracker, type QwenTransition } from "./qwen-receipts.ts";
import type { QwenRecord } from "./qwen-registry.ts";

/**
 * Why a post did not reach the inbox (docs/errors.md `QWEN_POST_FAILURES`): `bad_input` (a bad
 * frame id, empty or over-long text), `no_inbox` (the record names no socket), `socket_refused`
 * (the socket failed `checkInboxSocketPath`: not a 0600 socket of ours — no token is ever written
 * to it), `connect_failed`, `write_failed`, `timeout`.
 */
export const QWEN_POST_FAILURES = [
  "bad_input",
  "no_inbox",
  "socket_refused",
  "connect_failed",
  "write_failed",
  "timeout",
] as const;

/** One of {@link QWEN_POST_FAILURES}. */
export type QwenPostFailure = (typeof QWEN_POST_FAILURES)[number];

/** The result of {@link QwenPeerDoor.post}. */
export type QwenPostResult =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: QwenPostFailure;
      /** True when the connection was made: the frame may have arrived. */
      readonly connected: boolean;
    };

/** Options of {@link QwenPeerDoor.open}. */
export interface QwenPeerDoorOptions {
  /** The name Qwen Code shows for us (`fromName`). */
  readonly fromName: string;
  /** Each accepted receipt transition, in arrival order. */
  readonly onTransition: (transition: QwenTransition) => void;
  /** Where the door's own inbox folder is made (default the OS temp folder; keep it short). */
  readonly parent?: string;
  /** Longest a post may take, ms (default 5,000). */
  readonly postTimeoutMs?: number;
}

/** Bytes one receipt connection may send before it is dropped. */
const MAX_RECEIPT_BYTES = 2 * QWEN_INBOX_LIMITS.maxLineChars;

/**
 * Brigade's door into Qwen Code sessions (docs/49-qwen.md "The door"): its own inbox (a UNIX
 * socket in a fresh 0700 folder, socket 0600, with a fresh 64-hex token) to receive receipts, and
 * {@link post} to write one user frame to a session's inbox. A receipt connection must open with
 * an auth line carrying our token (else it is dropped unread); its `delivery_status` frames move
 * {@link QwenReceiptTracker} and each accepted transition goes to `onTransition`. Nothing here
 * logs or returns a token or a message's text.
 *
 * @example const door = await QwenPeerDoor.open({ fromName: "brigade", onTransition });
 */
export class QwenPeerDoor {
  readonly #server: Server;
  readonly #folder: string;
  readonly #token: string;
  readonly #options: QwenPeerDoorOptions;
  readonly #tracker = new QwenReceiptTracker();
  readonly #open = new Set<Socket>();
  /** Our inbox socket: the frame's `from`. */
  readonly path: string;

  private constructor(options: QwenPeerDoorOptions, server: Server, folder: string) {
    this.#options = options;
    this.#server = server;
    this.#folder = folder;
    this.path = join(folder, "door.sock");
    this.#token = randomBytes(32).toString("hex");
  }

  /**
   * Binds the door's inbox. Rejects when the socket cannot be bound (the folder is removed).
   */
  static async open(options: QwenPeerDoorOptions): Promise<QwenPeerDoor> {
    const folder = mkdtempSync(join(options.parent ?? tmpdir(), "brigade-qwen-"));
    chmodSync(folder, 0o700);
    const server = createServer();
    const door = new QwenPeerDoor(options, server, folder);
    server.on("connection", (socket) => door.#receive(socket));
    server.maxConnections = QWEN_INBOX_LIMITS.maxConnections;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(door.path, () => resolve());
      });
      chmodSync(door.path, 0o600);
    } catch (error) {
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
    return door;
  }

  /** The stage of a sent message (see {@link QwenReceiptTracker.stage}). */
  stage(msgId: string): ReturnType<QwenReceiptTracker["stage"]> {
    return this.#tracker.stage(msgId);
  }

  /**
   * Writes one message to the session of `record`, addressed to its `sessionId`: the auth line
   * with `authToken` (a controller token the person minted, else the record's `ipcToken`), the
   * user frame, half-close, and resolves once the session closes the connection; only after the
   * socket passed `checkInboxSocketPath` (absolute, no symlink, a socket, 0600, ours). The message is
   * tracked as pending before the write, so no receipt can outrun it. Never rejects.
   *
   * @example await door.post(record, controllerToken ?? record.ipcToken, "m-7f3a", text)
   */
  async post(
    record: QwenRecord,
    authToken: string | undefined,
    msgId: string,
    content: string,
  ): Promise<QwenPostResult> {
    if (!QWEN_MSG_ID.test(msgId) || content.length === 0) {
      return { ok: false, reason: "bad_input", connected: false };
    }
    const ipcPath = record.ipcPath;
    if (ipcPath === undefined) return { ok: false, reason: "no_inbox", connected: false };
    const payload = encodeQwenPost(authToken ?? record.ipcToken, {
      msgId,
      from: this.path,
      replyToken: this.#token,
      fromName: this.#options.fromName,
      toSessionId: record.sessionId,
      content,
    });
    if (payload.length > QWEN_INBOX_LIMITS.maxLineChars) {
      return { ok: false, reason: "bad_input", connected: false };
    }
    // The path is the record's self-report: a token goes only to a 0600 socket this user owns.
    const check = await checkInboxSocketPath(ipcPath);
    if (!check.ok) {
      return {
        ok: false,
        reason: check.reason === "socket_missing" ? "connect_failed" : "socket_refused",
        connected: false,
      };
    }
    this.#tracker.sent(msgId);
    return new Promise((resolve) => {
      let connected = false;
      let settled = false;
      const socket = connect(ipcPath);
      const finish = (result: QwenPostResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        resolve(result);
      };
      const timer = setTimeout(
        () => finish({ ok: false, reason: "timeout", connected }),
        this.#options.postTimeoutMs ?? 5_000,
      );
      socket.on("connect", () => {
        connected = true;
        socket.end(payload);
      });
      socket.on("data", () => {});
      socket.on("error", () =>
        finish({ ok: false, reason: connected ? "write_failed" : "connect_failed", connected }),
      );
      socket.on("close", () => {
        if (connected) finish({ ok: true });
        else finish({ ok: false, reason: "connect_failed", connected });
      });
    });
  }

  /** Closes the inbox and removes its folder. */
  async close(): Promise<void> {
    for (const socket of this.#open) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    rmSync(this.#folder, { recursive: true, force: true });
  }

  #receive(socket: Socket): void {
    this.#open.add(socket);
    socket.on("close", () => this.#open.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.setTimeout(QWEN_INBOX_LIMITS.lineDeadlineMs, () => socket.destroy());
    let buffered = "";
    let size = 0;
    let authed = false;
    socket.setEncoding("utf8");
    /** One complete line; false once the connection is dropped. */
    const take = (line: string): boolean => {
      if (!authed) {
        authed = this.#authLine(line);
        if (!authed) socket.destroy();
        return authed;
      }
      const receipt = parseQwenReceipt(line);
      if (receipt === undefined) return true;
      for (const transition of this.#tracker.apply(receipt)) this.#options.onTransition(transition);
      return true;
    };
    socket.on("data", (chunk: string) => {
      size += chunk.length;
      if (size > MAX_RECEIPT_BYTES) {
        socket.destroy();
        return;
      }
      buffered += chunk;
      for (;;) {
        const end = buffered.indexOf("\n");
        if (end < 0) break;
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (!take(line)) return;
      }
    });
    // A last line without its newline still counts once the sender half-closes.
    socket.on("end", () => {
      if (buffered !== "" && !socket.destroyed) take(buffered);
      buffered = "";
      socket.end();
    });
  }

  #authLine(line: string): boolean {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return false;
    }
    if (typeof value !== "object" || value === null) return false;
    const v = value as Record<string, unknown>;
    if (v.type !== "auth" || typeof v.token !== "string") return false;
    if (typeof v.msgV !== "number" || v.msgV > QWEN_FRAME_VERSION) return false;
    const presented = Buffer.from(v.token);
    const ours = Buffer.from(this.#token);
    return presented.length === ours.length && timingSafeEqual(presented, ours);
  }
}
