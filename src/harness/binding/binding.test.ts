import { createHash } from "node:crypto";
import {
  chmodSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { testTempDir } from "../../../test/support/temp-dir.ts";
import { isValidProfileName } from "../../adapters/http/index.ts";
import {
  CONSENT_READ_REASONS,
  consentPath,
  consentRecord,
  deleteConsent,
  findTeamBinding,
  locateCheckout,
  parseTeamBindingFile,
  readConsent,
  resolveSessionTeam,
  SESSION_TEAM_REASONS,
  serializeTeamBinding,
  TEAM_BINDING_REASONS,
  teamKeyFor,
  writeConsent,
} from "./index.ts";

const SERVER = "http://127.0.0.1:7777";
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const bindingText = (over: Record<string, unknown> = {}): string =>
  JSON.stringify({ version: 1, server: SERVER, team_ref: "t-9c1e", team_name: "core", ...over });

function tempRoot(): string {
  return realpathSync(testTempDir("brigade-binding-"));
}

/** root/repo (with .git) /a/b, and a config dir beside it. */
function repoLayout(): { root: string; repo: string; deep: string; config: string } {
  const root = tempRoot();
  const repo = join(root, "repo");
  const deep = join(repo, "a", "b");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(deep, { recursive: true });
  return { root, repo, deep, config: join(root, "config") };
}

describe("teamKeyFor", () => {
  test("is team- plus the first 16 hex digits of sha256(normalised server NUL team_ref)", () => {
    const expected = createHash("sha256")
      .update(`${SERVER}\u0000t-9c1e`)
      .digest("hex")
      .slice(0, 16);
    expect(teamKeyFor(SERVER, "t-9c1e")).toBe(`team-${expected}`);
    expect(teamKeyFor(`${SERVER}/`, "t-9c1e")).toBe(`team-${expected}`);
    expect(teamKeyFor(SERVER, "t-9c1f")).not.toBe(`team-${expected}`);
    expect(teamKeyFor("http://127.0.0.1:7778", "t-9c1e")).not.toBe(`team-${expected}`);
  });

  test("is always a valid http adapter profile name", () => {
    for (const ref of ["t", "team.with.dots", "ü-ref", "x".repeat(200)]) {
      const key = teamKeyFor("https://brigade.example.org/base", ref);
      expect(key).toMatch(/^team-[0-9a-f]{16}$/);
      expect(isValidProfileName(key)).toBe(true);
    }
  });
});

describe("parseTeamBindingFile", () => {
  test("reads the documented shape, normalises the server, tolerates unknown members", () => {
    const r = parseTeamBindingFile(utf8(bindingText({ server: `${SERVER}/`, note: "hi" })));
    expect(r).toEqual({
      ok: true,
      binding: { server: SERVER, team_ref: "t-9c1e", team_name: "core" },
    });
  });

  test("round-trips serializeTeamBinding", () => {
    const binding = { server: SERVER, team_ref: "t.a.b", team_name: "Ops" };
    const text = serializeTeamBinding(binding);
    expect(text).toBe(
      '{\n  "version": 1,\n  "server": "http://127.0.0.1:7777",\n  "team_ref": "t.a.b",\n  "team_name": "Ops"\n}\n',
    );
    expect(parseTeamBindingFile(utf8(text))).toEqual({ ok: true, binding });
  });

  test.each([
    [
      "duplicate member",
      `{"version":1,"server":"${SERVER}","team_ref":"a","team_ref":"b","team_name":"c"}`,
    ],
    ["not JSON", "{version:1}"],
    ["an array", "[]"],
    ["empty", ""],
    ["version 2", bindingText({ version: 2 })],
    ["version as a string", bindingText({ version: "1" })],
    ["no version", JSON.stringify({ server: SERVER, team_ref: "t", team_name: "n" })],
    ["ftp server", bindingText({ server: "ftp://x" })],
    ["server with user info", bindingText({ server: "http://u:p@host" })],
    ["server with a query", bindingText({ server: "http://host/?q=1" })],
    ["empty team_ref", bindingText({ team_ref: "" })],
    ["team_ref with a space", bindingText({ team_ref: "t 1" })],
    ["team_ref with a control", bindingText({ team_ref: "t\u0007" })],
    ["team_ref with a zero-width space", bindingText({ team_ref: "t\u200b" })],
    ["team_ref too long", bindingText({ team_ref: "x".repeat(201) })],
    ["team_name empty", bindingText({ team_name: "" })],
    ["team_name 65 code points", bindingText({ team_name: "é".repeat(65) })],
    ["team_name not a string", bindingText({ team_name: 7 })],
  ])("%s is binding_invalid", (_name, text) => {
    expect(parseTeamBindingFile(utf8(text))).toEqual({ ok: false, reason: "binding_invalid" });
  });

  test("64 code points of team_name are fine; bytes that are not UTF-8 are not", () => {
    expect(parseTeamBindingFile(utf8(bindingText({ team_name: "é".repeat(64) }))).ok).toBe(true);
    const bad = new Uint8Array([...utf8('{"version":1,"server":"'), 0xff, ...utf8('"}')]);
    expect(parseTeamBindingFile(bad).ok).toBe(false);
  });
});

describe("findTeamBinding", () => {
  test("walks up from a deep folder to the file at the repository top", () => {
    const { repo, deep } = repoLayout();
    writeFileSync(join(repo, ".brigade.json"), bindingText());
    const r = findTeamBinding(deep);
    expect(r).toEqual({
      ok: true,
      checkout: repo,
      file: join(repo, ".brigade.json"),
      binding: { server: SERVER, team_ref: "t-9c1e", team_name: "core" },
    });
  });

  test("the nearest file wins, and the checkout stays the repository top", () => {
    const { repo, deep } = repoLayout();
    writeFileSync(join(repo, ".brigade.json"), bindingText());
    writeFileSync(join(repo, "a", ".brigade.json"), bindingText({ team_ref: "t-inner" }));
    const r = findTeamBinding(deep);
    expect(r.ok && r.binding.team_ref).toBe("t-inner");
    expect(r.ok && r.checkout).toBe(repo);
  });

  test("never looks above the repository top", () => {
    const { root, deep } = repoLayout();
    writeFileSync(join(root, ".brigade.json"), bindingText());
    expect(findTeamBinding(deep)).toEqual({ ok: false, reason: "no_binding" });
  });

  test("a .git file (worktree, submodule) marks the top too", () => {
    const root = tempRoot();
    const sub = join(root, "sub");
    mkdirSync(join(sub, "x"), { recursive: true });
    writeFileSync(join(sub, ".git"), "gitdir: ../.git/modules/sub\n");
    writeFileSync(join(root, ".brigade.json"), bindingText());
    expect(findTeamBinding(join(sub, "x"))).toEqual({ ok: false, reason: "no_binding" });
    expect(locateCheckout(join(sub, "x"))?.repositoryTop).toBe(sub);
  });

  test("outside a repository only the start folder counts", () => {
    const root = tempRoot();
    const home = join(root, "home");
    mkdirSync(join(home, "project"), { recursive: true });
    writeFileSync(join(home, ".brigade.json"), bindingText());
    // The stray file in "$HOME" binds $HOME itself only.
    expect(findTeamBinding(join(home, "project"))).toEqual({ ok: false, reason: "no_binding" });
    const r = findTeamBinding(home);
    expect(r.ok && r.checkout).toBe(home);
  });

  test("the checkout is a real path when the start folder is reached through a symlink", () => {
    const { root, repo, deep } = repoLayout();
    writeFileSync(join(repo, ".brigade.json"), bindingText());
    symlinkSync(deep, join(root, "link"));
    const r = findTeamBinding(join(root, "link"));
    expect(r.ok && r.checkout).toBe(repo);
  });

  test("an invalid nearest file is not skipped; oversized is invalid", () => {
    const { repo, deep } = repoLayout();
    writeFileSync(join(repo, ".brigade.json"), bindingText());
    writeFileSync(join(deep, ".brigade.json"), "{");
    expect(findTeamBinding(deep)).toEqual({ ok: false, reason: "binding_invalid" });
    writeFileSync(join(deep, ".brigade.json"), `${bindingText()}${" ".repeat(65_536)}`);
    expect(findTeamBinding(deep)).toEqual({ ok: false, reason: "binding_invalid" });
  });

  test("a symlinked or non-regular .brigade.json is unreadable", () => {
    const { root, repo } = repoLayout();
    writeFileSync(join(root, "elsewhere.json"), bindingText());
    symlinkSync(join(root, "elsewhere.json"), join(repo, ".brigade.json"));
    expect(findTeamBinding(repo)).toEqual({ ok: false, reason: "binding_unreadable" });
    const other = repoLayout();
    mkdirSync(join(other.repo, ".brigade.json"));
    expect(findTeamBinding(other.repo)).toEqual({ ok: false, reason: "binding_unreadable" });
  });

  test("a missing start folder is no_binding", () => {
    expect(findTeamBinding(join(tempRoot(), "nope"))).toEqual({ ok: false, reason: "no_binding" });
  });

  test("reason arrays list exactly the contract's reasons", () => {
    expect([...TEAM_BINDING_REASONS]).toEqual([
      "no_binding",
      "binding_unreadable",
      "binding_invalid",
    ]);
    expect([...SESSION_TEAM_REASONS].sort()).toEqual(
      [
        "binding_invalid",
        "binding_unreadable",
        "consent_mismatch",
        "no_binding",
        "no_config_dir",
        "no_consent",
      ].sort(),
    );
  });
});

describe("consent records", () => {
  const now = new Date("2026-11-02T09:15:42.123Z");

  test("write → read round trip, 0600 file in 0700 folders, path keyed by sha256(checkout)", () => {
    const { repo, config } = repoLayout();
    const record = consentRecord({
      checkout: repo,
      server: `${SERVER}/`,
      teamRef: "t-9c1e",
      teamName: "core",
      now,
    });
    expect(record).toEqual({
      version: 1,
      checkout: repo,
      server: SERVER,
      team_ref: "t-9c1e",
      team_name: "core",
      team_key: teamKeyFor(SERVER, "t-9c1e"),
      consented_at: "2026-11-02T09:15:42Z",
    });
    writeConsent(config, record);
    const path = consentPath(config, repo);
    expect(path).toBe(
      join(config, "consent", `${createHash("sha256").update(repo).digest("hex")}.json`),
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(config, "consent")).mode & 0o777).toBe(0o700);
    expect(statSync(config).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(record);
    expect(readConsent(config, repo)).toEqual({ ok: true, record });
    expect(deleteConsent(config, repo)).toBe(true);
    expect(deleteConsent(config, repo)).toBe(false);
    expect(readConsent(config, repo)).toEqual({ ok: false, reason: "missing" });
  });

  test("a world- or group-readable record is not_private", () => {
    const { repo, config } = repoLayout();
    writeConsent(
      config,
      consentRecord({ checkout: repo, server: SERVER, teamRef: "t", teamName: "n" }),
    );
    chmodSync(consentPath(config, repo), 0o644);
    expect(readConsent(config, repo)).toEqual({ ok: false, reason: "not_private" });
    chmodSync(consentPath(config, repo), 0o640);
    expect(readConsent(config, repo)).toEqual({ ok: false, reason: "not_private" });
  });

  test("a symlinked record is not_private even when its target is private", () => {
    const { root, repo, config } = repoLayout();
    const record = consentRecord({ checkout: repo, server: SERVER, teamRef: "t", teamName: "n" });
    writeConsent(config, record);
    const target = join(root, "planted.json");
    writeFileSync(target, JSON.stringify(record), { mode: 0o600 });
    deleteConsent(config, repo);
    symlinkSync(target, consentPath(config, repo));
    expect(readConsent(config, repo)).toEqual({ ok: false, reason: "not_private" });
  });

  test("another owner is not_private (uid injected)", () => {
    const { repo, config } = repoLayout();
    writeConsent(
      config,
      consentRecord({ checkout: repo, server: SERVER, teamRef: "t", teamName: "n" }),
    );
    const uid = (process.getuid?.() ?? 0) + 1;
    expect(readConsent(config, repo, { uid })).toEqual({ ok: false, reason: "not_private" });
  });

  function plant(config: string, checkout: string, text: string): void {
    mkdirSync(join(config, "consent"), { recursive: true, mode: 0o700 });
    writeFileSync(consentPath(config, checkout), text, { mode: 0o600 });
  }

  test("malformed, invalid and wrong-checkout records are refused", () => {
    const { repo, config } = repoLayout();
    const good = consentRecord({
      checkout: repo,
      server: SERVER,
      teamRef: "t-9c1e",
      teamName: "core",
    });
    const cases: [string, string][] = [
      ["{", "malformed"],
      [`{"version":1,"version":1}`, "malformed"],
      [" ".repeat(65_537), "malformed"],
      [JSON.stringify({ ...good, version: 2 }), "invalid"],
      [JSON.stringify({ ...good, server: "file:///x" }), "invalid"],
      [JSON.stringify({ ...good, team_key: teamKeyFor(SERVER, "other") }), "invalid"],
      [JSON.stringify({ ...good, team_name: "" }), "invalid"],
      [JSON.stringify({ ...good, consented_at: 5 }), "invalid"],
      [JSON.stringify({ ...good, checkout: "/elsewhere" }), "wrong_checkout"],
    ];
    for (const [text, reason] of cases) {
      plant(config, repo, text);
      expect(readConsent(config, repo), text.slice(0, 60)).toEqual({ ok: false, reason });
      expect(CONSENT_READ_REASONS).toContain(reason);
    }
  });
});

describe("resolveSessionTeam", () => {
  function bound() {
    const layout = repoLayout();
    writeFileSync(join(layout.repo, ".brigade.json"), bindingText());
    return layout;
  }

  test("binding + agreeing consent → the team, from any folder of the checkout", () => {
    const { repo, deep, config } = bound();
    writeConsent(
      config,
      consentRecord({
        checkout: repo,
        server: `${SERVER}/`,
        teamRef: "t-9c1e",
        teamName: "Core (server)",
      }),
    );
    expect(resolveSessionTeam({ cwd: deep, configDir: config })).toEqual({
      ok: true,
      server: SERVER,
      teamRef: "t-9c1e",
      teamName: "Core (server)",
      teamKey: teamKeyFor(SERVER, "t-9c1e"),
      checkout: repo,
      configDir: config,
    });
  });

  test("an unjoined checkout is no_consent; no config dir is no_config_dir", () => {
    const { deep, config } = bound();
    expect(resolveSessionTeam({ cwd: deep, configDir: config })).toEqual({
      ok: false,
      reason: "no_consent",
    });
    expect(resolveSessionTeam({ cwd: deep, configDir: undefined })).toEqual({
      ok: false,
      reason: "no_config_dir",
    });
  });

  test("a .brigade.json changed to another server or team after consent is consent_mismatch", () => {
    const { repo, deep, config } = bound();
    writeConsent(
      config,
      consentRecord({ checkout: repo, server: SERVER, teamRef: "t-9c1e", teamName: "core" }),
    );
    writeFileSync(join(repo, ".brigade.json"), bindingText({ server: "https://evil.example" }));
    expect(resolveSessionTeam({ cwd: deep, configDir: config })).toEqual({
      ok: false,
      reason: "consent_mismatch",
    });
    writeFileSync(join(repo, ".brigade.json"), bindingText({ team_ref: "t-other" }));
    expect(resolveSessionTeam({ cwd: deep, configDir: config })).toEqual({
      ok: false,
      reason: "consent_mismatch",
    });
    // A changed display name alone is no redirection.
    writeFileSync(join(repo, ".brigade.json"), bindingText({ team_name: "renamed" }));
    expect(resolveSessionTeam({ cwd: deep, configDir: config }).ok).toBe(true);
  });

  test("a consent for another clone does not carry over; an untrusted consent is no_consent", () => {
    const { repo, config } = bound();
    writeConsent(
      config,
      consentRecord({ checkout: repo, server: SERVER, teamRef: "t-9c1e", teamName: "core" }),
    );
    const clone = repoLayout();
    writeFileSync(join(clone.repo, ".brigade.json"), bindingText());
    expect(resolveSessionTeam({ cwd: clone.repo, configDir: config })).toEqual({
      ok: false,
      reason: "no_consent",
    });
    chmodSync(consentPath(config, repo), 0o644);
    expect(resolveSessionTeam({ cwd: repo, configDir: config })).toEqual({
      ok: false,
      reason: "no_consent",
    });
  });

  test("binding failures pass through", () => {
    const { repo, config } = bound();
    writeFileSync(join(repo, ".brigade.json"), "[]");
    expect(resolveSessionTeam({ cwd: repo, configDir: config })).toEqual({
      ok: false,
      reason: "binding_invalid",
    });
    expect(resolveSessionTeam({ cwd: repoLayout().repo, configDir: config })).toEqual({
      ok: false,
      reason: "no_binding",
    });
  });
});
