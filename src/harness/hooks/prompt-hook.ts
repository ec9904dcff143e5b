import { noticeName } from "../../formats/sanitize/index.ts";
import { DEFAULT_RECEIVE_LIMIT } from "../../protocol/index.ts";
import { claudeConfigDir, messagingToken, scanInboundSettings } from "../claude-code/index.ts";
import {
  type ByPidMap,
  readByPidMap,
  readPendingRecords,
  takePrivateStateFile,
  writeByPidMap,
} from "../state/index.ts";
import { heartbeatIfAdvertised } from "./advertised-heartbeat.ts";
import type { HookContext } from "./hook-context.ts";
import { hookStandsAside } from "./hook-gate.ts";
import type { HookInput } from "./hook-input.ts";
import { HOOK_LIMITS } from "./hook-limits.ts";
import { heldLine, settingsLine } from "./hook-lines.ts";
import { HOOK_LINE_PREFIX, type HookOutput } from "./hook-output.ts";
import { syncHostName } from "./host-name-sync.ts";
import { readPluginOptions } from "./plugin-options.ts";
import { confirmShownMessages, pollMessages } from "./poll-messages.ts";
import { readRegistrationRetry, writeRegistrationRetry } from "./registration-retry.ts";
import { noticeUndeliverable } from "./sent-notices.ts";
import { isoSeconds } from "./session-connect.ts";
import {
  connectFromHook,
  effectivePolicy,
  type HookSession,
  hookSession,
} from "./session-start-hook.ts";
import { startWatcherFromHook } from "./start-watcher.ts";

const PERMISSION_MODE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * The UserPromptSubmit hook (docs/spec/claude-code.md §7.3), inside its 4.5 s budget: no map and a
 * retry marker older than a minute → one registration retry (the marker's time is renewed first);
 * else update `permission_mode` (only this event carries it) and the settings-scan policy in the
 * map — a changed policy is also sent to the server in one `session heartbeat` (`inbound`), and
 * so is a name the person gave the session in Claude Code (`syncHostName`);
 * `ensureWatcher` when a socket is mapped and no watcher runs, unless Claude Code's gate is
 * closed because the session bypasses permission prompts (`hookStandsAside`); print the
 * watcher's one-shot notice and delete it; poll when there is no socket or that gate is closed,
 * or with `poll_on_prompt` when no watcher delivers (never beside a running one: one message read
 * twice; `pollMessages`), else only ack what earlier runs showed and the transcript now shows
 * read; print the held notice while
 * anything is held; tell, once, about sent messages that became undeliverable
 * (`noticeUndeliverable`). The prompt text is never read. Never throws.
 *
 * @example await runPrompt(input, ctx, out, Date.now() + 4_500);
 */
export async function runPrompt(
  input: HookInput,
  ctx: HookContext,
  out: HookOutput,
  deadline: number,
): Promise<void> {
  const where = hookSession(ctx);
  if (where === undefined) return;
  const read = readByPidMap({ claudePid: where.claudePid, env: ctx.env, uid: ctx.uid });
  if (!read.ok) {
    if (read.reason === "not_registered") await retryRegistration(input, ctx, where, out, deadline);
    else ctx.log(`brigade hook: ${read.reason}\n`);
    return;
  }
  const updated = updateMap(input, ctx, where, read.map, out);
  if (updated.inbound !== read.map.inbound) await announcePolicy(ctx, updated, deadline);
  const map = await syncHostName(input.cwd, ctx, where, updated, deadline);
  const token = messagingToken(ctx.env);
  let watcherDelivers = false;
  // Claude Code's gate would hold every post: no watcher, the poll delivers.
  let gateClosed = false;
  if (map.socket_path !== "" && token !== "") {
    watcherDelivers = ctx.services.isWatcherRunning(where.layout, where.claudePid);
    if (!watcherDelivers) {
      gateClosed = hookStandsAside(ctx, where.claudePid, input.cwd, map.permission_mode);
    }
    if (!watcherDelivers && !gateClosed) {
      const reportMs = Math.min(HOOK_LIMITS.policyHeartbeatMs, deadline - ctx.now() - 200);
      await startWatcherFromHook(ctx, where.layout, map, token, reportMs);
      watcherDelivers = ctx.services.isWatcherRunning(where.layout, where.claudePid);
    }
  }
  printNotice(ctx, where, out);
  const options = readPluginOptions(ctx.env);
  // A running watcher owns delivery: a poll beside it could print a message the watcher is about
  // to post (queued behind its pacer), and the model would read it twice.
  if (map.socket_path === "" || gateClosed || (options.pollOnPrompt && !watcherDelivers)) {
    const remaining = deadline - ctx.now();
    if (remaining > 200) {
      try {
        await pollMessages({
          adapter: ctx.services.openAdapter({
            configDir: map.config_dir,
            teamKey: map.team_key,
          }),
          map,
          layout: where.layout,
          uid: ctx.uid,
          now: ctx.now,
          out,
          reserve: HOOK_LIMITS.pollReserveUnits,
          receiveLimit: DEFAULT_RECEIVE_LIMIT,
          receiveMs: Math.min(HOOK_LIMITS.receiveMs, remaining - 150),
          ackMs: () => deadline - ctx.now() - 50,
          filesMs: () => deadline - ctx.now() - 600,
          transcriptPath: input.transcript_path || (map.transcript_path ?? ""),
        });
      } catch {
        ctx.log("brigade hook: poll failed\n");
      }
    }
  } else {
    // What an earlier hook run or `brigade inbox show` showed is acked once the model has read it.
    await confirmShownMessages(ctx, where.layout, map, deadline);
  }
  const held = readPendingRecords(where.layout, map.brigade_session_id, ctx.uid);
  if (held.length > 0) out.line(heldLine(held.map((r) => noticeName(r.sender_name))));
  await noticeUndeliverable(ctx, where, map, out, deadline);
}

function updateMap(
  input: HookInput,
  ctx: HookContext,
  where: HookSession,
  map: ByPidMap,
  out: HookOutput,
): ByPidMap {
  const options = readPluginOptions(ctx.env);
  const scan = scanInboundSettings({ cwd: input.cwd, claudeConfigDir: claudeConfigDir(ctx.env) });
  if (scan.hits.length > 0) out.line(settingsLine(scan.hits));
  const policy = effectivePolicy(options.teamInbound, scan.hits);
  const mode = PERMISSION_MODE.test(input.permission_mode)
    ? input.permission_mode
    : map.permission_mode;
  if (mode === map.permission_mode && policy === map.inbound) return map;
  const updated: ByPidMap = {
    ...map,
    permission_mode: mode,
    inbound: policy,
    updated_at: isoSeconds(ctx.now()),
  };
  try {
    writeByPidMap(where.layout, updated);
  } catch {
    ctx.log("brigade hook: map_write_failed\n");
  }
  return updated;
}

/**
 * Tells the server the session's new effective inbound policy (what senders see) with one
 * `session heartbeat` carrying `inbound`, when the adapter advertises `session.inbound`; capped
 * by `policyHeartbeatMs` and the time left in the prompt budget. A failure is only logged: the
 * watcher re-reads the map and carries the policy in its next heartbeat.
 */
async function announcePolicy(ctx: HookContext, map: ByPidMap, deadline: number): Promise<void> {
  const ms = Math.min(HOOK_LIMITS.policyHeartbeatMs, deadline - ctx.now() - 200);
  if (ms < 100) {
    ctx.log("brigade hook: policy_heartbeat_skipped\n");
    return;
  }
  const outcome = await heartbeatIfAdvertised(ctx, map, "inbound", { inbound: map.inbound }, ms);
  if (outcome === "failed") ctx.log("brigade hook: policy_heartbeat_failed\n");
}

/** Prints the watcher's one-shot notice (taken, so one written meanwhile waits for the next prompt). */
function printNotice(ctx: HookContext, where: HookSession, out: HookOutput): void {
  const read = takePrivateStateFile(where.layout.notice(where.claudePid), {
    maxBytes: HOOK_LIMITS.maxNoticeBytes,
    uid: ctx.uid,
  });
  if (read.kind !== "ok") return;
  const text = Buffer.from(read.bytes).toString("utf8");
  for (const line of text.split("\n")) {
    if (line.startsWith(HOOK_LINE_PREFIX) && !line.includes("\r")) out.line(line);
  }
}

async function retryRegistration(
  input: HookInput,
  ctx: HookContext,
  where: HookSession,
  out: HookOutput,
  deadline: number,
): Promise<void> {
  const retry = readRegistrationRetry(where.layout, where.claudePid, ctx.uid);
  if (retry === undefined) return;
  const now = ctx.now();
  if (now - retry.last_attempt_at < HOOK_LIMITS.retryIntervalMs) return;
  writeRegistrationRetry(where.layout, where.claudePid, {
    claude_session_id: input.session_id,
    last_attempt_at: now,
  });
  const registerMs = Math.min(HOOK_LIMITS.registerMs, deadline - now - 500);
  if (registerMs < 500) return;
  await connectFromHook(input, ctx, where, out, registerMs);
}
