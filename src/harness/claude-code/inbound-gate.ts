import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { readLocalFile } from "../../local-files/index.ts";
import { isJsonObject, parseJsonDocument } from "../../protocol/index.ts";
import { crossSessionInboundOf, MAX_SETTINGS_BYTES } from "./settings-scan.ts";

/** The permission mode whose sessions hold an unattested post for a dialog. */
export const BYPASS_MODE = "bypassPermissions";

/**
 * The command-line flags that start Claude Code bypassing permission prompts, or able to switch
 * into that mode during the session (docs/spec/claude-code.md §3.4).
 */
const BYPASS_FLAGS = ["--dangerously-skip-permissions", "--allow-dangerously-skip-permissions"];

/**
 * Whether Claude Code's argv lets the session bypass permission prompts: one of the bypass flags,
 * or `--permission-mode bypassPermissions` (either spelling). Pure.
 *
 * @example argvMayBypass(["claude", "--dangerously-skip-permissions"]) === true
 */
export function argvMayBypass(argv: readonly string[]): boolean {
  return argv.some(
    (arg, i) =>
      BYPASS_FLAGS.includes(arg) ||
      arg === `--permission-mode=${BYPASS_MODE}` ||
      (arg === "--permission-mode" && argv[i + 1] === BYPASS_MODE),
  );
}

/**
 * Claude Code's argv, read from `/proc/<pid>/cmdline` (Linux) or `ps -o args=` (macOS, split at
 * spaces: good enough to find a flag). `undefined` when neither can be read. Never throws.
 */
export function readClaudeArgv(claudePid: string): string[] | undefined {
  try {
    const raw = readFileSync(`/proc/${claudePid}/cmdline`, "utf8");
    if (raw !== "") return raw.split("\0").filter((arg) => arg !== "");
  } catch {
    // not Linux, or gone: try ps
  }
  try {
    const out = execFileSync("ps", ["-o", "args=", "-p", claudePid], {
      encoding: "utf8",
      timeout: 1_000,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const argv = out.trim().split(/\s+/);
    return argv[0] === "" ? undefined : argv;
  } catch {
    return undefined;
  }
}

/** A file's modification time, ms; `undefined` when it cannot be read. Never throws. */
function modifiedAt(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Whether one settings file sets `permissions.defaultMode` to bypass. Never throws. */
function defaultModeBypasses(path: string): boolean {
  const read = readLocalFile(path, { maxBytes: MAX_SETTINGS_BYTES, followSymlink: true });
  if (!read.ok) return false;
  const parsed = parseJsonDocument(read.bytes, { maxBytes: MAX_SETTINGS_BYTES });
  if (!parsed.ok || !isJsonObject(parsed.value)) return false;
  const permissions = parsed.value.permissions;
  return (
    permissions !== undefined &&
    isJsonObject(permissions) &&
    permissions.defaultMode === BYPASS_MODE
  );
}

/** Where {@link inboundGateOpen} looks. */
export interface InboundGateFacts {
  /** `$CLAUDE_CONFIG_DIR` (default `~/.claude`), for the user settings. */
  readonly claudeConfigDir: string | undefined;
  /** The project folder, for `.claude/settings.json` and `.claude/settings.local.json`. */
  readonly cwd: string;
  /**
   * The session's permission mode, newest source first: the transcript's latest
   * `permission-mode` entry, else the by-pid map's (from the last prompt); `undefined` or
   * `unknown` when neither told it yet.
   */
  readonly permissionMode: string | undefined;
  /** Claude Code's argv (for the launch flags), `undefined` when unreadable. */
  readonly argv: readonly string[] | undefined;
  /** The clock, ms since the epoch (default `Date.now()`), for the settings' settle time. */
  readonly now?: number;
}

/**
 * Why {@link inboundGateOpen} says Claude Code's gate would hold a post: `bypass` (the session's
 * mode bypasses permission prompts), `bypass_possible` (no prompt named the mode yet, and the
 * launch flags or settings may make it bypass, or the argv cannot be read), `settings_settling`
 * (the user settings say `accept`, but were written less than {@link SETTINGS_SETTLE_MS} ago:
 * Claude Code reads its settings into memory and takes a change in only after a moment, holding
 * what arrives meanwhile). Logged as `gate_closed` by the watcher.
 *
 * @example INBOUND_GATE_HOLD_REASONS.includes("bypass") === true
 */
export const INBOUND_GATE_HOLD_REASONS = [
  "bypass",
  "bypass_possible",
  "settings_settling",
] as const;

const [BYPASS, BYPASS_POSSIBLE, SETTINGS_SETTLING] = INBOUND_GATE_HOLD_REASONS;

/**
 * How long after the user settings changed the gate counts as still closed, ms: measured on
 * 2.1.334, a post written right after the setting was added (at SessionStart) was still held,
 * then released once Claude Code took the change in (docs/spec/claude-code.md §3.4).
 */
export const SETTINGS_SETTLE_MS = 5_000;

/** One {@link INBOUND_GATE_HOLD_REASONS} token. */
export type InboundGateHoldReason = (typeof INBOUND_GATE_HOLD_REASONS)[number];

/** The answer of {@link inboundGateOpen}: `open`, or closed with why. */
export type InboundGateState =
  | { readonly open: true }
  | { readonly open: false; readonly reason: InboundGateHoldReason };

/**
 * Whether `gate` is closed for a lasting reason: closed, and not merely `settings_settling` (a
 * setting that says `accept`, which Claude Code takes in within seconds). While it is, the
 * watcher stands aside and the session cannot receive live (docs/41-watcher.md "The gate rule").
 *
 * @example gateClosedLastingly({ open: false, reason: "bypass" }) === true
 */
export function gateClosedLastingly(gate: InboundGateState): boolean {
  return !gate.open && gate.reason !== SETTINGS_SETTLING;
}

/**
 * Whether Claude Code's gate lets a Brigade post through (docs/spec/claude-code.md §0.5, §4;
 * docs/41-watcher.md "The gate rule"). Our posts declare no `from-mode` and a detached watcher is
 * never "self-sent", so a session that bypasses permission prompts holds each one for a dialog
 * unless the user settings say `crossSessionInbound: "accept"`. Open when the user setting is
 * `accept`; otherwise held when the mode is known to bypass (`bypass`), or, before any prompt
 * named the mode, when the launch flags or a settings `permissions.defaultMode` may make it
 * bypass, or the argv cannot be read (`bypass_possible`). A `hold` or `refuse` setting is the
 * settings scan's business (the policy becomes `refuse`). Never throws.
 *
 * @example inboundGateOpen({ claudeConfigDir, cwd, permissionMode: "default", argv: ["claude"] }).open === true
 */
export function inboundGateOpen(facts: InboundGateFacts): InboundGateState {
  if (facts.claudeConfigDir !== undefined) {
    const path = join(facts.claudeConfigDir, "settings.json");
    const read = readLocalFile(path, { maxBytes: MAX_SETTINGS_BYTES, followSymlink: true });
    if (read.ok && crossSessionInboundOf(read.bytes) === "accept") {
      const changedAt = modifiedAt(path);
      const now = facts.now ?? Date.now();
      if (changedAt === undefined || now - changedAt >= SETTINGS_SETTLE_MS) return { open: true };
      return { open: false, reason: SETTINGS_SETTLING };
    }
  }
  const mode = facts.permissionMode;
  if (mode !== undefined && mode !== "unknown") {
    return mode === BYPASS_MODE ? { open: false, reason: BYPASS } : { open: true };
  }
  return launchMayBypass(facts) ? { open: false, reason: BYPASS_POSSIBLE } : { open: true };
}

/**
 * Whether the session may bypass permission prompts from its start, before any prompt named the
 * mode: its argv (unreadable counts as "may"), or a `permissions.defaultMode` of bypass in the
 * user, project or local settings. Never throws.
 *
 * @example launchMayBypass({ claudeConfigDir, cwd, permissionMode: undefined, argv: ["claude"] }) === false
 */
export function launchMayBypass(facts: InboundGateFacts): boolean {
  return facts.argv === undefined || launchBypasses(facts);
}

/**
 * Whether there is positive evidence that the session may bypass permission prompts from its
 * start: a bypass flag in its argv (an unreadable argv is no evidence), or a
 * `permissions.defaultMode` of bypass in the user, project or local settings. Never throws.
 *
 * @example launchBypasses({ claudeConfigDir, cwd, permissionMode: undefined, argv: ["claude", "--dangerously-skip-permissions"] }) === true
 */
export function launchBypasses(facts: Omit<InboundGateFacts, "permissionMode">): boolean {
  if (facts.argv !== undefined && argvMayBypass(facts.argv)) return true;
  const files = [
    ...(facts.claudeConfigDir === undefined ? [] : [join(facts.claudeConfigDir, "settings.json")]),
    ...(facts.cwd === ""
      ? []
      : [
          join(facts.cwd, ".claude", "settings.json"),
          join(facts.cwd, ".claude", "settings.local.json"),
        ]),
  ];
  return files.some(defaultModeBypasses);
}
