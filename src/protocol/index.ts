/**
 * BAP/1, the Brigade Adapter Protocol (docs/spec/protocol.md §1–§9): wire types with hand-written
 * validators, the error taxonomy, limits, capabilities, the strict JSON reader, NDJSON, join
 * secrets, the argv grammar and the in-process `Adapter` interface.
 */
export type {
  Adapter,
  AdapterCallOptions,
  ProfileInitOptions,
  ReceiveOptions,
  SessionListOptions,
  WatchHandle,
} from "./adapter/adapter.ts";
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
} from "./adapter/adapter-argv.ts";
export {
  ADAPTER_COMMAND_NAMES,
  ADAPTER_COMMANDS,
  ADAPTER_GROUPS,
  LOG_LEVELS,
  parseAdapterArgv,
} from "./adapter/adapter-argv.ts";
export type { Capability } from "./adapter/capabilities.ts";
export {
  CAPABILITIES,
  EXTENSION_CAPABILITIES,
  hasCapability,
  isCapability,
  REQUIRED_CAPABILITY,
} from "./adapter/capabilities.ts";
export type { ConventionResult } from "./adapter/convention-result.ts";
export { validateConventionResult } from "./adapter/convention-result.ts";
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
} from "./adapter/describe-result.ts";
export { ACK_STATES, PROFILE_STATES, validateDescribeResult } from "./adapter/describe-result.ts";
export type { Envelope, ErrorEnvelope, OkEnvelope } from "./adapter/envelope.ts";
export {
  decodeEnvelopeOutput,
  envelopeLine,
  errorEnvelope,
  okEnvelope,
  validateEnvelope,
} from "./adapter/envelope.ts";
export { base64UrlEncode } from "./encoding/base64url.ts";
export type { JsonDocumentOptions } from "./encoding/json-document.ts";
export { decodeUtf8Strict, parseJsonDocument } from "./encoding/json-document.ts";
export type { JsonObject, JsonValue } from "./encoding/json-value.ts";
export { isJsonObject } from "./encoding/json-value.ts";
export type {
  NdjsonDecoderOptions,
  NdjsonLineIssue,
  NdjsonLineIssueReason,
} from "./encoding/ndjson-decoder.ts";
export { NDJSON_LINE_ISSUES, NdjsonDecoder, readNdjson } from "./encoding/ndjson-decoder.ts";
export { ndjsonLine } from "./encoding/ndjson-writer.ts";
export { isRfc3339Timestamp } from "./encoding/rfc3339.ts";
export type { StrictJsonFailure, StrictJsonResult } from "./encoding/strict-json.ts";
export {
  isNonIntegerLexeme,
  parseStrictJson,
  STRICT_JSON_FAILURES,
} from "./encoding/strict-json.ts";
export { codePointLength, hasLoneSurrogate, utf8ByteLength } from "./encoding/text-measure.ts";
export { BapError, isBapError, valueOrThrow } from "./errors/bap-error.ts";
export type { InvalidInputExtras } from "./errors/error-builders.ts";
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
} from "./errors/error-builders.ts";
export type { ErrorCode, RetryableErrorCode } from "./errors/error-codes.ts";
export {
  codeForExitStatus,
  ERROR_CODES,
  ERROR_EXIT_STATUS,
  EXIT_SUCCESS,
  exitStatusForCode,
  isErrorCode,
  isRetryableCode,
  RETRYABLE_ERROR_CODES,
} from "./errors/error-codes.ts";
export {
  ERROR_MESSAGES,
  INVALID_INPUT_MESSAGES,
  JOIN_REJECTED_MESSAGE,
  MALFORMED_JOIN_SECRET_MESSAGE,
  NOT_CREATOR_MESSAGE,
  RATE_LIMITED_MESSAGES,
  TEAM_NAME_MESSAGE,
  USAGE_MESSAGES,
} from "./errors/error-messages.ts";
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
} from "./errors/error-reasons.ts";
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
} from "./errors/error-reasons.ts";
export type { ErrorDetails, ProtocolError } from "./errors/protocol-error.ts";
export { shouldRetry, validateProtocolError } from "./errors/protocol-error-reader.ts";
export type { StoreHealthReason } from "./health/health-reply.ts";
export { isStoreHealthReason, STORE_HEALTH_REASONS } from "./health/health-reply.ts";
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
export type { AckRequest, AckResult } from "./messages/ack.ts";
export { validateAckRequest, validateAckResult } from "./messages/ack.ts";
export { harnessIdempotencyKey } from "./messages/idempotency-key.ts";
export type {
  DeliveryState,
  MessageEnvelope,
  MessageKind,
  MessageSender,
} from "./messages/message-envelope.ts";
export {
  DELIVERY_STATES,
  MESSAGE_KINDS,
  validateMessageEnvelope,
} from "./messages/message-envelope.ts";
export type {
  MessageAdoptRequest,
  MessageAdoptResult,
  MessageReportRequest,
  MessageReportResult,
  MessageSentResult,
  MessageState,
  MessageStateRecord,
  MessageStateRequest,
  MessageStateResult,
  ReportableState,
} from "./messages/message-state.ts";
export {
  MAX_ADOPT_SESSIONS,
  MAX_STATE_IDS,
  MESSAGE_STATES,
  REPORTABLE_STATES,
  validateMessageAdoptRequest,
  validateMessageAdoptResult,
  validateMessageReportRequest,
  validateMessageReportResult,
  validateMessageSentResult,
  validateMessageStateRequest,
  validateMessageStateResult,
} from "./messages/message-state.ts";
export { isReceiveLimit, receiveLimitError } from "./messages/receive-limit.ts";
export type { ReceiveResult } from "./messages/receive-result.ts";
export { validateReceiveResult } from "./messages/receive-result.ts";
export type { SendRequest, SendRequestForbiddenMember } from "./messages/send-request.ts";
export { SEND_REQUEST_FORBIDDEN_MEMBERS, validateSendRequest } from "./messages/send-request.ts";
export type { SendResponse } from "./messages/send-response.ts";
export { validateSendResponse } from "./messages/send-response.ts";
export type {
  HeartbeatChanges,
  HeartbeatOptions,
  HeartbeatRequest,
  HeartbeatResult,
} from "./sessions/heartbeat.ts";
export { validateHeartbeatRequest, validateHeartbeatResult } from "./sessions/heartbeat.ts";
export type { LiveDelivery, NotLiveReason } from "./sessions/live-delivery.ts";
export {
  liveDeliveryOf,
  liveReportMaxAgeMs,
  NOT_LIVE_REASONS,
  readLiveDelivery,
  readReportedLiveDelivery,
} from "./sessions/live-delivery.ts";
export type { SessionCloseResult } from "./sessions/session-close-result.ts";
export { validateSessionCloseResult } from "./sessions/session-close-result.ts";
export type { SessionListResult } from "./sessions/session-list-result.ts";
export { validateSessionListResult } from "./sessions/session-list-result.ts";
export type { SessionRecord } from "./sessions/session-record.ts";
export { validateSessionRecord } from "./sessions/session-record.ts";
export type {
  LeaseBounds,
  SessionRegistration,
  SessionRegistrationOptions,
  SessionRegistrationResult,
  SessionResumeRequest,
} from "./sessions/session-registration.ts";
export {
  validateSessionRegistration,
  validateSessionRegistrationResult,
} from "./sessions/session-registration.ts";
export type { Activity, InboundPolicy, SessionState } from "./sessions/session-vocabulary.ts";
export { ACTIVITIES, INBOUND_POLICIES, SESSION_STATES } from "./sessions/session-vocabulary.ts";
export type { JoinSecretErrorCode, ParseJoinSecretResult } from "./teams/join-secret.ts";
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
} from "./teams/join-secret.ts";
export {
  digestJoinSecret,
  JOIN_SECRET_DIGEST_PREFIX,
  verifyJoinSecretDigest,
} from "./teams/join-secret-digest.ts";
export type {
  TeamMemberTarget,
  TeamRevokeMemberResult,
  TeamRotateSecretResult,
  TeamTransferResult,
} from "./teams/team-admin.ts";
export {
  validateTeamMemberTarget,
  validateTeamRevokeMemberResult,
  validateTeamRotateSecretResult,
  validateTeamTransferResult,
} from "./teams/team-admin.ts";
export type { TeamCreateRequest, TeamCreateResult } from "./teams/team-create.ts";
export { validateTeamCreateRequest, validateTeamCreateResult } from "./teams/team-create.ts";
export type { ParsedTeamJoinRequest, TeamJoinRequest, TeamJoinResult } from "./teams/team-join.ts";
export { validateTeamJoinRequest, validateTeamJoinResult } from "./teams/team-join.ts";
export type { TeamLeaveResult } from "./teams/team-leave-result.ts";
export { validateTeamLeaveResult } from "./teams/team-leave-result.ts";
export type { TeamMember, TeamMembersResult } from "./teams/team-members-result.ts";
export { validateTeamMembersResult } from "./teams/team-members-result.ts";
export type { ValidationResult } from "./validation/validation-result.ts";
export type {
  WatchAckCommand,
  WatchCloseCommand,
  WatchCommand,
  WatchCommandOptions,
  WatchCommandType,
  WatchHeartbeatCommand,
} from "./watch/watch-command.ts";
export { validateWatchCommand, WATCH_COMMAND_TYPES } from "./watch/watch-command.ts";
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
} from "./watch/watch-event.ts";
export {
  validateWatchEvent,
  WATCH_EVENT_KINDS,
  WATCH_MODES,
  WATCH_STATUS_STATES,
} from "./watch/watch-event.ts";
