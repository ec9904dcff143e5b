import type { TestProject } from "vitest/node";
import { startPostgresCluster } from "./postgres-cluster.ts";
import { POSTGRES_URL_ENV } from "./postgres-schema.ts";

/**
 * Vitest global setup: one private PostgreSQL cluster for the whole run (see
 * `startPostgresCluster`), its address handed to every worker in {@link POSTGRES_URL_ENV}, and
 * stopped with its folder removed when the run ends, whether the tests passed or not. Every
 * project inherits this setup; the first to run starts the cluster and the others find it through
 * the variable. A run that already has the variable set (an outside cluster) uses that one; a run
 * with `BRIGADE_TEST_NO_POSTGRES=1` starts none.
 */
export default async function setup(_project: TestProject): Promise<(() => void) | undefined> {
  if (process.env[POSTGRES_URL_ENV] !== undefined) return undefined;
  // The real-client run of scripts/run-tests.mjs needs no database; a test that asks for one
  // there fails naming the missing variable.
  if (process.env.BRIGADE_TEST_NO_POSTGRES === "1") return undefined;
  const cluster = await startPostgresCluster();
  process.env[POSTGRES_URL_ENV] = cluster.url;
  const stop = (): void => cluster.stop();
  // A run interrupted before teardown (Ctrl-C) must not leave a server behind either.
  process.once("exit", stop);
  return () => {
    process.off("exit", stop);
    delete process.env[POSTGRES_URL_ENV];
    stop();
  };
}
