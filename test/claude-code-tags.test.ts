// The sanitiser reads Claude Code's own content tags from a list kept as data
// (src/formats/sanitize/claude-code-tags.ts). This checks the list against the real client: the
// pinned version and the newest one published, whose executable it reads (downloaded into the
// shared cache when missing). It fails when the client marks its content with a tag the list
// lacks; the fix is to regenerate the list (the failure says how).
import { execFile } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import {
  CLAUDE_CODE_CHOICES,
  claudeCodeExecutable,
} from "./support/real-claude/claude-executable.ts";

const run = promisify(execFile);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe.each(Object.values(CLAUDE_CODE_CHOICES))(
  "Claude Code's own tags, $which client",
  ({ version }) => {
    test("the committed list holds every tag the client marks its content with", async () => {
      const executable = await claudeCodeExecutable(await version());
      const check = await run(
        process.execPath,
        ["scripts/generate-claude-code-tags.mjs", "--check", executable],
        { cwd: repoRoot, encoding: "utf8", timeout: 120_000 },
      ).catch((error: { stdout?: string; stderr?: string }) => ({
        stdout: error.stdout ?? "",
        stderr: error.stderr ?? String(error),
      }));
      expect(check.stderr).toBe("");
      expect(check.stdout).toContain("covers the");
    }, 900_000);
  },
);
