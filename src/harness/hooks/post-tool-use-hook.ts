import { messagingToken } from "../claude-code/index.ts";
import { readByPidMap } from "../state/index.ts";
import type { HookContext } from "./hook-context.ts";
import type { HookInput } from "./hook-input.ts";
import { HOOK_LIMITS } from "./hook-limits.ts";
import { HookOutput } from "./hook-output.ts";
import { confirmShownMessages, pollMessages } from "./poll-messages.ts";
import { hookSession } from "./session-start-hook.ts";

/**
 * The PostToolUse hook (docs/42-hooks.md "PostToolUse"): a way in between tool calls, also under
 * `-p`, for a session no watcher delivers to (no socket, or its watcher is not running), under
 * `accept`. It returns Claude Code's JSON hook output, `{"hookSpecificOutput": {"hookEventName":
 * "PostToolUse", "additionalContext": …}}`, holding what the prompt's poll would print
 * (`pollMessages`: `POLL_PREAMBLE` and each bare frame, a line naming `brigade inbox show` for a
 * frame too long for a hook, within `HOOK_LIMITS.maxOutputUnits` UTF-16 code units; at most
 * `HOOK_LIMITS.toolReceiveLimit` messages fetched, since it runs after every tool call), or `""`.
 * Nothing is acked when printed: every run first acks the messages shown earlier (by a hook or
 * `brigade inbox show`) whose whole frame the transcript now shows the model read, beside a
 * running watcher too. Never throws.
 *
 * @example process.stdout.write(await runPostToolUse(input, ctx, deadline));
 */
export async function runPostToolUse(
  input: HookInput,
  ctx: HookContext,
  deadline: number,
): Promise<string> {
  const where = hookSession(ctx);
  if (where === undefined) return "";
  const read = readByPidMap({ claudePid: where.claudePid, env: ctx.env, uid: ctx.uid });
  if (!read.ok) return "";
  const map = read.map;
  const watcherDelivers =
    map.socket_path !== "" &&
    messagingToken(ctx.env) !== "" &&
    ctx.services.isWatcherRunning(where.layout, where.claudePid);
  const remaining = deadline - ctx.now();
  if (watcherDelivers || map.inbound !== "accept" || remaining < 300) {
    await confirmShownMessages(ctx, where.layout, map, deadline);
    return "";
  }
  const out = new HookOutput();
  await pollMessages({
    adapter: ctx.services.openAdapter({ configDir: map.config_dir, teamKey: map.team_key }),
    map,
    layout: where.layout,
    uid: ctx.uid,
    now: ctx.now,
    out,
    reserve: 0,
    receiveLimit: HOOK_LIMITS.toolReceiveLimit,
    receiveMs: Math.min(HOOK_LIMITS.receiveMs, remaining - 200),
    ackMs: () => Math.min(1_000, deadline - ctx.now() - 100),
    filesMs: () => deadline - ctx.now() - 400,
    transcriptPath: input.transcript_path || (map.transcript_path ?? ""),
  });
  const context = out.text().trimEnd();
  if (context === "") return "";
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: context },
  });
}
