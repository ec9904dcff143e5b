import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "pg";
import { afterAll, expect, test } from "vitest";
import { freshPostgresSchema } from "../../../test/support/postgres-schema.ts";
import { SEND_LIMITS } from "../../service/index.ts";
import { openPostgresStore } from "./postgres-store.ts";
import { POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION } from "./schema.ts";
import { POSTGRES_FUNCTIONS_DIGEST } from "./schema-functions.ts";

const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

const RELEASED = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../../test/testdata/postgres-schema",
);

/** Migration `i` (0-based) as it was released: its kept text when it was changed since. */
function releasedMigration(i: number): string {
  const kept = join(RELEASED, `migration-${i + 1}.sql`);
  return existsSync(kept) ? readFileSync(kept, "utf8") : (POSTGRES_MIGRATIONS[i] as string);
}

async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** A fresh schema at `version` as the released code left it, with a team and a message. */
async function databaseAt(version: number): Promise<string> {
  const schema = await freshPostgresSchema(`upgrade_v${version}`);
  drops.push(schema.drop);
  await withClient(schema.url, async (client) => {
    await client.query("CREATE TABLE schema_version (version integer NOT NULL)");
    await client.query("INSERT INTO schema_version VALUES ($1)", [version]);
    for (let i = 0; i < version; i += 1) await client.query(releasedMigration(i));
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
  });
  return schema.url;
}

/** The version row and the recorded function digest. */
async function recorded(url: string): Promise<[number | undefined, string | undefined]> {
  return withClient(url, async (client) => {
    const version = await client.query<{ version: number }>("SELECT version FROM schema_version");
    const digest = await client.query<{ digest: string }>("SELECT digest FROM schema_functions");
    expect(digest.rows.length).toBe(1);
    return [version.rows[0]?.version, digest.rows[0]?.digest];
  });
}

const EARLIER = Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, i) => i + 1);

test.each(EARLIER)(
  "a version-%i database as released is brought to the current schema and functions",
  async (version) => {
    const url = await databaseAt(version);
    const store = await openPostgresStore(url);
    try {
      const moved = await store.transact((tx) => tx.adoptMessages("s-b", "s-b2", 60, 10));
      expect(moved.map((m) => [m.message_id, m.recipient_session_id])).toEqual([["m-1", "s-b2"]]);
      const [state] = await store.transact((tx) => tx.sentMessages("s-a", { messageIds: ["m-1"] }));
      expect([state?.sent_to_session_id, state?.disposition]).toEqual(["s-b", "held"]);
      // Only the current send function reads the messages as addressed now: a reply from the
      // adopting session to what it adopted is accepted, one hop further.
      const reply = await store.sendMessage({
        principalRef: "p-b",
        teamRef: "t-1",
        senderSessionId: "s-b2",
        recipientSessionId: "s-a",
        body: "back",
        summary: null,
        replyTo: "m-1",
        idempotencyKey: null,
        messageId: "m-2",
        limits: SEND_LIMITS,
        now: Date.now(),
      });
      expect(reply.ok && [reply.duplicate, reply.message.hop_count]).toEqual([false, 1]);
    } finally {
      await store.close();
    }
    expect(await recorded(url)).toEqual([POSTGRES_SCHEMA_VERSION, POSTGRES_FUNCTIONS_DIGEST]);
  },
);

/** The source of `brigade_now_ms` as the database holds it. */
async function clockSource(url: string): Promise<string | undefined> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ src: string }>(
      "SELECT prosrc AS src FROM pg_proc WHERE oid = 'brigade_now_ms'::regproc",
    );
    return rows[0]?.src;
  });
}

test("the functions are put in place again exactly when the recorded digest differs", async () => {
  const schema = await freshPostgresSchema("functions");
  drops.push(schema.drop);
  await (await openPostgresStore(schema.url)).close();
  const replaced =
    "CREATE OR REPLACE FUNCTION brigade_now_ms() RETURNS bigint LANGUAGE sql AS $$ SELECT 0::bigint $$";
  await withClient(schema.url, (client) => client.query(replaced));

  // The digest still matches: a start leaves the functions as they are, with no DDL.
  await (await openPostgresStore(schema.url)).close();
  expect(await clockSource(schema.url)).toContain("SELECT 0::bigint");

  await withClient(schema.url, (client) =>
    client.query("UPDATE schema_functions SET digest = 'x'"),
  );
  await (await openPostgresStore(schema.url)).close();
  expect(await clockSource(schema.url)).toContain("clock_timestamp()");
  expect(await recorded(schema.url)).toEqual([POSTGRES_SCHEMA_VERSION, POSTGRES_FUNCTIONS_DIGEST]);
});

test("processes starting at once on a new database migrate it and record the digest once", async () => {
  const schema = await freshPostgresSchema("together");
  drops.push(schema.drop);
  const stores = await Promise.all([1, 2, 3, 4].map(() => openPostgresStore(schema.url)));
  await Promise.all(stores.map((store) => store.close()));
  expect(await recorded(schema.url)).toEqual([POSTGRES_SCHEMA_VERSION, POSTGRES_FUNCTIONS_DIGEST]);
});

test("migration 10: an offer standing at the upgrade gets the whole 7 days from then; a team without one gets no end", async () => {
  const url = await databaseAt(9);
  await withClient(url, (client) =>
    client.query(`
      INSERT INTO teams (team_ref, team_name, secret_digest, creator_principal_ref, created_at)
        VALUES ('t-2', 'plain', 'd2', 'p-a', 1);
      UPDATE teams SET offered_to_principal_ref = 'p-b' WHERE team_ref = 't-1';
    `),
  );
  const before = Date.now();
  await (await openPostgresStore(url)).close();
  const after = Date.now();
  const rows = await withClient(url, async (client) => {
    const read = await client.query<{ team_ref: string; end: number | null }>(
      "SELECT team_ref, offer_expires_at::float8 AS end FROM teams ORDER BY team_ref",
    );
    return read.rows;
  });
  const week = 7 * 24 * 3600 * 1000;
  expect(rows[1]).toEqual({ team_ref: "t-2", end: null });
  expect(rows[0]?.end).toBeGreaterThanOrEqual(before + week);
  expect(rows[0]?.end).toBeLessThanOrEqual(after + week);
});
