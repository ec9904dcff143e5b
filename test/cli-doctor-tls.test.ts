// brigade doctor (the built CLI) against a real brigade serve over TLS with a certificate made in
// the test: a machine that does not trust the certificate fails the server and TLS checks with the
// handshake's code and a fix; one that trusts it (NODE_EXTRA_CA_CERTS) passes them and the
// credential check.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { BUILT_MAIN } from "./support/built-cli.ts";
import { makeSelfSigned } from "./support/self-signed.ts";
import { exited, type ServerProcess, startServerProcess } from "./support/server-process.ts";
import { testTempDir } from "./support/temp-dir.ts";

let server: ServerProcess | undefined;

afterAll(async () => {
  server?.child.kill("SIGTERM");
  if (server !== undefined) await exited(server.child);
});

function brigade(args: string[], cwd: string, env: Record<string, string>) {
  return spawnSync(process.execPath, [BUILT_MAIN, ...args], {
    cwd,
    env,
    encoding: "utf8",
    timeout: 30_000,
  });
}

/** The `<status word>  <title>: …` line of one check, and the `fix:` line under it if any. */
function checkLines(stdout: string, title: string): string {
  const lines = stdout.split("\n");
  const at = lines.findIndex((line) => line.slice(8).startsWith(`${title}: `));
  const fix = lines[at + 1]?.trimStart().startsWith("fix: ") ? `\n${lines[at + 1]}` : "";
  return at < 0 ? "" : `${lines[at]}${fix}`;
}

describe("brigade doctor over TLS", () => {
  test("an untrusted certificate fails server and TLS with the handshake's code; a trusted one passes", async () => {
    const root = testTempDir("doctor-tls-");
    const cert = makeSelfSigned(root, "server");
    server = await startServerProcess(join(root, "data", "brigade.sqlite"), {}, undefined, [
      ...["--tls-cert", cert.certFile, "--tls-key", cert.keyFile],
    ]);
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const home = join(root, "home");
    const checkout = join(root, "repo");
    mkdirSync(join(checkout, ".git"), { recursive: true });
    mkdirSync(home, { recursive: true });
    const env = { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin" };
    const trusting = { ...env, NODE_EXTRA_CA_CERTS: cert.certFile };
    const created = brigade(["team", "create", "core", "--server", server.url], checkout, trusting);
    expect(created.stderr).toBe("");
    expect(created.status).toBe(0);

    const untrusted = brigade(["doctor"], checkout, env);
    expect(untrusted.status).toBe(1);
    expect(checkLines(untrusted.stdout, "team binding and consent")).toMatch(/^ {2}ok {4}/);
    const tls = checkLines(untrusted.stdout, "TLS");
    expect(tls).toMatch(
      /^ {2}FAIL {2}TLS: the TLS handshake failed \([A-Z_]+\)\n {8}fix: .*NODE_EXTRA_CA_CERTS/,
    );
    expect(checkLines(untrusted.stdout, "server")).toMatch(
      /^ {2}FAIL {2}server: .* cannot be reached over TLS/,
    );

    const trusted = brigade(["doctor"], checkout, trusting);
    for (const title of ["server", "TLS", "credential"]) {
      expect(checkLines(trusted.stdout, title), title).toMatch(/^ {2}ok {4}/);
    }
  });
});
