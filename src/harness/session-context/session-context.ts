import type { HttpAdapter } from "../../adapters/http/index.ts";
import { currentUid } from "../../local-files/index.ts";
import { harnessConfigDir, openHarnessAdapter } from "../adapter/index.ts";
import {
  type ByPidMap,
  type ByPidMapReason,
  readByPidMap,
  resolveStateDir,
  type StateLayout,
  stateLayout,
} from "../state/index.ts";

/**
 * Why a session-bound command could not find its session, beyond the by-pid map reader's own
 * reasons: `no_config_dir` — the map names no config dir and no absolute one can be derived from
 * `XDG_CONFIG_HOME` / `HOME`. Every reason is a `config` failure (exit 11).
 *
 * @example SESSION_CONTEXT_REASONS.includes("no_config_dir") === true
 */
export const SESSION_CONTEXT_REASONS = ["no_config_dir"] as const;

/** A reason {@link loadSessionContext} fails with: the map reader's, or one of {@link SESSION_CONTEXT_REASONS}. */
export type SessionContextReason = ByPidMapReason | (typeof SESSION_CONTEXT_REASONS)[number];

/** Exit status of every {@link loadSessionContext} failure: BAP/1 `config`. */
export const SESSION_CONTEXT_EXIT_STATUS = 11;

/** The session a session-bound command acts for, found through `CLAUDE_PID`. */
export interface SessionContext {
  /** The map's `claude_pid` in decimal: `CLAUDE_PID` for a Claude Code session. */
  readonly claudePid: string;
  /** The by-pid map: our Brigade session, team, policy, frame level, profile. */
  readonly map: ByPidMap;
  /** The state directory's layout (pending, release, watcher files). */
  readonly layout: StateLayout;
  /** Our uid: every state file must be owned by it. */
  readonly uid: number;
  /** The absolute configuration folder the adapter reads (profiles and credentials). */
  readonly configDir: string;
  /** The in-process http adapter bound to the map's profile (`team_key`). */
  readonly adapter: HttpAdapter;
}

/** Result of {@link loadSessionContext}. */
export type SessionContextResult =
  | ({ readonly ok: true } & SessionContext)
  | {
      readonly ok: false;
      readonly reason: SessionContextReason;
      /** `config: <reason>: <remedy>` — fixed text, no path and no value; prefix it with the command. */
      readonly line: string;
      /** Always {@link SESSION_CONTEXT_EXIT_STATUS}. */
      readonly status: number;
    };

/** Options of {@link loadSessionContext}. */
export interface SessionContextOptions {
  /** Per-call budget of the adapter, ms (the adapter's default when absent). */
  readonly timeoutMs?: number;
  /** Our uid; defaults to `process.getuid()`. */
  readonly uid?: number;
}

const REMEDIES: Readonly<Record<SessionContextReason, string>> = {
  not_in_session:
    "not inside a Claude Code session with the Brigade plugin (CLAUDE_PID is not set); run it from that session's Bash tool",
  not_registered:
    "this Claude Code session is not registered with Brigade; restart the session or run /reload-plugins",
  map_not_private:
    "this session's Brigade state file failed its privacy check; ask your user to restart the session",
  map_malformed:
    "this session's Brigade state file is damaged; restart the session or run /reload-plugins",
  map_invalid:
    "this session's Brigade state file has an invalid member; restart the session or run /reload-plugins",
  map_mismatch:
    "this session's Brigade state file belongs to another process; restart the session or run /reload-plugins",
  map_unreadable:
    "this session's Brigade state file cannot be read; ask your user to check the state folder",
  state_dir_relative:
    "the Brigade state folder is not an absolute path; XDG_STATE_HOME or HOME must be absolute",
  no_config_dir:
    "no absolute Brigade configuration folder is known for this session; XDG_CONFIG_HOME or HOME must be absolute",
};

/**
 * The one value-free line for a session-context failure: `config: <reason>: <remedy>`. The remedy
 * is fixed text (never a path, pid or file content).
 *
 * @example sessionContextLine("not_registered") // "config: not_registered: this Claude Code session is not registered with Brigade; restart the session or run /reload-plugins"
 */
export function sessionContextLine(reason: SessionContextReason): string {
  return `config: ${reason}: ${REMEDIES[reason]}`;
}

function failed(reason: SessionContextReason): SessionContextResult {
  return {
    ok: false,
    reason,
    line: sessionContextLine(reason),
    status: SESSION_CONTEXT_EXIT_STATUS,
  };
}

/**
 * Finds the session a session-bound command (`brigade sessions`, `send`, `whoami`, `inbox`) acts
 * for: `CLAUDE_PID` → the by-pid map through {@link readByPidMap} (the trust boundary), then the
 * http adapter bound to the map's `team_key` in the map's `config_dir` (else
 * {@link harnessConfigDir}, which ignores every `BRIGADE_*` while `CLAUDE_PID` is set). Nothing
 * else of `env` is read: an inherited `BRIGADE_*` can redirect neither state nor credentials.
 * Failures are `config` (exit 11) with a reason of `BY_PID_MAP_REASONS` or
 * {@link SESSION_CONTEXT_REASONS} and one fixed remedy line. Never throws; opens no connection.
 *
 * @example
 * const ctx = loadSessionContext(io.env);
 * if (!ctx.ok) { io.stderr(`brigade send: ${ctx.line}\n`); return ctx.status; }
 */
export function loadSessionContext(
  env: Readonly<Record<string, string | undefined>>,
  options: SessionContextOptions = {},
): SessionContextResult {
  const uid = options.uid ?? currentUid();
  const stateEnv = { XDG_STATE_HOME: env.XDG_STATE_HOME, HOME: env.HOME };
  const read = readByPidMap({ claudePid: env.CLAUDE_PID, env: stateEnv, uid });
  if (!read.ok) return failed(read.reason);
  return sessionContextFor(read.map, env, { ...options, uid });
}

/**
 * The context of the session `map` names, for a caller that found and checked the map itself
 * (`brigade mcp` binds its caller through the harness's own session id, docs/48-mcp.md): the
 * state layout from `XDG_STATE_HOME` / `HOME`, and the http adapter bound to the map's
 * `team_key` in the map's `config_dir` (else {@link harnessConfigDir} read as a session, so an
 * inherited `BRIGADE_*` is ignored). Fails `state_dir_relative` or `no_config_dir` (exit 11).
 * Never throws; opens no connection.
 *
 * @example const ctx = sessionContextFor(map, process.env); if (ctx.ok) await ctx.adapter.sessionList();
 */
export function sessionContextFor(
  map: ByPidMap,
  env: Readonly<Record<string, string | undefined>>,
  options: SessionContextOptions = {},
): SessionContextResult {
  const uid = options.uid ?? currentUid();
  const dir = resolveStateDir({ XDG_STATE_HOME: env.XDG_STATE_HOME, HOME: env.HOME });
  if (!dir.ok) return failed("state_dir_relative");
  const configDir = harnessConfigDir(env, { option: map.config_dir, asSession: true });
  if (configDir === undefined) return failed("no_config_dir");
  const adapter = openHarnessAdapter(
    { configDir, teamKey: map.team_key },
    options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
  );
  const claudePid = String(map.claude_pid);
  return { ok: true, claudePid, map, layout: stateLayout(dir.dir), uid, configDir, adapter };
}
