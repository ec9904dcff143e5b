import { rmSync } from "node:fs";
import { isAbsolute } from "node:path";
import { brigadeVersion } from "../../local-files/index.ts";
import type { InboundPolicy } from "../../protocol/index.ts";
import { harnessConfigDir } from "../adapter/index.ts";
import {
  claudeConfigDir,
  findBrigadeShadow,
  isClaudePid,
  messagingSocketFromEnv,
  messagingToken,
  readSessionRegistry,
  repositoryEnvChoices,
  scanInboundSettings,
  usableSocket,
} from "../claude-code/index.ts";
import {
  readByPidMap,
  resolveStateDir,
  type StateLayout,
  stateLayout,
  writeByPidMap,
} from "../state/index.ts";
import { GATE_CLOSED_NOTICE } from "../watcher/index.ts";
import { adoptStranded } from "./adopt-stranded.ts";
import type { HookContext } from "./hook-context.ts";
import { hookStandsAside } from "./hook-gate.ts";
import type { HookInput } from "./hook-input.ts";
import { HOOK_LIMITS } from "./hook-limits.ts";
import {
  bindingLine,
  contextLine,
  frameOptionLine,
  PROTOCOL_MISMATCH_LINE,
  registrationFailureLine,
  repositoryEnvLine,
  settingsLine,
  shadowedBrigadeLine,
  TEAM_INBOUND_INVALID_LINE,
} from "./hook-lines.ts";
import type { HookOutput } from "./hook-output.ts";
import { readPluginOptions, resolveFrameInstruction } from "./plugin-options.ts";
import { writeRegistrationRetry } from "./registration-retry.ts";
import {
  connectSession,
  isoSeconds,
  retireReplacedSession,
  stopPidWatcher,
} from "./session-connect.ts";
import { startWatcherFromHook } from "./start-watcher.ts";

/** Where a hook's session lives locally: the validated `CLAUDE_PID` and the state layout. */
export interface HookSession {
  readonly claudePid: string;
  readonly layout: StateLayout;
}

/**
 * The validated `CLAUDE_PID` and state layout of a hook run, or `undefined` (logged) when the hook
 * runs outside a session or without an absolute state directory.
 *
 * @example const where = hookSession(ctx); if (where === undefined) return;
 */
export function hookSession(ctx: HookContext): HookSession | undefined {
  const pid = ctx.env.CLAUDE_PID ?? "";
  if (!isClaudePid(pid)) {
    ctx.log("brigade hook: not_in_session\n");
    return undefined;
  }
  const dir = resolveStateDir(ctx.env);
  if (!dir.ok) {
    ctx.log("brigade hook: state_dir_relative\n");
    return undefined;
  }
  return { claudePid: pid, layout: stateLayout(dir.dir) };
}

/**
 * The effective inbound policy (docs/spec/claude-code.md §4): the `team_inbound` option, unless the
 * settings scan found a `crossSessionInbound` other than `accept` — then `refuse`, with one warning
 * line.
 *
 * @example effectivePolicy("accept", [".claude/settings.json"]) === "refuse"
 */
export function effectivePolicy(option: InboundPolicy, hits: readonly unknown[]): InboundPolicy {
  return hits.length > 0 ? "refuse" : option;
}

/** The outcome of {@link connectFromHook}. */
export type HookConnectOutcome = "connected" | "off" | "disconnected" | "failed";

/**
 * The connecting part of SessionStart, shared with the prompt hook's registration retry: a
 * repository settings `env` that chooses Brigade's folders or options (`repositoryEnvChoices` →
 * one line, disconnected), team binding (`no_binding` → silently off), options, frame instruction (invalid → one line, no
 * registration), settings scan, registry, socket, register/resume/renew, by-pid map, retire a
 * replaced session, take over what this checkout's ended sessions left (`adoptStranded`),
 * `ensureWatcher` when a socket exists, and the one context line. A failed
 * registration writes the retry marker and prints one line. Never throws.
 *
 * @example await connectFromHook(input, ctx, where, out, HOOK_LIMITS.registerMs);
 */
export async function connectFromHook(
  input: HookInput,
  ctx: HookContext,
  where: HookSession,
  out: HookOutput,
  registerMs: number,
): Promise<HookConnectOutcome> {
  const { claudePid, layout } = where;
  // The repository must not choose where Brigade's credentials and state live, nor the person's
  // options: a settings env that did is refused before anything is read through it.
  const chosen = repositoryEnvChoices(ctx.env, [ctx.env.CLAUDE_PROJECT_DIR, input.cwd]);
  if (chosen.length > 0) {
    ctx.log("brigade hook: repository_env\n");
    out.line(repositoryEnvLine(chosen));
    return "disconnected";
  }
  const options = readPluginOptions(ctx.env);
  const configDir = harnessConfigDir(ctx.env, { option: options.configDir });
  const team = ctx.services.resolveSessionTeam({ cwd: input.cwd, configDir });
  if (!team.ok) {
    ctx.log(`brigade hook: ${team.reason}\n`);
    if (team.reason !== "no_binding") out.line(bindingLine(team.reason));
    return "off";
  }
  const frame = resolveFrameInstruction(options);
  if (!frame.ok) {
    ctx.log(`brigade hook: ${frame.reason}\n`);
    out.line(frameOptionLine(frame.reason, frame.message));
    return "disconnected";
  }
  const ccConfig = claudeConfigDir(ctx.env);
  const scan = scanInboundSettings({ cwd: input.cwd, claudeConfigDir: ccConfig });
  if (!options.teamInboundValid) out.line(TEAM_INBOUND_INVALID_LINE);
  if (scan.hits.length > 0) out.line(settingsLine(scan.hits));
  const policy = effectivePolicy(options.teamInbound, scan.hits);
  const registry = readSessionRegistry(ccConfig, claudePid);
  const socketPath = await usableSocket(
    messagingSocketFromEnv(ctx.env),
    registry.messagingSocketPath,
  );
  // SessionStart reports no permission mode: the launch tells whether the session bypasses.
  const gateClosed = hookStandsAside(ctx, claudePid, input.cwd, undefined);
  const result = await connectSession({
    input,
    ctx,
    layout,
    claudePid,
    options,
    team,
    instruction: frame.instruction,
    policy,
    registry,
    socketPath,
    gateClosed,
    registerMs,
  });
  if (!result.ok && result.code === "protocol_mismatch") {
    // retrying cannot help: no retry marker, the user updates the plugin or the adapter
    ctx.log("brigade hook: protocol_mismatch\n");
    out.line(PROTOCOL_MISMATCH_LINE);
    return "disconnected";
  }
  if (!result.ok) {
    ctx.log(`brigade hook: register_failed ${result.code}\n`);
    writeRegistrationRetry(layout, claudePid, {
      claude_session_id: input.session_id,
      last_attempt_at: ctx.now(),
    });
    out.line(registrationFailureLine(result.code, result.retryable));
    return "failed";
  }
  if (result.replaced !== undefined) {
    await retireReplacedSession(ctx, layout, claudePid, result.replaced);
  }
  // Only for a session no watcher serves yet (registered or resumed here, never a renewal): the
  // watcher's catch-up then finds what was taken over already held, and no running watcher
  // rewrites the held records without them.
  if (result.how !== "renewed") {
    await adoptStranded(ctx, layout, result.map, team.checkout, out);
  }
  const token = messagingToken(ctx.env);
  if (socketPath !== "" && token !== "") {
    if (gateClosed) out.line(GATE_CLOSED_NOTICE);
    else await startWatcherFromHook(ctx, layout, result.map, token, HOOK_LIMITS.policyHeartbeatMs);
  }
  out.line(
    contextLine({
      sessionName: result.map.session_name,
      sessionId: result.map.brigade_session_id,
      teamName: result.map.team_name,
      policy: result.map.inbound,
    }),
  );
  return "connected";
}

/**
 * The SessionStart hook (docs/spec/claude-code.md §7.3). `source: compact` keeps the registration
 * and only refreshes the by-pid map (socket, transcript, settings scan → policy, `updated_at`) and
 * prints the context line again, since compaction dropped it from the model's context. Any other
 * source runs {@link connectFromHook} within the 8 s register cap, then, unless Brigade is off, one
 * warning line naming both versions when another `brigade` of another version comes earlier on
 * PATH than the plugin's
 * (docs/spec/claude-code.md §2). Idempotent per `CLAUDE_PID`: the same native session is renewed, a
 * new one (after `/clear`) is registered and the old one retired. Never throws; the caller prints
 * `out` and exits 0.
 *
 * @example await runSessionStart(input, ctx, out);
 */
export async function runSessionStart(
  input: HookInput,
  ctx: HookContext,
  out: HookOutput,
): Promise<HookConnectOutcome> {
  const where = hookSession(ctx);
  if (where === undefined) return "off";
  if (input.source === "compact") return refreshAfterCompact(input, ctx, where, out);
  const outcome = await connectFromHook(input, ctx, where, out, HOOK_LIMITS.registerMs);
  if (outcome !== "connected") await retireLeftoverMap(ctx, where);
  if (outcome !== "off") {
    const shadow = findBrigadeShadow(
      ctx.env.PATH ?? "",
      ctx.env.CLAUDE_PLUGIN_ROOT ?? "",
      brigadeVersion(),
    );
    if (shadow.shadowed) out.line(shadowedBrigadeLine(shadow.theirs, shadow.ours));
  }
  return outcome;
}

/**
 * A SessionStart that did not connect must not leave an earlier map for this pid in place: one of
 * a crashed Claude Code whose pid was reused, or of the conversation before `/clear`. Left, it
 * would make this session act as that one (commands, the prompt hook's watcher respawn, the
 * context line after compaction), and it would hide the missing registration from the prompt
 * hook's retry. So the map is deleted, the watcher stopped, and a valid map's session closed.
 */
async function retireLeftoverMap(ctx: HookContext, where: HookSession): Promise<void> {
  const read = readByPidMap({ claudePid: where.claudePid, env: ctx.env, uid: ctx.uid });
  if (!read.ok && read.reason === "not_registered") return;
  try {
    rmSync(where.layout.byPid(where.claudePid), { force: true });
  } catch {
    ctx.log("brigade hook: map_not_removed\n");
  }
  ctx.log("brigade hook: leftover_map_retired\n");
  if (read.ok) await retireReplacedSession(ctx, where.layout, where.claudePid, read.map);
  else await stopPidWatcher(ctx, where.layout, where.claudePid);
}

async function refreshAfterCompact(
  input: HookInput,
  ctx: HookContext,
  where: HookSession,
  out: HookOutput,
): Promise<HookConnectOutcome> {
  const read = readByPidMap({ claudePid: where.claudePid, env: ctx.env, uid: ctx.uid });
  if (!read.ok) {
    ctx.log(`brigade hook: compact ${read.reason}\n`);
    return "off";
  }
  const map = read.map;
  const options = readPluginOptions(ctx.env);
  const ccConfig = claudeConfigDir(ctx.env);
  const scan = scanInboundSettings({ cwd: input.cwd, claudeConfigDir: ccConfig });
  if (scan.hits.length > 0) out.line(settingsLine(scan.hits));
  const registry = readSessionRegistry(ccConfig, where.claudePid);
  const socketPath = await usableSocket(
    messagingSocketFromEnv(ctx.env),
    registry.messagingSocketPath,
  );
  const transcript = input.transcript_path;
  const refreshed = {
    ...map,
    inbound: effectivePolicy(options.teamInbound, scan.hits),
    socket_path: socketPath,
    ...(transcript !== "" && isAbsolute(transcript) ? { transcript_path: transcript } : {}),
    updated_at: isoSeconds(ctx.now()),
  };
  try {
    writeByPidMap(where.layout, refreshed);
  } catch {
    ctx.log("brigade hook: compact map_write_failed\n");
  }
  out.line(
    contextLine({
      sessionName: refreshed.session_name,
      sessionId: refreshed.brigade_session_id,
      teamName: refreshed.team_name,
      policy: refreshed.inbound,
    }),
  );
  return "connected";
}
