import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkOwnFolder } from "./index.ts";

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "brigade-own-folder-"));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(process.getuid === undefined)("checkOwnFolder", () => {
  test("a folder of ours that others may not write is fine; one they may only read is too", () => {
    for (const mode of [0o700, 0o755, 0o750]) {
      const dir = join(root, `ours-${mode.toString(8)}`);
      mkdirSync(dir);
      chmodSync(dir, mode);
      expect(checkOwnFolder(dir, { createParents: false })).toEqual({ ok: true, exists: true });
    }
  });

  test("a folder others may write is refused, and left as it was", () => {
    for (const mode of [0o777, 0o770, 0o1777, 0o702]) {
      const dir = join(root, `open-${mode.toString(8)}`);
      mkdirSync(dir);
      chmodSync(dir, mode);
      expect(checkOwnFolder(dir, { createParents: true })).toEqual({
        ok: false,
        reason: "writable_by_others",
      });
    }
  });

  test("another user's folder, a file, and a link to a file are refused", () => {
    const uid = (process.getuid?.() ?? 0) + 1;
    expect(checkOwnFolder(root, { createParents: false, uid })).toEqual({
      ok: false,
      reason: "foreign_owner",
    });
    const file = join(root, "a-file");
    writeFileSync(file, "x");
    expect(checkOwnFolder(file, { createParents: false })).toEqual({
      ok: false,
      reason: "not_a_folder",
    });
    symlinkSync(file, join(root, "link-to-file"));
    expect(checkOwnFolder(join(root, "link-to-file"), { createParents: false }).ok).toBe(false);
  });

  test("a missing folder: its parent must exist unless parents may be created; nothing is made", () => {
    const deep = join(root, "no", "such", "config");
    expect(checkOwnFolder(deep, { createParents: false })).toEqual({
      ok: false,
      reason: "parent_missing",
    });
    expect(checkOwnFolder(deep, { createParents: true })).toEqual({ ok: true, exists: false });
    expect(checkOwnFolder(join(root, "fresh"), { createParents: false })).toEqual({
      ok: true,
      exists: false,
    });
    expect(checkOwnFolder(join(root, "a-file", "x"), { createParents: false }).ok).toBe(false);
  });
});
