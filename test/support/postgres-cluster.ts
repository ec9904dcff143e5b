import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where the Debian packages put PostgreSQL's server binaries: `<root>/<major>/bin`. */
const DEBIAN_ROOT = "/usr/lib/postgresql";

/** The database role of the private cluster (trust authentication on loopback only). */
export const CLUSTER_USER = "brigade";

/** A running private cluster. */
export interface PostgresCluster {
  /** `postgres://brigade@127.0.0.1:<port>/postgres`: the cluster's admin address. */
  readonly url: string;
  readonly port: number;
  /**
   * Restarts the server (same port, same data): what a fault test uses. `immediate` stops it as
   * a crash would (no checkpoint, every connection cut; recovery replays the WAL at start).
   * Asynchronous, so a load driven from the same process keeps running through it.
   */
  restart(mode?: "fast" | "immediate"): Promise<void>;
  /** The postmaster's process id (its backends are its children). */
  postmasterPid(): number;
  /** Stops the server and removes its folder; idempotent. */
  stop(): void;
}

/**
 * The folder with `initdb` and `pg_ctl`: `BRIGADE_PG_BIN` when set, else the newest Debian major
 * installed (15 on this machine image), or `undefined` when none is.
 */
export function postgresBinDir(): string | undefined {
  const fromEnv = process.env.BRIGADE_PG_BIN;
  if (fromEnv !== undefined && existsSync(join(fromEnv, "pg_ctl"))) return fromEnv;
  const majors = existsSync(DEBIAN_ROOT) ? readdirSync(DEBIAN_ROOT) : [];
  return majors
    .filter((m) => /^\d+$/.test(m))
    .sort((a, b) => Number(b) - Number(a))
    .map((m) => join(DEBIAN_ROOT, m, "bin"))
    .find((dir) => existsSync(join(dir, "pg_ctl")));
}

/** A free loopback TCP port (bound then released). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * PostgreSQL refuses to run as root: as root, the binaries run as the `postgres` user (which
 * the Debian package creates), and the cluster folder is handed to it.
 */
function runAs(bin: string, args: readonly string[], owner: string | undefined): void {
  const command = owner === undefined ? bin : "runuser";
  const full = owner === undefined ? [...args] : ["-u", owner, "--", bin, ...args];
  const result = spawnSync(command, full, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (result.status !== 0) {
    throw new Error(
      `${bin.split("/").pop()} failed (${result.status}): ${result.stderr.slice(-800)}`,
    );
  }
}

/** {@link runAs} without blocking the event loop. */
function runAsAsync(
  bin: string,
  args: readonly string[],
  owner: string | undefined,
): Promise<void> {
  const command = owner === undefined ? bin : "runuser";
  const full = owner === undefined ? [...args] : ["-u", owner, "--", bin, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(command, full, { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString("utf8");
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${bin.split("/").pop()} failed (${code}): ${err.slice(-800)}`));
    });
  });
}

/**
 * Starts a private PostgreSQL cluster: `initdb` in a fresh temp folder (every parent of it must be
 * searchable by the server user when running as root, so not below a 0700 folder) (trust authentication,
 * fsync kept on, the role {@link CLUSTER_USER}), `pg_ctl start` listening on 127.0.0.1 only on a
 * free port with its socket in the same folder, made in `parent` (default: the temp folder).
 * Throws when no PostgreSQL is installed (`.ci/run` installs it) or the cluster does not start.
 */
export async function startPostgresCluster(parent: string = tmpdir()): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (bin === undefined) {
    throw new Error(
      "PostgreSQL server binaries not found (install postgresql-15 or postgresql; .ci/run does)",
    );
  }
  const owner = process.getuid?.() === 0 ? "postgres" : undefined;
  const dir = mkdtempSync(join(parent, "brigade-pg-"));
  const data = join(dir, "data");
  const log = join(dir, "server.log");
  let started = false;
  const stop = (): void => {
    if (started) {
      started = false;
      try {
        runAs(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"], owner);
      } catch {
        // Already gone: nothing to stop.
      }
    }
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  };
  try {
    if (owner !== undefined) {
      // The folder (0700 from mkdtemp) becomes the server user's: it writes the data, the log and
      // the socket there, and nobody else can look in.
      const uid = Number(execFileSync("id", ["-u", owner], { encoding: "utf8" }).trim());
      const gid = Number(execFileSync("id", ["-g", owner], { encoding: "utf8" }).trim());
      chownSync(dir, uid, gid);
    }
    runAs(
      join(bin, "initdb"),
      [
        "-D",
        data,
        "-A",
        "trust",
        "-U",
        CLUSTER_USER,
        "-E",
        "UTF8",
        "--locale=C.UTF-8",
        "--no-sync",
      ],
      owner,
    );
    const port = await freeLoopbackPort();
    const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`;
    const start = (): void =>
      runAs(
        join(bin, "pg_ctl"),
        ["-D", data, "-o", serverOptions, "-l", log, "-w", "-t", "60", "start"],
        owner,
      );
    start();
    started = true;
    return {
      url: `postgres://${CLUSTER_USER}@127.0.0.1:${port}/postgres`,
      port,
      restart: async (mode = "fast") => {
        await runAsAsync(join(bin, "pg_ctl"), ["-D", data, "-m", mode, "-w", "stop"], owner);
        await runAsAsync(
          join(bin, "pg_ctl"),
          ["-D", data, "-o", serverOptions, "-l", log, "-w", "-t", "60", "start"],
          owner,
        );
      },
      postmasterPid: () =>
        Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]),
      stop,
    };
  } catch (error) {
    stop();
    throw error;
  }
}

/** Runs one SQL command through `psql` against `url` (setup helpers only). */
export function psql(url: string, sql: string): string {
  return execFileSync("psql", [url, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-c", sql], {
    encoding: "utf8",
  });
}
