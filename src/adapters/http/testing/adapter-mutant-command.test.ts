import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runAdapterMutant } from "./adapter-mutant-command.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function* noStdin(): AsyncGenerator<Uint8Array> {}

async function run(argv: string[], stdin: AsyncIterable<Uint8Array> = noStdin()) {
  const dir = mkdtempSync(join(tmpdir(), "adapter-mutant-"));
  dirs.push(dir);
  let stdout = "";
  const status = await runAdapterMutant(argv, {
    stdin,
    stdout: (text) => {
      stdout += text;
    },
    stderr: () => {},
    env: { BRIGADE_CONFIG_DIR: join(dir, "config"), HOME: dir },
  });
  return { status, envelope: JSON.parse(stdout) as Record<string, unknown>, lines: stdout };
}

describe("runAdapterMutant", () => {
  test.each([
    [["adapter", "http", "describe"]],
    [["--test-mutant", "nonsense", "adapter", "http", "describe"]],
    [["--test-mutant", "team_leak", "adapter", "other", "describe"]],
    [["--test-mutant", "team_leak", "http", "describe"]],
  ])("a malformed prefix or unknown mutant is usage (2) with one envelope: %j", async (argv) => {
    const r = await run(argv);
    expect(r.status).toBe(2);
    expect(r.lines.endsWith("}\n") && r.lines.split("\n").length === 2).toBe(true);
    expect((r.envelope.error as { code: string }).code).toBe("usage");
    expect(r.lines).not.toContain("nonsense");
  });

  test.each([
    "no_ack_persistence",
    "team_leak",
    "trusted_sender",
    "caps_swapped",
    "weak_admin",
    "state_leak",
    "live_stale",
    "removed_reachable",
    "creator_leaves",
    "eager_transfer",
    "token_kept",
    "invitation_reuse",
  ])("%s runs the real adapter: describe on an empty profile is unconfigured", async (mutant) => {
    const r = await run(["--test-mutant", mutant, "adapter", "http", "describe"]);
    expect(r.status).toBe(0);
    const result = r.envelope.result as { profile: { state: string } };
    expect(result.profile.state).toBe("unconfigured");
  });

  test("trusted_sender keeps the local checks first: an unbound send is refused before stdin is read", async () => {
    let read = false;
    const stdin: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]() {
        read = true;
        return noStdin()[Symbol.asyncIterator]();
      },
    };
    const r = await run(
      ["--test-mutant", "trusted_sender", "adapter", "http", "message", "send"],
      stdin,
    );
    expect([4, 11]).toContain(r.status);
    expect(read).toBe(false);
  });
});
