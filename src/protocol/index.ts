/**
 * BAP/1, the Brigade Adapter Protocol (spec/protocol.md §1–§9): wire types with hand-written
 * validators, the error taxonomy, limits, capabilities, the strict JSON reader, NDJSON, join
 * secrets, the argv grammar and the in-process `Adapter` interface.
 */
export type { AckRequest, AckResult } from "./ack.ts";
export { validateAckRequest, validateAckResult } from "./ack.ts";
export type {
  Adapter,
  AdapterCallOptions,
  ProfileInitOptions,
  ReceiveOptions,
  SessionListOptions,
  WatchHandle,
} from "./adapter.ts";
export type {
  AdapterArgvOptions,
  AdapterArgvResult,
  AdapterCommand,
  AdapterCommandName,
  AdapterCommandSpec,
  AdapterFlags,
  AdapterGroup,
  ConventionFlagSpec,
  LogLevel,
  StdinUse,
} from "./adapter-argv.ts";
export {
  ADAPTER_COMMAND_NAMES,
  ADAPTER_COMMANDS,
  ADAPTER_GROUPS,
  LOG_LEVELS,
  parseAdapterArgv,
} from "./adapter-argv.ts";
export { BapError, isBapError, valueOrThrow } from "./bap-error.ts";
export { base64UrlEncode } from "./base64url.ts";
export type { Capability } from "./capabilities.ts";
export {
  CAPABILITIES,
  hasCapability,
  isCapability,
  REQUIRED_CAPABILITY,
} from "./capabilities.ts";
export type { ConventionResult } from "./convention-result.ts";
export { validateConventionResult } from "./convention-result.ts";
export type {
  AckState,
  AdapterIdentity,
  DeliveryContract,
  DescribeLimits,
  DescribeResult,
  JoinedProfileSummary,
  LeaseRange,
  ProfileState,
  ProfileSummary,
  RateBudget,
  RetentionPolicy,
  UnboundProfileSummary,
} from "./describe-result.ts";
export { ACK_STATES, PROFILE_STATES, validateDescribeResult } from "./describe-result.ts";
export type { Envelope, ErrorEnvelope, OkEnvelope } from "./envelope.ts";
export {
  decodeEnvelopeOutput,
  envelopeLine,
  errorEnvelope,
  okEnvelope,
  validateEnvelope,
} from "./envelope.ts";
export type { InvalidInputExtras } from "./error-builders.ts";
export {
  configError,
  conflictError,
  internalError,
  invalidInputError,
  joinRejectedError,
  loopDetectedError,
  notCreatorError,
  notFoundError,
  notMemberError,
  protocolError,
  protocolMismatchError,
  rateLimitedError,
  unauthenticatedError,
  unavailableError,
  usageError,
} from "./error-builders.ts";
export type { ErrorCode, RetryableErrorCode } from "./error-codes.ts";
export {
  codeForExitStatus,
  ERROR_CODES,
  ERROR_EXIT_STATUS,
  EXIT_SUCCESS,
  exitStatusForCode,
  isErrorCode,
  isRetryableCode,
  RETRYABLE_ERROR_CODES,
} from "./error-codes.ts";
export {
  ERROR_MESSAGES,
  INVALID_INPUT_MESSAGES,
  JOIN_REJECTED_MESSAGE,
  MALFORMED_JOIN_SECRET_MESSAGE,
  NOT_CREATOR_MESSAGE,
  RATE_LIMITED_MESSAGES,
  USAGE_MESSAGES,
} from "./error-messages.ts";
export type {
  CapUnit,
  ConflictReason,
  DetailsKey,
  InternalReason,
  InvalidInputReason,
  LoopDetectedReason,
  ProfileReason,
  RateLimitedReason,
  UnauthorizedReason,
  UnavailableReason,
  UsageReason,
} from "./error-reasons.ts";
export {
  CAP_UNITS,
  CONFLICT_REASONS,
  DETAILS_KEYS,
  INTERNAL_REASONS,
  INVALID_INPUT_REASONS,
  LOOP_DETECTED_REASONS,
  PROFILE_REASONS,
  RATE_LIMITED_REASONS,
  UNAUTHORIZED_REASONS,
  UNAVAILABLE_REASONS,
  USAGE_REASONS,
} from "./error-reasons.ts";
export type {
  HeartbeatChanges,
  HeartbeatOptions,
  HeartbeatRequest,
  HeartbeatResult,
} from "./heartbeat.ts";
export { validateHeartbeatRequest, validateHeartbeatResult } from "./heartbeat.ts";
export { harnessIdempotencyKey } from "./idempotency-key.ts";
export type { JoinSecretErrorCode, ParseJoinSecretResult } from "./join-secret.ts";
export {
  containsJoinSecretShape,
  formatJoinSecret,
  generateJoinSecret,
  JOIN_SECRET_ERROR_CODES,
  JOIN_SECRET_LEAK_PATTERN_SOURCE,
  JOIN_SECRET_PREFIX,
  JoinSecret,
  JoinSecretError,
  MIN_JOIN_SECRET_RANDOM_BYTES,
  parseJoinSecret,
  REDACTED_SECRET_HALF,
} from "./join-secret.ts";
export {
  digestJoinSecret,
  JOIN_SECRET_DIGEST_PREFIX,
  verifyJoinSecretDigest,
} from "./join-secret-digest.ts";
export type { JsonDocumentOptions } from "./json-document.ts";
export { decodeUtf8Strict, parseJsonDocument } from "./json-document.ts";
export type { JsonObject, JsonValue } from "./json-value.ts";
export { isJsonObject } from "./json-value.ts";
export type { ProtocolVersion } from "./limits.ts";
export {
  DEFAULT_LEASE,
  DEFAULT_RECEIVE_LIMIT,
  HARNESS_TIMEOUTS_MS,
  INBOX_CAP_RETRY_AFTER_MS,
  MAX_ADAPTER_STDOUT_BYTES,
  MAX_BRIGADE_VERSION_CODEPOINTS,
  MAX_CONTEXT_USED_TOKENS,
  MAX_NDJSON_LINE_BYTES,
  MAX_RECEIVE_LIMIT,
  MAX_STDIN_DOCUMENT_BYTES,
  MAX_SYNC_PEER_CODEPOINTS,
  MIN_RECEIVE_LIMIT,
  PROTOCOL_LIMITS,
  PROTOCOL_VERSION,
  RETENTION_FLOORS,
} from "./limits.ts";
export type {
  DeliveryState,
  MessageEnvelope,
  MessageKind,
  MessageSender,
} from "./message-envelope.ts";
export { DELIVERY_STATES, MESSAGE_KINDS, validateMessageEnvelope } from "./message-envelope.ts";
export type {
  NdjsonDecoderOptions,
  NdjsonLineIssue,
  NdjsonLineIssueReason,
} from "./ndjson-decoder.ts";
export { NDJSON_LINE_ISSUES, NdjsonDecoder, readNdjson } from "./ndjson-decoder.ts";
export { ndjsonLine } from "./ndjson-writer.ts";
export type { ErrorDetails, ProtocolError } from "./protocol-error.ts";
export { shouldRetry, validateProtocolError } from "./protocol-error-reader.ts";
export type { ReceiveResult } from "./receive-result.ts";
export { validateReceiveResult } from "./receive-result.ts";
export { isRfc3339Timestamp } from "./rfc3339.ts";
export type { SendRequest, SendRequestForbiddenMember } from "./send-request.ts";
export { SEND_REQUEST_FORBIDDEN_MEMBERS, validateSendRequest } from "./send-request.ts";
export type { SendResponse } from "./send-response.ts";
export { validateSendResponse } from "./send-response.ts";
export type { SessionCloseResult } from "./session-close-result.ts";
export { validateSessionCloseResult } from "./session-close-result.ts";
export type { SessionListResult } from "./session-list-result.ts";
export { validateSessionListResult } from "./session-list-result.ts";
export type { SessionRecord } from "./session-record.ts";
export { validateSessionRecord } from "./session-record.ts";
export type {
  LeaseBounds,
  SessionRegistration,
  SessionRegistrationOptions,
  SessionRegistrationResult,
  SessionResumeRequest,
} from "./session-registration.ts";
export {
  validateSessionRegistration,
  validateSessionRegistrationResult,
} from "./session-registration.ts";
export type { Activity, InboundPolicy, SessionState } from "./session-vocabulary.ts";
export { ACTIVITIES, INBOUND_POLICIES, SESSION_STATES } from "./session-vocabulary.ts";
export type { StrictJsonFailure, StrictJsonResult } from "./strict-json.ts";
export { isNonIntegerLexeme, parseStrictJson, STRICT_JSON_FAILURES } from "./strict-json.ts";
export type {
  TeamMemberTarget,
  TeamRevokeMemberResult,
  TeamRotateSecretResult,
  TeamTransferResult,
} from "./team-admin.ts";
export {
  validateTeamMemberTarget,
  validateTeamRevokeMemberResult,
  validateTeamRotateSecretResult,
  validateTeamTransferResult,
} from "./team-admin.ts";
export type { TeamCreateRequest, TeamCreateResult } from "./team-create.ts";
export { validateTeamCreateRequest, validateTeamCreateResult } from "./team-create.ts";
export type { ParsedTeamJoinRequest, TeamJoinRequest, TeamJoinResult } from "./team-join.ts";
export { validateTeamJoinRequest, validateTeamJoinResult } from "./team-join.ts";
export type { TeamLeaveResult } from "./team-leave-result.ts";
export { validateTeamLeaveResult } from "./team-leave-result.ts";
export type { TeamMember, TeamMembersResult } from "./team-members-result.ts";
export { validateTeamMembersResult } from "./team-members-result.ts";
export { codePointLength, hasLoneSurrogate, utf8ByteLength } from "./text-measure.ts";
export type { ValidationResult } from "./validation-result.ts";
export type {
  WatchAckCommand,
  WatchCloseCommand,
  WatchCommand,
  WatchCommandOptions,
  WatchCommandType,
  WatchHeartbeatCommand,
} from "./watch-command.ts";
export { validateWatchCommand, WATCH_COMMAND_TYPES } from "./watch-command.ts";
export type {
  WatchAckedEvent,
  WatchErrorEvent,
  WatchEvent,
  WatchEventKind,
  WatchHeartbeatOkEvent,
  WatchMessageEvent,
  WatchMode,
  WatchReadyEvent,
  WatchStatusEvent,
  WatchStatusState,
} from "./watch-event.ts";
export {
  validateWatchEvent,
  WATCH_EVENT_KINDS,
  WATCH_MODES,
  WATCH_STATUS_STATES,
} from "./watch-event.ts";
