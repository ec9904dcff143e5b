import { createHash, randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";
import { encodeClientFrame, readFrames } from "./websocket-frames.ts";

/** How long Brigade waits for the socket, the WebSocket upgrade, or one answer, ms. */
export const CODEX_APP_SERVER_TIMEOUT_MS = 10_000;

/** The RFC 6455 key suffix the server hashes into `Sec-WebSocket-Accept`. */
const WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/** The largest HTTP upgrade answer read, bytes. */
const MAX_UPGRADE_BYTES = 16_384;

/**
 * Why a call to the app-server failed (docs/errors.md): `closed` (the connection is gone),
 * `timeout`, `rpc` (Codex answered with a JSON-RPC error: its `code` and `message` are kept, they
 * name no message text of ours), `bad_answer` (not JSON-RPC).
 *
 * @example CODEX_CALL_FAILURES.includes("rpc") === true
 */
export const CODEX_CALL_FAILURES = ["closed", "timeout", "bad_answer", "rpc"] as const;

/** The answer of a failed call: one of {@link CODEX_CALL_FAILURES}. */
export type CodexCallFailure =
  | { readonly ok: false; readonly reason: "closed" | "timeout" | "bad_answer" }
  | { readonly ok: false; readonly reason: "rpc"; readonly code: number; readonly message: string };

/** The answer of one call. */
export type CodexCallResult =
  | { readonly ok: true; readonly result: Record<string, unknown> }
  | CodexCallFailure;

/** Why {@link CodexAppServer.open} failed: the socket, the upgrade, or `initialize`. */
export type CodexOpenResult =
  | { readonly ok: true; readonly server: CodexAppServer }
  | {
      readonly ok: false;
      readonly reason: "connect_failed" | "upgrade_refused" | "initialize_failed" | "timeout";
    };

/** One server notification: its method and params. */
export interface CodexNotification {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A client connection to a Codex app-server listening on a Unix socket (`codex app-server
 * --listen unix://…`, the daemon the interactive client starts; docs/49-codex.md "The
 * app-server"): a WebSocket upgrade, then JSON-RPC 2.0, one message per text frame. Requests from
 * the server (approvals) are left to the person's own client: this connection never answers them.
 * Nothing here throws; a lost connection fails every pending call with `closed`.
 *
 * @example
 * const opened = await CodexAppServer.open("/home/lee/.codex/app-server-control/app-server-control.sock", "brigade");
 * if (opened.ok) await opened.server.call("thread/loaded/list", {});
 */
export class CodexAppServer {
  readonly #socket: Socket;
  readonly #pending = new Map<number, (result: CodexCallResult) => void>();
  readonly #listeners = new Set<(note: CodexNotification) => void>();
  #buffer: Buffer = Buffer.alloc(0);
  #fragments: Buffer[] = [];
  #nextId = 1;
  #closed = false;

  private constructor(socket: Socket, rest: Buffer) {
    this.#socket = socket;
    socket.on("data", (chunk: Buffer) => this.#receive(chunk));
    socket.on("close", () => this.#shut());
    socket.on("error", () => this.#shut());
    if (rest.length > 0) this.#receive(rest);
  }

  /**
   * Connects to `socketPath`, upgrades to WebSocket (checking `Sec-WebSocket-Accept`), and runs
   * `initialize` with `clientName` and the experimental API on (`thread/turns/list` needs it).
   */
  static async open(
    socketPath: string,
    clientName: string,
    timeoutMs: number = CODEX_APP_SERVER_TIMEOUT_MS,
  ): Promise<CodexOpenResult> {
    const upgraded = await upgrade(socketPath, timeoutMs);
    if (!upgraded.ok) return upgraded;
    const server = new CodexAppServer(upgraded.socket, upgraded.rest);
    const init = await server.call(
      "initialize",
      {
        clientInfo: { name: clientName, title: null, version: "1" },
        capabilities: { experimentalApi: true, requestAttestation: false },
      },
      timeoutMs,
    );
    if (!init.ok) {
      server.close();
      return { ok: false, reason: init.reason === "timeout" ? "timeout" : "initialize_failed" };
    }
    server.#send(JSON.stringify({ jsonrpc: "2.0", method: "initialized", params: {} }));
    return { ok: true, server };
  }

  /** Whether the connection is gone. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Calls `method`; resolves with its result or why it failed (never rejects). */
  call(
    method: string,
    params: Record<string, unknown>,
    timeoutMs: number = CODEX_APP_SERVER_TIMEOUT_MS,
  ): Promise<CodexCallResult> {
    if (this.#closed) return Promise.resolve({ ok: false, reason: "closed" });
    const id = this.#nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        resolve({ ok: false, reason: "timeout" });
      }, timeoutMs);
      this.#pending.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      this.#send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  }

  /** Calls `listener` with every notification until the returned function is called. */
  onNotification(listener: (note: CodexNotification) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Closes the connection; pending calls resolve `closed`. */
  close(): void {
    if (!this.#closed) {
      this.#socket.write(encodeClientFrame(8, Buffer.alloc(0), randomBytes(4)));
      this.#socket.end();
    }
    this.#shut();
  }

  #send(text: string): void {
    if (this.#closed) return;
    this.#socket.write(encodeClientFrame(1, Buffer.from(text, "utf8"), randomBytes(4)));
  }

  #shut(): void {
    if (!this.#closed) {
      this.#closed = true;
      this.#socket.destroy();
    }
    for (const [id, settle] of this.#pending) {
      this.#pending.delete(id);
      settle({ ok: false, reason: "closed" });
    }
  }

  #receive(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    const read = readFrames(this.#buffer);
    if (!read.ok) {
      this.close();
      return;
    }
    this.#buffer = read.rest;
    for (const frame of read.frames) {
      if (frame.opcode === 9) {
        this.#socket.write(encodeClientFrame(10, frame.payload, randomBytes(4)));
      } else if (frame.opcode === 8) {
        this.close();
        return;
      } else if (frame.opcode === 1 || frame.opcode === 0) {
        this.#fragments.push(frame.payload);
        if (frame.fin) {
          const text = Buffer.concat(this.#fragments).toString("utf8");
          this.#fragments = [];
          this.#dispatch(text);
        }
      }
    }
  }

  #dispatch(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (!isRecord(message)) return;
    const { id, method } = message;
    if (typeof method === "string") {
      // A request from the server (it has an id) is the person's client's to answer.
      if (id !== undefined) return;
      const params = isRecord(message.params) ? message.params : {};
      for (const listener of [...this.#listeners]) listener({ method, params });
      return;
    }
    if (typeof id !== "number") return;
    const settle = this.#pending.get(id);
    if (settle === undefined) return;
    this.#pending.delete(id);
    if (isRecord(message.error)) {
      const { code, message: why } = message.error;
      settle({
        ok: false,
        reason: "rpc",
        code: typeof code === "number" ? code : 0,
        message: typeof why === "string" ? why : "",
      });
    } else if (isRecord(message.result)) {
      settle({ ok: true, result: message.result });
    } else {
      settle({ ok: false, reason: "bad_answer" });
    }
  }
}

type Upgraded =
  | { readonly ok: true; readonly socket: Socket; readonly rest: Buffer }
  | { readonly ok: false; readonly reason: "connect_failed" | "upgrade_refused" | "timeout" };

/** Connects and upgrades; resolves with the socket and any bytes after the HTTP answer. */
function upgrade(socketPath: string, timeoutMs: number): Promise<Upgraded> {
  return new Promise((resolve) => {
    const key = randomBytes(16).toString("base64");
    const accept = createHash("sha1")
      .update(key + WEBSOCKET_GUID)
      .digest("base64");
    const socket = connect(socketPath);
    let head = Buffer.alloc(0);
    let settled = false;
    const finish = (result: Upgraded): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeListener("data", onData);
      if (!result.ok) socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ ok: false, reason: "timeout" }), timeoutMs);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) {
        if (head.length > MAX_UPGRADE_BYTES) finish({ ok: false, reason: "upgrade_refused" });
        return;
      }
      const lines = head.subarray(0, end).toString("latin1").split("\r\n");
      const status = lines[0] ?? "";
      const accepted = lines.some((line) => {
        const colon = line.indexOf(":");
        return (
          colon > 0 &&
          line.slice(0, colon).trim().toLowerCase() === "sec-websocket-accept" &&
          line.slice(colon + 1).trim() === accept
        );
      });
      if (!/^HTTP\/1\.1 101\b/.test(status) || !accepted) {
        finish({ ok: false, reason: "upgrade_refused" });
        return;
      }
      finish({ ok: true, socket, rest: Buffer.from(head.subarray(end + 4)) });
    };
    socket.on("data", onData);
    socket.once("error", () => finish({ ok: false, reason: "connect_failed" }));
    socket.once("close", () => finish({ ok: false, reason: "connect_failed" }));
    socket.once("connect", () => {
      socket.write(
        `GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
  });
}
