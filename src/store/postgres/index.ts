export type { InboxEntry, InboxReader } from "./inbox-poll-feed.ts";
export { INBOX_READ_CHUNK_SESSIONS, InboxPollFeed } from "./inbox-poll-feed.ts";
export type { ListenLossReason } from "./listen-loss-reason.ts";
export { LISTEN_LOSS_REASONS, listenLossReason } from "./listen-loss-reason.ts";
export type { EndedMembershipReader } from "./membership-sweep.ts";
export {
  endedMembershipReader,
  MEMBERSHIP_CHECK_CHUNK,
  MembershipSweep,
} from "./membership-sweep.ts";
export type { MissedDeliveries } from "./missed-notification-audit.ts";
export {
  MISSED_NOTIFICATION_GRACE_MS,
  MissedNotificationAudit,
} from "./missed-notification-audit.ts";
export { connectFailureCode, connectRefusal, isUnavailable } from "./postgres-errors.ts";
export type {
  PostgresStoreOptions,
  StoppableWatchFeed,
  WatchFeedContext,
} from "./postgres-store.ts";
export {
  openPostgresStore,
  PostgresStore,
  PostgresStoreClosedError,
  PostgresUrlError,
  SEND_SQL,
  SEND_STATEMENT,
} from "./postgres-store.ts";
export type {
  BroadcastEvent,
  BroadcastEventDetail,
  BroadcastListener,
  PostgresBroadcastOptions,
} from "./postgres-watch-broadcast.ts";
export {
  BROADCAST_DEFAULTS,
  PostgresWatchBroadcast,
  WATCH_CHANNEL,
} from "./postgres-watch-broadcast.ts";
export type { PostgresWatchFeedParts } from "./postgres-watch-feed.ts";
export { createPushWatchFeed, PostgresWatchFeed } from "./postgres-watch-feed.ts";
export {
  migratePostgres,
  POSTGRES_MIGRATIONS,
  POSTGRES_SCHEMA_VERSION,
  PostgresSchemaError,
} from "./schema.ts";
export type { PostgresUrl, PostgresUrlResult } from "./store-url.ts";
export { isPostgresUrl, parsePostgresUrl } from "./store-url.ts";
export type { FeedLog } from "./watch-feed-log.ts";
export {
  MISSED_LOG_INTERVAL_MS,
  RETRY_LOG_EVERY,
  RETRY_LOG_FIRST,
  WatchFeedLog,
} from "./watch-feed-log.ts";
