import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { runCli } from "../../test/support/cli-harness.ts";
import { readQwenControllerToken } from "../harness/qwen/index.ts";
import { currentUid } from "../local-files/index.ts";

const TOKEN = `qpc_${"5e".repeat(32)}`;
let home: string;
let config: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "qwen-token-"));
  config = join(home, ".config", "brigade");
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const env = (over: Record<string, string> = {}) => ({ HOME: home, ...over });

describe("brigade qwen token", () => {
  test("keeps the token from stdin in a 0600 file where the push lane reads it, never printing it", async () => {
    const run = await runCli(["qwen", "token"], `  ${TOKEN}\n`, env());
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).not.toContain(TOKEN);
    const path = join(config, "qwen-controller-token");
    expect(readFileSync(path, "utf8")).toBe(`${TOKEN}\n`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readQwenControllerToken(config, currentUid())).toEqual({ ok: true, token: TOKEN });
    const cleared = await runCli(["qwen", "token", "--clear"], "", env());
    expect(cleared.status).toBe(0);
    expect(readQwenControllerToken(config, currentUid())).toEqual({ ok: true, token: undefined });
  });

  test("refused inside any agent session, a Qwen Code one included; nothing written", async () => {
    for (const over of [
      { CLAUDECODE: "1" },
      { QWEN_CODE_SESSION_ID: "7a2d" },
      { GEMINI_CLI: "1" },
    ]) {
      const run = await runCli(["qwen", "token"], TOKEN, env(over));
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/run it in your own terminal/);
    }
    expect(readQwenControllerToken(config, currentUid())).toEqual({ ok: true, token: undefined });
  });

  test("anything but one token is bad_token, and the typed text is never repeated", async () => {
    for (const input of [
      "",
      "qpc_short",
      `${TOKEN} ${TOKEN}`,
      `\u001b]0;pwn\u0007`,
      `QPC_${"5e".repeat(32)}`,
    ]) {
      const run = await runCli(["qwen", "token"], input, env());
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/^brigade qwen token: bad_token: /);
      expect(run.stderr).not.toContain("pwn");
    }
    expect((await runCli(["qwen", "tokens"], "", env())).status).toBe(2);
    expect((await runCli(["qwen", "token", TOKEN], "", env())).status).toBe(2);
  });

  test("the lane reads no token from a file that is not private, a link, or not a token", () => {
    const path = join(config, "qwen-controller-token");
    writeFileSync(join(home, "elsewhere"), `${TOKEN}\n`, { mode: 0o600 });
    for (const plant of [
      () => writeFileSync(path, `${TOKEN}\n`, { mode: 0o644 }),
      () => symlinkSync(join(home, "elsewhere"), path),
      () => writeFileSync(path, "not a token\n", { mode: 0o600 }),
    ]) {
      rmSync(config, { recursive: true, force: true });
      mkdirSync(config, { recursive: true, mode: 0o700 });
      plant();
      expect(readQwenControllerToken(config, currentUid())).toEqual({
        ok: false,
        code: "unreadable",
      });
    }
  });
});
