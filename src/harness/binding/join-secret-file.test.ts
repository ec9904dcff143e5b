import { execFileSync } from "node:child_process";
import {
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateJoinSecret } from "../../protocol/index.ts";
import {
  MAX_JOIN_SECRET_FILE_BYTES,
  parseJoinSecretFile,
  readJoinSecretFile,
  serializeJoinSecretFile,
  writeJoinSecretFile,
} from "./index.ts";

const SERVER = "http://127.0.0.1:7777";
const SECRET = generateJoinSecret("t-9c1e", new Uint8Array(32).fill(7));
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

let dir: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "brigade-secret-file-")));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the join-secret file", () => {
  test("written 0600 as two lines, read back with its server; never replaces a file", () => {
    const path = join(dir, "team.secret");
    expect(writeJoinSecretFile(path, SECRET, SERVER)).toEqual({ ok: true });
    expect(readFileSync(path, "utf8")).toBe(`${SECRET}\nserver ${SERVER}\n`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const read = readJoinSecretFile(path);
    expect(read.ok && [read.secret.teamRef, read.server]).toEqual(["t-9c1e", SERVER]);
    expect(writeJoinSecretFile(path, SECRET, "http://127.0.0.1:1")).toEqual({
      ok: false,
      reason: "exists",
    });
    expect(readFileSync(path, "utf8")).toBe(serializeJoinSecretFile(SECRET, SERVER));
  });

  test("one secret line alone, blank lines and spaces around: no server", () => {
    const read = parseJoinSecretFile(utf8(`\n  ${SECRET}  \n\n`));
    expect(read.ok && read.server).toBeUndefined();
    expect(read.ok).toBe(true);
  });

  test("anything else is not_a_join_secret", () => {
    for (const text of [
      "",
      "not a secret\n",
      `${SECRET}\nserver ftp://x\n`,
      `${SECRET}\nport 7777\n`,
      `${SECRET}\nserver ${SERVER}\nmore\n`,
    ]) {
      expect(parseJoinSecretFile(utf8(text))).toEqual({ ok: false, reason: "not_a_join_secret" });
    }
    expect(parseJoinSecretFile(new Uint8Array([0xff, 0x0a]))).toEqual({
      ok: false,
      reason: "not_a_join_secret",
    });
  });

  test("missing, a folder, a FIFO, or over 4 KiB: refused without hanging; a symlink is followed", () => {
    expect(readJoinSecretFile(join(dir, "none"))).toEqual({ ok: false, reason: "cannot_open" });
    expect(readJoinSecretFile(dir)).toEqual({ ok: false, reason: "not_regular" });
    execFileSync("mkfifo", [join(dir, "fifo")]);
    expect(readJoinSecretFile(join(dir, "fifo"))).toEqual({ ok: false, reason: "not_regular" });
    writeFileSync(join(dir, "big"), `${SECRET}\n${" ".repeat(MAX_JOIN_SECRET_FILE_BYTES)}`);
    expect(readJoinSecretFile(join(dir, "big"))).toEqual({ ok: false, reason: "too_large" });
    writeFileSync(join(dir, "plain"), `${SECRET}\n`);
    symlinkSync(join(dir, "plain"), join(dir, "link"));
    expect(readJoinSecretFile(join(dir, "link")).ok).toBe(true);
  });
});
