import { isAbsolute } from "node:path";
import {
  clauseFromFile,
  FrameConfigError,
  type Instruction,
  parseLevel,
} from "../../formats/frame/index.ts";
import { oneLine } from "../../formats/sanitize/index.ts";
import { readLocalFile } from "../../local-files/index.ts";
import type { InboundPolicy } from "../../protocol/index.ts";
import { pluginBooleanOption, pluginOption } from "../claude-code/index.ts";

/**
 * The plugin options a hook reads (docs/spec/claude-code.md §6.2), every default applied here
 * because Claude Code exports only the values a user set (`CLAUDE_PLUGIN_OPTION_<KEY
 * upper-cased>`).
 *
 * @example readPluginOptions({}).teamInbound === "accept"
 */
export interface PluginOptions {
  /** `config_dir` [""]: the adapter config dir when absolute. */
  readonly configDir: string;
  /** `label` [`account`]: `account`, `none`, or literal text. */
  readonly label: string;
  /** `team_inbound` [`accept`]. */
  readonly teamInbound: InboundPolicy;
  /** False when `team_inbound` was set to something other than accept, hold or refuse. */
  readonly teamInboundValid: boolean;
  /** `poll_on_prompt` [false]. */
  readonly pollOnPrompt: boolean;
  /** `frame` [""], raw: checked by {@link resolveFrameInstruction}. */
  readonly frame: string;
  /** `frame_file` [""], raw. */
  readonly frameFile: string;
  /** `workspace_label` [""]. */
  readonly workspaceLabel: string;
  /** `share_workspace_label` [true]. */
  readonly shareWorkspaceLabel: boolean;
}

/**
 * Reads the options from the hook's environment with their defaults: `config_dir` "",
 * `label` "account", `team_inbound` "accept" (an unknown value → `hold`, `teamInboundValid`
 * false: messages wait for a human rather than arrive unasked), `poll_on_prompt` false, `frame` "",
 * `frame_file` "", `workspace_label` "", `share_workspace_label` true. Booleans follow `pluginBooleanOption` (true/false/1/0/yes/no/on/off in any case, spaces
 * around ignored; anything else is the default). Never throws.
 *
 * @example readPluginOptions({ CLAUDE_PLUGIN_OPTION_POLL_ON_PROMPT: "true" }).pollOnPrompt === true
 */
export function readPluginOptions(
  env: Readonly<Record<string, string | undefined>>,
): PluginOptions {
  const inboundRaw = pluginOption(env, "team_inbound").trim();
  const known =
    inboundRaw === "" ||
    inboundRaw === "accept" ||
    inboundRaw === "hold" ||
    inboundRaw === "refuse";
  const label = pluginOption(env, "label").trim();
  return {
    configDir: pluginOption(env, "config_dir").trim(),
    label: label === "" ? "account" : label,
    teamInbound: known ? ((inboundRaw || "accept") as InboundPolicy) : "hold",
    teamInboundValid: known,
    pollOnPrompt: pluginBooleanOption(env, "poll_on_prompt", false),
    frame: pluginOption(env, "frame"),
    frameFile: pluginOption(env, "frame_file").trim(),
    workspaceLabel: pluginOption(env, "workspace_label").trim(),
    shareWorkspaceLabel: pluginBooleanOption(env, "share_workspace_label", true),
  };
}

/**
 * The registration `human_label` the `label` option asks for (docs/spec/claude-code.md §6.2):
 * `account` (the default) and `none` send none; any other text is sent as that literal label, one
 * line through the sanitiser (`oneLine`), at most 128 code points, none when nothing is left.
 * **[ours]** `account` means "the Claude account email", but the spec names no source for that
 * email, so this function sends none for it; SessionStart sends git's `user.name` instead
 * (`session-connect.ts`). The server adopts a `human_label` only when the membership has none
 * (docs/spec/protocol.md §4.3), so a label given at `brigade team join` stands.
 *
 * @example humanLabelOf("Dana (laptop)") === "Dana (laptop)"; humanLabelOf("account") === undefined
 */
export function humanLabelOf(label: string): string | undefined {
  if (label === "account" || label === "none") return undefined;
  const text = oneLine(label, 128);
  return text === "" ? undefined : text;
}

/**
 * Why the `frame` / `frame_file` options leave a session disconnected
 * (docs/spec/claude-code.md §6.2, docs/spec/formats.md §2.6): the frame reasons plus
 * `relative_path` (a `frame_file` that is not absolute).
 *
 * @example FRAME_OPTION_REASONS.includes("relative_path") === true
 */
export const FRAME_OPTION_REASONS = [
  "invalid_frame_level",
  "relative_path",
  "frame_file_unreadable",
  "frame_file_too_large",
  "frame_file_not_utf8",
  "frame_file_empty",
  "frame_file_unsafe",
] as const;

/** One {@link FRAME_OPTION_REASONS} token. */
export type FrameOptionReason = (typeof FRAME_OPTION_REASONS)[number];

/** Result of {@link resolveFrameInstruction}. */
export type FrameOptionResult =
  | { readonly ok: true; readonly instruction: Instruction }
  | { readonly ok: false; readonly reason: FrameOptionReason; readonly message: string };

const MAX_FRAME_FILE_BYTES = 4_096;

function refused(reason: FrameOptionReason): FrameOptionResult {
  const message =
    reason === "relative_path"
      ? "the frame_file option is not an absolute path"
      : new FrameConfigError(reason, reason === "invalid_frame_level" ? "frame" : "frame_file")
          .message;
  return { ok: false, reason, message };
}

/**
 * The frame instruction of the options (docs/spec/formats.md §2.6): `frame` through `parseLevel`;
 * then, when `frame_file` is set, the `custom` level with the file's folded clause — the path must
 * be absolute (`relative_path`), name a regular file (symlinks followed; `frame_file_unreadable`)
 * of at most 4096 bytes (`frame_file_too_large`), then `clauseFromFile`. Read once, at
 * SessionStart. The message is fixed per reason: never the path or the content. Never throws.
 *
 * @example resolveFrameInstruction(readPluginOptions({ CLAUDE_PLUGIN_OPTION_FRAME: "strict" })) // { ok: true, instruction: { level: "strict", custom: "" } }
 */
export function resolveFrameInstruction(
  options: Pick<PluginOptions, "frame" | "frameFile">,
): FrameOptionResult {
  const level = parseLevel(options.frame);
  if (!level.ok) return refused("invalid_frame_level");
  if (options.frameFile === "")
    return { ok: true, instruction: { level: level.level, custom: "" } };
  const path = options.frameFile;
  if (!isAbsolute(path)) return refused("relative_path");
  const read = readLocalFile(path, { maxBytes: MAX_FRAME_FILE_BYTES, followSymlink: true });
  if (!read.ok) {
    return refused(read.reason === "too_large" ? "frame_file_too_large" : "frame_file_unreadable");
  }
  const clause = clauseFromFile(read.bytes);
  if (!clause.ok) return refused(clause.reason as FrameOptionReason);
  return { ok: true, instruction: { level: "custom", custom: clause.clause } };
}
