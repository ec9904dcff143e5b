import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RoundRobinProxy } from "./round-robin-proxy.ts";
import { exited, type ServerProcess, startServerProcess } from "./server-process.ts";

/**
 * Several `brigade serve --store <url>` processes on one PostgreSQL database behind a
 * {@link RoundRobinProxy}. Each process has its own folder (its `--data` only locates the operator
 * key file; the messages live in the database).
 */
export class ServerGroup {
  readonly #url: string;
  readonly #dir: string;
  readonly #extra: readonly string[];
  readonly servers: ServerProcess[];
  readonly proxy: RoundRobinProxy;

  private constructor(
    url: string,
    dir: string,
    extra: readonly string[],
    servers: ServerProcess[],
    proxy: RoundRobinProxy,
  ) {
    this.#url = url;
    this.#dir = dir;
    this.#extra = extra;
    this.servers = servers;
    this.proxy = proxy;
  }

  /**
   * Starts `count` processes on the database at `url` and a proxy in front of them; `extra` flags
   * go to each `brigade serve` (and to each replacement).
   */
  static async start(url: string, count = 3, extra: readonly string[] = []): Promise<ServerGroup> {
    const dir = mkdtempSync(join(tmpdir(), "brigade-group-"));
    const servers: ServerProcess[] = [];
    try {
      for (let i = 0; i < count; i++) servers.push(await ServerGroup.#spawn(url, dir, i, extra));
      const proxy = await RoundRobinProxy.start(servers.map((s) => s.url));
      return new ServerGroup(url, dir, extra, servers, proxy);
    } catch (error) {
      for (const s of servers) s.child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }

  static #spawn(
    url: string,
    dir: string,
    index: number,
    extra: readonly string[],
  ): Promise<ServerProcess> {
    return startServerProcess(join(dir, `server-${index}`, "brigade.sqlite"), {}, undefined, [
      "--store",
      url,
      ...extra,
    ]);
  }

  /** SIGKILLs process `index`, starts a new one in its place and points the proxy at it. */
  async killAndReplace(index: number): Promise<void> {
    const old = this.servers[index];
    if (old === undefined) throw new Error("no such server");
    old.child.kill("SIGKILL");
    await exited(old.child);
    const fresh = await ServerGroup.#spawn(this.#url, this.#dir, index, this.#extra);
    this.servers[index] = fresh;
    this.proxy.replaceBackend(index, fresh.url);
  }

  /** Stops the proxy and every process (SIGTERM, then SIGKILL after 5 s), removes the folder. */
  async stop(): Promise<void> {
    await this.proxy.stop();
    await Promise.all(
      this.servers.map(async (s) => {
        s.child.kill("SIGTERM");
        const timer = setTimeout(() => s.child.kill("SIGKILL"), 5000);
        await exited(s.child);
        clearTimeout(timer);
      }),
    );
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
