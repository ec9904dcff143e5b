import { Client } from "pg";
import { afterAll, expect, test } from "vitest";
import { freshPostgresSchema } from "../../../test/support/postgres-schema.ts";
import { openPostgresStore } from "./postgres-store.ts";
import { POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION } from "./schema.ts";

const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

test("a version-1 database with messages is brought to the current version and adopts them", async () => {
  const schema = await freshPostgresSchema("upgrade");
  drops.push(schema.drop);
  const client = new Client({ connectionString: schema.url });
  await client.connect();
  try {
    await client.query("CREATE TABLE schema_version (version integer NOT NULL)");
    await client.query("INSERT INTO schema_version VALUES (1)");
    await client.query(POSTGRES_MIGRATIONS[0] as string);
    await client.query(`
      INSERT INTO principals VALUES ('p-a', 'd-a', 1), ('p-b', 'd-b', 1);
      INSERT INTO teams (team_ref, team_name, secret_digest, creator_principal_ref, created_at)
        VALUES ('t-1', 'core', 'd', 'p-a', 1);
      INSERT INTO memberships VALUES ('t-1', 'p-a', NULL, 'active', 1, 1),
        ('t-1', 'p-b', NULL, 'active', 1, 1);
      INSERT INTO sessions (session_id, team_ref, principal_ref, session_name, activity, inbound,
          harness, harness_version, lease_seconds, lease_until, last_seen_at, created_at, closed_at)
        VALUES ('s-a', 't-1', 'p-a', 'a', 'busy', 'accept', 'h', '1', 90, 100, 1, 1, NULL),
          ('s-b', 't-1', 'p-b', 'b', 'busy', 'accept', 'h', '1', 90, 100, 1, 1, 50),
          ('s-b2', 't-1', 'p-b', 'b2', 'busy', 'accept', 'h', '1', 90, 100, 1, 2, NULL);
      WITH m AS (INSERT INTO messages (message_id, team_ref, sender_principal_ref,
          sender_session_id, sender_session_name, recipient_session_id, body, hop_count, created_at)
        VALUES ('m-1', 't-1', 'p-a', 's-a', 'a', 's-b', 'hi', 0, 10) RETURNING seq)
      INSERT INTO inbox SELECT seq, 'm-1', 's-b', 's-a', 10 FROM m;
    `);
  } finally {
    await client.end();
  }
  const store = await openPostgresStore(schema.url);
  try {
    const moved = await store.transact((tx) => tx.adoptMessages("s-b", "s-b2", 60, 10));
    expect(moved.map((m) => [m.message_id, m.recipient_session_id])).toEqual([["m-1", "s-b2"]]);
    const [state] = await store.transact((tx) => tx.sentMessages("s-a", { messageIds: ["m-1"] }));
    expect([state?.sent_to_session_id, state?.disposition]).toEqual(["s-b", "held"]);
  } finally {
    await store.close();
  }
  const check = new Client({ connectionString: schema.url });
  await check.connect();
  try {
    const { rows } = await check.query<{ version: number }>("SELECT version FROM schema_version");
    expect(rows).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
  } finally {
    await check.end();
  }
});
