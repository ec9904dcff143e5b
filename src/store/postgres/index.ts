export type { InboxEntry, InboxReader } from "./inbox-poll-feed.ts";
export { INBOX_READ_CHUNK_SESSIONS, InboxPollFeed } from "./inbox-poll-feed.ts";
export { isUnavailable } from "./postgres-errors.ts";
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
} from "./postgres-store.ts";
export type {
  BroadcastEvent,
  BroadcastListener,
  PostgresBroadcastOptions,
} from "./postgres-watch-broadcast.ts";
export {
  BROADCAST_DEFAULTS,
  PostgresWatchBroadcast,
  WATCH_CHANNEL,
} from "./postgres-watch-broadcast.ts";
export { createPushWatchFeed, PostgresWatchFeed } from "./postgres-watch-feed.ts";
export {
  migratePostgres,
  POSTGRES_MIGRATIONS,
  POSTGRES_SCHEMA_VERSION,
  PostgresSchemaError,
} from "./schema.ts";
export type { PostgresUrl, PostgresUrlResult } from "./store-url.ts";
export { isPostgresUrl, parsePostgresUrl } from "./store-url.ts";
