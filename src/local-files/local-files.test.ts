import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import {
  appendPrivateFile,
  createFileExclusive,
  ensurePrivateFolder,
  ensurePrivateFolders,
  entryExists,
  openAppendFile,
  privateToThisUser,
  readLocalFile,
  writeFileAtomic,
} from "./index.ts";

// Every fs call of the module passes through; a test may arm one hook to play the other party
// of a race (a file appearing before our link) or a failing disk (a rename that throws).
const hooks = vi.hoisted(() => ({
  beforeLink: undefined as ((path: string) => void) | undefined,
  rename: undefined as (() => void) | undefined,
  fsync: undefined as (() => void) | undefined,
}));
vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  return {
    ...real,
    linkSync: (existing: fs.PathLike, path: fs.PathLike) => {
      hooks.beforeLink?.(String(path));
      return real.linkSync(existing, path);
    },
    renameSync: (from: fs.PathLike, to: fs.PathLike) => {
      hooks.rename?.();
      return real.renameSync(from, to);
    },
    fsyncSync: (fd: number) => {
      hooks.fsync?.();
      return real.fsyncSync(fd);
    },
  };
});

const uid = process.getuid?.() ?? -1;
const isRoot = uid === 0;
let dir: string;
let n = 0;
/** A fresh folder for one case. */
const fresh = (): string => {
  n += 1;
  const path = join(dir, `case-${n}`);
  fs.mkdirSync(path, { mode: 0o700 });
  return path;
};
const fail = (): never => {
  throw new Error("a disk failure");
};

beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), "brigade-local-files-")));
});
afterEach(() => {
  hooks.beforeLink = undefined;
  hooks.rename = undefined;
  hooks.fsync = undefined;
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("readLocalFile refuses every trick, with its token", () => {
  test("a regular file within the cap is read whole; one byte over is too_large", () => {
    const d = fresh();
    fs.writeFileSync(join(d, "f"), "12345", { mode: 0o600 });
    const r = readLocalFile(join(d, "f"), { maxBytes: 5, privateTo: uid });
    expect(r.ok && Buffer.from(r.bytes).toString()).toBe("12345");
    expect(readLocalFile(join(d, "f"), { maxBytes: 4 })).toEqual({
      ok: false,
      reason: "too_large",
    });
  });

  test("tail: a larger file gives its last maxBytes bytes", () => {
    const d = fresh();
    fs.writeFileSync(join(d, "f"), "abcdefgh");
    const r = readLocalFile(join(d, "f"), { maxBytes: 3, tail: true });
    expect(r.ok && Buffer.from(r.bytes).toString()).toBe("fgh");
  });

  test("missing, and a path through a file (ENOTDIR), are missing", () => {
    const d = fresh();
    fs.writeFileSync(join(d, "f"), "x");
    expect(readLocalFile(join(d, "none"), { maxBytes: 9 })).toEqual({
      ok: false,
      reason: "missing",
    });
    expect(readLocalFile(join(d, "f", "g"), { maxBytes: 9 })).toEqual({
      ok: false,
      reason: "missing",
    });
  });

  test("a symlink and a dangling symlink are refused unless links are followed", () => {
    const d = fresh();
    fs.writeFileSync(join(d, "target"), "secret");
    fs.symlinkSync(join(d, "target"), join(d, "link"));
    fs.symlinkSync(join(d, "nowhere"), join(d, "dangling"));
    expect(readLocalFile(join(d, "link"), { maxBytes: 99 })).toEqual({
      ok: false,
      reason: "symlink",
    });
    expect(readLocalFile(join(d, "dangling"), { maxBytes: 99 })).toEqual({
      ok: false,
      reason: "symlink",
    });
    const followed = readLocalFile(join(d, "link"), { maxBytes: 99, followSymlink: true });
    expect(followed.ok && Buffer.from(followed.bytes).toString()).toBe("secret");
    expect(readLocalFile(join(d, "dangling"), { maxBytes: 99, followSymlink: true })).toEqual({
      ok: false,
      reason: "missing",
    });
  });

  test.runIf(process.platform !== "win32")(
    "a FIFO never hangs: not_regular, followed or not",
    () => {
      const d = fresh();
      execFileSync("mkfifo", [join(d, "fifo")]);
      fs.symlinkSync(join(d, "fifo"), join(d, "to-fifo"));
      expect(readLocalFile(join(d, "fifo"), { maxBytes: 9 })).toEqual({
        ok: false,
        reason: "not_regular",
      });
      expect(readLocalFile(join(d, "to-fifo"), { maxBytes: 9, followSymlink: true })).toEqual({
        ok: false,
        reason: "not_regular",
      });
    },
  );

  test("a folder is not_regular", () => {
    const d = fresh();
    expect(readLocalFile(d, { maxBytes: 9 })).toEqual({ ok: false, reason: "not_regular" });
  });

  test("privateTo: another owner is not_owned, a group or other bit is not_private", () => {
    const d = fresh();
    fs.writeFileSync(join(d, "f"), "x", { mode: 0o600 });
    expect(readLocalFile(join(d, "f"), { maxBytes: 9, privateTo: uid + 1 })).toEqual({
      ok: false,
      reason: "not_owned",
    });
    for (const mode of [0o640, 0o604, 0o610, 0o601]) {
      fs.chmodSync(join(d, "f"), mode);
      expect(readLocalFile(join(d, "f"), { maxBytes: 9, privateTo: uid })).toEqual({
        ok: false,
        reason: "not_private",
      });
      // without privateTo the mode does not matter
      expect(readLocalFile(join(d, "f"), { maxBytes: 9 }).ok).toBe(true);
    }
  });

  test.runIf(isRoot)("a file really owned by nobody is not_owned", () => {
    const d = fresh();
    fs.writeFileSync(join(d, "f"), "x", { mode: 0o600 });
    fs.chownSync(join(d, "f"), 65534, 65534);
    expect(readLocalFile(join(d, "f"), { maxBytes: 9, privateTo: uid })).toEqual({
      ok: false,
      reason: "not_owned",
    });
  });

  test("sameAs: a file swapped since the lstat is changed_meanwhile", () => {
    const d = fresh();
    fs.writeFileSync(join(d, "f"), "old");
    const before = fs.lstatSync(join(d, "f"));
    expect(readLocalFile(join(d, "f"), { maxBytes: 9, sameAs: before }).ok).toBe(true);
    fs.writeFileSync(join(d, "g"), "new");
    fs.renameSync(join(d, "g"), join(d, "f"));
    expect(readLocalFile(join(d, "f"), { maxBytes: 9, sameAs: before })).toEqual({
      ok: false,
      reason: "changed_meanwhile",
    });
  });
});

describe("privateToThisUser", () => {
  test.runIf(uid >= 0)("asks for this process's user", () => {
    expect(privateToThisUser()).toEqual({ privateTo: uid });
  });
});

describe("entryExists", () => {
  test("a file, a folder and a dangling link exist; nothing, or a path through a file, does not", () => {
    const d = fresh();
    fs.writeFileSync(join(d, "f"), "x");
    fs.symlinkSync(join(d, "nowhere"), join(d, "dangling"));
    expect([d, join(d, "f"), join(d, "dangling")].map(entryExists)).toEqual([true, true, true]);
    expect([join(d, "none"), join(d, "f", "g")].map(entryExists)).toEqual([false, false]);
  });
});

describe("private folders", () => {
  test("created 0700, a loose one tightened, every folder below the root too", () => {
    const d = fresh();
    fs.chmodSync(d, 0o755);
    const leaf = join(d, "a", "b");
    fs.mkdirSync(join(d, "a"), { mode: 0o777 });
    fs.chmodSync(join(d, "a"), 0o777);
    expect(ensurePrivateFolders(d, leaf)).toEqual({ ok: true });
    for (const path of [d, join(d, "a"), leaf]) expect(fs.statSync(path).mode & 0o777).toBe(0o700);
  });

  test("a path through a file cannot be made: io_error", () => {
    const d = fresh();
    fs.writeFileSync(join(d, "f"), "x");
    expect(ensurePrivateFolder(join(d, "f", "g"))).toEqual({ ok: false, reason: "io_error" });
  });
});

describe("writeFileAtomic", () => {
  test("a private file: 0600, whole content, replacing the old one, nothing left beside it", () => {
    const d = fresh();
    fs.writeFileSync(join(d, "f"), "old", { mode: 0o644 });
    expect(writeFileAtomic(join(d, "f"), "new text")).toEqual({ ok: true });
    expect(fs.readFileSync(join(d, "f"), "utf8")).toBe("new text");
    expect(fs.statSync(join(d, "f")).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(d)).toEqual(["f"]);
  });

  test("an explicit mode is set exactly, whatever the umask", () => {
    const d = fresh();
    expect(writeFileAtomic(join(d, "f"), "x", { mode: 0o644 })).toEqual({ ok: true });
    expect(fs.statSync(join(d, "f")).mode & 0o777).toBe(0o644);
  });

  test("a symlink at the path is replaced, never written through", () => {
    const d = fresh();
    fs.writeFileSync(join(d, "target"), "keep");
    fs.symlinkSync(join(d, "target"), join(d, "f"));
    expect(writeFileAtomic(join(d, "f"), "new")).toEqual({ ok: true });
    expect(fs.readFileSync(join(d, "target"), "utf8")).toBe("keep");
    expect(fs.lstatSync(join(d, "f")).isFile()).toBe(true);
  });

  test("a failing rename or fsync leaves the old file and no temporary", () => {
    const d = fresh();
    fs.writeFileSync(join(d, "f"), "old");
    hooks.rename = fail;
    expect(writeFileAtomic(join(d, "f"), "new")).toEqual({ ok: false, reason: "io_error" });
    hooks.rename = undefined;
    hooks.fsync = fail;
    expect(writeFileAtomic(join(d, "f"), "new")).toEqual({ ok: false, reason: "io_error" });
    expect(fs.readFileSync(join(d, "f"), "utf8")).toBe("old");
    expect(fs.readdirSync(d)).toEqual(["f"]);
  });

  test("a guard that sees a change keeps the target: changed_meanwhile, no temporary", () => {
    const d = fresh();
    fs.writeFileSync(join(d, "f"), "theirs");
    expect(writeFileAtomic(join(d, "f"), "ours", { unchanged: () => false })).toEqual({
      ok: false,
      reason: "changed_meanwhile",
    });
    expect(writeFileAtomic(join(d, "f"), "ours", { unchanged: fail })).toEqual({
      ok: false,
      reason: "io_error",
    });
    expect(fs.readFileSync(join(d, "f"), "utf8")).toBe("theirs");
    expect(fs.readdirSync(d)).toEqual(["f"]);
  });

  test("a missing folder: io_error, nothing created", () => {
    const d = fresh();
    expect(writeFileAtomic(join(d, "no", "f"), "x")).toEqual({ ok: false, reason: "io_error" });
    expect(fs.readdirSync(d)).toEqual([]);
  });
});

describe("createFileExclusive", () => {
  test("creates 0600 with whole content, nothing left beside it", () => {
    const d = fresh();
    expect(createFileExclusive(join(d, "f"), "mine")).toEqual({ ok: true });
    expect(fs.readFileSync(join(d, "f"), "utf8")).toBe("mine");
    expect(fs.statSync(join(d, "f")).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(d)).toEqual(["f"]);
  });

  test("never replaces a file, nor a dangling symlink (nothing created at its target)", () => {
    const d = fresh();
    fs.writeFileSync(join(d, "f"), "theirs");
    fs.symlinkSync(join(d, "nowhere"), join(d, "link"));
    expect(createFileExclusive(join(d, "f"), "mine")).toEqual({ ok: false, reason: "exists" });
    expect(createFileExclusive(join(d, "link"), "mine")).toEqual({ ok: false, reason: "exists" });
    expect(fs.readFileSync(join(d, "f"), "utf8")).toBe("theirs");
    expect(fs.existsSync(join(d, "nowhere"))).toBe(false);
    expect(fs.readdirSync(d).sort()).toEqual(["f", "link"]);
  });

  test("the race: another creator wins between our temporary and our link", () => {
    const d = fresh();
    hooks.beforeLink = (path) => fs.writeFileSync(path, "winner");
    expect(createFileExclusive(join(d, "f"), "loser")).toEqual({ ok: false, reason: "exists" });
    expect(fs.readFileSync(join(d, "f"), "utf8")).toBe("winner");
    expect(fs.readdirSync(d)).toEqual(["f"]);
  });
});

describe("appends", () => {
  test("appendPrivateFile creates 0600, appends, and tightens a loose file", () => {
    const d = fresh();
    expect(appendPrivateFile(join(d, "log"), "a\n")).toEqual({ ok: true });
    fs.chmodSync(join(d, "log"), 0o644);
    expect(appendPrivateFile(join(d, "log"), "b\n")).toEqual({ ok: true });
    expect(fs.readFileSync(join(d, "log"), "utf8")).toBe("a\nb\n");
    expect(fs.statSync(join(d, "log")).mode & 0o777).toBe(0o600);
  });

  test.runIf(process.platform !== "win32")(
    "a FIFO or a folder at the path is refused, never hangs",
    () => {
      const d = fresh();
      execFileSync("mkfifo", [join(d, "fifo")]);
      expect(openAppendFile(join(d, "fifo"))).toEqual({ ok: false, reason: "io_error" });
      expect(appendPrivateFile(join(d, "fifo"), "x")).toEqual({ ok: false, reason: "io_error" });
      expect(openAppendFile(d)).toEqual({ ok: false, reason: "io_error" });
    },
  );

  test("a symlink or dangling symlink at the path is never followed", () => {
    const d = fresh();
    fs.writeFileSync(join(d, "target"), "keep");
    fs.symlinkSync(join(d, "target"), join(d, "log"));
    fs.symlinkSync(join(d, "nowhere"), join(d, "dangling"));
    expect(appendPrivateFile(join(d, "log"), "x")).toEqual({ ok: false, reason: "io_error" });
    expect(openAppendFile(join(d, "dangling"))).toEqual({ ok: false, reason: "io_error" });
    expect(fs.readFileSync(join(d, "target"), "utf8")).toBe("keep");
    expect(fs.existsSync(join(d, "nowhere"))).toBe(false);
  });
});
