/**
 * What every session-bound CLI command shares: finding the session through `CLAUDE_PID` (the
 * by-pid map trust boundary plus the adapter bound to its profile), one fixed line per failure,
 * and the sanitised display of remote text (docs/spec/claude-code.md §7.2, §7.6).
 */
export { BAP_ERROR_SENTENCES, bapErrorLine } from "./bap-error-line.ts";
export { keepReleases } from "./keep-releases.ts";
export {
  NOT_LIVE_SENTENCES,
  notLiveLine,
  notLiveMark,
  notLiveReason,
  sessionLane,
} from "./live-delivery-text.ts";
export {
  type AwaitStateOptions,
  awaitMessageState,
  MESSAGE_STATE_SENTENCES,
  SEND_STATE_POLL_MS,
  SEND_STATE_WAIT_MS,
  supportsMessageStates,
} from "./sent-states.ts";
export {
  loadSessionContext,
  SESSION_CONTEXT_EXIT_STATUS,
  SESSION_CONTEXT_REASONS,
  type SessionContext,
  type SessionContextOptions,
  type SessionContextReason,
  type SessionContextResult,
  sessionContextFor,
  sessionContextLine,
} from "./session-context.ts";
export { displayId, displayName, displayText, EMPTY_FIELD } from "./session-display.ts";
