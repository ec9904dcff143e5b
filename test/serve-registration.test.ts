import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runAdapter } from "../src/cli/adapter-command.ts";
import { BUILT_CLI, ensureBuilt, exited } from "./support/server-process.ts";

let root: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), "brigade-registration-"));
});

afterAll(async () => {
  for (const child of children) {
    child.kill("SIGTERM");
    await exited(child);
  }
  rmSync(root, { recursive: true, force: true });
});

/**
 * Starts the built `brigade serve` and resolves once it listens (and, with `expectKey`, once the
 * key line followed); `output()` is everything it printed on stdout so far.
 */
function serve(
  dataFile: string,
  extra: string[],
  expectKey: boolean,
): Promise<{ url: string; output: () => string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [BUILT_CLI, "serve", "--port", "0", "--data", dataFile, "--log-level", "warn", ...extra],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let out = "";
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const match = /listening on (http:\/\/\S+)\n/.exec(out);
      if (match !== null && (!expectKey || /operator key.*\n/.test(out))) {
        resolve({ url: match[1] as string, output: () => out, child });
      }
    });
    child.once("exit", (code) => reject(new Error(`brigade serve exited (${code})`)));
  });
}

async function adapter(configDir: string, argv: string[], env: Record<string, string>) {
  let stdout = "";
  const status = await runAdapter(["http", ...argv], {
    stdin: {
      [Symbol.asyncIterator]() {
        throw new Error("no stdin expected");
      },
    },
    stdout: (t) => {
      stdout += t;
    },
    stderr: () => {},
    env: { BRIGADE_CONFIG_DIR: configDir, ...env },
  });
  return { status, out: JSON.parse(stdout) as Record<string, unknown> };
}

describe("brigade serve --registration", () => {
  test("a bad value is a usage error (2) before anything starts", () => {
    const r = spawnSync(process.execPath, [BUILT_CLI, "serve", "--registration", "ajar"], {
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("brigade serve: --registration must be open or closed\n");
  });

  test("closed: the key is printed once, stored as a digest, and admits team create through the adapter and the CLI", async () => {
    const dataFile = join(root, "closed", "brigade.sqlite");
    mkdirSync(join(root, "closed"));
    const first = await serve(dataFile, ["--registration", "closed"], true);
    const keyLine =
      first
        .output()
        .split("\n")
        .find((l) => l.includes("operator key")) ?? "";
    const key = /(brgop1\.[A-Za-z0-9_-]{43})$/.exec(keyLine)?.[1] ?? "";
    expect(key).not.toBe("");
    const stored = readFileSync(`${dataFile}.operator-key`, "utf8");
    expect(stored).toMatch(/^sha256:[0-9a-f]{64}\n$/);
    expect(stored).not.toContain(key.slice(7));

    const keyFile = join(root, "operator.key");
    writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
    const env = { BRIGADE_SERVER: first.url };
    const refused = await adapter(join(root, "cfg-a"), ["team", "create", "--name", "x"], env);
    expect(refused.status).toBe(5);
    expect(refused.out).toMatchObject({ error: { details: { reason: "registration_closed" } } });
    const admitted = await adapter(join(root, "cfg-b"), ["team", "create", "--name", "x"], {
      ...env,
      BRIGADE_OPERATOR_KEY_FILE: keyFile,
    });
    expect(admitted.status).toBe(0);
    chmodSync(keyFile, 0o644);
    const loose = await adapter(join(root, "cfg-c"), ["team", "create", "--name", "x"], {
      ...env,
      BRIGADE_OPERATOR_KEY_FILE: keyFile,
    });
    expect(loose.status).toBe(11);
    chmodSync(keyFile, 0o600);

    // The human CLI: the key from a file, never on argv.
    const checkout = join(root, "checkout");
    mkdirSync(checkout);
    const cliEnv = { ...process.env, BRIGADE_CONFIG_DIR: join(root, "cfg-cli"), CLAUDE_PID: "" };
    const without = spawnSync(
      process.execPath,
      [BUILT_CLI, "team", "create", "core", "--server", first.url],
      {
        cwd: checkout,
        env: cliEnv,
        encoding: "utf8",
      },
    );
    expect(without.status).toBe(5);
    expect(without.stderr).toContain("--operator-key-file");
    const withKey = spawnSync(
      process.execPath,
      [BUILT_CLI, "team", "create", "core", "--server", first.url, "--operator-key-file", keyFile],
      { cwd: checkout, env: cliEnv, encoding: "utf8" },
    );
    expect(withKey.status).toBe(0);
    expect(withKey.stdout + withKey.stderr).not.toContain(key);

    first.child.kill("SIGTERM");
    await exited(first.child);
    // The second start finds the digest: no key is printed, the same key still admits.
    const second = await serve(dataFile, ["--registration", "closed"], false);
    const again = await adapter(join(root, "cfg-d"), ["team", "create", "--name", "y"], {
      BRIGADE_SERVER: second.url,
      BRIGADE_OPERATOR_KEY_FILE: keyFile,
    });
    expect(again.status).toBe(0);
    // The later start prints its start-up lines and no key.
    expect(second.output()).toMatch(new RegExp(`^brigade serve: listening on ${second.url}\n`));
    expect(second.output()).not.toContain("brgop1.");
  });
});
