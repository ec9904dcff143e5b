import { randomBytes } from "node:crypto";
import { Client } from "pg";

/** Environment variable through which the run's private cluster reaches the workers. */
export const POSTGRES_URL_ENV = "BRIGADE_TEST_POSTGRES_URL";

/** The run's private cluster (started by `test/support/postgres-setup.ts`), or a clear failure. */
export function testPostgresUrl(): string {
  const url = process.env[POSTGRES_URL_ENV];
  if (url === undefined || url === "") {
    throw new Error(`${POSTGRES_URL_ENV} is not set: the vitest global setup starts the cluster`);
  }
  return url;
}

/** A fresh, empty schema of the test cluster and the address whose connections use it. */
export interface FreshSchema {
  /** The cluster address with `options=-c search_path=<schema>`: a store on it is alone. */
  readonly url: string;
  readonly schema: string;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

/**
 * Creates an empty schema named `prefix_<random>` on the run's cluster. Every store, server or
 * tool opened on {@link FreshSchema.url} migrates and works inside it only, so tests never see
 * each other's rows (advisory locks are per database, so tests can only wait on each other's
 * identical ids, never wrongly pass).
 */
export async function freshPostgresSchema(prefix = "t"): Promise<FreshSchema> {
  const base = testPostgresUrl();
  const schema = `${prefix}_${randomBytes(6).toString("hex")}`;
  await adminQuery(base, `CREATE SCHEMA ${schema}`);
  const url = new URL(base);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    url: url.toString(),
    schema,
    drop: () => adminQuery(base, `DROP SCHEMA IF EXISTS ${schema} CASCADE`),
  };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
