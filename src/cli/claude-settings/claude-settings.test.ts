// The person's yes for Claude Code's inbound setting (brigade doctor --fix) and its undo
// (brigade uninstall), in process with temporary homes: nothing changes without a yes typed on the
// person's terminal, never inside a session, and the undo puts back exactly what was there.
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { testTempDir } from "../../../test/support/temp-dir.ts";
import type { CliIo } from "../cli-io.ts";
import { checkInboundSettings, type DoctorContext } from "../doctor/doctor-checks.ts";
import { runDoctorWith } from "../doctor/doctor-command.ts";
import { runUninstall } from "../uninstall-command.ts";
import { approveInboundSetting } from "./approve-inbound.ts";
import type { AskPerson, PersonAnswer } from "./ask-person.ts";
import { readSettingsChanges } from "./settings-changes.ts";

const uid = process.getuid?.() ?? -1;

/** A person's home: Claude Code's folder (with `settings` when given) and Brigade's config. */
function person(settings?: string) {
  const home = realpathSync(testTempDir("claude-settings-"));
  const claude = join(home, ".claude");
  mkdirSync(claude, { recursive: true });
  if (settings !== undefined) writeFileSync(join(claude, "settings.json"), settings);
  const out: string[] = [];
  const err: string[] = [];
  const env: Record<string, string> = { HOME: home, PATH: "/usr/bin:/bin" };
  const io = (extra: Record<string, string> = {}): CliIo => ({
    stdin: (async function* () {})(),
    stdout: (t) => {
      out.push(t);
    },
    stderr: (t) => {
      err.push(t);
    },
    env: { ...env, ...extra },
  });
  return {
    home,
    settingsFile: join(claude, "settings.json"),
    configDir: join(home, ".config", "brigade"),
    io,
    out,
    err,
    settings: () => readFileSync(join(claude, "settings.json"), "utf8"),
  };
}

/** A stand-in for the terminal: answers `answer` and remembers each question. */
function answering(answer: PersonAnswer): AskPerson & { asked: string[] } {
  const asked: string[] = [];
  const ask = async (question: string) => {
    asked.push(question);
    return answer;
  };
  return Object.assign(ask, { asked });
}

const approve = (p: ReturnType<typeof person>, ask: AskPerson) =>
  approveInboundSetting({ io: p.io(), uid, ask, now: () => Date.parse("2026-12-05T10:00:00Z") });

const M = '"crossSessionInbound": "accept"';

/** doctor's inbound settings check for `p`, outside any checkout. */
function inboundCheck(p: ReturnType<typeof person>) {
  const ctx: DoctorContext = {
    env: p.io().env,
    cwd: p.home,
    nodeVersion: process.versions.node,
    cliVersion: "0",
    cliScript: "",
    timeoutMs: 1_000,
  };
  return checkInboundSettings(ctx, { ok: false, reason: "no_binding" });
}

describe("brigade doctor --fix: only the person's yes, on their terminal, changes the setting", () => {
  test("a yes adds the member first, every other byte kept, after recording what was there", async () => {
    const original = '{\n  "model": "opus"\n}\n';
    const p = person(original);
    const ask = answering("yes");
    expect(await approve(p, ask)).toBe(0);
    expect(ask.asked).toHaveLength(1);
    expect(ask.asked[0]).toContain("every sender");
    expect(ask.asked[0]).toContain(p.settingsFile);
    expect(p.settings()).toBe(`{\n  ${M},\n  "model": "opus"\n}\n`);
    expect(readSettingsChanges(p.configDir, uid)).toEqual({
      ok: true,
      changes: [{ file: p.settingsFile, before: "absent", at: "2026-12-05T10:00:00.000Z" }],
    });
    expect(p.out.join("")).toContain("brigade uninstall puts back what was there");
    // doctor says where the setting came from, and how bypassing sessions receive.
    const check = inboundCheck(p);
    expect(check).toMatchObject({ status: "pass" });
    expect(check.detail).toContain("added with your yes by brigade doctor --fix");
  });

  test("no, an empty answer or no terminal: nothing changes and nothing is recorded", async () => {
    for (const answer of ["no", "no_terminal"] as const) {
      const original = '{"model": "opus"}';
      const p = person(original);
      expect(inboundCheck(p).detail).toContain("at their next prompt or tool call");
      const status = await approve(p, answering(answer));
      expect(status).toBe(answer === "no" ? 0 : 2);
      expect(p.settings()).toBe(original);
      if (answer === "no_terminal") expect(p.err.join("")).toContain("run it in your own terminal");
      expect(readSettingsChanges(p.configDir, uid)).toEqual({ ok: true, changes: [] });
    }
  });

  test("a key already there, whatever its value, is the person's: nothing is asked", async () => {
    for (const value of ["accept", "hold"]) {
      const original = `{"crossSessionInbound": "${value}"}`;
      const p = person(original);
      const ask = answering("yes");
      expect(await approve(p, ask)).toBe(0);
      expect(ask.asked).toEqual([]);
      expect(p.settings()).toBe(original);
    }
  });

  test("a settings file that is not one JSON object is left alone, and the record forgets it", async () => {
    const p = person('{"model": "opus",}');
    expect(await approve(p, answering("yes"))).toBe(1);
    expect(p.settings()).toBe('{"model": "opus",}');
    expect(p.err.join("")).toContain("not_json_object");
    expect(readSettingsChanges(p.configDir, uid)).toEqual({ ok: true, changes: [] });
  });

  test("refused inside a Claude Code session, on any of its variables, before anything is asked", async () => {
    for (const variable of [
      "CLAUDE_PID",
      "CLAUDECODE",
      "CLAUDE_CODE_ENTRYPOINT",
      "CLAUDE_CODE_SESSION_ID",
    ]) {
      const p = person('{"model": "opus"}');
      const ask = answering("yes");
      const status = await runDoctorWith(["--fix"], p.io({ [variable]: "1" }), {}, { ask, uid });
      expect(status).toBe(2);
      expect(ask.asked).toEqual([]);
      expect(p.err.join("")).toContain("run it in your own terminal");
      expect(p.settings()).toBe('{"model": "opus"}');
      expect(await runUninstall([], p.io({ [variable]: "1" }))).toBe(2);
    }
  });
});

describe("brigade uninstall puts back exactly what was there", () => {
  test("the member out again: the file's bytes as they were before the yes", async () => {
    const original = '{\r\n\t"model": "opus",\r\n\t"env": {}\r\n}\r\n';
    const p = person(original);
    expect(await approve(p, answering("yes"))).toBe(0);
    expect(p.settings()).not.toBe(original);
    expect(await runUninstall([], p.io())).toBe(0);
    expect(p.settings()).toBe(original);
    expect(readSettingsChanges(p.configDir, uid)).toEqual({ ok: true, changes: [] });
    expect(p.out.join("")).toContain("Left to remove by hand");
    // Nothing recorded any more: a second run has nothing to put back.
    expect(await runUninstall([], p.io())).toBe(0);
    expect(p.settings()).toBe(original);
    expect(p.out.join("")).toContain("nothing to put back");
  });

  test("no settings file before the yes: the file Brigade created goes again", async () => {
    const p = person();
    expect(await approve(p, answering("yes"))).toBe(0);
    expect(p.settings()).toBe(`{${M}}\n`);
    expect(readSettingsChanges(p.configDir, uid)).toMatchObject({
      changes: [{ before: "no_file" }],
    });
    expect(await runUninstall([], p.io())).toBe(0);
    expect(readdirSync(join(p.home, ".claude"))).toEqual([]);
  });

  test("a value the person set since stays; the record is done with", async () => {
    const p = person("{}");
    expect(await approve(p, answering("yes"))).toBe(0);
    writeFileSync(p.settingsFile, '{"crossSessionInbound": "hold"}');
    expect(await runUninstall([], p.io())).toBe(0);
    expect(p.settings()).toBe('{"crossSessionInbound": "hold"}');
    expect(p.out.join("")).toContain("left as it is");
    expect(readSettingsChanges(p.configDir, uid)).toEqual({ ok: true, changes: [] });
  });

  test("a change it cannot put back is named and kept in the record (exit 1)", async () => {
    const p = person("{}");
    expect(await approve(p, answering("yes"))).toBe(0);
    writeFileSync(p.settingsFile, `{${M},}`);
    expect(await runUninstall([], p.io())).toBe(1);
    expect(p.err.join("")).toContain("not_json_object");
    expect(readSettingsChanges(p.configDir, uid)).toMatchObject({
      changes: [{ before: "absent" }],
    });
  });

  test("a record others may read or that is not ours is not trusted", async () => {
    const p = person("{}");
    expect(await approve(p, answering("yes"))).toBe(0);
    chmodSync(join(p.configDir, "claude-settings-changes.json"), 0o644);
    expect(await runUninstall([], p.io())).toBe(1);
    expect(p.err.join("")).toContain("not_private");
    expect(p.settings()).toBe(`{${M}}`);
  });
});
