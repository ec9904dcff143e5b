/** Every code {@link CrossSessionCodecError} carries (docs/spec/cross-session.md §3). */
export const CROSS_SESSION_CODEC_ERROR_CODES = [
  "cross_session.invalid_from",
  "cross_session.invalid_from_session",
  "cross_session.invalid_from_mode",
  "cross_session.invalid_from_scope",
  "cross_session.invalid_hop_chain",
] as const;

/** One of {@link CROSS_SESSION_CODEC_ERROR_CODES}. */
export type CrossSessionCodecErrorCode = (typeof CROSS_SESSION_CODEC_ERROR_CODES)[number];

/**
 * A caller-supplied field that cannot be serialised canonically, thrown by the encoders and the
 * builders (never by a parser). The message never contains the offending value.
 * Example: `encodePeerAddress("uds:/x\uD83D")` throws with `code === "cross_session.invalid_from"`.
 */
export class CrossSessionCodecError extends Error {
  /** Which field failed; one of {@link CROSS_SESSION_CODEC_ERROR_CODES}. */
  readonly code: CrossSessionCodecErrorCode;

  constructor(code: CrossSessionCodecErrorCode, message: string) {
    super(message);
    this.name = "CrossSessionCodecError";
    this.code = code;
  }
}
