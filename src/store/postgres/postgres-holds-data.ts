import pg from "pg";

/**
 * Whether the Brigade schema at `connectionString` holds any principal, team, session or message
 * (the migration refuses such a target unless told). Run after the store opened (and migrated)
 * it, so the tables exist.
 */
export async function postgresHoldsData(connectionString: string): Promise<boolean> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const result = await client.query<{ holds: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM principals) OR EXISTS (SELECT 1 FROM teams) " +
        "OR EXISTS (SELECT 1 FROM sessions) OR EXISTS (SELECT 1 FROM messages) AS holds",
    );
    return result.rows[0]?.holds === true;
  } finally {
    await client.end();
  }
}
