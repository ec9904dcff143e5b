import { currentUid } from "../../local-files/index.ts";
import {
  type SessionContext,
  type SessionContextReason,
  sessionContextFor,
  sessionContextLine,
} from "../session-context/index.ts";
import {
  type ByPidMapRead,
  type ByPidMapReason,
  readByPidMap,
  resolveStateDir,
  stateLayout,
} from "../state/index.ts";
import { readHarnessBinding } from "./harness-binding-file.ts";
import { type HarnessIdentity, harnessIdentity } from "./harness-identity.ts";

/**
 * Why `brigade mcp` refused to act for a call (docs/48-mcp.md), beyond a binding file's own
 * reasons (`BY_PID_MAP_REASONS`) and the session context's: `host_session_unbound` (the host named
 * its session on the call, and no binding for it exists), `claude_session_unbound` (Claude Code's
 * session id, and no Brigade session of the Claude Code process above holds it),
 * `process_unbound` (no session id at all, and no session hook bound a process above),
 * `repository_env` (the host loaded a repository `.env` that chooses Brigade's folders into this
 * process's environment).
 *
 * @example MCP_BINDING_REFUSALS.includes("process_unbound") === true
 */
export const MCP_BINDING_REFUSALS = [
  "host_session_unbound",
  "claude_session_unbound",
  "process_unbound",
  "repository_env",
] as const;

/** One of {@link MCP_BINDING_REFUSALS}. */
export type McpBindingRefusal = (typeof MCP_BINDING_REFUSALS)[number];

/**
 * The fixed sentence of each {@link MCP_BINDING_REFUSALS} refusal (no id, path or value).
 *
 * @example MCP_BINDING_SENTENCES.process_unbound.startsWith("the MCP host")
 */
export const MCP_BINDING_SENTENCES: Readonly<Record<McpBindingRefusal, string>> = Object.freeze({
  host_session_unbound:
    "the MCP host named its session, but no Brigade session is bound to it on this machine (its session-start hook has not registered it); nothing is sent or read for it",
  claude_session_unbound:
    "no Brigade session of this Claude Code process holds the session id Claude Code gave this server (it is not registered, or the conversation changed after this server started); run /mcp to reconnect the server, or restart the session",
  process_unbound:
    "the MCP host gave no session id and no Brigade session hook bound a process above this server; start it from a coding-agent session Brigade registered",
  repository_env:
    "a .env file of this repository, which the host passed on to this server, sets where Brigade keeps its files (HOME, XDG_* or BRIGADE_*); take those lines out of it and restart the session",
});

/**
 * The tool line of a {@link MCP_BINDING_REFUSALS} refusal: `config: <reason>: <sentence>`.
 *
 * @example mcpRefusalLine("repository_env").startsWith("config: repository_env: ")
 */
export function mcpRefusalLine(reason: McpBindingRefusal): string {
  return `config: ${reason}: ${MCP_BINDING_SENTENCES[reason]}`;
}

/** What {@link bindSession} reads. */
export interface BindSessionInput {
  /** This process's environment (the host set it; the model cannot). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The call's `_meta`, as the host sent it (the SDK lifts its own reserved keys out first). */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** This process's ancestors, nearest first (`processAncestors`). */
  readonly ancestors: readonly number[];
  /** Our uid; defaults to `process.getuid()`. */
  readonly uid?: number;
  /** Per-call budget of the bound adapter, ms. */
  readonly timeoutMs?: number;
}

/** The reason of a refused {@link bindSession}. */
export type BindSessionReason = McpBindingRefusal | ByPidMapReason | SessionContextReason;

/** Result of {@link bindSession}. */
export type BindSessionResult =
  | { readonly ok: true; readonly context: SessionContext; readonly identity: HarnessIdentity }
  | {
      readonly ok: false;
      readonly reason: BindSessionReason;
      /** `config: <reason>: <fixed sentence>`, value-free. */
      readonly line: string;
    };

function refused(reason: BindSessionReason): BindSessionResult {
  const line = (MCP_BINDING_REFUSALS as readonly string[]).includes(reason)
    ? mcpRefusalLine(reason as McpBindingRefusal)
    : sessionContextLine(reason as SessionContextReason);
  return { ok: false, reason, line };
}

/** The nearest ancestor's by-pid map: the first whose file exists decides. */
function nearestMap(
  input: BindSessionInput,
  uid: number,
): { readonly pid: number; readonly read: ByPidMapRead } | undefined {
  const stateEnv = { XDG_STATE_HOME: input.env.XDG_STATE_HOME, HOME: input.env.HOME };
  for (const pid of input.ancestors) {
    const read = readByPidMap({ claudePid: String(pid), env: stateEnv, uid });
    if (read.ok || read.reason !== "not_registered") return { pid, read };
  }
  return undefined;
}

/**
 * Binds one MCP call to the Brigade session it acts for, from what the host gives and never from
 * the tool's arguments (docs/48-mcp.md "Identity"). The first identity present decides; one that
 * cannot be bound is refused, never replaced by a weaker one:
 *
 * 1. a `_meta` session id of the call (Codex, OpenCode) → that host's binding file
 *    (`readHarnessBinding`), else `host_session_unbound`;
 * 2. `CLAUDE_CODE_SESSION_ID` → the by-pid map of the nearest Claude Code process above us, which
 *    must hold that id as `claude_session_id`, else `claude_session_unbound`;
 * 3. neither → the by-pid map a session hook wrote for the nearest process above us, else
 *    `process_unbound`.
 *
 * A binding file that exists but fails its checks refuses with its reason
 * (`BY_PID_MAP_REASONS`). The person is the bound map's credential profile (`sessionContextFor`:
 * `config_dir` and `team_key`; every `BRIGADE_*` variable is ignored). Never throws.
 *
 * @example const bound = bindSession({ env: process.env, meta: ctx.mcpReq._meta, ancestors }); if (!bound.ok) return bound.line;
 */
export function bindSession(input: BindSessionInput): BindSessionResult {
  const uid = input.uid ?? currentUid();
  const dir = resolveStateDir({ XDG_STATE_HOME: input.env.XDG_STATE_HOME, HOME: input.env.HOME });
  if (!dir.ok) return refused("state_dir_relative");
  const identity = harnessIdentity(input.env, input.meta);
  let read: ByPidMapRead;
  if (identity.source === "meta") {
    if (identity.nativeId === "") return refused("host_session_unbound");
    read = readHarnessBinding(stateLayout(dir.dir), identity.host, identity.nativeId, uid);
    if (!read.ok && read.reason === "not_registered") return refused("host_session_unbound");
  } else {
    const nearest = nearestMap(input, uid);
    const unbound = identity.source === "env" ? "claude_session_unbound" : "process_unbound";
    if (nearest === undefined) return refused(unbound);
    read = nearest.read;
    if (identity.source === "env" && read.ok && read.map.claude_session_id !== identity.nativeId) {
      return refused(unbound);
    }
  }
  if (!read.ok) return refused(read.reason);
  const options = input.timeoutMs === undefined ? { uid } : { uid, timeoutMs: input.timeoutMs };
  const context = sessionContextFor(read.map, input.env, options);
  if (!context.ok) return refused(context.reason);
  return { ok: true, context, identity };
}
