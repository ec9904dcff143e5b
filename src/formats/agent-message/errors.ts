/**
 * Every code an {@link AgentMessageError} can carry. There is a single code: a blank
 * `fromSession` and a missing `mode` are the same error in the reference
 * (docs/spec/formats.md §3.4).
 *
 * @example AGENT_MESSAGE_ERROR_CODES.includes(error.code)
 */
export const AGENT_MESSAGE_ERROR_CODES = ["EMPTY_FROM_SESSION"] as const;

/**
 * The union of {@link AGENT_MESSAGE_ERROR_CODES}.
 *
 * @example const code: AgentMessageErrorCode = "EMPTY_FROM_SESSION";
 */
export type AgentMessageErrorCode = (typeof AGENT_MESSAGE_ERROR_CODES)[number];

/**
 * Thrown by `compose` (the spec's `EmptyFromSessionError`), code `EMPTY_FROM_SESSION`, with one of
 * two exact messages: `fromSession is required` (blank `fromSession` under `goTrimSpace`) or
 * `fromSession is required: mode is required` (empty or absent `mode`). The message never contains
 * the offending value.
 *
 * @example
 * try { compose("hi", { fromSession: " ", mode: "injected" }); }
 * catch (e) { if (e instanceof AgentMessageError) e.code; } // "EMPTY_FROM_SESSION"
 */
export class AgentMessageError extends Error {
  /** Always `EMPTY_FROM_SESSION`. */
  readonly code: AgentMessageErrorCode;

  /** `message` is one of the two exact texts above. */
  constructor(message: string) {
    super(message);
    this.name = "AgentMessageError";
    this.code = "EMPTY_FROM_SESSION";
  }
}
