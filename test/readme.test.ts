// The README as a new user follows it: the Quick start keeps its two lines, the CLI line is a real
// script, brigade demo comes first, the toolchain is named, and the team example keeps the join
// secret out of the repository.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "./support/built-cli.ts";

const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
const scripts: Record<string, string> = JSON.parse(
  readFileSync(join(REPO_ROOT, "package.json"), "utf8"),
).scripts;

function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

describe("README", () => {
  test("the Quick start's first code block is exactly its two lines", () => {
    const quick = section("Quick start");
    const first = /```sh\n([\s\S]*?)```/.exec(quick)?.[1];
    expect(first).toBe("npm ci && npm start\nnpm test\n");
  });

  test("names the toolchain better-sqlite3 needs and the measured install time", () => {
    const quick = section("Quick start");
    for (const tool of ["python3", "make", "g++", "Node.js 20.19"]) expect(quick).toContain(tool);
    expect(quick).toMatch(/`npm ci` from a fresh clone took \d+ min \d+ s/);
  });

  test("the CLI line is a package script; brigade demo is pointed to before the plugin", () => {
    expect(readme).toContain("npm run install-cli");
    expect(scripts["install-cli"]).toContain("scripts/install-cli.mjs");
    const demo = readme.indexOf("brigade demo");
    expect(demo).toBeGreaterThan(0);
    expect(demo).toBeLessThan(readme.indexOf("## The Claude Code plugin"));
    expect(readme).toContain("brigade doctor");
    expect(readme).toContain("(docs/50-operator.md)");
  });

  test("no team command writes the join secret into the repository folder", () => {
    const commands = [...readme.matchAll(/`(brigade team [^`]*)`/g)].map((m) => m[1] as string);
    expect(commands.some((c) => c.startsWith("brigade team create"))).toBe(true);
    for (const command of commands) {
      const file = /--secret-file\s+(\S+)/.exec(command)?.[1];
      if (file === undefined || file === "<path>") continue;
      expect(file.startsWith("./") || !file.includes("/"), command).toBe(false);
    }
  });
});
