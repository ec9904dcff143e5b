/**
 * A message's envelope as the team server stored it, read straight from the server's SQLite
 * data file: the independent source a test builds the expected frame from, instead of copying it
 * out of what the model read.
 */
import Database from "better-sqlite3";
import type { MessageEnvelope } from "../../../src/protocol/index.ts";
import type { MessageRow } from "../../../src/service/store.ts";
import { toEnvelope } from "../../../src/service/wire-records.ts";

/**
 * The wire envelope of message `messageId` in the data file `dataFile` (opened read-only, so a
 * running `brigade serve` is undisturbed), or `undefined` when no such message is stored.
 */
export function storedEnvelope(dataFile: string, messageId: string): MessageEnvelope | undefined {
  const db = new Database(dataFile, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare("SELECT * FROM messages WHERE message_id = ?").get(messageId) as
      | (MessageRow & { seq: number })
      | undefined;
    return row === undefined ? undefined : toEnvelope(row);
  } finally {
    db.close();
  }
}

/** The ids of every message stored from `senderSessionId` to `recipientSessionId`, oldest first. */
export function storedMessageIds(
  dataFile: string,
  senderSessionId: string,
  recipientSessionId: string,
): string[] {
  const db = new Database(dataFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        "SELECT message_id FROM messages WHERE sender_session_id = ? AND recipient_session_id = ? ORDER BY seq",
      )
      .all(senderSessionId, recipientSessionId) as { message_id: string }[];
    return rows.map((row) => row.message_id);
  } finally {
    db.close();
  }
}
