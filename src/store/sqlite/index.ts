export { copySqliteOnline, type SqliteCopy } from "./online-backup.ts";
export { migrate, SQLITE_MIGRATIONS, SQLITE_SCHEMA_VERSION, SqliteSchemaError } from "./schema.ts";
export type {
  ExportedJoinFailure,
  ExportedTeam,
  SqliteExport,
  SqliteExportRefusal,
  StoreSnapshot,
} from "./sqlite-export.ts";
export { openSqliteExport, SQLITE_EXPORT_REFUSALS, SqliteExportError } from "./sqlite-export.ts";
export type { SqliteStoreOptions } from "./sqlite-store.ts";
export {
  openSqliteStore,
  SqliteStore,
  SqliteStoreClosedError,
  SqliteStoreSyncError,
} from "./sqlite-store.ts";
