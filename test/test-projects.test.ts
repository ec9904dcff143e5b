// Every test file runs in exactly one vitest project (vitest.config.ts): a new file never falls
// outside `npm test`, and never runs twice. Vitest itself answers which files each project
// holds, so the check follows its glob rules exactly.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { LONG_FIRST } from "./support/long-first-sequencer.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Folders that hold no test sources of ours. */
const SKIP = new Set(["node_modules", ".git", "dist"]);

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : testFiles(path);
    return /\.test\.[cm]?[jt]sx?$/.test(entry.name) ? [relative(repoRoot, path)] : [];
  });
}

test("each *.test.ts of the repository is in exactly one project", () => {
  const listed = spawnSync(
    process.execPath,
    [join(repoRoot, "node_modules/vitest/vitest.mjs"), "list", "--filesOnly", "--json"],
    { cwd: repoRoot, encoding: "utf8", timeout: 60_000 },
  );
  expect(listed.status, listed.stderr).toBe(0);
  const entries = JSON.parse(listed.stdout) as { file: string; projectName: string }[];
  const projectsOf = new Map<string, string[]>();
  for (const { file, projectName } of entries) {
    const path = relative(repoRoot, file);
    projectsOf.set(path, [...(projectsOf.get(path) ?? []), projectName]);
  }
  const files = testFiles(repoRoot).sort();
  expect(files.length).toBeGreaterThan(100);
  expect(
    files.filter((file) => !projectsOf.has(file)),
    "in no project",
  ).toEqual([]);
  const twice = [...projectsOf].filter(([, projects]) => projects.length > 1);
  expect(twice, "in more than one project").toEqual([]);
  expect([...new Set(entries.map((entry) => entry.projectName))].sort()).toEqual([
    "conformance",
    "pure",
    "real-client",
    "slow",
    "unit",
    "unit-isolated",
  ]);
  // A file that replaces a module must not share a module cache with other files.
  const mocking = files.filter((file) =>
    /\bvi\.(mock|doMock)\(/.test(readFileSync(join(repoRoot, file), "utf8")),
  );
  expect(mocking.length).toBeGreaterThan(0);
  expect(mocking.filter((file) => projectsOf.get(file)?.[0] !== "unit-isolated")).toEqual([]);
  // The long files the sequencer starts first are real files of a project (a rename is seen).
  expect(LONG_FIRST.filter((file) => !projectsOf.has(file))).toEqual([]);
}, 60_000);
