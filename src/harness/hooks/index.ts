/**
 * The three Claude Code hooks (docs/spec/claude-code.md §1, §6.2, §7.3, §7.6) and their I/O: stdin,
 * plugin options, output discipline, and the SessionStart, UserPromptSubmit and SessionEnd flows.
 * What the host itself does (registry, settings, socket, names) is in `../claude-code/`.
 * docs/42-hooks.md.
 */

export {
  type AdapterFeatures,
  type DescribeOutcome,
  describeAdapter,
} from "./adapter-features.ts";
export { type ByNativeHint, readByNativeHint, writeByNativeHint } from "./by-native-hint.ts";
export { closeMappedSession } from "./close-mapped-session.ts";
export {
  defaultNamePerson,
  defaultSessionName,
  PERSON_PART_CODEPOINTS,
  personNamePart,
} from "./default-session-name.ts";
export { gitUserName } from "./git-user-name.ts";
export {
  defaultHookServices,
  type HookContext,
  type HookServices,
} from "./hook-context.ts";
export {
  HOOK_INPUT_FAILURES,
  type HookInput,
  type HookInputFailure,
  type HookInputResult,
  parseHookInput,
  readHookInput,
} from "./hook-input.ts";
export { HOOK_LIMITS } from "./hook-limits.ts";
export {
  bindingLine,
  contextLine,
  frameOptionLine,
  heldLine,
  inboxShowLine,
  PROTOCOL_MISMATCH_LINE,
  registrationFailureLine,
  repositoryEnvLine,
  settingsLine,
  shadowedBrigadeLine,
  TEAM_INBOUND_INVALID_LINE,
} from "./hook-lines.ts";
export { blockUnits, HOOK_LINE_PREFIX, HookOutput } from "./hook-output.ts";
export {
  FRAME_OPTION_REASONS,
  type FrameOptionReason,
  type FrameOptionResult,
  humanLabelOf,
  type PluginOptions,
  readPluginOptions,
  resolveFrameInstruction,
} from "./plugin-options.ts";
export {
  confirmShownMessages,
  type PollOptions,
  type PollResult,
  pollMessages,
  tooLongForHook,
} from "./poll-messages.ts";
export { runPrompt } from "./prompt-hook.ts";
export { registerOrResume } from "./register-or-resume.ts";
export {
  clearRegistrationRetry,
  type RegistrationRetry,
  readRegistrationRetry,
  registrationRetryPath,
  writeRegistrationRetry,
} from "./registration-retry.ts";
export { HOOK_EVENTS, type HookEvent, runHookEvent } from "./run-hook-event.ts";
export {
  type ConnectRequest,
  type ConnectResult,
  type ConnectTeam,
  connectSession,
  isoSeconds,
  retireReplacedSession,
} from "./session-connect.ts";
export { CONTINUING_END_KINDS, runSessionEnd } from "./session-end-hook.ts";
export {
  connectFromHook,
  effectivePolicy,
  type HookConnectOutcome,
  type HookSession,
  hookSession,
  runSessionStart,
} from "./session-start-hook.ts";
export { startWatcherFromHook } from "./start-watcher.ts";
