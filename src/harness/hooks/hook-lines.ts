import { noticeName, sanitizeAttribute, sanitizeId } from "../../formats/sanitize/index.ts";
import type { InboundPolicy } from "../../protocol/index.ts";
import type { SessionTeamReason } from "../binding/index.ts";
import type { RepositorySettingsFile, ScannedSettings } from "../claude-code/index.ts";
import type { FrameOptionReason } from "./plugin-options.ts";

const POLICY_PHRASE: Readonly<Record<InboundPolicy, string>> = {
  accept: "accept (teammates' messages are delivered into this session)",
  hold: "hold (teammates' messages wait until the user releases them)",
  refuse: "refuse (teammates' messages are not delivered)",
};

/**
 * The one context line of a connected session (docs/spec/claude-code.md §7.3): its name and full
 * id, the team, the effective inbound policy and the bare commands. Remote text goes through
 * `sanitizeAttribute` (names) and `sanitizeId` (the id, whole); no path, token or native id.
 *
 * @example contextLine({ sessionName: "api", sessionId: "s-1", teamName: "core", policy: "accept" })
 */
export function contextLine(options: {
  readonly sessionName: string;
  readonly sessionId: string;
  readonly teamName: string;
  readonly policy: InboundPolicy;
}): string {
  return (
    `Brigade: this session is "${sanitizeAttribute(options.sessionName)}" ` +
    `(id ${sanitizeId(options.sessionId)}) in the Brigade team "${sanitizeAttribute(options.teamName)}"; ` +
    `incoming messages: ${POLICY_PHRASE[options.policy]}. ` +
    "Run the bare commands `brigade sessions` to list the team's sessions and `brigade send` to message one."
  );
}

const BINDING_PHRASE: Readonly<Record<Exclude<SessionTeamReason, "no_binding">, string>> = {
  binding_invalid: "this repository's .brigade.json is not a valid team binding",
  binding_unreadable: "this repository's .brigade.json cannot be read",
  no_consent: "this repository names a Brigade team, but this checkout has not joined it",
  consent_mismatch:
    "this repository's .brigade.json names another server or team than the one this checkout joined",
  no_config_dir: "no Brigade configuration folder could be found",
};

/**
 * The one line printed when a binding exists but cannot be used (`no_binding` prints nothing:
 * Brigade is silently off). Points to the human remedy in the user's own terminal.
 *
 * @example bindingLine("no_consent")
 */
export function bindingLine(reason: Exclude<SessionTeamReason, "no_binding">): string {
  return (
    `Brigade: not connected: ${BINDING_PHRASE[reason]} (${reason}). ` +
    "The user can run `brigade team join --secret-file <path>` in their own terminal, then restart this session."
  );
}

/**
 * The one line of a session left disconnected by an invalid `frame` / `frame_file` option
 * (docs/spec/claude-code.md §6.2): the fixed message and reason, never the value or the path.
 *
 * @example frameOptionLine("relative_path", "the frame_file option is not an absolute path")
 */
export function frameOptionLine(reason: FrameOptionReason, message: string): string {
  return (
    `Brigade: not connected: ${message} (${reason}). ` +
    "The user can fix the Brigade plugin options, then restart this session."
  );
}

/**
 * The one line of a session left disconnected because the repository's Claude Code settings set,
 * through their `env` block, a variable that chooses Brigade's folders or the person's plugin
 * options (`repositoryEnvChoices`): names the files, never a path, a variable's value or name.
 *
 * @example repositoryEnvLine([".claude/settings.json"])
 */
export function repositoryEnvLine(files: readonly RepositorySettingsFile[]): string {
  return (
    `Brigade: not connected: this repository's ${files.join(" and ")} set environment variables (env) that would choose Brigade's folders or the user's plugin options (HOME, XDG_*, CLAUDE_CONFIG_DIR or CLAUDE_PLUGIN_OPTION_*) (repository_env). ` +
    "The user can remove them from the repository's settings, then restart this session."
  );
}

/**
 * The warning of the settings scan (docs/spec/claude-code.md §4), naming the files (never a path).
 *
 * @example settingsLine([".claude/settings.json"])
 */
export function settingsLine(files: readonly ScannedSettings[]): string {
  return (
    `Brigade: crossSessionInbound in ${files.join(", ")} is not "accept", so Claude Code would not deliver ` +
    "teammates' messages; Brigade delivers none (policy refuse) and they wait on the server."
  );
}

/** The warning for a `team_inbound` option that is none of accept, hold, refuse. */
export const TEAM_INBOUND_INVALID_LINE =
  "Brigade: the team_inbound option is not accept, hold or refuse; incoming messages are held.";

/**
 * The failure line of a registration (docs/spec/claude-code.md §7.3): a retryable code says the
 * next prompt retries; any other points to `brigade team join` in the user's own terminal.
 *
 * @example registrationFailureLine("unavailable", true)
 */
export function registrationFailureLine(code: string, retryable: boolean): string {
  const token = sanitizeId(code);
  if (retryable) {
    return `Brigade: this session could not register with its Brigade team (${token}); retrying at your next prompt.`;
  }
  return (
    `Brigade: this session could not register with its Brigade team (${token}). ` +
    "The user can run `brigade team join --secret-file <path>` in their own terminal, then restart this session."
  );
}

/**
 * The one line of a session left disconnected because the adapter's `describe` reports another
 * protocol major (docs/spec/protocol.md §6.13): names `protocol_mismatch`; retrying cannot help, so
 * it points to updating the plugin.
 *
 * @example PROTOCOL_MISMATCH_LINE.includes("(protocol_mismatch)") === true
 */
export const PROTOCOL_MISMATCH_LINE: string =
  "Brigade: not connected: the Brigade adapter speaks another protocol version than this plugin (protocol_mismatch). " +
  "The user can update the Brigade plugin, then restart this session.";

/**
 * The SessionStart warning when another `brigade` of another version (or of none we can read) comes
 * earlier on the Bash tool's PATH than the plugin's (docs/spec/claude-code.md §2): names both
 * versions (each already checked to look like a version, or `unknown`) and no path
 * (docs/spec/claude-code.md §2.1: the model must never see an absolute tool path).
 *
 * @example shadowedBrigadeLine("0.0.9", "0.1.0").startsWith("Brigade: warning: ") === true
 */
export function shadowedBrigadeLine(theirs: string, ours: string): string {
  return (
    `Brigade: warning: another \`brigade\` command (version ${theirs}) comes earlier on PATH than this plugin's (version ${ours}), ` +
    "so the bare `brigade` commands in this session run that one. " +
    `The user can install the Brigade CLI of version ${ours} (npm run install-cli in a Brigade checkout), or remove the other one from PATH.`
  );
}

/**
 * The senders a held or adopted notice names: distinct names through `noticeName`, the first
 * three, then `and N more`.
 *
 * @example noticeSenders(["api", "web", "api"]) === "api, web"
 */
export function noticeSenders(senderNames: readonly string[]): string {
  const distinct: string[] = [];
  for (const raw of senderNames) {
    const name = sanitizeAttribute(noticeName(raw));
    if (!distinct.includes(name)) distinct.push(name);
  }
  const shown = distinct.slice(0, 3);
  const more = distinct.length - shown.length;
  return `${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

/**
 * The held notice (docs/spec/claude-code.md §7.3), printed on every prompt while anything is held:
 * the count and up to three sender names (through `noticeName`), pointing to `brigade inbox` in the
 * user's own terminal.
 *
 * @example heldLine(["api", "web"]) === "Brigade: 2 teammate messages are held (from api, web). The user can review and release them with `brigade inbox` in their own terminal."
 */
export function heldLine(senderNames: readonly string[]): string {
  const count = senderNames.length;
  const from = noticeSenders(senderNames);
  const noun = count === 1 ? "teammate message is" : "teammate messages are";
  return (
    `Brigade: ${count} ${noun} held (from ${from}). ` +
    "The user can review and release them with `brigade inbox` in their own terminal."
  );
}

/**
 * The line a hook prints in place of a frame too long for a hook to show whole
 * (docs/42-hooks.md "Long messages"): who sent it and the bare command that prints it, whose
 * output the model reads whole; the sender's later messages wait until then. The sender's name goes
 * through `noticeName`, the id through `sanitizeId` (whole).
 *
 * @example inboxShowLine("api", "m-7f3a") // "Brigade: a teammate message from api (m-7f3a) is too long …"
 */
export function inboxShowLine(senderName: string, messageId: string): string {
  const id = sanitizeId(messageId);
  return (
    `Brigade: a teammate message from ${noticeName(senderName)} (${id}) is too long to show here. ` +
    `Read it whole with the bare command \`brigade inbox show ${id}\`; ` +
    "that sender's later messages wait until it has been read."
  );
}
