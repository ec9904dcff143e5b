import { readdirSync } from "node:fs";
import { basename, dirname, isAbsolute, join } from "node:path";
import type { Instruction } from "../../formats/frame/index.ts";
import { oneLine } from "../../formats/sanitize/index.ts";
import {
  type Adapter,
  BapError,
  type InboundPolicy,
  type SessionRegistration,
} from "../../protocol/index.ts";
import {
  chooseDisplayNameSource,
  FALLBACK_SESSION_NAME,
  isClaudePid,
  readTranscriptCustomTitle,
  type SessionRegistryInfo,
} from "../claude-code/index.ts";
import {
  type ByPidMap,
  readByPidMap,
  type StateLayout,
  UNKNOWN_PERMISSION_MODE,
  writeByPidMap,
} from "../state/index.ts";
import { harnessLiveDelivery } from "../watcher/index.ts";
import { describeAdapter } from "./adapter-features.ts";
import { readByNativeHint, writeByNativeHint } from "./by-native-hint.ts";
import { closeMappedSession } from "./close-mapped-session.ts";
import { defaultNamePerson, defaultSessionName, personNamePart } from "./default-session-name.ts";
import { gitUserName } from "./git-user-name.ts";
import type { HookContext } from "./hook-context.ts";
import type { HookInput } from "./hook-input.ts";
import { HOOK_LIMITS } from "./hook-limits.ts";
import { humanLabelOf, type PluginOptions } from "./plugin-options.ts";
import { registerOrResume } from "./register-or-resume.ts";
import { clearRegistrationRetry } from "./registration-retry.ts";

/** The team a session connects to (a resolved `SessionTeam`). */
export interface ConnectTeam {
  readonly teamRef: string;
  readonly teamName: string;
  readonly teamKey: string;
  readonly checkout: string;
  readonly configDir: string;
}

/** Everything {@link connectSession} needs, resolved by the calling hook. */
export interface ConnectRequest {
  readonly input: HookInput;
  readonly ctx: HookContext;
  readonly layout: StateLayout;
  readonly claudePid: string;
  readonly options: PluginOptions;
  readonly team: ConnectTeam;
  readonly instruction: Instruction;
  readonly policy: InboundPolicy;
  readonly registry: SessionRegistryInfo;
  /** An absolute inbox socket path that passed the pre-checks, or `""`. */
  readonly socketPath: string;
  /** Claude Code's gate would hold every post (`hookStandsAside`): no watcher will deliver live. */
  readonly gateClosed: boolean;
  /** Cap of the register (or heartbeat) call, ms. */
  readonly registerMs: number;
}

/** Result of {@link connectSession}. */
export type ConnectResult =
  | {
      readonly ok: true;
      readonly map: ByPidMap;
      /** `registered` (new), `resumed` (re-opened in place), `renewed` (already ours: heartbeat). */
      readonly how: "registered" | "resumed" | "renewed";
      /** The session this pid served before, now replaced (its watcher and session to retire). */
      readonly replaced?: ByPidMap;
    }
  | { readonly ok: false; readonly code: string; readonly retryable: boolean };

/** RFC 3339 UTC, whole seconds. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function workspaceLabel(options: PluginOptions, team: ConnectTeam): string | undefined {
  if (!options.shareWorkspaceLabel) return undefined;
  const raw = options.workspaceLabel !== "" ? options.workspaceLabel : basename(team.checkout);
  const label = oneLine(raw, 128);
  return label === "" ? undefined : label;
}

/**
 * A live watcher of another Claude process serves `sessionId` (its original process still runs):
 * a resume would re-open a live session (docs/spec/claude-code.md §1.5), so it is skipped.
 */
function ownedByOtherWatcher(request: ConnectRequest, sessionId: string): boolean {
  let names: string[];
  try {
    names = readdirSync(dirname(request.layout.watcher(request.claudePid)));
  } catch {
    return false;
  }
  for (const name of names) {
    const pid = name.endsWith(".json") ? name.slice(0, -".json".length) : "";
    if (!isClaudePid(pid) || pid === request.claudePid) continue;
    if (request.ctx.services.watcherSession(request.layout, pid) === sessionId) {
      return true;
    }
  }
  return false;
}

/**
 * The registration `human_label`: the `label` option's literal text; for `account` (the default),
 * git's `user.name` in the session's folder, so a teammate sees who the person says they are
 * (unverified, like every label) instead of an empty column; `none` sends nothing. The server
 * keeps a label the membership already has (docs/spec/protocol.md §4.3).
 */
function defaultHumanLabel(
  label: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (label === "account") return gitUserName(cwd, env);
  return humanLabelOf(label);
}

function failure(error: unknown): ConnectResult {
  if (error instanceof BapError) return { ok: false, code: error.code, retryable: error.retryable };
  return { ok: false, code: "internal", retryable: false };
}

/**
 * Registers, resumes or renews this Claude process's Brigade session and writes its by-pid map and
 * by-native hint (docs/spec/claude-code.md §7.3):
 * 0. the adapter's `describe` (offline): an unequal protocol major → `protocol_mismatch`, nothing
 *    registered; its `capabilities` decide the optional members (`workspace_label` needs
 *    `session.workspace_label`, `human_label` `session.human_label`, a resume `session.resume`, a
 *    heartbeat's `inbound` `session.inbound`);
 * 1. the by-pid map of this pid already names this native session on this team → heartbeat it
 *    (`renewed`; idempotent SessionStart); on failure resume it;
 * 2. else the by-native hint of the native session names a session of this team that no other
 *    Claude process's live watcher serves → `session register` with `resume`;
 * 3. a resume answered `not_found` or `conflict` → register fresh.
 * Each call is capped at `registerMs`. The map never holds the token; `permission_mode` is
 * `unknown` until a prompt tells it (kept when the same native session is renewed). Errors come
 * back as the error code and whether it is retryable. Never throws.
 *
 * @example const r = await connectSession(request); if (r.ok) print(contextLine(…));
 */
export async function connectSession(request: ConnectRequest): Promise<ConnectResult> {
  const { ctx, input, team, layout, claudePid, options, registry } = request;
  const env = ctx.env;
  const previousRead = readByPidMap({ claudePid, env, uid: ctx.uid });
  const previous = previousRead.ok ? previousRead.map : undefined;
  const sameSession =
    previous !== undefined &&
    previous.claude_session_id === input.session_id &&
    input.session_id !== "" &&
    previous.team_key === team.teamKey;
  const chosen = chooseDisplayNameSource({
    registry,
    transcriptTitle: readTranscriptCustomTitle(input.transcript_path),
    sessionTitle: input.session_title,
    cwd: input.cwd,
  });
  // A name the person gave stays as they wrote it; a default one tells the person and the
  // client apart (`<person>-<base>-claude-code`). A renewal keeps the default it registered
  // with, so git is asked only at registration.
  const base = chosen.source === "fallback" ? "" : chosen.name;
  const kept =
    chosen.source !== "given" &&
    sameSession &&
    previous !== undefined &&
    defaultNamePerson(previous.session_name, base, FALLBACK_SESSION_NAME) !== undefined
      ? previous.session_name
      : undefined;
  const label =
    chosen.source === "given" || kept !== undefined
      ? undefined
      : defaultHumanLabel(options.label, input.cwd, env);
  const name =
    chosen.source === "given"
      ? chosen.name
      : (kept ?? defaultSessionName(personNamePart(label), base, FALLBACK_SESSION_NAME));
  let adapter: Adapter;
  try {
    adapter = ctx.services.openAdapter({ configDir: team.configDir, teamKey: team.teamKey });
  } catch (error) {
    return failure(error);
  }
  const described = await describeAdapter(adapter, request.registerMs);
  if (!described.ok) return described;
  const features = described.features;
  const workspace = features.workspaceLabel ? workspaceLabel(options, team) : undefined;
  const signal = (): AbortSignal => AbortSignal.timeout(request.registerMs);
  const live = features.liveDelivery
    ? harnessLiveDelivery(request.socketPath, request.gateClosed)
    : {};

  let sessionId: string | undefined;
  let how: "registered" | "resumed" | "renewed" = "registered";
  if (sameSession && previous !== undefined) {
    try {
      await adapter.sessionHeartbeat(
        previous.brigade_session_id,
        { session_name: name, ...(features.inbound ? { inbound: request.policy } : {}), ...live },
        { signal: signal() },
      );
      sessionId = previous.brigade_session_id;
      how = "renewed";
    } catch (error) {
      if (error instanceof BapError && error.retryable) return failure(error);
    }
  }
  if (sessionId === undefined) {
    let resumeId: string | undefined;
    if (sameSession && previous !== undefined) resumeId = previous.brigade_session_id;
    else {
      const hint = readByNativeHint(layout, input.session_id, ctx.uid);
      if (hint !== undefined && hint.team_ref === team.teamRef) resumeId = hint.brigade_session_id;
    }
    if (!features.resume) resumeId = undefined;
    if (resumeId !== undefined && ownedByOtherWatcher(request, resumeId)) resumeId = undefined;
    // Only a registration carries a label: a renewal never spawns git.
    const human = features.humanLabel
      ? (label ?? defaultHumanLabel(options.label, input.cwd, env))
      : undefined;
    const registration: SessionRegistration = {
      harness: "claude-code",
      harness_version: oneLine(registry.version, 64) || "unknown",
      session_name: name,
      activity: "idle",
      inbound: request.policy,
      ...(workspace === undefined ? {} : { workspace_label: workspace }),
      ...(human === undefined ? {} : { human_label: human }),
      ...live,
    };
    try {
      ({ sessionId, how } = await registerOrResume(adapter, registration, resumeId, signal));
    } catch (error) {
      return failure(error);
    }
  }

  const now = isoSeconds(ctx.now());
  const pluginRoot = env.CLAUDE_PLUGIN_ROOT ?? "";
  const transcript = input.transcript_path;
  const map: ByPidMap = {
    claude_pid: Number(claudePid),
    claude_session_id: input.session_id,
    brigade_session_id: sessionId,
    team_ref: team.teamRef,
    team_name: team.teamName,
    session_name: name,
    ...(workspace === undefined ? {} : { workspace_label: workspace }),
    label_option: options.label,
    permission_mode:
      how === "renewed" && previous !== undefined
        ? previous.permission_mode
        : UNKNOWN_PERMISSION_MODE,
    non_interactive: env.CLAUDE_CODE_ENTRYPOINT === "sdk-cli" || registry.entrypoint === "sdk-cli",
    inbound: request.policy,
    frame_level: request.instruction.level,
    frame_text: request.instruction.level === "custom" ? request.instruction.custom : "",
    socket_path: request.socketPath,
    ...(transcript !== "" && isAbsolute(transcript) ? { transcript_path: transcript } : {}),
    ...(isAbsolute(team.checkout) ? { checkout: team.checkout } : {}),
    team_key: team.teamKey,
    config_dir: team.configDir,
    adapter_command: [],
    plugin_bin: isAbsolute(pluginRoot) ? join(pluginRoot, "bin") : "",
    harness_version: oneLine(registry.version, 64) || "unknown",
    registered_at: how === "renewed" && previous !== undefined ? previous.registered_at : now,
    updated_at: now,
    options: {
      team_inbound: options.teamInbound,
      poll_on_prompt: options.pollOnPrompt,
      share_workspace_label: options.shareWorkspaceLabel,
    },
  };
  try {
    writeByPidMap(layout, map);
  } catch {
    return { ok: false, code: "internal", retryable: false };
  }
  try {
    writeByNativeHint(layout, input.session_id, {
      brigade_session_id: sessionId,
      team_ref: team.teamRef,
      session_name: name,
      updated_at: now,
    });
  } catch {
    // the hint only helps a later resume; the session itself is connected
  }
  clearRegistrationRetry(layout, claudePid);
  const replaced =
    previous !== undefined && previous.brigade_session_id !== sessionId ? previous : undefined;
  return { ok: true, map, how, ...(replaced === undefined ? {} : { replaced }) };
}

/**
 * Retires the session a pid served before `/clear` or an in-process resume: stops its watcher
 * (the next `ensureWatcher` spawns one for the new session) and closes it, capped at 1 s. Never
 * throws.
 *
 * @example await retireReplacedSession(ctx, layout, "4242", replaced);
 */
export async function retireReplacedSession(
  ctx: HookContext,
  layout: StateLayout,
  claudePid: string,
  replaced: ByPidMap,
): Promise<void> {
  await stopPidWatcher(ctx, layout, claudePid);
  // a failed close is left to lease expiry, which takes the old session offline
  await closeMappedSession(ctx, replaced);
}

/**
 * Stops the watcher of `claudePid` with the hooks' grace (`stopWatcherGraceMs`); a failure is
 * only logged (`watcher_stop_failed`): a watcher that outlives its map exits on its own at its
 * next tick. Never throws.
 *
 * @example await stopPidWatcher(ctx, layout, "4242");
 */
export async function stopPidWatcher(
  ctx: HookContext,
  layout: StateLayout,
  claudePid: string,
): Promise<void> {
  try {
    await ctx.services.stopWatcher({
      layout,
      claudePid,
      graceMs: HOOK_LIMITS.stopWatcherGraceMs,
    });
  } catch {
    ctx.log("brigade hook: watcher_stop_failed\n");
  }
}
