import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * What Claude Code's inbound gate does with a post (docs/spec/cross-session.md §12, receiver step
 * 4).
 */
export type GateDecision = "accept" | "hold" | "refuse";

/** Where the gate looks. */
export interface InboundGateOptions {
  /** The receiving session's permission mode (`bypassPermissions` is the bypass class). */
  readonly permissionMode: string;
  /** The user settings file (`$CLAUDE_CONFIG_DIR/settings.json`). */
  readonly userSettingsPath: string;
  /** The project folder: its `.claude/settings.json` and `.claude/settings.local.json`. */
  readonly projectDir: string;
}

const STRICTNESS: Record<GateDecision, number> = { accept: 0, hold: 1, refuse: 2 };

/** The top-level `crossSessionInbound` of a settings file, as Claude Code reads it. */
function settingOf(path: string): GateDecision | undefined {
  let value: unknown;
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
    value = (parsed as Record<string, unknown>).crossSessionInbound;
  } catch {
    return undefined;
  }
  if (value === undefined) return undefined;
  // An unrecognised value holds (docs/spec/claude-code.md §4).
  return value === "accept" || value === "refuse" ? value : "hold";
}

/**
 * The stand-in's reading of Claude Code's inbound gate for a post from another process (a
 * detached watcher is never "self-sent", docs/spec/claude-code.md §0 item 5) that declares no
 * `from-mode` (Brigade's wrapper carries only `from-name`), read afresh for every post:
 * - the user setting `crossSessionInbound` decides when set (an unrecognised value holds);
 *   a project or local `hold`/`refuse` applies only when stricter (docs/spec/claude-code.md §4);
 * - with no user setting, a project or local `hold`/`refuse` decides (a project `accept` cannot
 *   loosen anything);
 * - otherwise the permission-mode class: a receiver that bypasses permission prompts holds
 *   (`no-mode-asserted`), a prompting one accepts.
 * Managed settings, `--settings` and the kill switch are not modelled.
 *
 * @example inboundGate({ permissionMode: "bypassPermissions", userSettingsPath, projectDir }) // "hold"
 */
export function inboundGate(options: InboundGateOptions): GateDecision {
  const user = settingOf(options.userSettingsPath);
  const tightening = [
    settingOf(join(options.projectDir, ".claude", "settings.json")),
    settingOf(join(options.projectDir, ".claude", "settings.local.json")),
  ].filter((value): value is GateDecision => value !== undefined && value !== "accept");
  const strictest = (values: GateDecision[]): GateDecision =>
    values.reduce((a, b) => (STRICTNESS[b] > STRICTNESS[a] ? b : a));
  if (user !== undefined) return strictest([user, ...tightening]);
  if (tightening.length > 0) return strictest(tightening);
  return options.permissionMode === "bypassPermissions" ? "hold" : "accept";
}
