import pg from "pg";

/** What `brigade migrate-store` must know of its PostgreSQL target before it writes. */
export interface CopyTargetState {
  /** The Brigade schema holds a principal, team, session or message. */
  readonly holdsData: boolean;
  /**
   * A server has opened the database (the `served` row of schema version 5): its changes are
   * newer than any copy's source, so a copy into it could undo them.
   */
  readonly served: boolean;
}

/**
 * Reads the {@link CopyTargetState} of the Brigade schema at `connectionString`. Run after the
 * store opened (and migrated) it as a copy target, so the tables exist and opening recorded
 * nothing. Rejects with node-postgres's error when the database cannot be read.
 *
 * @example
 * const { holdsData, served } = await readCopyTargetState(url);
 */
export async function readCopyTargetState(connectionString: string): Promise<CopyTargetState> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const result = await client.query<{ holds: boolean; served: boolean }>(
      "SELECT (EXISTS (SELECT 1 FROM principals) OR EXISTS (SELECT 1 FROM teams) " +
        "OR EXISTS (SELECT 1 FROM sessions) OR EXISTS (SELECT 1 FROM messages)) AS holds, " +
        "EXISTS (SELECT 1 FROM served WHERE first_served_at IS NOT NULL) AS served",
    );
    const row = result.rows[0];
    return { holdsData: row?.holds === true, served: row?.served === true };
  } finally {
    await client.end();
  }
}
