/** A stand-in of a Claude Code 2.1.328 session for end-to-end tests (see README.md). */
export {
  type BashRun,
  CLAUDE_CODE_HOST_VERSION,
  ClaudeCodeHost,
  type ClaudeCodeHostOptions,
  type HookRunOptions,
} from "./claude-code-host.ts";
export { type HookContextForm, hookContextText } from "./hook-context.ts";
export {
  type CommandHook,
  DEFAULT_HOOK_TIMEOUT_S,
  type HookEvent,
  type HookRun,
  loadCommandHooks,
  SESSION_END_BUDGET_MS,
  substitutePluginRoot,
} from "./hook-runner.ts";
export {
  HOOK_OUTPUT_PREVIEW_ABOVE,
  HOOK_OUTPUT_PREVIEW_CHARS,
  recordPostToolUseOutput,
  recordPromptHookOutput,
  recordToolResult,
  shownAs,
  TOOL_RESULT_PREVIEW_ABOVE,
} from "./hook-transcript.ts";
export {
  type AdmissionOutcome,
  CLAUDE_CODE_RECEIVER_LIMITS,
  InboxModel,
  type InboxModelOptions,
  type ModelRead,
  type PostRecording,
  type TurnStatus,
} from "./inbox-model.ts";
export { INBOX_LINE_MAX_CHARS, type PostOutcome, type PostRecord } from "./inbox-server.ts";
export { registryPath, type SessionRegistryEntry } from "./session-registry.ts";
export { escapeSkillDescription, skillListing } from "./skill-listing.ts";
export {
  PEER_HEADER,
  PEER_HEADER_BUSY,
  PEER_TRUST,
  TranscriptWriter,
} from "./transcript-writer.ts";
