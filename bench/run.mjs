// Runs every bench/*.bench.mjs in name order, one child process each (a fresh JIT per suite), and
// exits non-zero when any suite fails. Each suite writes its own bench/results/<name>.json.
// `npm run bench -- server postgres` runs only the suites named (the file name without
// `.bench.mjs`); a name that is no suite is refused before anything runs.
//
// What a clean clone needs besides `npm ci`: PostgreSQL's server binaries for postgres.bench.mjs
// (Debian: apt-get install postgresql; it runs its own private cluster), and for
// real-client.bench.mjs tmux and the network once (it downloads the pinned Claude Code, Qwen Code,
// Codex and OpenCode from the npm registry into a cache outside the repository,
// docs/47-real-client-tests.md, docs/49-hosts.md "How long a push takes").
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const benchDir = dirname(fileURLToPath(import.meta.url));
const all = readdirSync(benchDir)
  .filter((name) => name.endsWith(".bench.mjs"))
  .sort();

if (all.length === 0) {
  process.stderr.write("bench: no bench/*.bench.mjs files\n");
  process.exit(1);
}

const names = all.map((file) => file.slice(0, -".bench.mjs".length));
const asked = process.argv.slice(2);
if (asked.some((name) => !names.includes(name))) {
  process.stderr.write(`bench: a name given is no suite; the suites are ${names.join(", ")}\n`);
  process.exit(2);
}
const suites = asked.length === 0 ? all : all.filter((_, i) => asked.includes(names[i]));

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
