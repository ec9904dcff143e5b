import {
  chmodSync,
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
import {
  digestOperatorKey,
  loadOrCreateOperatorKey,
  OPERATOR_KEY_PATTERN,
  OperatorKeyFileError,
  operatorKeyMatches,
} from "./operator-key.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "brigade-opkey-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function codeOf(path: string): string {
  try {
    loadOrCreateOperatorKey(path);
    return "loaded";
  } catch (error) {
    if (error instanceof OperatorKeyFileError) return error.code;
    throw error;
  }
}

describe("the operator key file", () => {
  test("the first load creates a key, shown once; only its digest is stored, 0600", () => {
    const path = join(dir, "brigade.sqlite.operator-key");
    const first = loadOrCreateOperatorKey(path);
    expect(first.newKey).toMatch(OPERATOR_KEY_PATTERN);
    const key = first.newKey as string;
    const stored = readFileSync(path, "utf8");
    expect(stored).toBe(`${digestOperatorKey(key)}\n`);
    expect(stored).not.toContain(key.slice(7));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const again = loadOrCreateOperatorKey(path);
    expect(again).toEqual({ digest: first.digest });
    expect(operatorKeyMatches(key, again.digest)).toBe(true);
    expect(operatorKeyMatches(`${key} `, again.digest)).toBe(false);
  });

  test("a loose, symlinked or invalid key file is refused, never replaced", () => {
    const path = join(dir, "k");
    loadOrCreateOperatorKey(path);
    const content = readFileSync(path, "utf8");
    chmodSync(path, 0o644);
    expect(codeOf(path)).toBe("operator_key_file_unsafe");
    chmodSync(path, 0o600);
    const link = join(dir, "link");
    symlinkSync(path, link);
    expect(codeOf(link)).toBe("operator_key_file_unsafe");
    const dangling = join(dir, "dangling");
    symlinkSync(join(dir, "nowhere"), dangling);
    expect(codeOf(dangling)).toBe("operator_key_file_unsafe");
    const bad = join(dir, "bad");
    for (const text of ["", "sha256:xyz\n", `${content}${content}`, "brgop1.plain-key\n"]) {
      writeFileSync(bad, text, { mode: 0o600 });
      expect(codeOf(bad)).toBe("operator_key_file_invalid");
      expect(readFileSync(bad, "utf8")).toBe(text);
    }
    expect(readFileSync(path, "utf8")).toBe(content);
  });
});
