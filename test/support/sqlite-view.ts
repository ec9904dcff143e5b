import Database from "better-sqlite3";
import type { DatabaseView, StoredMessage } from "./load-journal.ts";

/** The {@link DatabaseView} of a `brigade serve` SQLite file (opened read-only per call). */
export function sqliteView(dataFile: string): DatabaseView {
  return {
    async messagesFrom(senders) {
      const db = new Database(dataFile, { readonly: true, fileMustExist: true });
      try {
        const rows = db
          .prepare(
            "SELECT message_id, sender_session_id, recipient_session_id, idempotency_key, " +
              "acked_at IS NOT NULL AS acked FROM messages " +
              "WHERE sender_session_id IN (SELECT value FROM json_each(?))",
          )
          .all(JSON.stringify(senders)) as (Omit<StoredMessage, "acked"> & { acked: number })[];
        return rows.map((r) => ({ ...r, acked: r.acked === 1 }));
      } finally {
        db.close();
      }
    },
  };
}
