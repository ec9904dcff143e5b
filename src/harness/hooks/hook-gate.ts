import {
  claudeConfigDir,
  inboundGateOpen,
  launchBypasses,
  readClaudeArgv,
} from "../claude-code/index.ts";
import type { HookContext } from "./hook-context.ts";

/**
 * Whether a hook leaves delivery to the prompt poll and PostToolUse rather than start a watcher
 * (docs/41-watcher.md "The gate rule"): the user settings do not accept, and the session bypasses
 * permission prompts — by the mode the prompt hook was told (`permissionMode`), or, while no
 * prompt named it (SessionStart passes `undefined`), by positive evidence of a bypassing launch
 * (a bypass flag in Claude Code's argv, a settings `permissions.defaultMode` of bypass). A
 * watcher started into that gate would only stand aside again. Without evidence either way the
 * watcher starts and waits for the mode. Never throws.
 *
 * @example if (!hookStandsAside(ctx, "4242", "/w/api", "bypassPermissions")) await startWatcherFromHook(…);
 */
export function hookStandsAside(
  ctx: HookContext,
  claudePid: string,
  cwd: string,
  permissionMode: string | undefined,
): boolean {
  const facts = {
    claudeConfigDir: claudeConfigDir(ctx.env),
    cwd,
    permissionMode,
    argv: readClaudeArgv(claudePid),
  };
  const gate = inboundGateOpen(facts);
  if (gate.open || gate.reason === "settings_settling") return false;
  return gate.reason === "bypass" || launchBypasses(facts);
}
