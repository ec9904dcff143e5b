import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { testTempDir } from "../../test/support/temp-dir.ts";
import { runAdapter } from "./adapter-command.ts";
import type { CliIo } from "./cli-io.ts";

const noStdin: AsyncIterable<Uint8Array> = {
  [Symbol.asyncIterator]() {
    throw new Error("stdin read");
  },
};

async function run(argv: string[], env: Record<string, string> = {}) {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdin: noStdin,
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env,
  };
  const status = await runAdapter(argv, io);
  return { status, stdout, stderr };
}

describe("brigade adapter", () => {
  test("an unknown adapter name is usage with one envelope and no echo", async () => {
    const r = await run(["nosuch-adapter", "describe"]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe(
      '{"ok":false,"protocol_version":"1","error":{"code":"usage","message":"unknown command","retryable":false,"details":{"reason":"unknown_command"}}}\n',
    );
    expect(r.stdout + r.stderr).not.toContain("nosuch");
  });

  test("http describe works offline on an empty config dir", async () => {
    const dir = join(testTempDir("brigade-cli-"), "cfg");
    const r = await run(["http", "describe", "--profile", "work"], { BRIGADE_CONFIG_DIR: dir });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.result.adapter.name).toBe("brigade-adapter-http");
    expect(out.result.profile).toEqual({ name: "work", state: "unconfigured" });
  });

  test("http session list on an unbound profile is 4 with an envelope", async () => {
    const dir = join(testTempDir("brigade-cli-"), "cfg");
    const r = await run(["http", "session", "list"], { BRIGADE_CONFIG_DIR: dir });
    expect(r.status).toBe(4);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "unauthenticated", retryable: false });
  });
});
