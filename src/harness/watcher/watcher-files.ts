import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { createFileExclusive, currentUid, ensurePrivateFolders } from "../../local-files/index.ts";
import { isJsonObject, type JsonValue, parseJsonDocument } from "../../protocol/index.ts";
import {
  readPrivateStateFile,
  type StateLayout,
  sha256Hex,
  writePrivateStateFile,
} from "../state/index.ts";
import { type ProcessProbe, systemProcessProbe } from "./process-probe.ts";

/** Largest pidfile or status file read, bytes. */
export const MAX_WATCHER_FILE_BYTES = 65_536;

/**
 * The watcher pidfile `watchers/<claude_pid>.json` (docs/spec/claude-code.md §7.1, §7.4): written
 * once by the watcher itself, created exclusively. `pid` is the WATCHER's pid; `start_token` its
 * process start token (`processStartToken`); `token_sha256` the SHA-256 hex of the messaging token
 * (never the token); `version` the build the watcher runs (`watcherVersion`).
 *
 * @example const p: WatcherPidfile = { pid: 5150, start_token: "linux:123456", brigade_session_id: "s-1", socket_path: "/tmp/cc-socks/4242.sock", token_sha256: "ab…", version: "0.1.0+1a2b3c4d5e6f" };
 */
export interface WatcherPidfile {
  readonly pid: number;
  readonly start_token: string;
  readonly brigade_session_id: string;
  readonly socket_path: string;
  readonly token_sha256: string;
  readonly version: string;
}

/**
 * The states a watcher reports: `connecting` (starting, watch not yet ready), `live` (the watch
 * is ready), `retrying` (the watch failed; restarting with backoff), `stopped` (exited).
 *
 * @example WATCHER_STATES.includes("live") === true
 */
export const WATCHER_STATES = ["connecting", "live", "retrying", "stopped"] as const;

/** One watcher state. */
export type WatcherState = (typeof WATCHER_STATES)[number];

/**
 * The watcher status file `watchers/<claude_pid>.status.json`, rewritten (privately, atomically)
 * on every state change and after each delivery; read by `brigade whoami`. Times are RFC 3339
 * UTC; `pid` is the watcher's pid; `delivered` counts messages posted since the watcher started.
 *
 * @example const s: WatcherStatus = { version: 1, pid: 5150, brigade_session_id: "s-1", state: "live", last_delivery_at: null, delivered: 0, updated_at: "2026-10-02T09:15:42.000Z" };
 */
export interface WatcherStatus {
  readonly version: 1;
  readonly pid: number;
  readonly brigade_session_id: string;
  readonly state: WatcherState;
  readonly last_delivery_at: string | null;
  readonly delivered: number;
  readonly updated_at: string;
}

/**
 * The path of the watcher status file of `claudePid`: `watchers/<claude_pid>.status.json`.
 *
 * @example watcherStatusPath(stateLayout("/s"), "4242") === "/s/watchers/4242.status.json"
 */
export function watcherStatusPath(layout: StateLayout, claudePid: string): string {
  return layout.watcherStatus(claudePid);
}

function readObject(path: string): Readonly<Record<string, JsonValue>> | undefined {
  const read = readPrivateStateFile(path, { maxBytes: MAX_WATCHER_FILE_BYTES, uid: currentUid() });
  if (read.kind !== "ok") return undefined;
  const parsed = parseJsonDocument(read.bytes, { maxBytes: MAX_WATCHER_FILE_BYTES });
  if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
  return parsed.value;
}

const isPid = (v: JsonValue | undefined): v is number =>
  typeof v === "number" && Number.isSafeInteger(v) && v > 0;
const isText = (v: JsonValue | undefined): v is string =>
  typeof v === "string" && v.length <= 4_096;

/**
 * Reads the pidfile of `claudePid` through the private-file checks (no symlink, regular file,
 * 0600-style, ours, ≤ 64 KiB, strict JSON of the {@link WatcherPidfile} shape). Missing or
 * invalid → `undefined`. Never throws.
 *
 * @example const p = readWatcherPidfile(layout, "4242"); if (p) console.log(p.pid);
 */
export function readWatcherPidfile(
  layout: StateLayout,
  claudePid: string,
): WatcherPidfile | undefined {
  const o = readObject(layout.watcher(claudePid));
  if (o === undefined) return undefined;
  const { pid, start_token, brigade_session_id, socket_path, token_sha256, version } = o;
  if (!isPid(pid) || !isText(start_token) || start_token === "") return undefined;
  if (!isText(brigade_session_id) || !isText(socket_path) || !isText(version)) return undefined;
  if (typeof token_sha256 !== "string" || !/^[0-9a-f]{64}$/.test(token_sha256)) return undefined;
  return { pid, start_token, brigade_session_id, socket_path, token_sha256, version };
}

/**
 * Reads the status file of `claudePid` (same private-file checks). Missing or invalid →
 * `undefined`. It may describe a watcher that has since died: pair it with
 * {@link isWatcherRunning}. Never throws.
 *
 * @example readWatcherStatus(layout, "4242")?.state === "live"
 */
export function readWatcherStatus(
  layout: StateLayout,
  claudePid: string,
): WatcherStatus | undefined {
  const o = readObject(watcherStatusPath(layout, claudePid));
  if (o === undefined) return undefined;
  const { version, pid, brigade_session_id, state, last_delivery_at, delivered, updated_at } = o;
  if (version !== 1 || !isPid(pid) || !isText(brigade_session_id) || !isText(updated_at)) {
    return undefined;
  }
  if (typeof state !== "string" || !(WATCHER_STATES as readonly string[]).includes(state)) {
    return undefined;
  }
  if (last_delivery_at !== null && !isText(last_delivery_at)) return undefined;
  if (typeof delivered !== "number" || !Number.isSafeInteger(delivered) || delivered < 0) {
    return undefined;
  }
  return {
    version: 1,
    pid,
    brigade_session_id,
    state: state as WatcherState,
    last_delivery_at,
    delivered,
    updated_at,
  };
}

/**
 * True when `pidfile` names a running process: its pid is `alive` (not dead, not a zombie, not
 * another user's) and its current start token equals `start_token` (so a reused pid is stale).
 *
 * @example isPidfileLive(readWatcherPidfile(layout, "4242")!)
 */
export function isPidfileLive(
  pidfile: WatcherPidfile,
  probe: ProcessProbe = systemProcessProbe,
): boolean {
  if (probe.liveness(pidfile.pid) !== "alive") return false;
  return probe.startToken(pidfile.pid) === pidfile.start_token;
}

/**
 * True when a watcher runs for `claudePid`: a valid pidfile whose pid is alive (not a zombie)
 * with the recorded start token. Never throws.
 *
 * @example if (!isWatcherRunning(layout, "4242")) await ensureWatcher({ … });
 */
export function isWatcherRunning(
  layout: StateLayout,
  claudePid: string,
  probe: ProcessProbe = systemProcessProbe,
): boolean {
  const pidfile = readWatcherPidfile(layout, claudePid);
  return pidfile !== undefined && isPidfileLive(pidfile, probe);
}

/**
 * The outcome of {@link acquirePidfile}: `acquired` (we hold the pidfile), `busy` (a live
 * watcher holds it; `holder` names it), `failed` (the file could not be written).
 */
export type PidfileAcquisition =
  | { readonly outcome: "acquired" }
  | { readonly outcome: "busy"; readonly holder: WatcherPidfile }
  | { readonly outcome: "failed" };

function serializePidfile(p: WatcherPidfile): string {
  return `${JSON.stringify({
    pid: p.pid,
    start_token: p.start_token,
    brigade_session_id: p.brigade_session_id,
    socket_path: p.socket_path,
    token_sha256: p.token_sha256,
    version: p.version,
  })}\n`;
}

/** Creates `path` exclusively with complete content, its folders private first. */
function createExclusive(
  root: string,
  path: string,
  text: string,
): "created" | "exists" | "failed" {
  if (!ensurePrivateFolders(root, dirname(path)).ok) return "failed";
  const created = createFileExclusive(path, text);
  if (created.ok) return "created";
  return created.reason === "exists" ? "exists" : "failed";
}

/**
 * Takes the pidfile of `claudePid` for `record` (single instance per Claude pid,
 * docs/spec/claude-code.md §7.4). The file is created exclusively (an `O_EXCL` temporary linked
 * into place, so no reader ever sees it half written). When one exists: a live holder (pid alive,
 * same start token) → `busy`; a stale one (pid dead, a zombie, foreign, or alive with another start
 * token; or an unreadable file) is removed compare-then-delete and the creation retried. Never
 * throws.
 *
 * @example if (acquirePidfile(layout, "4242", record).outcome !== "acquired") process.exit(0);
 */
export function acquirePidfile(
  layout: StateLayout,
  claudePid: string,
  record: WatcherPidfile,
  probe: ProcessProbe = systemProcessProbe,
): PidfileAcquisition {
  const path = layout.watcher(claudePid);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const created = createExclusive(layout.root, path, serializePidfile(record));
    if (created === "created") return { outcome: "acquired" };
    if (created === "failed") return { outcome: "failed" };
    const holder = readWatcherPidfile(layout, claudePid);
    if (holder !== undefined && isPidfileLive(holder, probe)) return { outcome: "busy", holder };
    if (holder === undefined) {
      // Unreadable or invalid: nobody can prove it names a live watcher.
      rmSync(path, { force: true });
    } else {
      deletePidfileIfNames(layout, claudePid, holder.pid, holder.start_token);
    }
  }
  return { outcome: "failed" };
}

/**
 * Compare-then-delete: re-reads the pidfile of `claudePid` and deletes it only if it still names
 * `pid` with `startToken` (a successor's pidfile is never removed). Returns true when deleted.
 * Never throws.
 *
 * @example deletePidfileIfNames(layout, "4242", process.pid, myStartToken);
 */
export function deletePidfileIfNames(
  layout: StateLayout,
  claudePid: string,
  pid: number,
  startToken: string,
): boolean {
  const current = readWatcherPidfile(layout, claudePid);
  if (current === undefined || current.pid !== pid || current.start_token !== startToken) {
    return false;
  }
  try {
    rmSync(layout.watcher(claudePid), { force: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Rewrites the status file of `claudePid` (private, atomic). Never throws: a status that cannot
 * be written is only informational.
 *
 * @example writeWatcherStatus(layout, "4242", status);
 */
export function writeWatcherStatus(
  layout: StateLayout,
  claudePid: string,
  status: WatcherStatus,
): boolean {
  try {
    writePrivateStateFile(
      layout.root,
      watcherStatusPath(layout, claudePid),
      `${JSON.stringify(status)}\n`,
    );
    return true;
  } catch {
    return false;
  }
}

const NOTICE_LINE = /^Brigade: [^\r\n]{1,1000}$/;

/**
 * Writes the one-shot notice of `claudePid` (`state/<pid>.notice`): one line of Brigade's own
 * text starting `Brigade: `, replacing any unprinted one (the prompt hook prints it once, then
 * deletes it). A line that is not one `Brigade: …` line of ≤ 1,000 characters is refused
 * (returns false). Never throws.
 *
 * @example writeWatcherNotice(layout, "4242", "Brigade: reconnected to the team.");
 */
export function writeWatcherNotice(layout: StateLayout, claudePid: string, line: string): boolean {
  if (!NOTICE_LINE.test(line)) return false;
  try {
    writePrivateStateFile(layout.root, layout.notice(claudePid), `${line}\n`);
    return true;
  } catch {
    return false;
  }
}

/**
 * SHA-256 hex of the messaging token, the only form of it ever written (the pidfile's
 * `token_sha256`).
 *
 * @example tokenSha256("abc").length === 64
 */
export function tokenSha256(token: string): string {
  return sha256Hex(token);
}
