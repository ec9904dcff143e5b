import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { repositoryDotenvChoice } from "./repository-dotenv.ts";

let root: string;
let home: string;
let repo: string;
const files = [".gemini/.env", ".env"];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "dotenv-"));
  home = join(root, "home");
  repo = join(home, "src", "api");
  mkdirSync(join(repo, "pkg"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("repositoryDotenvChoice", () => {
  test("a repository .env that names HOME, XDG_* or BRIGADE_* is found from a folder below it", () => {
    for (const line of [
      "XDG_STATE_HOME=/tmp/x",
      "export BRIGADE_CONFIG_DIR=/tmp/c",
      "  HOME = /tmp/h",
    ]) {
      writeFileSync(join(repo, ".env"), `# settings\nAPI_URL=http://x\n${line}\n`);
      expect(repositoryDotenvChoice(join(repo, "pkg"), home, files)).toBe(join(repo, ".env"));
    }
  });

  test("the first file found decides, as the client's loader does: .gemini/.env before .env", () => {
    mkdirSync(join(repo, ".gemini"));
    writeFileSync(join(repo, ".gemini", ".env"), "API_URL=http://x\n");
    writeFileSync(join(repo, ".env"), "XDG_STATE_HOME=/tmp/x\n");
    expect(repositoryDotenvChoice(repo, home, files)).toBeUndefined();
    writeFileSync(join(repo, ".gemini", ".env"), "XDG_CONFIG_HOME=/tmp/x\n");
    expect(repositoryDotenvChoice(repo, home, files)).toBe(join(repo, ".gemini", ".env"));
  });

  test("the person's own files at home are theirs; other variables and no file count for nothing", () => {
    writeFileSync(join(home, ".env"), "XDG_STATE_HOME=/tmp/mine\n");
    expect(repositoryDotenvChoice(repo, home, files)).toBeUndefined();
    writeFileSync(
      join(repo, ".env"),
      "GEMINI_API_KEY=x\n# XDG_STATE_HOME=/commented\nNOT_HOME=1\n",
    );
    expect(repositoryDotenvChoice(repo, home, files)).toBeUndefined();
    expect(repositoryDotenvChoice("relative", home, files)).toBeUndefined();
  });

  test("a .env that exists but cannot be read here counts as choosing", () => {
    mkdirSync(join(repo, ".env"));
    expect(repositoryDotenvChoice(repo, home, files)).toBe(join(repo, ".env"));
  });
});
