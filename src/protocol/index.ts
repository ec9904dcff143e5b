/**
 * BAP/1, the Brigade Adapter Protocol (docs/spec/protocol.md §1–§9): wire types with hand-written
 * validators, the error taxonomy, limits, capabilities, the strict JSON reader, NDJSON, join
 * secrets, the argv grammar and the in-process `Adapter` interface.
 */
export type {
  Adapter,
  AdapterCallOptions,
  BlobDownload,
  DownloadOptions,
  ReceiveOptions,
  SessionListOptions,
  WatchHandle,
} from "./adapter/adapter.ts";
export type {
  AdapterArgvOptions,
  AdapterCommand,
  AdapterCommandName,
  LogLevel,
} from "./adapter/adapter-argv.ts";
export { LOG_LEVELS, parseAdapterArgv } from "./adapter/adapter-argv.ts";
export type { Capability } from "./adapter/capabilities.ts";
export { hasCapability } from "./adapter/capabilities.ts";
export type { ConventionResult } from "./adapter/convention-result.ts";
export type {
  DescribeLimits,
  DescribeResult,
  LeaseRange,
  ProfileSummary,
  RetentionPolicy,
} from "./adapter/describe-result.ts";
export { envelopeLine, errorEnvelope, okEnvelope, validateEnvelope } from "./adapter/envelope.ts";
export {
  type ProfileRotateTokenResult,
  validateProfileRotateTokenResult,
} from "./adapter/profile-rotate-token.ts";
export { decodeUtf8Strict, parseJsonDocument } from "./encoding/json-document.ts";
export type { JsonObject, JsonValue } from "./encoding/json-value.ts";
export { isJsonObject } from "./encoding/json-value.ts";
export { NdjsonDecoder } from "./encoding/ndjson-decoder.ts";
export { ndjsonLine } from "./encoding/ndjson-writer.ts";
export { isRfc3339Timestamp } from "./encoding/rfc3339.ts";
export { parseStrictJson } from "./encoding/strict-json.ts";
export { BapError, isBapError, valueOrThrow } from "./errors/bap-error.ts";
export {
  configError,
  conflictError,
  internalError,
  invalidInputError,
  invitationSpentError,
  joinRejectedError,
  notCreatorError,
  notFoundError,
  notMemberError,
  protocolError,
  protocolMismatchError,
  rateLimitedError,
  teamStorageFullError,
  transferOfferExpiredError,
  unauthenticatedError,
  unavailableError,
  usageError,
} from "./errors/error-builders.ts";
export type { ErrorCode } from "./errors/error-codes.ts";
export { ERROR_CODES, ERROR_EXIT_STATUS, RETRYABLE_ERROR_CODES } from "./errors/error-codes.ts";
export {
  ERROR_MESSAGES,
  INVALID_INPUT_MESSAGES,
  NOT_CREATOR_MESSAGE,
  RATE_LIMITED_MESSAGES,
  TRANSFER_OFFER_EXPIRED_MESSAGE,
  USAGE_MESSAGES,
} from "./errors/error-messages.ts";
export type { RateLimitedReason } from "./errors/error-reasons.ts";
export { RATE_LIMITED_REASONS } from "./errors/error-reasons.ts";
export type { ProtocolError } from "./errors/protocol-error.ts";
export { validateProtocolError } from "./errors/protocol-error-reader.ts";
export type { StoreHealthReason } from "./health/health-reply.ts";
export { isStoreHealthReason } from "./health/health-reply.ts";
export {
  DEFAULT_LEASE,
  DEFAULT_RECEIVE_LIMIT,
  MAX_RECEIVE_LIMIT,
  MAX_STDIN_DOCUMENT_BYTES,
  MIN_RECEIVE_LIMIT,
  PROTOCOL_LIMITS,
  PROTOCOL_VERSION,
  RETENTION_FLOORS,
} from "./limits.ts";
export type { AckRequest, AckResult } from "./messages/ack.ts";
export { validateAckRequest, validateAckResult } from "./messages/ack.ts";
export type { AttachmentLimits, MessageAttachment } from "./messages/attachment.ts";
export {
  ATTACHMENT_LIMITS,
  isAttachmentName,
  isSha256Hex,
  MAX_ATTACHMENT_NAME_BYTES,
} from "./messages/attachment.ts";
export type {
  BlobDeclaration,
  BlobDownloadRequest,
  BlobDownloadResult,
  BlobUploadRequest,
  BlobUploadResult,
} from "./messages/blob-transfer.ts";
export {
  validateBlobDeclaration,
  validateBlobDownloadRequest,
  validateBlobDownloadResult,
  validateBlobUploadRequest,
  validateBlobUploadResult,
} from "./messages/blob-transfer.ts";
export { harnessIdempotencyKey } from "./messages/idempotency-key.ts";
export type { MessageEnvelope, MessageSender } from "./messages/message-envelope.ts";
export {
  isPersonSenderKind,
  PERSON_SENDER_KIND,
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
  MAX_STATE_IDS,
  validateMessageAdoptRequest,
  validateMessageAdoptResult,
  validateMessageReportRequest,
  validateMessageReportResult,
  validateMessageSentResult,
  validateMessageStateRequest,
  validateMessageStateResult,
} from "./messages/message-state.ts";
export type {
  PersonSendRequest,
  PersonSentRecord,
  PersonSentResult,
  PersonSentSender,
} from "./messages/person-message.ts";
export {
  PERSON_SEND_FORBIDDEN_MEMBERS,
  PERSON_SENT_SENDERS,
  validatePersonSendRequest,
  validatePersonSentResult,
} from "./messages/person-message.ts";
export { isReceiveLimit, receiveLimitError } from "./messages/receive-limit.ts";
export type { ReceiveResult } from "./messages/receive-result.ts";
export { validateReceiveResult } from "./messages/receive-result.ts";
export type { SendRequest } from "./messages/send-request.ts";
export { SEND_REQUEST_FORBIDDEN_MEMBERS, validateSendRequest } from "./messages/send-request.ts";
export type { SendResponse } from "./messages/send-response.ts";
export { validateSendResponse } from "./messages/send-response.ts";
export type { HeartbeatChanges, HeartbeatRequest, HeartbeatResult } from "./sessions/heartbeat.ts";
export {
  MAX_RELEASED_IDS,
  validateHeartbeatRequest,
  validateHeartbeatResult,
} from "./sessions/heartbeat.ts";
export type { LiveDelivery, NotLiveReason } from "./sessions/live-delivery.ts";
export { liveDeliveryOf, liveReportMaxAgeMs } from "./sessions/live-delivery.ts";
export type { SessionCloseResult } from "./sessions/session-close-result.ts";
export { validateSessionCloseResult } from "./sessions/session-close-result.ts";
export type { SessionListResult } from "./sessions/session-list-result.ts";
export { validateSessionListResult } from "./sessions/session-list-result.ts";
export type { SessionRecord } from "./sessions/session-record.ts";
export type {
  LeaseBounds,
  SessionRegistration,
  SessionRegistrationResult,
} from "./sessions/session-registration.ts";
export {
  validateSessionRegistration,
  validateSessionRegistrationResult,
} from "./sessions/session-registration.ts";
export type { Activity, InboundPolicy, SessionState } from "./sessions/session-vocabulary.ts";
export { INBOUND_POLICIES } from "./sessions/session-vocabulary.ts";
export type { DashboardLoginResult } from "./teams/dashboard-login.ts";
export { validateDashboardLoginResult } from "./teams/dashboard-login.ts";
export {
  containsJoinSecretShape,
  generateJoinSecret,
  JoinSecret,
  parseJoinSecret,
} from "./teams/join-secret.ts";
export { digestJoinSecret, verifyJoinSecretDigest } from "./teams/join-secret-digest.ts";
export type {
  TeamAcceptTransferResult,
  TeamMemberTarget,
  TeamRevokeMemberResult,
  TeamRotateSecretResult,
  TeamTransferResult,
  TeamTransferTarget,
} from "./teams/team-admin.ts";
export {
  TRANSFER_OFFER_LIMITS,
  validateTeamAcceptTransferResult,
  validateTeamMemberTarget,
  validateTeamRevokeMemberResult,
  validateTeamRotateSecretResult,
  validateTeamTransferResult,
  validateTeamTransferTarget,
} from "./teams/team-admin.ts";
export type { TeamCreateRequest, TeamCreateResult } from "./teams/team-create.ts";
export { validateTeamCreateRequest, validateTeamCreateResult } from "./teams/team-create.ts";
export type {
  InvitationRecord,
  InvitationState,
  TeamInvitationsResult,
  TeamInvitationTarget,
  TeamInviteRequest,
  TeamInviteResult,
  TeamRevokeInviteResult,
} from "./teams/team-invitations.ts";
export {
  INVITATION_LIMITS,
  validateTeamInvitationsResult,
  validateTeamInvitationTarget,
  validateTeamInviteRequest,
  validateTeamInviteResult,
  validateTeamRevokeInviteResult,
} from "./teams/team-invitations.ts";
export type { TeamJoinRequest, TeamJoinResult } from "./teams/team-join.ts";
export { validateTeamJoinRequest, validateTeamJoinResult } from "./teams/team-join.ts";
export type { TeamLabelRequest, TeamLabelResult } from "./teams/team-label.ts";
export { validateTeamLabelRequest, validateTeamLabelResult } from "./teams/team-label.ts";
export type { TeamLeaveResult } from "./teams/team-leave-result.ts";
export { validateTeamLeaveResult } from "./teams/team-leave-result.ts";
export type { TeamMember, TeamMembersResult } from "./teams/team-members-result.ts";
export { validateTeamMembersResult } from "./teams/team-members-result.ts";
export type { ValidationResult } from "./validation/validation-result.ts";
export type { WatchCommand } from "./watch/watch-command.ts";
export { validateWatchCommand } from "./watch/watch-command.ts";
export type { WatchEvent } from "./watch/watch-event.ts";
