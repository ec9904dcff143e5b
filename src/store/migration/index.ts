export type {
  KindReport,
  MigratedKind,
  MigrateOptions,
  MigrationFailure,
  MigrationReport,
} from "./migrate-store.ts";
export {
  MIGRATED_KINDS,
  MIGRATION_BATCH_ROWS,
  MIGRATION_FAILURES,
  MigrationError,
  migrateStore,
} from "./migrate-store.ts";
