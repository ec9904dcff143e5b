// Smoke test of the BUILT command line: `node dist/cli/main.js` as a child process, the way a
// user or a hook runs it, on the bundled hostile samples.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, test } from "vitest";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const MAIN = join(repoRoot, "dist/cli/main.js");
const BUILD_TIMEOUT_MS = 120_000;
const RUN_TIMEOUT_MS = 15_000;

/** The newest modification time of a non-test source file below `dir`, in ms. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const info = statSync(path);
    if (info.isDirectory()) {
      if (name !== "testdata") newest = Math.max(newest, newestSource(path));
    } else if (name.endsWith(".ts") && !name.endsWith(".test.ts")) {
      newest = Math.max(newest, info.mtimeMs);
    }
  }
  return newest;
}

/**
 * Builds `dist` when `main.js` is missing or older than a source file. tsc emits even when some
 * unrelated folder has type errors, so the exit status is not the gate: the emitted entry point is.
 */
function ensureBuilt(): void {
  if (existsSync(MAIN) && statSync(MAIN).mtimeMs >= newestSource(join(repoRoot, "src"))) return;
  const build = spawnSync("npx", ["tsc", "-b", "tsconfig.build.json"], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: BUILD_TIMEOUT_MS,
  });
  if (!existsSync(MAIN)) {
    throw new Error(`build did not produce dist/cli/main.js (status ${build.status})`);
  }
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function brigade(args: string[], input = ""): Run {
  const run = spawnSync(process.execPath, [MAIN, ...args], {
    cwd: repoRoot,
    input,
    encoding: "utf8",
    timeout: RUN_TIMEOUT_MS,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const sample = (name: string): string => readFileSync(join(repoRoot, "samples", name), "utf8");

describe("built CLI (node dist/cli/main.js)", () => {
  beforeAll(ensureBuilt, BUILD_TIMEOUT_MS + 10_000);

  test("frame on the hostile envelope, then inspect --json: one genuine frame, no forged tag", () => {
    const framed = brigade(["frame", "--team", "core"], sample("hostile-envelope.json"));
    expect(framed.stderr).toBe("");
    expect(framed.status).toBe(0);
    expect(framed.stdout.startsWith('<brigade-message team="core" message-id="m-5h2k9q"')).toBe(
      true,
    );
    expect(framed.stdout.endsWith("\n</brigade-message>\n")).toBe(true);

    const inspected = brigade(["inspect", "--json"], framed.stdout);
    expect(inspected.stderr).toBe("");
    expect(inspected.status).toBe(0);
    const report = JSON.parse(inspected.stdout) as {
      frames: { ok: boolean; frame?: Record<string, unknown> }[];
      forgedTags: unknown[];
    };
    expect(report.frames).toHaveLength(1);
    expect(report.frames[0]?.ok).toBe(true);
    // The server-stamped identity, not the forged `p-admin` of the body.
    expect(report.frames[0]?.frame).toMatchObject({
      team: "core",
      messageId: "m-5h2k9q",
      replyToSessionId: "s-x4m7",
      fromPrincipal: "p-8rw3",
      fromName: "deploy-bot&lt;/brigade-message",
      fromLabel: "Ops root admin (unverified)",
      hops: "2",
      sentAt: "2026-12-02T09:30:00Z",
    });
    expect(report.forgedTags).toEqual([]);
  });

  test("inspect on the hostile message exits 0 and reports its forgeries", () => {
    const run = brigade(["inspect"], sample("hostile-message.txt"));
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    // The sample carries a raw second frame and a raw reminder after the real frame.
    expect(run.stdout).toMatch(/^frames: \d+, envelopes: \d+, forged tags: [1-9]\d*, /);
  });

  test("an unknown command exits 2 with one stderr line and no stack trace", () => {
    const run = brigade(["no-such-command"]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    const lines = run.stderr.split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe("");
    expect(lines[0]).toMatch(/^brigade: /);
    expect(run.stderr).not.toMatch(/\bat .+:\d+:\d+|Error:|node:internal/);
    expect(run.stderr).not.toContain("no-such-command");
  });
});
