/**
 * What Claude Code does, in one place (docs/spec/claude-code.md; docs/40-harness.md "Host
 * knowledge"): its pid format, config dir and session registry, the inbox socket (finding it, the
 * token, the one-`lstat` pre-checks, the byte-exact post), the `crossSessionInbound` settings scan
 * and the inbound setting, `PATH` shadowing of our `brigade`, display names, how plugin options
 * reach us (and the one boolean rule), the transcript lines we read (and the frames a hook or tool showed the model). A second host version's differences go here.
 */

export { insideClaudeCode, isClaudePid, showsClaudeCodeSession } from "./claude-pid.ts";
export { CLAUDE_CODE_COMMAND_VARIABLES, CLAUDE_CODE_PROCESS_SIGNATURE } from "./claude-process.ts";
export { claudeConfigDir, registryFolder } from "./config-dir.ts";
export {
  chooseDisplayName,
  chooseDisplayNameSource,
  type DisplayNameSource,
  type DisplayNameSources,
  FALLBACK_SESSION_NAME,
  readTranscriptCustomTitle,
  TRANSCRIPT_TITLE_TAIL_BYTES,
} from "./display-name.ts";
export {
  argvMayBypass,
  BYPASS_MODE,
  gateClosedLastingly,
  INBOUND_GATE_HOLD_REASONS,
  type InboundGateFacts,
  type InboundGateHoldReason,
  type InboundGateState,
  inboundGateOpen,
  launchBypasses,
  launchMayBypass,
  readClaudeArgv,
  SETTINGS_SETTLE_MS,
} from "./inbound-gate.ts";
export {
  ensureInboundAcceptSetting,
  INBOUND_SETTING_REFUSALS,
  type InboundSettingBefore,
  type InboundSettingOutcome,
  type InboundSettingRefusal,
  type InboundSettingUndo,
  insertAcceptMember,
  removeInboundAcceptSetting,
} from "./inbound-setting.ts";
export { encodeInboxPostLines } from "./inbox-post-lines.ts";
export {
  INBOX_CONNECT_TIMEOUT_MS,
  INBOX_POST_MAX_CHARS,
  INBOX_WRITE_TIMEOUT_MS,
  sunPathLimit,
} from "./inbox-socket-limits.ts";
export {
  checkInboxSocketPath,
  INBOX_SOCKET_REFUSALS,
  type InboxSocketPathCheck,
  type InboxSocketPathCheckOptions,
  type InboxSocketRefusal,
} from "./inbox-socket-path.ts";
export { messagingSocketFromEnv, messagingToken, usableSocket } from "./messaging-socket.ts";
export {
  type BrigadeShadow,
  brigadeVersionBeside,
  findBrigadeShadow,
  firstBrigadeOnPath,
} from "./path-shadowing.ts";
export { pluginBooleanOption, pluginOption, pluginOptionVariable } from "./plugin-option.ts";
export {
  INBOX_POST_FAILURES,
  type InboxPostFailure,
  type InboxPostOptions,
  type InboxPostResult,
  postToInbox,
} from "./post-to-inbox.ts";
export { readRegistryActivity } from "./registry-activity.ts";
export { type RepositorySettingsFile, repositoryEnvChoices } from "./repository-env.ts";
export {
  EMPTY_REGISTRY,
  MAX_REGISTRY_BYTES,
  parseSessionRegistry,
  readSessionRegistry,
  type SessionRegistryInfo,
} from "./session-registry.ts";
export {
  crossSessionInboundOf,
  type InboundSettingsScan,
  MAX_SETTINGS_BYTES,
  SCANNED_SETTINGS,
  type ScannedSettings,
  scanInboundSettings,
} from "./settings-scan.ts";
export {
  frameOpenTagSpans,
  frameOpenTags,
  parseTranscriptDeliveryLine,
  type TranscriptDeliveryLine,
} from "./transcript-deliveries.ts";
export { shownFrames, wholeFrames } from "./transcript-shown-frames.ts";
export {
  parseTranscriptUsageLine,
  TRANSCRIPT_MODEL_MAX_CODEPOINTS,
  TRANSCRIPT_READ_MAX_BYTES,
  TRANSCRIPT_RESTART_REASONS,
  type TranscriptLineUsage,
  type TranscriptReadOutcome,
  type TranscriptRestartReason,
  TranscriptUsageReader,
  type TranscriptUsageReaderOptions,
} from "./transcript-usage.ts";
export { readTranscriptWindow, transcriptEnd } from "./transcript-window.ts";
export {
  CLAUDE_CODE_MINIMUM,
  CLAUDE_CODE_VERIFIED,
  compareVersions,
} from "./verified-versions.ts";
