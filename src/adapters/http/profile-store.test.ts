import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { testTempDir } from "../../../test/support/temp-dir.ts";
import { ensurePrivateDir, readPrivateFile, writePrivateFileAtomic } from "../private-files.ts";
import { locateConfigDir, resolveProfileName } from "./config-location.ts";
import { summarizeProfile } from "./describe-profile.ts";
import { ProfileStore } from "./profile-store.ts";

const fresh = (): string => testTempDir("brigade-profile-");
const mode = (path: string): number => statSync(path).mode & 0o777;

describe("config location", () => {
  const READ_REFUSE = { variable: "read", relative: "refuse" } as const;

  test("BRIGADE_CONFIG_DIR, else XDG_CONFIG_HOME/brigade, else ~/.config/brigade", () => {
    const env = { BRIGADE_CONFIG_DIR: "/c", XDG_CONFIG_HOME: "/x", HOME: "/h" };
    expect(locateConfigDir(env, READ_REFUSE)).toEqual({ ok: true, dir: "/c", source: "variable" });
    expect(locateConfigDir({ ...env, BRIGADE_CONFIG_DIR: "" }, READ_REFUSE)).toEqual({
      ok: true,
      dir: "/x/brigade",
      source: "xdg",
    });
    expect(locateConfigDir({ HOME: "/h", XDG_CONFIG_HOME: "x" }, READ_REFUSE)).toEqual({
      ok: true,
      dir: "/h/.config/brigade",
      source: "home",
    });
    expect(locateConfigDir({ HOME: "h" }, READ_REFUSE)).toEqual({ ok: false, reason: "no_base" });
    expect(locateConfigDir({}, READ_REFUSE)).toEqual({ ok: false, reason: "no_base" });
  });

  test("the rule's two choices: an ignored variable, and a relative one refused or skipped", () => {
    const env = { BRIGADE_CONFIG_DIR: "/c", HOME: "/h" };
    const home = { ok: true, dir: "/h/.config/brigade", source: "home" };
    expect(locateConfigDir(env, { variable: "ignore", relative: "refuse" })).toEqual(home);
    const relative = { BRIGADE_CONFIG_DIR: "rel", HOME: "/h" };
    expect(locateConfigDir(relative, READ_REFUSE)).toEqual({
      ok: false,
      reason: "variable_relative",
    });
    expect(locateConfigDir(relative, { variable: "read", relative: "fall_back" })).toEqual(home);
  });

  test("--profile, else BRIGADE_PROFILE, else default", () => {
    expect(resolveProfileName("work", { BRIGADE_PROFILE: "x" })).toBe("work");
    expect(resolveProfileName(undefined, { BRIGADE_PROFILE: "x" })).toBe("x");
    expect(resolveProfileName(undefined, { BRIGADE_PROFILE: "" })).toBe("default");
    expect(resolveProfileName(undefined, {})).toBe("default");
  });
});

describe("private files", () => {
  test("folders are created 0700 and files 0600, whatever the umask", () => {
    const old = process.umask(0o000);
    try {
      const root = fresh();
      const dir = join(root, "a", "b");
      ensurePrivateDir(dir);
      expect(mode(dir)).toBe(0o700);
      writePrivateFileAtomic(join(dir, "f.json"), "{}\n");
      expect(mode(join(dir, "f.json"))).toBe(0o600);
    } finally {
      process.umask(old);
    }
  });

  test("an existing loose folder is tightened to 0700", () => {
    const dir = join(fresh(), "loose");
    ensurePrivateDir(dir);
    chmodSync(dir, 0o755);
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
  });

  test("atomic write replaces the whole file and leaves no temporary behind", () => {
    const dir = fresh();
    const path = join(dir, "f.json");
    writeFileSync(path, "old content that is longer\n", { mode: 0o600 });
    writePrivateFileAtomic(path, "new\n");
    expect(readFileSync(path, "utf8")).toBe("new\n");
    expect(readdirSync(dir)).toEqual(["f.json"]);
  });

  test("a failed write leaves the old file and no temporary", () => {
    const dir = fresh();
    const path = join(dir, "f.json");
    writeFileSync(path, "old\n", { mode: 0o600 });
    // Renaming a file over a non-empty folder fails after the temporary was written.
    const blocker = join(dir, "blocked");
    ensurePrivateDir(join(blocker, "inner"));
    expect(() => writePrivateFileAtomic(blocker, "x")).toThrow(/file I\/O failed/);
    expect(readdirSync(dir).sort()).toEqual(["blocked", "f.json"]);
    expect(readFileSync(path, "utf8")).toBe("old\n");
  });

  test("readPrivateFile: missing, world-readable refused, ok", () => {
    const dir = fresh();
    const path = join(dir, "f");
    expect(readPrivateFile(path)).toEqual({ kind: "missing" });
    writeFileSync(path, "x", { mode: 0o644 });
    chmodSync(path, 0o644);
    expect(readPrivateFile(path)).toEqual({ kind: "world_readable" });
    chmodSync(path, 0o640);
    expect(readPrivateFile(path)).toEqual({ kind: "world_readable" });
    chmodSync(path, 0o600);
    expect(readPrivateFile(path)).toEqual({ kind: "ok", text: "x" });
    // A symlink (even to our own private file), a FIFO or a folder is never read.
    symlinkSync(path, join(dir, "link"));
    expect(readPrivateFile(join(dir, "link"))).toEqual({ kind: "unreadable" });
    execFileSync("mkfifo", [join(dir, "fifo")]);
    expect(readPrivateFile(join(dir, "fifo"))).toEqual({ kind: "unreadable" });
    expect(readPrivateFile(dir)).toEqual({ kind: "unreadable" });
    // A path through a file finds nothing there; a loose file is refused whatever its size.
    expect(readPrivateFile(join(path, "inner"))).toEqual({ kind: "missing" });
    writeFileSync(join(dir, "big"), Buffer.alloc(1_048_577), { mode: 0o644 });
    chmodSync(join(dir, "big"), 0o644);
    expect(readPrivateFile(join(dir, "big"))).toEqual({ kind: "world_readable" });
    chmodSync(join(dir, "big"), 0o600);
    expect(readPrivateFile(join(dir, "big"))).toEqual({ kind: "unreadable" });
    // Another user's file, however private.
    if (process.getuid?.() === 0) {
      chownSync(path, 65534, 65534);
      expect(readPrivateFile(path)).toEqual({ kind: "unreadable" });
    }
  });
});

describe("ProfileStore", () => {
  test("reads create nothing; writes create profiles/ and credentials/ 0700 with 0600 files", () => {
    const root = join(fresh(), "cfg");
    const store = new ProfileStore(root, "default");
    expect(store.readProfile()).toEqual({ kind: "missing" });
    expect(store.readCredential()).toEqual({ kind: "missing" });
    expect(summarizeProfile(store, "default")).toEqual({ name: "default", state: "unconfigured" });
    expect(existsSync(root)).toBe(false);

    store.writeProfile({ server: "http://127.0.0.1:1" });
    expect(summarizeProfile(store, "default").state).toBe("unauthenticated");
    store.writeCredential({ token: "tok-secret", principal_ref: "p-1" });
    expect(summarizeProfile(store, "default").state).toBe("not_member");
    store.writeProfile({
      server: "http://127.0.0.1:1",
      team_ref: "t-1",
      team_name: "core",
      principal_ref: "p-1",
      human_label: "dana",
    });
    expect(summarizeProfile(store, "default")).toEqual({
      name: "default",
      state: "joined",
      team_ref: "t-1",
      team_name: "core",
      principal_ref: "p-1",
      human_label: "dana",
    });
    expect(mode(join(root, "profiles"))).toBe(0o700);
    expect(mode(join(root, "credentials"))).toBe(0o700);
    expect(mode(store.profilePath)).toBe(0o600);
    expect(mode(store.credentialPath)).toBe(0o600);
    expect(readFileSync(store.profilePath, "utf8")).not.toContain("tok-secret");
    expect(JSON.parse(readFileSync(store.credentialPath, "utf8"))).toEqual({
      token: "tok-secret",
      principal_ref: "p-1",
    });
  });

  test("a world-readable profile or credential is refused (not ok)", () => {
    const store = new ProfileStore(fresh(), "default");
    store.writeProfile({ server: "http://127.0.0.1:1" });
    store.writeCredential({ token: "t" });
    chmodSync(store.profilePath, 0o644);
    expect(store.readProfile()).toEqual({ kind: "world_readable" });
    chmodSync(store.profilePath, 0o600);
    chmodSync(store.credentialPath, 0o604);
    expect(store.readCredential()).toEqual({ kind: "world_readable" });
  });

  test("a rebind-style rewrite (pretty JSON, unknown members) still reads; bad shapes are invalid", () => {
    const store = new ProfileStore(fresh(), "default");
    store.writeProfile({ server: "http://s", team_ref: "t-1", team_name: "n", principal_ref: "p" });
    const doc = JSON.parse(readFileSync(store.profilePath, "utf8"));
    writeFileSync(
      store.profilePath,
      `${JSON.stringify({ ...doc, team_ref: "t-2", extra: [1] }, null, 2)}\n`,
    );
    const read = store.readProfile();
    expect(read.kind === "ok" && read.value.team_ref).toBe("t-2");
    writeFileSync(store.profilePath, '{"team_ref": 5}');
    expect(store.readProfile()).toEqual({ kind: "invalid" });
    writeFileSync(store.profilePath, "not json");
    expect(store.readProfile()).toEqual({ kind: "invalid" });
    store.writeCredential({ token: "t" });
    writeFileSync(store.credentialPath, '{"token": ""}');
    expect(store.readCredential()).toEqual({ kind: "invalid" });
  });
});

describe("ProfileStore.moveTo", () => {
  function seeded(profile: string): ProfileStore {
    const store = new ProfileStore(join(fresh(), "cfg"), profile);
    store.writeProfile({ server: "http://127.0.0.1:1", team_ref: "t-1", team_name: "core" });
    store.writeCredential({ token: "tok-secret", principal_ref: "p-1" });
    return store;
  }

  test("moves both files under the new name, keeping content and 0600 modes", () => {
    const store = seeded("pending-1");
    const moved = store.moveTo("team-0123456789abcdef");
    expect(moved.ok).toBe(true);
    if (!moved.ok) return;
    expect(moved.store.profile).toBe("team-0123456789abcdef");
    expect(moved.store.readProfile()).toEqual({
      kind: "ok",
      value: { server: "http://127.0.0.1:1", team_ref: "t-1", team_name: "core" },
    });
    expect(moved.store.readCredential()).toEqual({
      kind: "ok",
      value: { token: "tok-secret", principal_ref: "p-1" },
    });
    expect(mode(moved.store.profilePath)).toBe(0o600);
    expect(mode(moved.store.credentialPath)).toBe(0o600);
    expect(store.readProfile()).toEqual({ kind: "missing" });
    expect(store.readCredential()).toEqual({ kind: "missing" });
    expect(readdirSync(join(store.configDir, "profiles"))).toEqual(["team-0123456789abcdef.json"]);
  });

  test("never replaces an existing profile or credential; nothing moves", () => {
    const store = seeded("pending-2");
    const other = new ProfileStore(store.configDir, "taken");
    other.writeCredential({ token: "other-token" });
    expect(store.moveTo("taken")).toEqual({ ok: false, reason: "target_exists" });
    expect(other.readCredential()).toEqual({ kind: "ok", value: { token: "other-token" } });
    expect(other.readProfile()).toEqual({ kind: "missing" });
    expect(store.readCredential().kind).toBe("ok");
    expect(store.readProfile().kind).toBe("ok");
  });

  test("a profile without its credential is source_missing", () => {
    const store = new ProfileStore(join(fresh(), "cfg"), "lonely");
    store.writeProfile({ server: "http://127.0.0.1:1" });
    expect(store.moveTo("elsewhere")).toEqual({ ok: false, reason: "source_missing" });
  });

  test("a pending profile has a fresh random name; discard removes both files and only them", () => {
    const dir = join(fresh(), "cfg");
    const a = ProfileStore.pending(dir);
    const b = ProfileStore.pending(dir);
    expect(a.profile).toMatch(/^pending-[0-9a-f]{12}$/);
    expect(b.profile).not.toBe(a.profile);
    a.writeProfile({ server: "http://127.0.0.1:1" });
    a.writeCredential({ token: "tok-secret" });
    b.writeProfile({ server: "http://127.0.0.1:2" });
    a.discard();
    expect(a.readProfile()).toEqual({ kind: "missing" });
    expect(a.readCredential()).toEqual({ kind: "missing" });
    expect(b.readProfile().kind).toBe("ok");
    b.discard();
    b.discard();
    expect(readdirSync(join(dir, "profiles"))).toEqual([]);
  });
});
