import type { HookContext } from "./hook-context.ts";
import { readHookInput } from "./hook-input.ts";
import { HOOK_LIMITS } from "./hook-limits.ts";
import { HookOutput } from "./hook-output.ts";
import { runPostToolUse } from "./post-tool-use-hook.ts";
import { runPrompt } from "./prompt-hook.ts";
import { runSessionEnd } from "./session-end-hook.ts";
import { runSessionStart } from "./session-start-hook.ts";

/** The hook events, as `brigade hook <event>` names them. */
export const HOOK_EVENTS = ["session-start", "prompt", "post-tool-use", "session-end"] as const;

/** One {@link HOOK_EVENTS} name. */
export type HookEvent = (typeof HOOK_EVENTS)[number];

const BUDGET_MS: Readonly<Record<HookEvent, number>> = {
  "session-start": HOOK_LIMITS.sessionStartMs,
  prompt: HOOK_LIMITS.promptMs,
  "post-tool-use": HOOK_LIMITS.promptMs,
  "session-end": HOOK_LIMITS.sessionEndMs,
};

/**
 * Runs one hook event within its internal budget (docs/spec/claude-code.md §1.4: SessionStart 55 s,
 * prompt and PostToolUse 4.5 s, SessionEnd 1.4 s, stdin reading included) and returns its stdout:
 * plain `Brigade: ` lines, at most `HOOK_LIMITS.maxOutputUnits` UTF-16 code units, never starting
 * with `{`; for PostToolUse Claude Code's JSON hook output or `""`; `""` for SessionEnd (its
 * stdout reaches no one) and for an unusable stdin (logged). When the budget runs out, what was
 * printed so far is returned and the flow is abandoned. Never throws: the caller always exits 0.
 *
 * @example process.stdout.write(await runHookEvent("prompt", process.stdin, ctx));
 */
export async function runHookEvent(
  event: HookEvent,
  stdin: AsyncIterable<Uint8Array>,
  ctx: HookContext,
): Promise<string> {
  const started = ctx.now();
  const budget = BUDGET_MS[event];
  const out = new HookOutput();
  // PostToolUse answers in Claude Code's JSON form (its plain stdout reaches no model).
  let json = "";
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<"expired">((resolve) => {
    timer = setTimeout(() => resolve("expired"), budget);
    timer.unref?.();
  });
  const flow = (async (): Promise<void> => {
    const parsed = await readHookInput(stdin);
    if (!parsed.ok) {
      ctx.log(`brigade hook: stdin ${parsed.reason}\n`);
      return;
    }
    switch (event) {
      case "session-start":
        await runSessionStart(parsed.input, ctx, out);
        return;
      case "prompt":
        await runPrompt(parsed.input, ctx, out, started + budget);
        return;
      case "post-tool-use":
        json = await runPostToolUse(parsed.input, ctx, started + budget);
        return;
      case "session-end":
        await runSessionEnd(parsed.input, ctx);
        return;
    }
  })().catch((error: unknown) => {
    ctx.log(`brigade hook: internal ${error instanceof Error ? error.name : "error"}\n`);
  });
  const outcome = await Promise.race([flow.then(() => "done" as const), expired]);
  if (timer !== undefined) clearTimeout(timer);
  if (outcome === "expired") ctx.log("brigade hook: budget_exceeded\n");
  if (event === "post-tool-use") return outcome === "done" ? json : "";
  return event === "session-end" ? "" : out.text();
}
