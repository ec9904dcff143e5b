// Runs every bench/*.bench.mjs in name order, one child process each (a fresh JIT per suite), and
// exits non-zero when any suite fails. Each suite writes its own bench/results/<name>.json.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const benchDir = dirname(fileURLToPath(import.meta.url));
const suites = readdirSync(benchDir)
  .filter((name) => name.endsWith(".bench.mjs"))
  .sort();

if (suites.length === 0) {
  process.stderr.write("bench: no bench/*.bench.mjs files\n");
  process.exit(1);
}

let failed = 0;
for (const suite of suites) {
  process.stdout.write(`\n== ${suite}\n`);
  const run = spawnSync(process.execPath, [join(benchDir, suite)], { stdio: "inherit" });
  if (run.status !== 0) {
    failed++;
    process.stderr.write(`bench: ${suite} failed (status ${run.status ?? run.signal})\n`);
  }
}
process.exit(failed === 0 ? 0 : 1);
