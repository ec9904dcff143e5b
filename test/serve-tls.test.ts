import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { connect as tcpConnect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { makeSelfSigned, type SelfSigned } from "./support/self-signed.ts";
import {
  BUILT_CLI,
  ensureBuilt,
  exited,
  type ServerProcess,
  startServerProcess,
} from "./support/server-process.ts";

let root: string;
let first: SelfSigned;
let second: SelfSigned;
const children: ChildProcess[] = [];

beforeAll(() => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), "brigade-tls-"));
  first = makeSelfSigned(root, "first");
  second = makeSelfSigned(root, "second");
});

afterAll(async () => {
  for (const child of children) {
    child.kill("SIGTERM");
    await exited(child);
  }
  rmSync(root, { recursive: true, force: true });
});

function serveRefusal(extra: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(
    process.execPath,
    [BUILT_CLI, "serve", "--port", "0", "--data", join(root, "refused.sqlite"), ...extra],
    { encoding: "utf8", timeout: 15_000 },
  );
  return { status: r.status, stderr: r.stderr };
}

/** GET `path` over HTTPS trusting `ca`: the status and body. */
function httpsGet(
  url: string,
  path: string,
  ca: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, url), { ca, agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The SHA-256 fingerprint of the certificate a new TLS connection is shown. */
function presentedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: "127.0.0.1", port, rejectUnauthorized: false }, () => {
      const fingerprint = socket.getPeerCertificate().fingerprint256;
      socket.end();
      resolve(fingerprint);
    });
    socket.on("error", reject);
  });
}

/** Resolves once the server's stderr holds `needle` (the server logs at info here). */
async function logged(server: ServerProcess, needle: string): Promise<string> {
  while (!server.stderr().includes(needle)) {
    await new Promise<void>((resolve) => server.child.stderr?.once("data", () => resolve()));
  }
  return server.stderr();
}

/** Runs the built http adapter's `team create` against `url` with `env` added. */
function adapterTeamCreate(url: string, configDir: string, env: Record<string, string>) {
  return new Promise<{ status: number | null; stdout: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [BUILT_CLI, "adapter", "http", "team", "create", "--name", "core"],
      {
        env: { ...process.env, BRIGADE_CONFIG_DIR: configDir, BRIGADE_SERVER: url, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.once("exit", (status) => resolve({ status, stdout }));
  });
}

describe("brigade serve --tls-cert --tls-key", () => {
  test("a half pair, an unreadable, a non-PEM or a mismatched file is refused before anything starts", () => {
    expect(serveRefusal(["--tls-cert", first.certFile])).toEqual({
      status: 2,
      stderr: "brigade serve: --tls-cert and --tls-key go together\n",
    });
    const missing = serveRefusal([
      "--tls-cert",
      join(root, "nope.pem"),
      "--tls-key",
      first.keyFile,
    ]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^brigade serve: cannot start \(tls_cert_unreadable\): /);
    expect(missing.stderr).not.toContain("nope.pem");
    const garbage = join(root, "garbage.pem");
    writeFileSync(garbage, "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n");
    expect(serveRefusal(["--tls-cert", garbage, "--tls-key", first.keyFile]).stderr).toContain(
      "(tls_cert_invalid)",
    );
    expect(serveRefusal(["--tls-cert", first.certFile, "--tls-key", garbage]).stderr).toContain(
      "(tls_key_invalid)",
    );
    const mismatch = serveRefusal(["--tls-cert", first.certFile, "--tls-key", second.keyFile]);
    expect(mismatch.status).toBe(1);
    expect(mismatch.stderr).toBe(
      "brigade serve: cannot start (tls_key_mismatch): the --tls-key private key does not belong to the --tls-cert certificate\n",
    );
  });

  test("serves HTTPS that a client trusting the certificate reaches (the http adapter through NODE_EXTRA_CA_CERTS), reloads on SIGHUP, keeps the old pair when the new one is bad, and survives handshake garbage", async () => {
    const certFile = join(root, "live.cert.pem");
    const keyFile = join(root, "live.key.pem");
    copyFileSync(first.certFile, certFile);
    copyFileSync(first.keyFile, keyFile);
    const server = await startServerProcess(join(root, "data", "tls.sqlite"), {}, undefined, [
      ...["--tls-cert", certFile, "--tls-key", keyFile, "--log-level", "info"],
    ]);
    children.push(server.child);
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const port = Number(new URL(server.url).port);

    expect(await httpsGet(server.url, "/v1/health", first.cert)).toEqual({
      status: 200,
      body: '{"status":"ok","protocol_version":"1","store":"sqlite"}',
    });
    await expect(httpsGet(server.url, "/v1/health", second.cert)).rejects.toThrow();

    const trusted = await adapterTeamCreate(server.url, join(root, "cfg-trusted"), {
      NODE_EXTRA_CA_CERTS: first.certFile,
    });
    expect(trusted.status).toBe(0);
    expect(JSON.parse(trusted.stdout)).toMatchObject({ ok: true, result: { team_name: "core" } });
    const untrusted = await adapterTeamCreate(server.url, join(root, "cfg-untrusted"), {});
    expect(untrusted.status).not.toBe(0);
    expect(JSON.parse(untrusted.stdout)).toMatchObject({
      ok: false,
      error: { code: "unavailable" },
    });

    // SIGHUP with renewed files: new connections get the new certificate.
    expect(await presentedFingerprint(port)).toBe(first.fingerprint256);
    copyFileSync(second.certFile, certFile);
    copyFileSync(second.keyFile, keyFile);
    server.child.kill("SIGHUP");
    await logged(server, '"event":"tls_reloaded"');
    expect(await presentedFingerprint(port)).toBe(second.fingerprint256);
    expect((await httpsGet(server.url, "/v1/health", second.cert)).status).toBe(200);

    // A bad new pair keeps the pair in use and says why.
    copyFileSync(first.certFile, certFile);
    server.child.kill("SIGHUP");
    const log = await logged(server, '"event":"tls_reload_failed"');
    expect(log).toContain('"reason":"tls_key_mismatch"');
    expect(await presentedFingerprint(port)).toBe(second.fingerprint256);

    // Handshake garbage and plain HTTP on the TLS port end only their own connection.
    for (const bytes of [
      Buffer.from("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n"),
      Buffer.from([0x16, 0x03, 0x01, 0xff, 0xff, ...Array.from({ length: 64 }, (_, i) => i)]),
      Buffer.alloc(4096, 0xff),
    ]) {
      await new Promise<void>((resolve) => {
        const socket = tcpConnect(port, "127.0.0.1", () => socket.write(bytes));
        socket.on("error", () => resolve());
        socket.on("close", () => resolve());
        socket.resume();
      });
    }
    expect((await httpsGet(server.url, "/v1/health", second.cert)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
});
