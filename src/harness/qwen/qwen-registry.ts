import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { QWEN_REGISTRY_FOLDER, QWEN_SCHEMA_VERSION } from "./qwen-facts.ts";

/** The fields of a Qwen Code registry record Brigade uses (docs/49-qwen.md "The registry"). */
export interface QwenRecord {
  readonly pid: number;
  /** `<boot id>:<start ticks>`, or `null` where the writer could not tell. */
  readonly procStart: string | null;
  readonly pidNs: number | null;
  readonly sessionId: string;
  readonly cwd: string;
  /** The inbox socket; absent means discoverable but not messageable. */
  readonly ipcPath?: string;
  /** 64 lowercase hex; absent means the inbox takes no auth line. */
  readonly ipcToken?: string;
}

/**
 * Why a registry record is not used (docs/errors.md `QWEN_RECORD_REFUSALS`): `malformed`,
 * `other_schema` (a schema version above 1: skipped, never deleted), `pid_mismatch` (its `pid`
 * is not its file name's).
 */
export const QWEN_RECORD_REFUSALS = ["malformed", "other_schema", "pid_mismatch"] as const;

/** One of {@link QWEN_RECORD_REFUSALS}. */
export type QwenRecordRejection = (typeof QWEN_RECORD_REFUSALS)[number];

/** The result of {@link parseQwenRecord}. */
export type QwenRecordResult =
  | { readonly ok: true; readonly record: QwenRecord }
  | { readonly ok: false; readonly reason: QwenRecordRejection };

const FILE_NAME = /^([1-9][0-9]{0,9})(?:-[0-9a-f]{8})?\.json$/;
const TOKEN = /^[0-9a-f]{64}$/;
/** A session id Brigade passes on: printable ASCII without spaces, bounded. */
const SESSION_ID = /^[\x21-\x7e]{1,200}$/;
const MAX_RECORD_BYTES = 64 * 1024;

/**
 * Reads one registry record (`<pid>.json` or `<pid>-<8 hex>.json`) the way
 * Qwen Code's cross-session-protocol.md, section 1 says a reader must: schema version 1 only
 * (`other_schema` above),
 * `pid` equal to the file name's pid in canonical decimal form (`pid_mismatch`), a session id, a
 * `cwd`; `ipcPath` only as a non-empty absolute path and `ipcToken` only as 64 lowercase hex (any
 * other value reads as absent, so such a record is not messageable). Never throws.
 *
 * @example parseQwenRecord('{"schemaVersion":1,"pid":41,…}', "41.json").ok
 */
export function parseQwenRecord(text: string, fileName: string): QwenRecordResult {
  const name = FILE_NAME.exec(fileName);
  if (name === null) return { ok: false, reason: "malformed" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, reason: "malformed" };
  }
  const v = value as Record<string, unknown>;
  if (typeof v.schemaVersion !== "number") return { ok: false, reason: "malformed" };
  if (v.schemaVersion > QWEN_SCHEMA_VERSION) return { ok: false, reason: "other_schema" };
  if (v.schemaVersion !== QWEN_SCHEMA_VERSION) return { ok: false, reason: "malformed" };
  if (typeof v.pid !== "number" || !Number.isSafeInteger(v.pid) || v.pid <= 0) {
    return { ok: false, reason: "malformed" };
  }
  if (String(v.pid) !== name[1]) return { ok: false, reason: "pid_mismatch" };
  if (typeof v.sessionId !== "string" || !SESSION_ID.test(v.sessionId)) {
    return { ok: false, reason: "malformed" };
  }
  if (typeof v.cwd !== "string") return { ok: false, reason: "malformed" };
  const procStart = typeof v.procStart === "string" && v.procStart !== "" ? v.procStart : null;
  const pidNs = typeof v.pidNs === "number" && Number.isSafeInteger(v.pidNs) ? v.pidNs : null;
  const record: QwenRecord = {
    pid: v.pid,
    procStart,
    pidNs,
    sessionId: v.sessionId,
    cwd: v.cwd,
    ...(typeof v.ipcPath === "string" && v.ipcPath.startsWith("/") ? { ipcPath: v.ipcPath } : {}),
    ...(typeof v.ipcToken === "string" && TOKEN.test(v.ipcToken) ? { ipcToken: v.ipcToken } : {}),
  };
  return { ok: true, record };
}

/** What {@link qwenRecordTrusted} compares a record with: this machine's view, now. */
export interface ProcessIdentity {
  /** `/proc/sys/kernel/random/boot_id`, or `undefined` where there is none. */
  bootId(): string | undefined;
  /** Field 22 of `/proc/<pid>/stat` (start ticks), or `undefined` when the process is gone. */
  startTicks(pid: number): string | undefined;
  /** The inode of this process's `/proc/self/ns/pid`, or `undefined`. */
  pidNamespace(): number | undefined;
}

/**
 * Whether a record still describes the process that wrote it (docs/49-qwen.md "The registry"):
 * `pidNs` equals ours, and `procStart` is present and equals `<our boot id>:<the pid's start
 * ticks now>`. **[ours]** A record without `procStart` is never trusted, although the protocol
 * lets a reader fall back to plain pid liveness: a recycled pid would then receive our messages.
 * Never throws.
 *
 * @example qwenRecordTrusted(record, linuxProcessIdentity()) // false once that pid is reused
 */
export function qwenRecordTrusted(record: QwenRecord, identity: ProcessIdentity): boolean {
  if (record.procStart === null || record.pidNs === null) return false;
  if (record.pidNs !== identity.pidNamespace()) return false;
  const boot = identity.bootId();
  const ticks = identity.startTicks(record.pid);
  if (boot === undefined || ticks === undefined) return false;
  return record.procStart === `${boot}:${ticks}`;
}

/**
 * This machine's process identity from `/proc` (Linux). Each read that fails answers
 * `undefined`, so nothing is trusted where `/proc` is missing. Never throws.
 *
 * @example qwenRecordTrusted(record, linuxProcessIdentity())
 */
export function linuxProcessIdentity(proc = "/proc"): ProcessIdentity {
  return {
    bootId: () => readTrimmed(join(proc, "sys/kernel/random/boot_id")),
    startTicks: (pid) => {
      const stat = readTrimmed(join(proc, String(pid), "stat"));
      if (stat === undefined) return undefined;
      // The command name (field 2) may hold spaces and parentheses: fields count after its `)`.
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ticks = rest[19];
      return ticks !== undefined && /^[0-9]+$/.test(ticks) ? ticks : undefined;
    },
    pidNamespace: () => {
      try {
        return statSync(join(proc, "self/ns/pid")).ino;
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * Why {@link findQwenSession} found no session to write to (docs/errors.md
 * `QWEN_SESSION_LOOKUP_FAILURES`).
 */
export const QWEN_SESSION_LOOKUP_FAILURES = ["no_record", "not_trusted", "no_inbox"] as const;

/** What {@link findQwenSession} found, or why not. */
export type QwenSessionLookup =
  | { readonly ok: true; readonly record: QwenRecord }
  | { readonly ok: false; readonly reason: (typeof QWEN_SESSION_LOOKUP_FAILURES)[number] };

/**
 * The live record of the Qwen Code process `pid` (its `cli.js` process) in `<qwenHome>/sessions/`,
 * holding `sessionId` when given. Re-read before every send: `/clear` and `/resume` swap the
 * session id under the same pid. `no_record` when none parses for that pid (and session),
 * `not_trusted` when the only candidates fail {@link qwenRecordTrusted}, `no_inbox` when the
 * trusted one has no `ipcPath`. Never throws.
 *
 * @example findQwenSession("/home/me/.qwen", 41337, linuxProcessIdentity())
 */
export function findQwenSession(
  qwenHome: string,
  pid: number,
  identity: ProcessIdentity,
  sessionId?: string,
): QwenSessionLookup {
  const folder = join(qwenHome, QWEN_REGISTRY_FOLDER);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return { ok: false, reason: "no_record" };
  }
  let untrusted = false;
  for (const name of names.sort()) {
    if (name !== `${pid}.json` && !name.startsWith(`${pid}-`)) continue;
    const text = readBounded(join(folder, name));
    if (text === undefined) continue;
    const parsed = parseQwenRecord(text, name);
    if (!parsed.ok) continue;
    if (sessionId !== undefined && parsed.record.sessionId !== sessionId) continue;
    if (!qwenRecordTrusted(parsed.record, identity)) {
      untrusted = true;
      continue;
    }
    if (parsed.record.ipcPath === undefined) return { ok: false, reason: "no_inbox" };
    return { ok: true, record: parsed.record };
  }
  return { ok: false, reason: untrusted ? "not_trusted" : "no_record" };
}

function readTrimmed(path: string): string | undefined {
  try {
    const text = readFileSync(path, "utf8").trim();
    return text === "" ? undefined : text;
  } catch {
    return undefined;
  }
}

function readBounded(path: string): string | undefined {
  try {
    if (statSync(path).size > MAX_RECORD_BYTES) return undefined;
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
