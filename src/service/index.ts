export { ackInTx } from "./ack-in-tx.ts";
export type {
  DashboardMessage,
  DashboardView,
  NewPrincipal,
  NewWebLogin,
  NewWebSession,
  OpenBlob,
  ServiceOptions,
  SessionListOptions,
  SweepCounts,
  WebIdentity,
} from "./brigade-service.ts";
export { BrigadeService } from "./brigade-service.ts";
export { fetchInTx } from "./fetch-in-tx.ts";
export {
  PRINCIPAL_CACHE_MAX_ENTRIES,
  PrincipalCache,
  type PrincipalCacheOptions,
  SHARED_STORE_PRINCIPAL_MAX_AGE_MS,
} from "./principal-cache.ts";
export { base64url, sha256Hex } from "./secrets.ts";
export { SEND_LIMITS, sendInTx } from "./send-in-tx.ts";
export type { AttachmentSettings, BackendDescription } from "./service-config.ts";
export {
  BLOB_CHUNK_BYTES,
  CAP_RETRY_AFTER_MS,
  DEFAULT_ATTACHMENT_SETTINGS,
  describeBackend,
  GC_BATCH_SIZE,
  JOIN_ATTEMPT_LIMIT,
  JOIN_ATTEMPT_WINDOW_MS,
  MIB,
  REGISTER_RATE,
  SERVICE_CAPABILITIES,
  SERVICE_LEASE,
  SERVICE_RETENTION,
  SESSION_LIST_MAX,
} from "./service-config.ts";
export type { IdKind, ServiceDeps } from "./service-deps.ts";
export {
  ID_KINDS,
  pooledRandomBytes,
  RANDOM_POOL_BYTES,
  randomIdGenerator,
  systemDeps,
} from "./service-deps.ts";
export type {
  AckCommand,
  AckOutcome,
  FetchCommand,
  FetchOutcome,
  GarbageBounds,
  GarbageCounts,
  InvitationRow,
  MemberSummaryRow,
  MembershipRow,
  MembershipStatus,
  MessageDisposition,
  MessageRow,
  MessageStateColumns,
  PersonMessageRow,
  PrincipalRow,
  SendCommand,
  SendLimits,
  SendOutcome,
  SendRefusal,
  SentMessage,
  SentMessageRow,
  SentMessagesQuery,
  SessionListRow,
  SessionRow,
  Store,
  StoreTx,
  TeamRow,
  WatchFeed,
  WatchFeedTarget,
  WebLoginRow,
  WebSessionRow,
  WindowCount,
} from "./store.ts";
export { MEMBERSHIP_STATUSES, StoreUnavailableError } from "./store.ts";
export { offerStands } from "./transfer-offer.ts";
export type {
  WatchedMembership,
  WatchedMemberships,
  WatchListener,
  WatchSubscription,
} from "./watch-hub.ts";
export { WatchHub } from "./watch-hub.ts";
export {
  isLive,
  isoTime,
  sessionState,
  toEnvelope,
  toSendResponse,
  toSessionRecord,
} from "./wire-records.ts";
