/**
 * The three Claude Code hooks (claude-code.md §1, §4, §5, §6.2, §7.3, §7.6): stdin, the session
 * registry, plugin options, the settings scan, output discipline, and the SessionStart,
 * UserPromptSubmit and SessionEnd flows. docs/42-hooks.md.
 */

export {
  type AdapterFeatures,
  type DescribeOutcome,
  describeAdapter,
} from "./adapter-features.ts";
export { readBoundedFile } from "./bounded-file-read.ts";
export { type ByNativeHint, readByNativeHint, writeByNativeHint } from "./by-native-hint.ts";
export { closeMappedSession } from "./close-mapped-session.ts";
export {
  chooseDisplayName,
  type DisplayNameSources,
  FALLBACK_SESSION_NAME,
  readTranscriptCustomTitle,
} from "./display-name.ts";
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
  INBOUND_SETTING_ADDED_LINE,
  PROTOCOL_MISMATCH_LINE,
  registrationFailureLine,
  SHADOWED_BRIGADE_LINE,
  settingsLine,
  TEAM_INBOUND_INVALID_LINE,
} from "./hook-lines.ts";
export { HOOK_LINE_PREFIX, HookOutput } from "./hook-output.ts";
export {
  ensureInboundAcceptSetting,
  INBOUND_SETTING_REFUSALS,
  type InboundSettingOutcome,
  type InboundSettingRefusal,
  insertAcceptMember,
} from "./inbound-setting.ts";
export { isBrigadeShadowed } from "./path-shadowing.ts";
export {
  FRAME_OPTION_REASONS,
  type FrameOptionReason,
  type FrameOptionResult,
  humanLabelOf,
  type PluginOptions,
  readPluginOptions,
  resolveFrameInstruction,
} from "./plugin-options.ts";
export { type PollResult, pollMessages } from "./poll-messages.ts";
export { runPrompt } from "./prompt-hook.ts";
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
  claudeConfigDir,
  EMPTY_REGISTRY,
  parseSessionRegistry,
  readSessionRegistry,
  type SessionRegistryInfo,
} from "./session-registry.ts";
export {
  connectFromHook,
  effectivePolicy,
  type HookConnectOutcome,
  type HookSession,
  hookSession,
  runSessionStart,
  usableSocket,
} from "./session-start-hook.ts";
export {
  crossSessionInboundOf,
  type InboundSettingsScan,
  SCANNED_SETTINGS,
  type ScannedSettings,
  scanInboundSettings,
} from "./settings-scan.ts";
export { startWatcherFromHook } from "./start-watcher.ts";
