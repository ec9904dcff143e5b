import {
  MAX_REGISTRY_BYTES,
  MAX_SETTINGS_BYTES,
  TRANSCRIPT_TITLE_TAIL_BYTES,
} from "../claude-code/index.ts";

/**
 * The hooks' fixed limits (docs/spec/claude-code.md §1.2–§1.4, §4, §5). Budgets are in milliseconds
 * and sit inside the timeouts `hooks.json` declares (60 s, 5 s, 5 s; SessionEnd shares a 1.5 s
 * budget).
 *
 * @example AbortSignal.timeout(HOOK_LIMITS.registerMs)
 */
export const HOOK_LIMITS: {
  /** Largest stdin document read, bytes (1 MiB). */
  readonly maxStdinBytes: number;
  /** Largest session registry file read, bytes (256 KiB). */
  readonly maxRegistryBytes: number;
  /** Largest settings file read, bytes (1 MiB). */
  readonly maxSettingsBytes: number;
  /** Tail of the transcript read for the latest custom title, bytes. */
  readonly maxTranscriptTailBytes: number;
  /** Largest one-shot notice file read, bytes. */
  readonly maxNoticeBytes: number;
  /**
   * What one hook run shows the model, UTF-16 code units (each line's units + 1 for its newline):
   * the prompt hook's plain stdout, PostToolUse's `additionalContext`. Claude Code shows at most
   * 10,000 whole and past that only a short preview (docs/spec/claude-code.md §1.3, measured on
   * 2.1.334); 500 are kept as a margin.
   */
  readonly maxOutputUnits: number;
  /**
   * The longest polled block (`POLL_PREAMBLE` line + frame) a hook prints, UTF-16 code units. A
   * longer frame is announced instead (`brigade inbox show <id>`), so that the lines a hook prints
   * beside its frames (up to 2,000 units) can never keep a frame out for good.
   */
  readonly maxPollBlockUnits: number;
  /** Units the prompt hook's poll leaves for the lines printed after it (held, undeliverable). */
  readonly pollReserveUnits: number;
  /** A shown message not seen in the transcript after this long is shown again, ms. */
  readonly reshowAfterMs: number;
  /** SessionStart's whole budget. */
  readonly sessionStartMs: number;
  /** `session register` inside SessionStart (and inside a prompt's retry). */
  readonly registerMs: number;
  /** UserPromptSubmit's whole budget. */
  readonly promptMs: number;
  /** `message receive` inside the prompt hook and PostToolUse, ms. */
  readonly receiveMs: number;
  /** `message receive --limit` of PostToolUse (it runs after every tool call). */
  readonly toolReceiveLimit: number;
  /** The prompt hook's heartbeat announcing a changed inbound policy (also capped by the budget). */
  readonly policyHeartbeatMs: number;
  /** The prompt hook's `message state` check of this session's tracked sends. */
  readonly stateCheckMs: number;
  /** SessionStart's `message adopt` of what this checkout's ended sessions left. */
  readonly adoptMs: number;
  /** A prompt-time registration retry: at most one per this interval. */
  readonly retryIntervalMs: number;
  /** SessionEnd's whole budget. */
  readonly sessionEndMs: number;
  /** `session close` inside SessionEnd (and the close of a replaced session at SessionStart). */
  readonly closeMs: number;
  /** SIGTERM grace given to the watcher at SessionEnd. */
  readonly stopWatcherGraceMs: number;
} = {
  maxStdinBytes: 1_048_576,
  maxRegistryBytes: MAX_REGISTRY_BYTES,
  maxSettingsBytes: MAX_SETTINGS_BYTES,
  maxTranscriptTailBytes: TRANSCRIPT_TITLE_TAIL_BYTES,
  maxNoticeBytes: 16_384,
  maxOutputUnits: 9_500,
  maxPollBlockUnits: 7_500,
  pollReserveUnits: 800,
  reshowAfterMs: 60_000,
  sessionStartMs: 55_000,
  registerMs: 8_000,
  promptMs: 4_500,
  receiveMs: 4_000,
  toolReceiveLimit: 10,
  policyHeartbeatMs: 1_500,
  stateCheckMs: 1_500,
  adoptMs: 3_000,
  retryIntervalMs: 60_000,
  sessionEndMs: 1_400,
  closeMs: 1_000,
  stopWatcherGraceMs: 300,
};
