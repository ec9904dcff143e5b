import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { testTempDir } from "../../test/support/temp-dir.ts";
import { createPrivateTempFolder } from "./index.ts";

describe.skipIf(process.getuid === undefined)("createPrivateTempFolder", () => {
  test("makes a fresh 0700 folder of ours, a new one each time, in a folder only we may change or a sticky one", () => {
    const root = testTempDir("brigade-private-temp-");
    for (const mode of [0o700, 0o755, 0o1777, 0o1770]) {
      const parent = join(root, `parent-${mode.toString(8)}`);
      mkdirSync(parent);
      chmodSync(parent, mode);
      const first = createPrivateTempFolder(parent, ".out.tmp-");
      const second = createPrivateTempFolder(parent, ".out.tmp-");
      if (!first.ok || !second.ok) throw new Error(`refused in a ${mode.toString(8)} folder`);
      expect(first.path).not.toBe(second.path);
      const made = lstatSync(first.path);
      expect([made.isDirectory(), made.mode & 0o7777, made.uid]).toEqual([
        true,
        0o700,
        process.getuid?.(),
      ]);
      expect(first.path.startsWith(join(parent, ".out.tmp-"))).toBe(true);
    }
  });

  test("refuses a folder others may change (writable without the sticky bit, or another user's) and one that is missing, making nothing", () => {
    const root = testTempDir("brigade-private-temp-");
    for (const mode of [0o777, 0o770, 0o722]) {
      const parent = join(root, `shared-${mode.toString(8)}`);
      mkdirSync(parent);
      chmodSync(parent, mode);
      expect(createPrivateTempFolder(parent, ".x.")).toEqual({
        ok: false,
        reason: "parent_shared",
      });
      expect(readdirSync(parent)).toEqual([]);
    }
    // Another user's folder (root's are accepted: root can change anything anyway). As root,
    // the folder is given away; otherwise the check runs as another uid.
    const theirs = join(root, "theirs");
    mkdirSync(theirs, { mode: 0o700 });
    const me = process.getuid?.() ?? 0;
    if (me === 0) chownSync(theirs, 54_321, 54_321);
    expect(createPrivateTempFolder(theirs, ".x.", me === 0 ? {} : { uid: me + 1 })).toEqual({
      ok: false,
      reason: "parent_shared",
    });
    expect(readdirSync(theirs)).toEqual([]);
    expect(createPrivateTempFolder(join(root, "none"), ".x.")).toEqual({
      ok: false,
      reason: "parent_missing",
    });
    const file = join(root, "file");
    writeFileSync(file, "x");
    expect(createPrivateTempFolder(file, ".x.")).toEqual({ ok: false, reason: "parent_missing" });
    // A link to a folder is followed for the parent (a configured path may be one).
    const ours = join(root, "ours");
    mkdirSync(ours, { mode: 0o700 });
    symlinkSync(ours, join(root, "link"));
    expect(createPrivateTempFolder(join(root, "link"), ".x.").ok).toBe(true);
  });
});
