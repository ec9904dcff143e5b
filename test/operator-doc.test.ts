import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { BUILT_CLI, ensureBuilt, REPO_ROOT } from "./support/server-process.ts";

const CHAPTER = readFileSync(join(REPO_ROOT, "docs", "50-operator.md"), "utf8");

/** The one ```ini block of the operator chapter: the systemd unit. */
function unitOfChapter(): string {
  const blocks = [...CHAPTER.matchAll(/```ini\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  expect(blocks).toHaveLength(1);
  return blocks[0] as string;
}

const systemdAnalyze =
  spawnSync("systemd-analyze", ["--version"], { encoding: "utf8" }).status === 0;

describe("docs/50-operator.md", () => {
  test.skipIf(!systemdAnalyze)(
    "the systemd unit passes systemd-analyze verify without a warning",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "brigade-unit-"));
      try {
        const unit = join(dir, "brigade.service");
        writeFileSync(unit, unitOfChapter());
        const verified = spawnSync("systemd-analyze", ["verify", unit], { encoding: "utf8" });
        expect(verified.stderr).toBe("");
        expect(verified.status).toBe(0);
        // Positive control: the same check sees a misspelt key.
        writeFileSync(unit, unitOfChapter().replace("UMask=", "Umask="));
        expect(
          spawnSync("systemd-analyze", ["verify", unit], { encoding: "utf8" }).stderr,
        ).toContain("Umask");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  test("the unit runs the built CLI with flags brigade serve knows, reloads with SIGHUP and keeps files private", () => {
    ensureBuilt();
    const unit = unitOfChapter();
    const exec = /ExecStart=([\s\S]*?)\n(?!\s)/.exec(unit)?.[1]?.replace(/\\\n\s*/g, " ") ?? "";
    expect(exec).toMatch(/^\/usr\/bin\/node \/opt\/brigade\/dist\/cli\/main\.js serve /);
    // The built CLI parses the unit's exact arguments (--help stops before anything starts).
    const args = exec.split(/\s+/).slice(2);
    const parsed = spawnSync(process.execPath, [BUILT_CLI, ...args, "--help"], {
      encoding: "utf8",
    });
    expect(parsed.stderr).toBe("");
    expect(parsed.status).toBe(0);
    expect(unit).toContain("ExecReload=/bin/kill -HUP $MAINPID");
    expect(unit).toContain("UMask=0077");
  });
});
