export { build, type FrameEnvelope } from "./build.ts";
export {
  FRAME_CONFIG_REASONS,
  FrameConfigError,
  type FrameConfigOption,
  type FrameConfigReason,
  REASON_FILE_EMPTY,
  REASON_FILE_NOT_UTF8,
  REASON_FILE_TOO_LARGE,
  REASON_FILE_UNREADABLE,
  REASON_FILE_UNSAFE,
  REASON_INVALID_LEVEL,
} from "./config-error.ts";
export {
  type ClauseCheckResult,
  checkClause,
  clauseFromFile,
  clauseOf,
  foldClause,
  type Instruction,
  validateInstruction,
} from "./instruction.ts";
export {
  DEFAULT_LEVEL,
  LEVEL_CUSTOM,
  LEVEL_GUARDED,
  LEVEL_OPEN,
  LEVEL_STRICT,
  LEVELS,
  type Level,
  type ParseLevelResult,
  parseLevel,
} from "./levels.ts";
export {
  FRAME_PARSE_DETAILS,
  FRAME_PARSE_REASONS,
  type FrameParseDetail,
  type FrameParseReason,
  type FrameParseResult,
  type ParsedFrame,
  parse,
} from "./parse.ts";
export {
  attachmentsSentence,
  GUARDED_CLAUSE,
  PERSON_PREAMBLE_SHARED,
  PERSON_PREAMBLE_TAIL,
  PREAMBLE_SHARED,
  PREAMBLE_TAIL,
  personPreambleLine,
  preambleLine,
  REPLY_INTRO,
  REPLY_JOIN,
  STRICT_CLAUSE,
} from "./preamble.ts";
export { formatSentAt, UNPARSABLE_SENT_AT } from "./sent-at.ts";
export {
  CLOSE_TAG,
  EXCERPT_CHARS,
  IN_REPLY_TO_ATTRIBUTE,
  MAX_CUSTOM_BYTES,
  MAX_IN_REPLY_TO_BYTES,
  OPEN_TAG,
  PERSON_LABEL_SUFFIX,
  POLL_PREAMBLE,
  SEPARATOR,
  SUMMARY_PREFIX,
  TAG_ATTRIBUTES,
  UNVERIFIED_SUFFIX,
  WRAPPER_CLOSE,
  WRAPPER_OPEN,
} from "./tokens.ts";
export { wrap } from "./wrap.ts";
