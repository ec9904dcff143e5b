export { copySqliteOnline, type SqliteCopy } from "./online-backup.ts";
export { migrate, SQLITE_MIGRATIONS, SQLITE_SCHEMA_VERSION, SqliteSchemaError } from "./schema.ts";
export type {
  ExportedChunk,
  ExportedJoinFailure,
  ExportedTeam,
  LiveBrowserSignIns,
  SqliteExport,
  SqliteExportRefusal,
  StoreSnapshot,
} from "./sqlite-export.ts";
export { openSqliteExport, SQLITE_EXPORT_REFUSALS, SqliteExportError } from "./sqlite-export.ts";
export {
  EXPORTED_COLUMNS,
  type ExportedTable,
  NOT_EXPORTED_COLUMNS,
  NOT_EXPORTED_TABLES,
} from "./sqlite-export-columns.ts";
export type { SqliteStoreOptions } from "./sqlite-store.ts";
export {
  openSqliteStore,
  SqliteStore,
  SqliteStoreClosedError,
  SqliteStoreSyncError,
} from "./sqlite-store.ts";
