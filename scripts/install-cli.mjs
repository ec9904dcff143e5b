#!/usr/bin/env node
// Puts the person's `brigade` command on PATH: a symbolic link <bin-dir>/brigade → this checkout's
// bin/brigade, which runs dist/cli/main.js (docs/46-cli.md). Run through
// `npm run install-cli`, which builds first. No sudo and no npm global prefix: ~/.local/bin is the
// user's own (XDG), for root and non-root alike.
//
// Usage: node scripts/install-cli.mjs [--bin-dir <dir>] [--uninstall]
// Exit status: 0 done, 1 the installed command does not run, 2 refused (nothing changed).
import { spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "bin", "brigade");

function refuse(line) {
  process.stderr.write(`install-cli: ${line}\n`);
  return 2;
}

/**
 * True when `link` is a symbolic link to some Brigade checkout's bin/brigade (ours to replace):
 * its target is named bin/brigade and the package.json above it names brigade, or the target is
 * gone altogether (a link to a checkout since removed).
 */
function isBrigadeLink(link) {
  let to;
  try {
    if (!lstatSync(link).isSymbolicLink()) return false;
    to = resolve(dirname(link), readlinkSync(link));
  } catch {
    return false;
  }
  if (!to.endsWith(join("bin", "brigade"))) return false;
  if (!existsSync(to)) return true;
  try {
    const pkg = JSON.parse(readFileSync(join(dirname(to), "..", "package.json"), "utf8"));
    return pkg.name === "brigade";
  } catch {
    return false;
  }
}

function onPath(folder) {
  const real = (p) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  return (process.env.PATH ?? "")
    .split(delimiter)
    .some((entry) => isAbsolute(entry) && real(entry) === real(folder));
}

function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: { "bin-dir": { type: "string" }, uninstall: { type: "boolean", default: false } },
      strict: true,
      allowPositionals: false,
    }));
  } catch {
    return refuse("usage: node scripts/install-cli.mjs [--bin-dir <dir>] [--uninstall]");
  }
  const home = process.env.HOME;
  const binDir =
    values["bin-dir"] ?? (home && isAbsolute(home) ? join(home, ".local", "bin") : undefined);
  if (binDir === undefined || !isAbsolute(binDir)) {
    return refuse("no bin folder: set HOME, or pass --bin-dir <absolute path>");
  }
  const link = join(binDir, "brigade");
  const present = existsSync(link) || isBrigadeLink(link);
  if (present && !isBrigadeLink(link)) {
    return refuse(
      `${link} exists and is not a link to a Brigade checkout; nothing changed (remove it, or pass --bin-dir <dir>)`,
    );
  }
  if (values.uninstall) {
    if (present) rmSync(link);
    process.stdout.write(present ? `Removed ${link}.\n` : `No Brigade CLI link at ${link}.\n`);
    return 0;
  }
  if (!existsSync(join(root, "dist", "cli", "main.js"))) {
    return refuse(
      "this checkout is not built: run `npm run build` first (npm run install-cli does)",
    );
  }
  mkdirSync(binDir, { recursive: true, mode: 0o755 });
  // A new link beside the old one, renamed over it: the command is never missing meanwhile.
  const temporary = join(binDir, `.brigade.${process.pid}.tmp`);
  rmSync(temporary, { force: true });
  symlinkSync(target, temporary);
  renameSync(temporary, link);
  const run = spawnSync(link, ["--version"], { encoding: "utf8", timeout: 30_000 });
  if (run.status !== 0) {
    process.stderr.write(`install-cli: ${link} was written but does not run: ${run.stderr}`);
    return 1;
  }
  process.stdout.write(`Installed ${run.stdout.trim()}: ${link} -> ${target}\n`);
  if (!onPath(binDir)) {
    process.stdout.write(
      [
        `${binDir} is not on your PATH. Add it (then open a new terminal):`,
        `  echo 'export PATH="${binDir}:$PATH"' >> ~/.profile`,
        "",
      ].join("\n"),
    );
  } else {
    const which = spawnSync("sh", ["-c", "command -v brigade"], { encoding: "utf8" });
    const first = which.stdout.trim();
    if (first !== "" && first !== link) {
      process.stdout.write(
        `Another brigade comes earlier on your PATH (${first}); remove it, or put ${binDir} first.\n`,
      );
    }
  }
  return 0;
}

process.exitCode = main();
