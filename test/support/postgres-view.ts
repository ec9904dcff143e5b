import pg from "pg";
import type { DatabaseView, StoredMessage } from "./load-journal.ts";

/** The {@link DatabaseView} of a Brigade PostgreSQL schema (`url` may carry its search_path). */
export function postgresView(url: string): DatabaseView {
  return {
    async messagesFrom(senders) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const result = await client.query<StoredMessage>(
          "SELECT m.message_id, m.sender_session_id, m.recipient_session_id, m.idempotency_key, " +
            "NOT EXISTS (SELECT 1 FROM inbox i WHERE i.message_id = m.message_id) AS acked " +
            "FROM messages m WHERE m.sender_session_id = ANY($1::text[])",
          [senders],
        );
        return result.rows;
      } finally {
        await client.end();
      }
    },
  };
}
