import { execFileSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { DataFileError } from "./data-file.ts";
import { silentLogger } from "./logger.ts";
import { startServer } from "./serve.ts";
import { runServeCommandLine } from "./serve-command-line.ts";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "brigade-data-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const modeOf = (path: string): number => statSync(path).mode & 0o777;

async function serveAndWrite(dataFile: string): Promise<void> {
  const server = await startServer({ host: "127.0.0.1", port: 0, dataFile, logger: silentLogger });
  try {
    const minted = await fetch(`${server.url}/v1/principals`, {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    expect(minted.status).toBe(200);
    // All three files exist while the server runs: that is when they must be private.
    for (const file of [dataFile, `${dataFile}-wal`, `${dataFile}-shm`]) {
      expect(modeOf(file)).toBe(0o600);
    }
  } finally {
    await server.stop();
  }
}

async function refusalOf(dataFile: string): Promise<string> {
  try {
    await startServer({ host: "127.0.0.1", port: 0, dataFile, logger: silentLogger });
  } catch (error) {
    if (error instanceof DataFileError) return error.code;
    throw error;
  }
  throw new Error("the server started");
}

describe("the data file and its -wal/-shm are owner-only", () => {
  test("a fresh database: all three files 0600, even under a permissive umask", async () => {
    const previous = process.umask(0o000);
    try {
      await serveAndWrite(join(dir, "fresh", "brigade.sqlite"));
    } finally {
      process.umask(previous);
    }
  });

  test("an existing private database is served; its leftover private -wal/-shm too", async () => {
    const dataFile = join(dir, "brigade.sqlite");
    await serveAndWrite(dataFile);
    await serveAndWrite(dataFile);
  });

  test("a data file readable by group or others is refused and left as it was", async () => {
    const dataFile = join(dir, "brigade.sqlite");
    await serveAndWrite(dataFile);
    for (const mode of [0o644, 0o640, 0o604, 0o620, 0o660]) {
      chmodSync(dataFile, mode);
      const before = readFileSync(dataFile);
      expect(await refusalOf(dataFile)).toBe("data_file_not_private");
      expect(modeOf(dataFile)).toBe(mode);
      expect(readFileSync(dataFile).equals(before)).toBe(true);
    }
  });

  test("a loose -wal or -shm left beside a private database is refused too", async () => {
    const dataFile = join(dir, "brigade.sqlite");
    await serveAndWrite(dataFile);
    for (const suffix of ["-wal", "-shm"]) {
      writeFileSync(`${dataFile}${suffix}`, "");
      chmodSync(`${dataFile}${suffix}`, 0o644);
      expect(await refusalOf(dataFile)).toBe("data_file_not_private");
      expect(modeOf(`${dataFile}${suffix}`)).toBe(0o644);
      rmSync(`${dataFile}${suffix}`);
    }
  });

  test("a symlink (even to a private file), a FIFO or a folder is refused", async () => {
    const real = join(dir, "real.sqlite");
    await serveAndWrite(real);
    const link = join(dir, "link.sqlite");
    symlinkSync(real, link);
    expect(await refusalOf(link)).toBe("data_file_symlink");
    const dangling = join(dir, "dangling.sqlite");
    symlinkSync(join(dir, "nowhere.sqlite"), dangling);
    expect(await refusalOf(dangling)).toBe("data_file_symlink");
    const walLink = join(dir, "wal-link.sqlite");
    symlinkSync(join(dir, "elsewhere"), `${walLink}-wal`);
    expect(await refusalOf(walLink)).toBe("data_file_symlink");
    const fifo = join(dir, "fifo.sqlite");
    execFileSync("mkfifo", ["-m", "600", fifo]);
    expect(await refusalOf(fifo)).toBe("data_file_not_regular");
    const folder = join(dir, "folder.sqlite");
    mkdirSync(folder, { mode: 0o700 });
    expect(await refusalOf(folder)).toBe("data_file_not_regular");
  });

  test("brigade serve --data <loose file>: one clear stderr line, exit 1, the path never echoed", async () => {
    const dataFile = join(dir, "secret-name.sqlite");
    writeFileSync(dataFile, "", { mode: 0o600 });
    chmodSync(dataFile, 0o644);
    let stderr = "";
    let stdout = "";
    const status = await runServeCommandLine(
      ["--port", "0", "--data", dataFile],
      { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: {} },
      { help: "" },
    );
    expect(status).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      "brigade serve: cannot start (data_file_not_private): the data file or its -wal/-shm file is accessible to group or others; make it owner-only (chmod 600)\n",
    );
    expect(stderr).not.toContain("secret-name");
  });
});
