export { copySqliteOnline, type SqliteCopy } from "./online-backup.ts";
export { migrate, SQLITE_MIGRATIONS, SQLITE_SCHEMA_VERSION, SqliteSchemaError } from "./schema.ts";
export type { SqliteStoreOptions } from "./sqlite-store.ts";
export {
  openSqliteStore,
  SqliteStore,
  SqliteStoreClosedError,
  SqliteStoreSyncError,
} from "./sqlite-store.ts";
