import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { OPENCODE_MESSAGE_ID } from "./opencode-message-id.ts";

/** Cap of one request to OpenCode's server, ms. */
export const OPENCODE_CALL_MS = 4_000;

/** Longest response body Brigade reads from OpenCode's server, bytes (a longer one is unknown). */
export const OPENCODE_MAX_RESPONSE_BYTES = 4_194_304;

/** Where a session's OpenCode server listens, and how to authenticate to it. */
export interface OpenCodeServerAddress {
  /** `http://<loopback host>:<port>` (`parseOpenCodeServerUrl`). */
  readonly origin: string;
  /** `OPENCODE_SERVER_PASSWORD` of the OpenCode process, when it has one. */
  readonly password?: string | undefined;
  /** `OPENCODE_SERVER_USERNAME`, `opencode` when unset. */
  readonly username?: string | undefined;
}

/** What one post did. `sure` on a failure: the session surely did not store the message. */
export type OpenCodePostResult =
  | { readonly ok: true }
  | {
      readonly ok: false;
      /** `opencode_session_gone` (404), `opencode_refused` (another 4xx/5xx), `opencode_unreachable`. */
      readonly reason: "opencode_session_gone" | "opencode_refused" | "opencode_unreachable";
      readonly sure: boolean;
    };

/** One stored message as read back: its role and the text of each of its text parts, in order. */
export type OpenCodeStoredMessage =
  | { readonly state: "present"; readonly role: string; readonly texts: readonly string[] }
  | { readonly state: "absent" }
  /** The server did not answer, or answered something unreadable: nothing can be told. */
  | { readonly state: "unknown" };

/** The doors Brigade uses on one OpenCode server (`openCodeServer`; tests pass a fake). */
export interface OpenCodeServer {
  /** `POST /session/{sessionId}/prompt_async` with one text part under `messageId`. */
  post(sessionId: string, messageId: string, text: string): Promise<OpenCodePostResult>;
  /** `GET /session/{sessionId}/message/{messageId}`. */
  message(sessionId: string, messageId: string): Promise<OpenCodeStoredMessage>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
const SESSION_ID = /^ses_[0-9A-Za-z]{1,64}$/;

/**
 * The origin of an OpenCode server URL Brigade will talk to: `http:` on a loopback host
 * (`127.0.0.1`, `localhost`, `[::1]`) with an explicit port, no user, query or fragment; else
 * `undefined`. **[ours]** The door only ever posts to a server on this machine: a message's text
 * never leaves it on this path. Never throws.
 *
 * @example parseOpenCodeServerUrl("http://127.0.0.1:4520/") === "http://127.0.0.1:4520"
 */
export function parseOpenCodeServerUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" || !LOOPBACK.has(url.hostname) || url.port === "") return undefined;
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    return undefined;
  }
  if (url.pathname !== "/" && url.pathname !== "") return undefined;
  return `http://${url.hostname}:${url.port}`;
}

/** Whether `id` is an OpenCode session id Brigade will put in a path. */
export function isOpenCodeSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

/**
 * Whether process `pid` holds the listening TCP socket of `port` (Linux: the socket inodes of
 * `/proc/net/tcp` and `/proc/net/tcp6` in state LISTEN, matched against `/proc/<pid>/fd`).
 * **[ours]** The door trusts a server URL only when the OpenCode process that bound the session
 * is the one listening there: another program on that port (or the placeholder URL of a TUI
 * that listens nowhere) never gets a teammate's message. Never throws; `false` when unsure.
 *
 * @example listenerOwnedBy(4520, 3551) === true
 */
export function listenerOwnedBy(port: number, pid: number, proc = "/proc"): boolean {
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) return false;
  if (!Number.isInteger(pid) || pid <= 1) return false;
  const want = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["tcp", "tcp6"]) {
    let text: string;
    try {
      text = readFileSync(join(proc, "net", table), "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      const local = cols[1] ?? "";
      if (cols[3] === "0A" && local.slice(local.lastIndexOf(":") + 1) === want && cols[9]) {
        inodes.add(`socket:[${cols[9]}]`);
      }
    }
  }
  if (inodes.size === 0) return false;
  let fds: string[];
  try {
    fds = readdirSync(join(proc, String(pid), "fd"));
  } catch {
    return false;
  }
  for (const fd of fds) {
    try {
      if (inodes.has(readlinkSync(join(proc, String(pid), "fd", fd)))) return true;
    } catch {}
  }
  return false;
}

async function readBody(response: Response): Promise<string | undefined> {
  const length = Number(response.headers.get("content-length") ?? "0");
  if (length > OPENCODE_MAX_RESPONSE_BYTES) return undefined;
  const text = await response.text();
  return text.length > OPENCODE_MAX_RESPONSE_BYTES ? undefined : text;
}

/** The stored message of a `GET …/message/{id}` body, or `unknown` when it is not one. */
function storedMessage(body: string, messageId: string): OpenCodeStoredMessage {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { state: "unknown" };
  }
  const o = value as { info?: { id?: unknown; role?: unknown }; parts?: unknown } | null;
  if (typeof o !== "object" || o === null || typeof o.info !== "object" || o.info === null) {
    return { state: "unknown" };
  }
  if (o.info.id !== messageId || typeof o.info.role !== "string" || !Array.isArray(o.parts)) {
    return { state: "unknown" };
  }
  const texts: string[] = [];
  for (const part of o.parts as unknown[]) {
    const p = part as { type?: unknown; text?: unknown } | null;
    if (typeof p === "object" && p !== null && p.type === "text" && typeof p.text === "string") {
      texts.push(p.text);
    }
  }
  return { state: "present", role: o.info.role, texts };
}

/**
 * The v1 session API of one OpenCode server (docs/49-opencode.md "The door"), over `fetch`, each
 * call capped at {@link OPENCODE_CALL_MS}, with basic authentication when the address has a
 * password. Ids are checked before they go in a path (a bad one is `opencode_refused`, sure, or
 * `unknown`). Never throws.
 *
 * @example await openCodeServer({ origin: "http://127.0.0.1:4520" }).post("ses_…", nextId(), text)
 */
export function openCodeServer(address: OpenCodeServerAddress): OpenCodeServer {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (address.password !== undefined && address.password !== "") {
    const user =
      address.username === undefined || address.username === "" ? "opencode" : address.username;
    headers.authorization = `Basic ${Buffer.from(`${user}:${address.password}`, "utf8").toString("base64")}`;
  }
  const call = async (path: string, init: RequestInit): Promise<Response | undefined> => {
    try {
      return await fetch(`${address.origin}${path}`, {
        ...init,
        headers,
        redirect: "error",
        signal: AbortSignal.timeout(OPENCODE_CALL_MS),
      });
    } catch {
      return undefined;
    }
  };
  return {
    async post(sessionId, messageId, text) {
      if (!isOpenCodeSessionId(sessionId) || !OPENCODE_MESSAGE_ID.test(messageId)) {
        return { ok: false, reason: "opencode_refused", sure: true };
      }
      const body = JSON.stringify({ messageID: messageId, parts: [{ type: "text", text }] });
      const response = await call(`/session/${sessionId}/prompt_async`, { method: "POST", body });
      if (response === undefined) return { ok: false, reason: "opencode_unreachable", sure: false };
      await response.body?.cancel().catch(() => {});
      if (response.status === 204 || response.status === 200) return { ok: true };
      if (response.status === 404)
        return { ok: false, reason: "opencode_session_gone", sure: true };
      return { ok: false, reason: "opencode_refused", sure: response.status < 500 };
    },
    async message(sessionId, messageId) {
      if (!isOpenCodeSessionId(sessionId) || !OPENCODE_MESSAGE_ID.test(messageId)) {
        return { state: "unknown" };
      }
      const response = await call(`/session/${sessionId}/message/${messageId}`, { method: "GET" });
      if (response === undefined) return { state: "unknown" };
      if (response.status === 404) {
        await response.body?.cancel().catch(() => {});
        return { state: "absent" };
      }
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => {});
        return { state: "unknown" };
      }
      const body = await readBody(response).catch(() => undefined);
      return body === undefined ? { state: "unknown" } : storedMessage(body, messageId);
    },
  };
}
