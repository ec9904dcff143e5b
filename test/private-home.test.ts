import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { changes, fingerprint, REAL_HOME_ENV } from "./support/private-home.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), "home-guard-"));
  dirs.push(dir);
  mkdirSync(join(dir, ".config", "pip"), { recursive: true });
  writeFileSync(join(dir, ".config", "pip", "pip.conf"), "[global]\n");
  mkdirSync(join(dir, ".claude", "projects"), { recursive: true });
  return dir;
}

test("the run's HOME is private: not the person's home, and inside the run's temp folder", () => {
  const real = process.env[REAL_HOME_ENV];
  expect(real).toBeDefined();
  expect(homedir()).not.toBe(real);
  expect(homedir().startsWith(tmpdir())).toBe(true);
  expect(process.env.XDG_CONFIG_HOME?.startsWith(homedir())).toBe(true);
});

test("a consent record written into ~/.config/brigade is named as new", () => {
  const dir = home();
  const before = fingerprint(dir);
  mkdirSync(join(dir, ".config", "brigade", "consent"), { recursive: true });
  writeFileSync(join(dir, ".config", "brigade", "consent", "a.json"), "{}");
  expect(changes(before, fingerprint(dir))).toEqual([
    ".config/brigade (new)",
    ".config/brigade/consent (new)",
    ".config/brigade/consent/a.json (new)",
  ]);
});

test("a changed or removed file is named; Claude Code's settings are watched, its session logs are not", () => {
  const dir = home();
  const before = fingerprint(dir);
  writeFileSync(join(dir, ".config", "pip", "pip.conf"), "[global]\nchanged = 1\n");
  writeFileSync(join(dir, ".claude", "projects", "session.jsonl"), "{}\n");
  writeFileSync(join(dir, ".claude", "settings.json"), "{}");
  writeFileSync(join(dir, ".bash_history"), "ls\n");
  expect(changes(before, fingerprint(dir))).toEqual([
    ".claude/settings.json (new)",
    ".config/pip/pip.conf (changed)",
  ]);
  // The first download of Claude Code makes the cache's folders: no change of ours.
  mkdirSync(join(dir, ".cache", "brigade", "claude-code", "2.1.334"), { recursive: true });
  mkdirSync(join(dir, ".cache", "brigade", "stray"), { recursive: true });
  expect(changes(before, fingerprint(dir))).toContain(".cache/brigade/stray (new)");
  expect(changes(before, fingerprint(dir)).filter((c) => c.includes("claude-code"))).toEqual([]);
  expect(changes(before, fingerprint(dir))).not.toContain(".cache/brigade (new)");
  rmSync(join(dir, ".config", "pip"), { recursive: true });
  const after = fingerprint(dir);
  expect(changes(fingerprint(dir), after)).toEqual([]);
  expect(changes(before, after)).toContain(".config/pip (removed)");
});
