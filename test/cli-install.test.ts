// The CLI install the README gives (`npm run install-cli`, i.e. scripts/install-cli.mjs after the
// build): a link on ~/.local/bin to the checkout's bin/brigade, which runs the built CLI with the
// version of package.json, refusing to replace anything that is not such a link.
import { spawnSync } from "node:child_process";
import {
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "./support/built-cli.ts";
import { testTempDir } from "./support/temp-dir.ts";

const SCRIPT = join(REPO_ROOT, "scripts", "install-cli.mjs");
const VERSION: string = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).version;

function install(home: string, args: string[] = [], path = "/usr/bin:/bin") {
  return spawnSync(process.execPath, [SCRIPT, ...args], {
    env: { HOME: home, PATH: path },
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("npm run install-cli (scripts/install-cli.mjs)", () => {
  test("links ~/.local/bin/brigade to the checkout's bin/brigade; it reports package.json's version", () => {
    const home = testTempDir("cli-home-");
    const run = install(home);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const link = join(home, ".local", "bin", "brigade");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(realpathSync(link)).toBe(realpathSync(join(REPO_ROOT, "bin", "brigade")));
    expect(statSync(join(REPO_ROOT, "bin", "brigade")).mode & 0o111).not.toBe(0);
    // The folder is not on this PATH: the script says how to add it.
    expect(run.stdout).toContain(`Installed brigade ${VERSION}`);
    expect(run.stdout).toContain("is not on your PATH");
    // The installed command runs the built CLI, from any folder, by its link.
    const version = spawnSync(link, ["--version"], { cwd: home, encoding: "utf8" });
    expect(version.stdout).toBe(`brigade ${VERSION}\n`);
    const help = spawnSync(link, ["help"], { cwd: home, encoding: "utf8" });
    expect(help.stdout).toMatch(/^usage: brigade <command>/);
    for (const command of ["serve", "demo", "doctor", "team", "send"]) {
      expect(help.stdout).toContain(`\n  ${command} `);
    }
    // Again: the link is replaced in place; on PATH: no hint.
    const again = install(home, [], `${join(home, ".local", "bin")}:/usr/bin:/bin`);
    expect(again.status).toBe(0);
    expect(again.stdout).not.toContain("is not on your PATH");
    expect(readlinkSync(link)).toBe(join(REPO_ROOT, "bin", "brigade"));
    // Uninstall removes only the link.
    const removed = install(home, ["--uninstall"]);
    expect(removed.status).toBe(0);
    expect(() => lstatSync(link)).toThrow();
  });

  test("refuses to replace a brigade that is not a link to a Brigade checkout", () => {
    const home = testTempDir("cli-home-");
    const bin = join(home, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "brigade"), "#!/bin/sh\necho mine\n", { mode: 0o755 });
    const run = install(home, ["--bin-dir", bin]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("is not a link to a Brigade checkout; nothing changed");
    expect(readFileSync(join(bin, "brigade"), "utf8")).toBe("#!/bin/sh\necho mine\n");
    expect(install(home, ["--bin-dir", bin, "--uninstall"]).status).toBe(2);
    // a link to another program's bin/brigade is not ours either
    const other = join(home, "other");
    mkdirSync(join(other, "bin"), { recursive: true });
    writeFileSync(join(other, "bin", "brigade"), "#!/bin/sh\n", { mode: 0o755 });
    const linkDir = join(home, "links");
    mkdirSync(linkDir);
    symlinkSync(join(other, "bin", "brigade"), join(linkDir, "brigade"));
    expect(install(home, ["--bin-dir", linkDir]).status).toBe(2);
    expect(readlinkSync(join(linkDir, "brigade"))).toBe(join(other, "bin", "brigade"));
    expect(install(home, ["--bin-dir", "relative/bin"]).status).toBe(2);
    const noHome = spawnSync(process.execPath, [SCRIPT], { env: {}, encoding: "utf8" });
    expect(noHome.status).toBe(2);
    expect(noHome.stderr).toContain("no bin folder");
  });
});
