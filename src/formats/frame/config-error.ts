/** The `frame` option names none of open, guarded, strict (or a map names a level outside the four). */
export const REASON_INVALID_LEVEL = "invalid_frame_level";
/** The `frame_file` does not exist, is not a regular file, or could not be read. */
export const REASON_FILE_UNREADABLE = "frame_file_unreadable";
/** The `frame_file`, or its folded clause, is over 4096 bytes. */
export const REASON_FILE_TOO_LARGE = "frame_file_too_large";
/** The `frame_file` bytes are not valid UTF-8. */
export const REASON_FILE_NOT_UTF8 = "frame_file_not_utf8";
/** Nothing is left of the `frame_file` after folding. */
export const REASON_FILE_EMPTY = "frame_file_empty";
/** The folded clause is not its own sanitised fold: a forgeable tag, a Cc/Cf character, non-NFC. */
export const REASON_FILE_UNSAFE = "frame_file_unsafe";

/**
 * Every `details.reason` of a frame `config` failure, in validation order. The path check that
 * precedes reading a `frame_file` (`relative_path`) belongs to the configuration reader, not to
 * this list.
 *
 * @example FRAME_CONFIG_REASONS.includes("frame_file_unsafe") === true
 */
export const FRAME_CONFIG_REASONS: readonly [
  "invalid_frame_level",
  "frame_file_unreadable",
  "frame_file_too_large",
  "frame_file_not_utf8",
  "frame_file_empty",
  "frame_file_unsafe",
] = [
  REASON_INVALID_LEVEL,
  REASON_FILE_UNREADABLE,
  REASON_FILE_TOO_LARGE,
  REASON_FILE_NOT_UTF8,
  REASON_FILE_EMPTY,
  REASON_FILE_UNSAFE,
];

/** A `details.reason` of a frame `config` failure. */
export type FrameConfigReason = (typeof FRAME_CONFIG_REASONS)[number];

/** The plugin option a frame `config` failure is about. */
export type FrameConfigOption = "frame" | "frame_file";

const MESSAGES: Readonly<Record<FrameConfigReason, string>> = {
  invalid_frame_level: "the frame option is not one of open, guarded or strict",
  frame_file_unreadable: "the frame_file cannot be read as a regular file",
  frame_file_too_large: "the frame_file is larger than 4096 bytes",
  frame_file_not_utf8: "the frame_file is not valid UTF-8",
  frame_file_empty: "the frame_file holds no text",
  frame_file_unsafe:
    "the frame_file holds a frame tag, a control or format character, or text that is not NFC",
};

/**
 * A frame configuration failure, mapped by the protocol layer onto its `config` error (exit 11).
 * `code` is always `"config"`; `details.reason` is one of {@link FRAME_CONFIG_REASONS};
 * `details.option` names the plugin option. The message is fixed per reason and never contains
 * the offending value or path.
 *
 * @example new FrameConfigError("frame_file_empty", "frame_file").details.reason === "frame_file_empty"
 */
export class FrameConfigError extends Error {
  /** Always `config`. */
  readonly code: "config" = "config";
  /** The reason and the option, both fixed tokens. */
  readonly details: { readonly reason: FrameConfigReason; readonly option: FrameConfigOption };

  constructor(reason: FrameConfigReason, option: FrameConfigOption) {
    super(MESSAGES[reason]);
    this.name = "FrameConfigError";
    this.details = { reason, option };
  }
}
