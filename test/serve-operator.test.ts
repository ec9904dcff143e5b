import { type ChildProcess, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCall } from "./support/api-call.ts";
import {
  BUILT_CLI,
  ensureBuilt,
  exited,
  REPO_ROOT,
  type ServerProcess,
  startServerProcess,
} from "./support/server-process.ts";

let root: string;
const children: ChildProcess[] = [];
const VERSION = (
  JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
    version: string;
  }
).version;

beforeAll(() => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), "brigade-operator-"));
});

afterAll(async () => {
  for (const child of children) {
    child.kill("SIGTERM");
    await exited(child);
  }
  rmSync(root, { recursive: true, force: true });
});

async function serve(name: string, extra: string[] = []): Promise<ServerProcess> {
  const server = await startServerProcess(join(root, name, "brigade.sqlite"), {}, undefined, extra);
  children.push(server.child);
  return server;
}

/** Mints a principal with `X-Forwarded-For: forwarded` (when given): the HTTP status. */
async function mint(url: string, forwarded?: string): Promise<number> {
  const headers: Record<string, string> =
    forwarded === undefined ? {} : { "x-forwarded-for": forwarded };
  return (await apiCall(url, "POST", "/v1/principals", { body: {}, headers })).status;
}

/** Mints until the per-address limit (30 a minute) is spent for `forwarded`. */
async function spend(url: string, forwarded?: string): Promise<void> {
  for (let i = 0; i < 30; i += 1) expect(await mint(url, forwarded)).toBe(200);
}

describe("brigade serve start-up", () => {
  test("a reader of its output that goes away (brigade serve | head -1, a restarted log collector) does not stop the server", async () => {
    const server = await serve("reader-gone", ["--log-level", "info"]);
    server.child.stdout?.destroy();
    server.child.stderr?.destroy();
    // Each request logs a line on the closed stderr; the server must keep answering.
    for (let i = 0; i < 5; i += 1) {
      expect((await apiCall(server.url, "GET", "/v1/health")).status).toBe(200);
    }
    server.child.kill("SIGTERM");
    await exited(server.child);
    expect(server.child.exitCode).toBe(0);
  });

  test("names the URL, the version, the data file and the registration mode", async () => {
    const server = await serve("startup");
    const lines = server.stdout().split("\n");
    expect(lines.slice(0, 4)).toEqual([
      `brigade serve: listening on ${server.url}`,
      `brigade serve: version ${VERSION}`,
      `brigade serve: data file ${join(root, "startup", "brigade.sqlite")}`,
      "brigade serve: registration open (anyone who can reach this server may create teams)",
    ]);
  });

  test("a taken port is one line naming the port and what to do; a missing --data folder is refused, not created", async () => {
    const server = await serve("taken");
    const port = new URL(server.url).port;
    const taken = spawnSync(
      process.execPath,
      [BUILT_CLI, "serve", "--port", port, "--data", join(root, "taken", "other.sqlite")],
      { encoding: "utf8", timeout: 15_000 },
    );
    expect(taken.status).toBe(1);
    expect(taken.stderr).toBe(
      `brigade serve: cannot start (EADDRINUSE): port ${port} is already in use (another brigade serve?); stop what holds it, or pick another with --port\n`,
    );
    const missing = join(root, "no", "such", "folder");
    const refused = spawnSync(
      process.execPath,
      [BUILT_CLI, "serve", "--port", "0", "--data", join(missing, "brigade.sqlite")],
      { encoding: "utf8", timeout: 15_000 },
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      "brigade serve: cannot start (data_folder_missing): the folder of --data does not exist; create it first (mkdir -p -m 700 <folder>) or point --data at an existing folder\n",
    );
    expect(existsSync(join(root, "no"))).toBe(false);
  });
});

describe("brigade serve --limit", () => {
  test("a limit set on the command line binds, is named in the start-up lines and in the operator view of /v1/health", async () => {
    const server = await serve("limits", [
      ...["--registration", "closed"],
      ...["--limit", "principals_per_address_per_minute=40"],
      ...["--limit", "watches_per_session=6"],
    ]);
    const lines = server.stdout().split("\n");
    const key = /(brgop1\.[A-Za-z0-9_-]{43})$/.exec(lines[1] ?? "")?.[1] ?? "";
    expect(key).not.toBe("");
    expect(lines.filter((line) => line.includes(" limit "))).toEqual([
      "brigade serve: limit principals_per_address_per_minute 40 (default 30)",
      "brigade serve: limit watches_per_session 6 (default 4)",
    ]);
    for (let i = 0; i < 40; i += 1) expect(await mint(server.url)).toBe(200);
    expect(await mint(server.url)).toBe(429);

    const operator = await apiCall(server.url, "GET", "/v1/health", {
      headers: { "x-brigade-operator-key": key },
    });
    expect(operator.json).toMatchObject({
      status: "ok",
      limits: {
        principals_per_address_per_minute: 40,
        principals_per_address_per_hour: 120,
        watches_per_session: 6,
      },
    });
    const anyone = await apiCall(server.url, "GET", "/v1/health");
    expect(anyone.json).toEqual({ status: "ok", protocol_version: "1", store: "sqlite" });
  });
});

describe("GET /", () => {
  test("a short text page with the version and the docs, JSON to Accept: application/json, HEAD like GET without a body, 405 for every other method", async () => {
    const server = await serve("home");
    const page = await apiCall(server.url, "GET", "/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/plain; charset=UTF-8");
    expect(page.text).toContain(`Brigade team server ${VERSION}`);
    expect(page.text).toContain("docs/50-operator.md");
    const browser = await apiCall(server.url, "GET", "/", {
      headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" },
    });
    expect(browser.text).toBe(page.text);
    const json = await apiCall(server.url, "GET", "/", { headers: { accept: "application/json" } });
    expect(json.json).toEqual({
      name: "brigade",
      version: VERSION,
      protocol_version: "1",
      api: "/v1",
      health: "/v1/health",
      docs: "docs/30-http-api.md and docs/50-operator.md in the Brigade repository",
    });
    const head = await apiCall(server.url, "HEAD", "/");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("text/plain; charset=UTF-8");
    expect(head.text).toBe("");
    for (const method of ["OPTIONS", "POST", "PUT", "DELETE", "PATCH"]) {
      const r = await apiCall(server.url, method, "/");
      expect(r.status, method).toBe(405);
      expect(r.headers.get("allow"), method).toBe("GET, HEAD");
    }
    const hostile = await apiCall(server.url, "GET", "/", {
      headers: { accept: `application/json;q=${"9".repeat(2000)}` },
    });
    expect(hostile.status).toBe(200);
    expect(hostile.text).toBe(page.text);
  });

  test("a header block over the server's limit is refused with 431 and the server goes on", async () => {
    const server = await serve("huge");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(new URL("/", server.url), {
        headers: { "x-forwarded-for": "1.2.3.4,".repeat(4096) },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(431);
    expect((await apiCall(server.url, "GET", "/v1/health")).status).toBe(200);
  });
});

describe("--trust-proxy: whose address the per-address limits count", () => {
  test("without the flag, X-Forwarded-For is ignored: a spoofed header changes nothing", async () => {
    const server = await serve("direct");
    for (let i = 0; i < 30; i += 1) expect(await mint(server.url, `198.51.100.${i}`)).toBe(200);
    expect(await mint(server.url, "198.51.100.200")).toBe(429);
    expect(await mint(server.url)).toBe(429);
  });

  test("with --trust-proxy, a loopback proxy's X-Forwarded-For names the client; a bogus one counts as the proxy", async () => {
    const server = await serve("proxied", ["--trust-proxy"]);
    expect(server.stdout()).toContain(
      "brigade serve: client addresses read from X-Forwarded-For of trusted proxies\n",
    );
    await spend(server.url, "203.0.113.1");
    expect(await mint(server.url, "203.0.113.1")).toBe(429);
    // A client cannot pick its key by prepending: the proxy's own entry is on the right.
    expect(await mint(server.url, "198.51.100.9, 203.0.113.1")).toBe(429);
    expect(await mint(server.url, "203.0.113.2")).toBe(200);
    expect(await mint(server.url, "::ffff:203.0.113.1")).toBe(429);
    // Bogus values are all keyed on the proxy itself, one shared budget.
    const bogus = ["garbage", "203.0.113.9:443", "", "1.2.3.4, not-an-ip", `${"9".repeat(300)}`];
    for (let i = 0; i < 30; i += 1) {
      expect(await mint(server.url, bogus[i % bogus.length])).toBe(200);
    }
    expect(await mint(server.url, "garbage")).toBe(429);
    expect(await mint(server.url)).toBe(429);
    expect(await mint(server.url, "203.0.113.3")).toBe(200);
  });

  test("with --trusted-proxy naming another address, the loopback peer is not a proxy and its header is ignored", async () => {
    const server = await serve("other-proxy", ["--trusted-proxy", "10.0.0.0/8"]);
    for (let i = 0; i < 30; i += 1) expect(await mint(server.url, `203.0.113.${i}`)).toBe(200);
    expect(await mint(server.url, "203.0.113.250")).toBe(429);
  });

  test("a --trusted-proxy that is not an address or subnet is a usage error that does not echo it", () => {
    const r = spawnSync(
      process.execPath,
      [BUILT_CLI, "serve", "--trusted-proxy", "evil\u001b[31m/99"],
      { encoding: "utf8", timeout: 15_000 },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "brigade serve: --trusted-proxy must be an IP address or subnet (10.0.0.5, 10.0.0.0/8, fd00::/8)\n",
    );
  });
});
