import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../../test/support/cli-harness.ts";

let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "host-watch-cli-"));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("brigade host-watch", () => {
  test("a usage error for an unknown client, a client without a door, or a bad pid; never the typed text", async () => {
    for (const argv of [
      ["host-watch"],
      ["host-watch", "\u001b]0;pwn\u0007", "--host-pid", "4242"],
      ["host-watch", "qwen", "--host-pid", "42x"],
      ["host-watch", "qwen", "--pid", "4242"],
      ["host-watch", "gemini", "--host-pid", "4242"],
    ]) {
      const run = await runCli(argv, "", { HOME: home });
      expect(run.status, argv.join(" ")).toBe(2);
      expect(run.stderr).not.toContain("pwn");
    }
  });

  test("a process with no Qwen Code session of Brigade's: not_in_session (exit 11), nothing started", async () => {
    const run = await runCli(["host-watch", "qwen", "--host-pid", "4242"], "", {
      HOME: home,
      XDG_STATE_HOME: join(home, "state"),
    });
    expect(run.status).toBe(11);
    expect(run.stderr).toBe(
      "brigade host-watch: no Brigade session of Qwen Code for this process\n",
    );
  });
});
