import { isAbsolute } from "node:path";
import { LEVELS, type Level, validateInstruction } from "../../formats/frame/index.ts";
import {
  INBOUND_POLICIES,
  type InboundPolicy,
  isJsonObject,
  isRfc3339Timestamp,
  type JsonValue,
  type ProtocolError,
  parseJsonDocument,
  protocolError,
} from "../../protocol/index.ts";
import { isClaudePid } from "../claude-code/index.ts";
import { readPrivateStateFile, writePrivateStateFile } from "./private-state-file.ts";
import { resolveStateDir, type StateDirEnv } from "./state-dir.ts";
import { type StateLayout, stateLayout } from "./state-layout.ts";

/**
 * `details.reason` of the `config` error (exit 11) the by-pid map reader fails with
 * (docs/spec/claude-code.md §7.2): `not_in_session` (no `CLAUDE_PID`), `not_registered` (no map),
 * `map_not_private` (a symlink, not a regular file, group/other bits, or another owner),
 * `map_malformed` (over 64 KiB, not UTF-8, not one JSON object), `map_invalid` (a member of the
 * wrong shape; `details.field` names it), `map_mismatch` (`claude_pid` is not the file's pid),
 * `map_unreadable` (any other read failure), `state_dir_relative` (no absolute state directory).
 *
 * @example BY_PID_MAP_REASONS.includes("map_mismatch") === true
 */
export const BY_PID_MAP_REASONS = [
  "not_in_session",
  "not_registered",
  "map_not_private",
  "map_malformed",
  "map_invalid",
  "map_mismatch",
  "map_unreadable",
  "state_dir_relative",
] as const;

/** One by-pid map failure reason. */
export type ByPidMapReason = (typeof BY_PID_MAP_REASONS)[number];

/** Largest by-pid map file accepted, bytes (64 KiB). */
export const MAX_BY_PID_MAP_BYTES = 65_536;

/**
 * `permission_mode` before the first prompt told us (SessionStart carries none,
 * docs/spec/claude-code.md §0 item 1).
 */
export const UNKNOWN_PERMISSION_MODE = "unknown";

/**
 * The by-pid map (docs/spec/claude-code.md §7.2), written by SessionStart on every start and read
 * by every session-bound command and the watcher. **Never the token**: no member may name one (the
 * validator refuses any member whose name contains `token`). `claude_session_id` never leaves the
 * machine. Paths are absolute or `""`; `adapter_command` is `[]` (bundled) or an argv whose first
 * element is absolute; times are RFC 3339.
 *
 * @example const m: ByPidMap = { claude_pid: 4242, claude_session_id: "…", brigade_session_id: "s-1", team_ref: "t-1", team_name: "core", session_name: "api", permission_mode: "unknown", non_interactive: false, inbound: "accept", frame_level: "open", frame_text: "", socket_path: "", team_key: "default", config_dir: "", adapter_command: [], plugin_bin: "", harness_version: "2.1.328", registered_at: "2026-10-02T09:15:42Z", updated_at: "2026-10-02T09:15:42Z" };
 */
export interface ByPidMap {
  readonly claude_pid: number;
  readonly claude_session_id: string;
  readonly brigade_session_id: string;
  readonly team_ref: string;
  readonly team_name: string;
  readonly session_name: string;
  readonly workspace_label?: string;
  readonly label_option?: string;
  readonly permission_mode: string;
  readonly non_interactive: boolean;
  readonly inbound: InboundPolicy;
  readonly frame_level: Level;
  readonly frame_text: string;
  readonly socket_path: string;
  readonly transcript_path?: string;
  /**
   * The session's project folder: the checkout whose `.brigade.json` bound it (absolute). What
   * the session may attach by default lies inside it (docs/43-session-cli.md, "Attachments").
   */
  readonly checkout?: string;
  readonly team_key: string;
  readonly config_dir: string;
  readonly adapter_command: readonly string[];
  readonly plugin_bin: string;
  readonly harness_version: string;
  readonly registered_at: string;
  readonly updated_at: string;
  /** Option echoes (string, number or boolean values). */
  readonly options?: Readonly<Record<string, string | number | boolean>>;
}

/** Result of {@link validateByPidMap}: the map, or the first member at fault. */
export type ByPidMapValidation =
  | { readonly ok: true; readonly map: ByPidMap }
  | { readonly ok: false; readonly field: string };

/** Result of {@link readByPidMap}: the map, or the reason plus the ready `config` error. */
export type ByPidMapRead =
  | { readonly ok: true; readonly map: ByPidMap; readonly path: string }
  | {
      readonly ok: false;
      readonly reason: ByPidMapReason;
      readonly field?: string;
      readonly error: ProtocolError;
    };

const MAX_TEXT = 4_096;

type Check = (value: JsonValue | undefined) => boolean;

const text: Check = (v) => typeof v === "string" && v.length <= MAX_TEXT;
const nonEmptyText: Check = (v) => text(v) && v !== "";
const absoluteOrEmpty: Check = (v) => text(v) && (v === "" || isAbsolute(v as string));
const absolute: Check = (v) => text(v) && isAbsolute(v as string);
const timestamp: Check = (v) => typeof v === "string" && isRfc3339Timestamp(v);
const oneOf =
  (values: readonly string[]): Check =>
  (v) =>
    typeof v === "string" && values.includes(v);
const argv: Check = (v) =>
  Array.isArray(v) &&
  v.length <= 64 &&
  v.every((a) => typeof a === "string" && a !== "" && a.length <= MAX_TEXT) &&
  (v.length === 0 || isAbsolute(v[0] as string));

const REQUIRED: readonly (readonly [keyof ByPidMap, Check])[] = [
  ["claude_pid", (v) => typeof v === "number" && Number.isSafeInteger(v) && v > 0],
  ["claude_session_id", text],
  ["brigade_session_id", nonEmptyText],
  ["team_ref", nonEmptyText],
  ["team_name", text],
  ["session_name", text],
  ["permission_mode", (v) => nonEmptyText(v) && (v as string).length <= 64],
  ["non_interactive", (v) => typeof v === "boolean"],
  ["inbound", oneOf(INBOUND_POLICIES)],
  ["frame_level", oneOf(LEVELS)],
  ["frame_text", text],
  ["socket_path", absoluteOrEmpty],
  ["team_key", nonEmptyText],
  ["config_dir", absoluteOrEmpty],
  ["adapter_command", argv],
  ["plugin_bin", absoluteOrEmpty],
  ["harness_version", nonEmptyText],
  ["registered_at", timestamp],
  ["updated_at", timestamp],
];

const OPTIONAL: readonly (readonly [keyof ByPidMap, Check])[] = [
  ["workspace_label", text],
  ["label_option", text],
  ["transcript_path", absolute],
  ["checkout", absolute],
];

const TOKEN_NAME = /token/i;

/**
 * Checks a parsed by-pid map: every member of {@link ByPidMap} with its type and form; no member
 * (or option echo) whose name contains `token`; `frame_level`/`frame_text` pass the frame's
 * `validateInstruction` (non-empty text only for `custom`, and a safe clause). Unknown members
 * are dropped from the result. Never throws.
 *
 * @example validateByPidMap(JSON.parse(text)).ok
 */
export function validateByPidMap(value: unknown): ByPidMapValidation {
  if (!isJsonObject(value as JsonValue)) return { ok: false, field: "map" };
  const o = value as Readonly<Record<string, JsonValue>>;
  for (const name of Object.keys(o)) {
    if (TOKEN_NAME.test(name)) return { ok: false, field: name };
  }
  const out: Record<string, unknown> = {};
  for (const [name, check] of REQUIRED) {
    if (!check(o[name])) return { ok: false, field: name };
    out[name] = o[name];
  }
  for (const [name, check] of OPTIONAL) {
    if (o[name] === undefined) continue;
    if (!check(o[name])) return { ok: false, field: name };
    out[name] = o[name];
  }
  const options = o.options;
  if (options !== undefined) {
    if (!isJsonObject(options)) return { ok: false, field: "options" };
    for (const [name, v] of Object.entries(options)) {
      const primitive = typeof v === "string" || typeof v === "number" || typeof v === "boolean";
      if (!primitive || TOKEN_NAME.test(name)) return { ok: false, field: "options" };
    }
    out.options = options;
  }
  const instruction = validateInstruction({
    level: o.frame_level as Level,
    custom: o.frame_text as string,
  });
  if (!instruction.ok) return { ok: false, field: "frame_text" };
  return { ok: true, map: out as unknown as ByPidMap };
}

function failure(reason: ByPidMapReason, field?: string): ByPidMapRead {
  const details: Record<string, string> = { reason };
  if (field !== undefined) details.field = field;
  return {
    ok: false,
    reason,
    ...(field === undefined ? {} : { field }),
    error: protocolError("config", details),
  };
}

/** Inputs of {@link readByPidMap}. */
export interface ReadByPidMapOptions {
  /** `CLAUDE_PID` as found in the environment (undefined or empty → `not_in_session`). */
  readonly claudePid: string | undefined;
  /** The environment the state directory is resolved from. */
  readonly env: StateDirEnv;
  /** Our uid (`process.getuid()`): the map must be owned by it. */
  readonly uid: number;
}

/**
 * Reads the by-pid map of `CLAUDE_PID` — the trust boundary of every session-bound command
 * (docs/spec/claude-code.md §7.2): resolve the state directory (absolute); open
 * `sessions/by-pid/<pid>.json` without following symlinks; a regular file with no group/other
 * bits, owned by `uid` (checked on the descriptor); ≤ 64 KiB; one strict JSON object; every
 * member valid; `claude_pid` equal to the file's pid. Failures are `config` errors with
 * `details.reason` ∈ {@link BY_PID_MAP_REASONS} (`details.field` for `map_invalid`); no path or
 * value is ever echoed. Never throws.
 *
 * @example const r = readByPidMap({ claudePid: process.env.CLAUDE_PID, env: process.env, uid: process.getuid!() });
 */
export function readByPidMap(options: ReadByPidMapOptions): ByPidMapRead {
  const pid = options.claudePid;
  if (pid === undefined || pid === "") return failure("not_in_session");
  if (!isClaudePid(pid)) return failure("not_in_session");
  const dir = resolveStateDir(options.env);
  if (!dir.ok) return failure("state_dir_relative");
  const belongs = (map: ByPidMap): boolean => String(map.claude_pid) === pid;
  return readSessionMapFile(stateLayout(dir.dir).byPid(pid), options.uid, belongs);
}

/**
 * Reads a file holding a by-pid map's document at `path` through the same checks as
 * {@link readByPidMap}: no symlink followed, a regular file with no group/other bits owned by
 * `uid`, ≤ 64 KiB, one strict JSON object, every member valid, and `belongs(map)` — the pid or
 * session the file's name stands for (else `map_mismatch`). A missing file is `not_registered`.
 * Never throws.
 *
 * @example readSessionMapFile(path, uid, (map) => map.claude_session_id === nativeId)
 */
export function readSessionMapFile(
  path: string,
  uid: number,
  belongs: (map: ByPidMap) => boolean,
): ByPidMapRead {
  const read = readPrivateStateFile(path, { maxBytes: MAX_BY_PID_MAP_BYTES, uid });
  switch (read.kind) {
    case "missing":
      return failure("not_registered");
    case "not_private":
      return failure("map_not_private");
    case "too_large":
      return failure("map_malformed");
    case "unreadable":
      return failure("map_unreadable");
    case "ok":
      break;
  }
  const parsed = parseJsonDocument(read.bytes, { maxBytes: MAX_BY_PID_MAP_BYTES });
  if (!parsed.ok || !isJsonObject(parsed.value)) return failure("map_malformed");
  const validated = validateByPidMap(parsed.value);
  if (!validated.ok) return failure("map_invalid", validated.field);
  if (!belongs(validated.map)) return failure("map_mismatch");
  return { ok: true, map: validated.map, path };
}

/**
 * Serialises a by-pid map (members in {@link ByPidMap} order, one trailing newline) after
 * validating it, so a writer bug can never plant a map the reader refuses or a token member.
 *
 * @throws TypeError when the map does not validate (a caller bug); the message names the member.
 * @example writePrivateStateFile(layout.root, layout.byPid("4242"), serializeByPidMap(map));
 */
export function serializeByPidMap(map: ByPidMap): string {
  const validated = validateByPidMap(map);
  if (!validated.ok) throw new TypeError(`by-pid map member ${validated.field} is invalid`);
  return `${JSON.stringify(validated.map)}\n`;
}

/**
 * Writes the by-pid map of `map.claude_pid` under the state directory (0700 folders, 0600 file,
 * atomic), as SessionStart does on every start.
 *
 * @throws TypeError for an invalid map; PrivateFileError when the file cannot be written privately.
 * @example writeByPidMap(stateLayout(dir), map);
 */
export function writeByPidMap(layout: StateLayout, map: ByPidMap): void {
  writePrivateStateFile(layout.root, layout.byPid(String(map.claude_pid)), serializeByPidMap(map));
}
