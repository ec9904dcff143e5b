import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { HOOK_LIMITS } from "../hooks/hook-limits.ts";
import {
  ensureInboundAcceptSetting,
  insertAcceptMember,
  removeInboundAcceptSetting,
} from "./inbound-setting.ts";
import { removeTopLevelMember } from "./top-level-member.ts";

const uid = process.getuid?.() ?? -1;
let root: string;
let n = 0;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "inbound-setting-")));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fresh config dir, with `settings.json` holding `text` when given. */
function configDir(text?: string | Uint8Array, mode = 0o600): string {
  n += 1;
  const dir = join(root, `c${n}`);
  mkdirSync(dir);
  if (text !== undefined) {
    writeFileSync(join(dir, "settings.json"), text);
    chmodSync(join(dir, "settings.json"), mode);
  }
  return dir;
}
const settings = (dir: string): string => readFileSync(join(dir, "settings.json"), "utf8");
const M = '"crossSessionInbound": "accept"';

describe("insertAcceptMember: first member, every other byte kept", () => {
  const insert = (s: string) =>
    new TextDecoder().decode(insertAcceptMember(new TextEncoder().encode(s)));
  test("indented, compact, empty, CRLF, leading whitespace", () => {
    expect(insert('{\n  "model": "opus",\n  "env": {}\n}\n')).toBe(
      `{\n  ${M},\n  "model": "opus",\n  "env": {}\n}\n`,
    );
    expect(insert('{"a":1}')).toBe(`{${M},"a":1}`);
    expect(insert("{}")).toBe(`{${M}}`);
    expect(insert("{ \n}\n")).toBe(`{${M} \n}\n`);
    expect(insert('{\r\n\t"a": 1\r\n}\r\n')).toBe(`{\r\n\t${M},\r\n\t"a": 1\r\n}\r\n`);
    expect(insert('\n {"a":1}')).toBe(`\n {${M},"a":1}`);
  });
  test("not an object start → undefined", () => {
    expect(insertAcceptMember(new TextEncoder().encode("[1]"))).toBeUndefined();
    expect(insertAcceptMember(new Uint8Array())).toBeUndefined();
  });
});

describe("ensureInboundAcceptSetting (docs/spec/claude-code.md §4)", () => {
  test("inserts first and keeps whitespace, key order, unicode escapes and raw unicode byte for byte", () => {
    const original =
      '{\n    "permissions" : { "allow" : [ "Bash(ls:*)" ] },\n' +
      '    "statusLine": "caf\\u00e9 \\ud83d\\ude00 — naïve",\n' +
      '    "zeta": 1.50e+2,   "alpha": null\n}\n\n';
    const dir = configDir(original);
    expect(ensureInboundAcceptSetting(dir, uid)).toEqual({ kind: "inserted" });
    expect(settings(dir)).toBe(`{\n    ${M},\n${original.slice(2)}`);
    // nothing left beside it
    expect(readdirSync(dir)).toEqual(["settings.json"]);
    // idempotent: the key is now present
    expect(ensureInboundAcceptSetting(dir, uid)).toEqual({ kind: "present" });
  });

  test("keeps the file's own mode", () => {
    for (const mode of [0o600, 0o640, 0o644]) {
      const dir = configDir('{"a": 1}', mode);
      expect(ensureInboundAcceptSetting(dir, uid)).toEqual({ kind: "inserted" });
      expect(statSync(join(dir, "settings.json")).mode & 0o7777).toBe(mode);
      expect(settings(dir)).toBe(`{${M},"a": 1}`);
    }
  });

  test("a present key, whatever its value or spelling, is never touched", () => {
    for (const text of [
      '{"crossSessionInbound": "hold"}',
      '{ "a": 1, "crossSessionInbound": "refuse" }',
      '{"crossSessionInbound": 5}',
      '{"crossSessionInbound": null}',
      '{"crossSession\\u0049nbound": "hold"}',
    ]) {
      const dir = configDir(text);
      const before = lstatSync(join(dir, "settings.json"));
      expect(ensureInboundAcceptSetting(dir, uid)).toEqual({ kind: "present" });
      expect(settings(dir)).toBe(text);
      expect(lstatSync(join(dir, "settings.json")).ino).toBe(before.ino);
    }
  });

  test("a nested crossSessionInbound is not the top-level key: inserted", () => {
    const dir = configDir('{"x": {"crossSessionInbound": "hold"}}');
    expect(ensureInboundAcceptSetting(dir, uid)).toEqual({ kind: "inserted" });
    expect(settings(dir)).toBe(`{${M},"x": {"crossSessionInbound": "hold"}}`);
  });

  test("a symlink is refused, and neither it nor its target changes", () => {
    const dir = configDir();
    const target = join(root, `target-${n}.json`);
    writeFileSync(target, '{"a": 1}');
    symlinkSync(target, join(dir, "settings.json"));
    expect(ensureInboundAcceptSetting(dir, uid)).toEqual({ kind: "refused", reason: "symlink" });
    expect(readFileSync(target, "utf8")).toBe('{"a": 1}');
    expect(lstatSync(join(dir, "settings.json")).isSymbolicLink()).toBe(true);
    // a dangling symlink is refused too (never created through)
    const dangling = configDir();
    symlinkSync(join(root, "nowhere.json"), join(dangling, "settings.json"));
    expect(ensureInboundAcceptSetting(dangling, uid)).toEqual({
      kind: "refused",
      reason: "symlink",
    });
    expect(() => lstatSync(join(root, "nowhere.json"))).toThrow();
  });

  test("a missing file is created 0600 only when its folder exists", () => {
    const dir = configDir();
    expect(ensureInboundAcceptSetting(dir, uid)).toEqual({ kind: "created" });
    expect(settings(dir)).toBe(`{${M}}\n`);
    expect(statSync(join(dir, "settings.json")).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["settings.json"]);
    const missing = join(root, "no-such-dir");
    expect(ensureInboundAcceptSetting(missing, uid)).toEqual({
      kind: "refused",
      reason: "no_directory",
    });
    expect(() => statSync(missing)).toThrow();
  });

  test("not one strict JSON object, a folder, or over 1 MiB: refused, untouched", () => {
    const cases: [string, string][] = [
      ["[]", "not_json_object"],
      ['"x"', "not_json_object"],
      ["{", "not_json_object"],
      ['{"a": 1, "a": 2}', "not_json_object"],
      ["\ufeff{}", "not_json_object"],
      ["{} // comment", "not_json_object"],
      [`{"a": "${"x".repeat(HOOK_LIMITS.maxSettingsBytes)}"}`, "too_large"],
    ];
    for (const [text, reason] of cases) {
      const dir = configDir(text);
      expect(ensureInboundAcceptSetting(dir, uid)).toEqual({ kind: "refused", reason });
      // Buffer.equals: a 1 MiB deep comparison would take seconds
      expect(readFileSync(join(dir, "settings.json")).equals(Buffer.from(text))).toBe(true);
    }
    const folder = configDir();
    mkdirSync(join(folder, "settings.json"));
    expect(ensureInboundAcceptSetting(folder, uid)).toEqual({
      kind: "refused",
      reason: "not_regular",
    });
  });

  test("a file owned by someone else is refused", () => {
    const dir = configDir('{"a": 1}');
    expect(ensureInboundAcceptSetting(dir, uid + 1)).toEqual({
      kind: "refused",
      reason: "not_owned",
    });
    expect(settings(dir)).toBe('{"a": 1}');
  });
});

describe("removeTopLevelMember: the member out, every other byte kept", () => {
  test("first, middle, last and sole members; nested values and strings that look like syntax", () => {
    const text = '{\n  "a": {"x": [1, "}", {"y": "\\"]"}]},\n  "b": "c,d",\n  "c": null\n}\n';
    expect(removeTopLevelMember(text, "a")).toBe('{\n  "b": "c,d",\n  "c": null\n}\n');
    expect(removeTopLevelMember(text, "b")).toBe(
      '{\n  "a": {"x": [1, "}", {"y": "\\"]"}]},\n  "c": null\n}\n',
    );
    expect(removeTopLevelMember(text, "c")).toBe(
      '{\n  "a": {"x": [1, "}", {"y": "\\"]"}]},\n  "b": "c,d"\n}\n',
    );
    expect(removeTopLevelMember('{\n  "k": true\n}\n', "k")).toBe("{\n}\n");
    expect(removeTopLevelMember('{"k":1}', "k")).toBe("{}");
  });
  test("the key is compared as JSON reads it; a nested key of that name is not a top-level one", () => {
    expect(
      removeTopLevelMember(
        '{"cross\\u0053essionInbound": "accept", "a": 1}',
        "crossSessionInbound",
      ),
    ).toBe('{"a": 1}');
    expect(removeTopLevelMember('{"a": {"k": 1}}', "k")).toBeUndefined();
    expect(removeTopLevelMember("[1]", "k")).toBeUndefined();
    expect(removeTopLevelMember("", "k")).toBeUndefined();
  });
});

describe("removeInboundAcceptSetting: puts back what was there", () => {
  test("after an insertion, the original bytes come back exactly", () => {
    for (const original of [
      '{\n  "model": "opus",\n  "env": {}\n}\n',
      '{"a":1}',
      "{}",
      "{ \n}\n",
      '{\r\n\t"a": 1\r\n}\r\n',
      '\n {"a":1}',
      '{\n    "statusLine": "caf\\u00e9 \\ud83d\\ude00 — naïve",\n    "zeta": 1.50e+2\n}\n\n',
    ]) {
      const dir = configDir(original, 0o640);
      expect(ensureInboundAcceptSetting(dir, uid)).toEqual({ kind: "inserted" });
      expect(removeInboundAcceptSetting(dir, uid, "absent")).toEqual({ kind: "removed" });
      expect(settings(dir)).toBe(original);
      expect(statSync(join(dir, "settings.json")).mode & 0o777).toBe(0o640);
      expect(readdirSync(dir)).toEqual(["settings.json"]);
    }
  });

  test("a file Brigade created is deleted; one that gained other members since keeps them", () => {
    const created = configDir();
    expect(ensureInboundAcceptSetting(created, uid)).toEqual({ kind: "created" });
    expect(removeInboundAcceptSetting(created, uid, "no_file")).toEqual({ kind: "file_removed" });
    expect(readdirSync(created)).toEqual([]);
    const grown = configDir();
    expect(ensureInboundAcceptSetting(grown, uid)).toEqual({ kind: "created" });
    // Claude Code rewrote it at a start, adding its own member.
    writeFileSync(
      join(grown, "settings.json"),
      `{\n  ${M},\n  "skipDangerousModePermissionPrompt": true\n}`,
    );
    expect(removeInboundAcceptSetting(grown, uid, "no_file")).toEqual({ kind: "removed" });
    expect(settings(grown)).toBe('{\n  "skipDangerousModePermissionPrompt": true\n}');
  });

  test("a file rewritten since keeps the rewrite; only the member goes", () => {
    const dir = configDir(`{\n  "a": 1,\n  ${M}\n}\n`);
    expect(removeInboundAcceptSetting(dir, uid, "absent")).toEqual({ kind: "removed" });
    expect(settings(dir)).toBe('{\n  "a": 1\n}\n');
  });

  test("the person's own later value stays; nothing there is nothing to do", () => {
    const hold = configDir('{"crossSessionInbound": "hold"}');
    expect(removeInboundAcceptSetting(hold, uid, "absent")).toEqual({ kind: "changed" });
    expect(settings(hold)).toBe('{"crossSessionInbound": "hold"}');
    const gone = configDir('{"a": 1}');
    expect(removeInboundAcceptSetting(gone, uid, "absent")).toEqual({ kind: "already_absent" });
    expect(settings(gone)).toBe('{"a": 1}');
    expect(removeInboundAcceptSetting(configDir(), uid, "no_file")).toEqual({
      kind: "already_absent",
    });
  });

  test("the insertion's file checks hold: a symlink, bad JSON or a large file are left alone", () => {
    const target = configDir(`{${M}}`);
    const linked = configDir();
    symlinkSync(join(target, "settings.json"), join(linked, "settings.json"));
    expect(removeInboundAcceptSetting(linked, uid, "absent")).toEqual({
      kind: "refused",
      reason: "symlink",
    });
    expect(settings(target)).toBe(`{${M}}`);
    expect(removeInboundAcceptSetting(configDir(`{${M},}`), uid, "absent")).toEqual({
      kind: "refused",
      reason: "not_json_object",
    });
  });
});

describe("the undo is the exact inverse of the insertion (property)", () => {
  test("any JSON object, any indentation, without the key: insert then remove gives the bytes back", () => {
    const objects = fc
      .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 })
      .filter((o) => !Object.hasOwn(o, "crossSessionInbound"));
    fc.assert(
      fc.property(objects, fc.constantFrom(0, 1, 2, 4, "\t"), (object, indent) => {
        const original = JSON.stringify(object, null, indent);
        const inserted = insertAcceptMember(new TextEncoder().encode(original));
        if (inserted === undefined) return false;
        const text = new TextDecoder().decode(inserted);
        return removeTopLevelMember(text, "crossSessionInbound") === original;
      }),
    );
  });
});
