import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { testTempDir } from "../../test/support/temp-dir.ts";
import { BrigadeService } from "../service/index.ts";
import { openSqliteStore } from "../store/sqlite/index.ts";
import { BackupError, backupDataFile } from "./backup-data-file.ts";

/** A Brigade data file at `path` (the current schema, no rows). */
async function dataFile(path: string): Promise<string> {
  mkdirSync(dirname(path), { recursive: true });
  await openSqliteStore(path).close();
  return path;
}

/** The entries of `folder` that `before` did not list. */
function added(folder: string, before: readonly string[]): string[] {
  return readdirSync(folder).filter((name) => !before.includes(name));
}

/** The temporary copy a backup in progress made under `folder`: the new entry, or a file in it. */
function copyIn(folder: string, entry: string): string {
  const path = join(folder, entry);
  if (!lstatSync(path).isDirectory()) return path;
  const [file] = readdirSync(path).filter((name) => !name.endsWith("-journal"));
  if (file === undefined) throw new Error("no copy in the temporary folder");
  return join(path, file);
}

describe.skipIf(process.getuid === undefined)("backupDataFile: the temporary copy", () => {
  test("is made in a fresh 0700 folder beside OUT-FILE, so nothing another user plants beside it is written through", async () => {
    const root = testTempDir("brigade-backup-unit-");
    const data = await dataFile(join(root, "data", "brigade.sqlite"));
    // OUT-FILE's folder is /tmp-like: everyone may create entries in it.
    const shared = join(root, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const victim = join(root, "victim.txt");
    writeFileSync(victim, "the user's own file\n");
    const out = join(shared, "copy.sqlite");
    const before = readdirSync(shared);
    const seen: { entry: string; folder: boolean; mode: number }[] = [];
    await backupDataFile(data, out, {
      shouldStop: () => {
        // What another user can do in a sticky folder: add entries beside ours. A link where
        // SQLite's journal of a temporary lying here would go makes SQLite write through it.
        for (const entry of added(shared, before)) {
          if (entry.endsWith("-journal") || seen.some((s) => s.entry === entry)) continue;
          const stats = lstatSync(join(shared, entry));
          seen.push({ entry, folder: stats.isDirectory(), mode: stats.mode & 0o7777 });
          symlinkSync(victim, join(shared, `${entry}-journal`));
        }
        return false;
      },
    });
    expect(readFileSync(victim, "utf8")).toBe("the user's own file\n");
    expect(seen.map(({ folder, mode }) => ({ folder, mode }))).toEqual([
      { folder: true, mode: 0o700 },
    ]);
    expect(lstatSync(out).isFile()).toBe(true);
    // The private folder is gone; only the planted link beside it is left.
    expect(added(shared, before).sort()).toEqual(
      ["copy.sqlite", `${seen[0]?.entry ?? ""}-journal`].sort(),
    );
  });

  test("swapped for a link before it is placed, is refused: nothing at OUT-FILE, the link's target untouched", async () => {
    const root = testTempDir("brigade-backup-unit-");
    const data = await dataFile(join(root, "data", "brigade.sqlite"));
    const theirs = await dataFile(join(root, "theirs", "theirs.sqlite"));
    const theirsBytes = readFileSync(theirs);
    const out = join(root, "copy.sqlite");
    const before = readdirSync(root);
    let swapped = false;
    const backup = backupDataFile(data, out, {
      shouldStop: () => {
        const [entry] = added(root, before);
        if (entry === undefined || swapped) return false;
        const copy = copyIn(root, entry);
        renameSync(copy, `${copy}.gone`);
        symlinkSync(theirs, copy);
        swapped = true;
        return false;
      },
    });
    await expect(backup).rejects.toEqual(new BackupError("backup_copy_replaced"));
    expect(swapped).toBe(true);
    expect(existsSync(out) || lstatSync(out, { throwIfNoEntry: false }) !== undefined).toBe(false);
    expect(readFileSync(theirs)).toEqual(theirsBytes);
    expect(added(root, before)).toEqual([]);
  });

  test("OUT-FILE's folder must be one no one else may change: a shared folder without the sticky bit is refused", async () => {
    const root = testTempDir("brigade-backup-unit-");
    const data = await dataFile(join(root, "data", "brigade.sqlite"));
    for (const mode of [0o777, 0o775]) {
      const shared = join(root, `shared-${mode.toString(8)}`);
      mkdirSync(shared);
      chmodSync(shared, mode);
      await expect(backupDataFile(data, join(shared, "copy.sqlite"))).rejects.toEqual(
        new BackupError("backup_target_folder_shared"),
      );
      expect(readdirSync(shared)).toEqual([]);
    }
    await expect(backupDataFile(data, join(root, "none", "copy.sqlite"))).rejects.toEqual(
      new BackupError("backup_target_folder_missing"),
    );
  });
});

describe("backupDataFile: attachments", () => {
  test("the copy carries every blob, whose bytes a server on the copy serves as the original did", async () => {
    const root = testTempDir("brigade-backup-blobs-");
    const data = await dataFile(join(root, "data", "brigade.sqlite"));
    const bytes = randomBytes(600_000);
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const original = openSqliteStore(data);
    const service = new BrigadeService(original);
    const a = (await service.createPrincipal()).principal_ref;
    const team = (await service.createTeam(a, { team_name: "t" })).team_ref;
    async function* body(): AsyncGenerator<Uint8Array> {
      yield bytes;
    }
    await service.uploadBlob(a, team, { sha256, size: bytes.length }, body());
    await original.close();

    const out = join(root, "copy.sqlite");
    await backupDataFile(data, out);
    const copy = openSqliteStore(out);
    try {
      const open = await new BrigadeService(copy).openBlob(a, team, sha256);
      const parts: Buffer[] = [];
      for await (const part of open.body) parts.push(Buffer.from(part));
      expect(Buffer.concat(parts).equals(bytes)).toBe(true);
    } finally {
      await copy.close();
    }
  });
});
