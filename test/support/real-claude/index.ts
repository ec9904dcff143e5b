/**
 * The real Claude Code in the test suite: the executable, a fake Messages API, a tmux driver and
 * the session glue. docs/47-real-client-tests.md says how the pieces fit.
 */
export {
  CLAUDE_CODE_CHOICES,
  CLAUDE_CODE_PACKAGE,
  type ClaudeCodeChoice,
  cachedClaudeCodePath,
  claudeCodeCacheRoot,
  claudeCodeExecutable,
  latestClaudeCodeVersion,
  PINNED_CLAUDE_CODE_VERSION,
} from "./claude-executable.ts";
export { type ClaudeRegistryEntry, ClaudeSession } from "./claude-session.ts";
export { type ClientConfigOptions, DUMMY_API_KEY, writeClientConfig } from "./client-config.ts";
export { reportOnFailure, sessionReport } from "./failure-report.ts";
export {
  bash,
  DEFAULT_REPLY,
  decide,
  FakeMessagesApi,
  type RecordedRequest,
  type ScriptStep,
  say,
  stall,
  tool,
} from "./fake-messages-api.ts";
export {
  HeadlessClaudeSession,
  type HeadlessExit,
  type HeadlessSessionOptions,
} from "./headless-session.ts";
export { type Answer, type AnswerBlock, answerEvents, answerJson } from "./messages-stream.ts";
export { type ModelText, type ModelTextPlace, modelTexts, modelTranscript } from "./model-view.ts";
export { HELD_DIALOG, RealClaudeSession } from "./real-session.ts";
export { RecipientWorld, type SentByDana } from "./recipient-world.ts";
export { postAsAnotherProgram } from "./second-poster.ts";
export {
  discardSession,
  prepareSession,
  type SessionOptions,
  type SessionSetup,
} from "./session-setup.ts";
export { storedEnvelope, storedMessageIds } from "./stored-envelope.ts";
export { TmuxClaude, type TmuxClaudeOptions } from "./tmux-claude.ts";
