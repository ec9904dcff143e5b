import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  chooseDisplayName,
  crossSessionInboundOf,
  isBrigadeShadowed,
  MAX_REGISTRY_BYTES,
  parseSessionRegistry,
  readSessionRegistry,
  readTranscriptCustomTitle,
  scanInboundSettings,
} from "./index.ts";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
let dir: string;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "host-facts-")));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("session registry and display name (docs/spec/claude-code.md §5)", () => {
  test("wrong types become empty values; status other than busy is idle", () => {
    const r = parseSessionRegistry(enc('{"name":5,"status":"weird","version":"2.1.328"}'));
    expect(r.name).toBe("");
    expect(r.status).toBe("idle");
    expect(r.version).toBe("2.1.328");
    expect(parseSessionRegistry(enc("nope")).version).toBe("");
  });
  test("opens exactly sessions/<pid>.json, refuses a bad pid and an oversized file", () => {
    mkdirSync(join(dir, "cc", "sessions"), { recursive: true });
    writeFileSync(
      join(dir, "cc", "sessions", "77.json"),
      '{"name":"api","nameSource":"user","status":"busy"}',
    );
    writeFileSync(
      join(dir, "cc", "sessions", "78.json"),
      `{"name":"${"x".repeat(MAX_REGISTRY_BYTES)}"}`,
    );
    expect(readSessionRegistry(join(dir, "cc"), "77")).toMatchObject({
      name: "api",
      status: "busy",
    });
    expect(readSessionRegistry(join(dir, "cc"), "78").name).toBe("");
    expect(readSessionRegistry(join(dir, "cc"), "../77").name).toBe("");
    expect(readSessionRegistry(join(dir, "cc"), "79").name).toBe("");
  });
  test("name order: user name, transcript title, derived name, session_title, basename(cwd), claude-code", () => {
    const base = { transcriptTitle: "", sessionTitle: "", cwd: "" };
    expect(
      chooseDisplayName({
        ...base,
        registry: { name: "mine", nameSource: "user" },
        transcriptTitle: "t",
      }),
    ).toBe("mine");
    expect(
      chooseDisplayName({
        ...base,
        registry: { name: "w-3f2a", nameSource: "derived" },
        transcriptTitle: "Title",
      }),
    ).toBe("Title");
    expect(
      chooseDisplayName({
        ...base,
        registry: { name: "w-3f2a", nameSource: "derived" },
        sessionTitle: "s",
      }),
    ).toBe("w-3f2a");
    expect(
      chooseDisplayName({ ...base, registry: { name: "", nameSource: "" }, sessionTitle: "s\nt" }),
    ).toBe("s t");
    expect(
      chooseDisplayName({ ...base, registry: { name: "", nameSource: "" }, cwd: "/w/api" }),
    ).toBe("api");
    expect(chooseDisplayName({ ...base, registry: { name: "\u200b", nameSource: "user" } })).toBe(
      "claude-code",
    );
  });
  test("the transcript's latest custom title wins; absent or relative paths give none", () => {
    const path = join(dir, "t.jsonl");
    writeFileSync(
      path,
      '{"type":"custom-title","customTitle":"old"}\n{"type":"user"}\n{"type":"custom-title","customTitle":"new"}\n',
    );
    expect(readTranscriptCustomTitle(path)).toBe("new");
    expect(readTranscriptCustomTitle("t.jsonl")).toBe("");
    expect(readTranscriptCustomTitle(join(dir, "none.jsonl"))).toBe("");
  });
});

describe("settings scan (docs/spec/claude-code.md §4)", () => {
  test("top-level crossSessionInbound other than accept is a hit, per file, named not pathed", () => {
    const cwd = join(dir, "proj");
    const cc = join(dir, "ccs");
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    mkdirSync(cc, { recursive: true });
    expect(scanInboundSettings({ cwd, claudeConfigDir: cc }).hits).toEqual([]);
    writeFileSync(join(cwd, ".claude", "settings.json"), '{"crossSessionInbound":"hold"}');
    writeFileSync(
      join(cwd, ".claude", "settings.local.json"),
      '{"x":{"crossSessionInbound":"refuse"}}',
    );
    writeFileSync(join(cc, "settings.json"), '{"crossSessionInbound":"Accept"}');
    expect(scanInboundSettings({ cwd, claudeConfigDir: cc }).hits).toEqual([
      ".claude/settings.json",
      "user settings.json",
    ]);
    writeFileSync(join(cc, "settings.json"), '{"crossSessionInbound":"accept"}');
    expect(scanInboundSettings({ cwd, claudeConfigDir: cc }).hits).toEqual([
      ".claude/settings.json",
    ]);
  });
  test("only strings count; malformed files are skipped", () => {
    expect(crossSessionInboundOf(enc('{"crossSessionInbound":true}'))).toBeUndefined();
    expect(crossSessionInboundOf(enc("{bad"))).toBeUndefined();
    expect(crossSessionInboundOf(enc('{"crossSessionInbound":"ask"}'))).toBe("ask");
  });
});

describe("PATH shadowing (docs/spec/claude-code.md §2)", () => {
  const exe = (path: string): void => {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, "#!/bin/sh\n", { mode: 0o755 });
  };
  test("the first executable brigade on PATH shadows ours unless it resolves to ours", () => {
    const base = join(dir, "shadow");
    const plugin = join(base, "plugin");
    exe(join(plugin, "bin", "brigade"));
    const other = join(base, "other");
    exe(join(other, "brigade"));
    const linked = join(base, "linked");
    mkdirSync(linked, { recursive: true });
    symlinkSync(join(plugin, "bin", "brigade"), join(linked, "brigade"));
    const plain = join(base, "plain");
    mkdirSync(join(plain, "brigade"), { recursive: true }); // a folder, not a command
    const noExec = join(base, "noexec");
    mkdirSync(noExec, { recursive: true });
    writeFileSync(join(noExec, "brigade"), "x", { mode: 0o644 });
    const path = (...entries: string[]) => entries.join(":");

    expect(isBrigadeShadowed(path(plain, other), plugin)).toBe(true);
    expect(isBrigadeShadowed(path(noExec, other, join(plugin, "bin")), plugin)).toBe(true);
    // ours first (a symlink to it counts as ours), or ours only: no warning
    expect(isBrigadeShadowed(path(linked, other), plugin)).toBe(false);
    expect(isBrigadeShadowed(path(plain, noExec, join(plugin, "bin")), plugin)).toBe(false);
    expect(isBrigadeShadowed(path(plain, noExec), plugin)).toBe(false);
    // relative and empty entries are not looked at
    expect(isBrigadeShadowed(path("", "other", "."), plugin)).toBe(false);
    // no plugin root to compare with: no warning
    expect(isBrigadeShadowed(other, "")).toBe(false);
    expect(isBrigadeShadowed(other, "plugin")).toBe(false);
    expect(isBrigadeShadowed(other, join(base, "missing"))).toBe(false);
  });
});
