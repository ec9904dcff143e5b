import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, test } from "vitest";
import { SQLITE_SCHEMA_VERSION } from "./schema.ts";
import {
  EXPORTED_COLUMNS,
  NOT_EXPORTED_COLUMNS,
  NOT_EXPORTED_TABLES,
} from "./sqlite-export-columns.ts";
import { openSqliteStore } from "./sqlite-store.ts";

const dir = mkdtempSync(join(tmpdir(), "brigade-export-columns-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every table of the file and its columns, as SQLite itself describes them. */
function liveSchema(db: Database.Database): Map<string, string[]> {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .pluck()
    .all() as string[];
  return new Map(
    tables.map((table) => [
      table,
      (db.pragma(`table_info(${JSON.stringify(table)})`) as { name: string }[]).map((c) => c.name),
    ]),
  );
}

/**
 * What the export neither reads nor names as left behind, and what the lists name that the
 * schema lacks (a list gone stale), one line each.
 */
function coverageGaps(schema: Map<string, string[]>): string[] {
  const exported: Record<string, readonly string[]> = EXPORTED_COLUMNS;
  const gaps: string[] = [];
  for (const [table, columns] of schema) {
    const read = exported[table];
    const skipped = NOT_EXPORTED_TABLES[table];
    if (read !== undefined && skipped !== undefined) gaps.push(`${table}: both read and skipped`);
    if (skipped !== undefined) continue;
    for (const column of columns) {
      const name = `${table}.${column}`;
      const isRead = read?.includes(column) === true;
      const isSkipped = NOT_EXPORTED_COLUMNS[name] !== undefined;
      if (isRead && isSkipped) gaps.push(`${name}: both read and skipped`);
      if (!isRead && !isSkipped) gaps.push(`${name}: neither carried nor listed as not carried`);
    }
  }
  for (const [table, columns] of Object.entries(exported)) {
    for (const column of columns) {
      if (schema.get(table)?.includes(column) !== true)
        gaps.push(`${table}.${column}: no such column`);
    }
  }
  for (const table of Object.keys(NOT_EXPORTED_TABLES)) {
    if (!schema.has(table)) gaps.push(`${table}: no such table`);
  }
  for (const name of Object.keys(NOT_EXPORTED_COLUMNS)) {
    const [table = "", column = ""] = name.split(".");
    if (schema.get(table)?.includes(column) !== true) gaps.push(`${name}: no such column`);
  }
  return gaps;
}

/** A fresh data file at the current schema version, made as `brigade serve` makes one. */
async function freshDataFile(name: string): Promise<string> {
  const file = join(dir, name);
  // The store's own opening migrates the file; closing it leaves the file as a server would.
  await openSqliteStore(file).close();
  return file;
}

describe("what migrate-store carries of the SQLite schema", () => {
  test("every table and column of the current schema is carried by the export or listed as not carried, with why", async () => {
    const file = await freshDataFile("current.sqlite");
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare("SELECT version FROM schema_version").pluck().get()).toBe(
        SQLITE_SCHEMA_VERSION,
      );
      const schema = liveSchema(db);
      // A column added by a migration lands here until EXPORTED_COLUMNS carries it (and the
      // PostgreSQL store keeps it: the copy's verification compares it) or NOT_EXPORTED_COLUMNS
      // says why losing it loses nothing; a new table the same, through NOT_EXPORTED_TABLES.
      expect(coverageGaps(schema)).toEqual([]);
      // The guard looked at the schema it meant to: the tables of the last migrations are there.
      expect([...schema.keys()]).toEqual(
        expect.arrayContaining(["messages", "invitations", "blobs", "web_sessions"]),
      );
      expect(schema.get("messages")).toContain("released_at");
      for (const reason of [
        ...Object.values(NOT_EXPORTED_TABLES),
        ...Object.values(NOT_EXPORTED_COLUMNS),
      ]) {
        expect(reason.length).toBeGreaterThan(20);
      }
    } finally {
      db.close();
    }
  });

  test("a column or table a later migration adds is named until the lists account for it", async () => {
    const file = await freshDataFile("next.sqlite");
    const db = new Database(file);
    try {
      db.exec(
        "ALTER TABLE messages ADD COLUMN pinned_at INTEGER; " +
          "CREATE TABLE reactions (message_id TEXT NOT NULL, emoji TEXT NOT NULL) STRICT",
      );
      expect(coverageGaps(liveSchema(db))).toEqual([
        "messages.pinned_at: neither carried nor listed as not carried",
        "reactions.message_id: neither carried nor listed as not carried",
        "reactions.emoji: neither carried nor listed as not carried",
      ]);
    } finally {
      db.close();
    }
  });
});
