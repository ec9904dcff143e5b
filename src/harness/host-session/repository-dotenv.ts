import { dirname, isAbsolute, join } from "node:path";
import { entryExists, readLocalFile } from "../../local-files/index.ts";

/** Largest `.env` file read, bytes: a bigger one is not a repository's few variables. */
const MAX_DOTENV_BYTES = 65_536;

/** Most folders walked up from the session's folder. */
const MAX_DEPTH = 32;

/** Whether a variable chooses where Brigade keeps its state and configuration. */
function choosesForBrigade(name: string): boolean {
  return name === "HOME" || name.startsWith("XDG_") || name.startsWith("BRIGADE_");
}

/**
 * The variable names one `.env` text sets (`NAME=value`, `export NAME=value`; comments and other
 * lines skipped). Only names: the values are compared through the environment itself.
 */
function dotenvNames(text: string): string[] {
  const names: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line);
    if (match?.[1] !== undefined) names.push(match[1]);
  }
  return names;
}

/**
 * The repository `.env` file a client loaded into its environment when it chooses Brigade's
 * folders, or `undefined` (docs/49-hosts.md "A repository's .env"). A client that loads the first
 * of `candidates` (names relative to a folder, e.g. `.gemini/.env`, `.env`) found walking up from
 * `cwd` lets a cloned repository set `HOME`, `XDG_*` or `BRIGADE_*` for its hooks and MCP
 * servers. The walk stops at `home` (the person's own files there are theirs, not a
 * repository's) and at the root; the first file found decides, as the client's loader does. It
 * counts when it names such a variable, or cannot be read here. Returns the file's path. Never
 * throws.
 *
 * @example repositoryDotenvChoice("/w/api", "/home/dana", [".gemini/.env", ".env"]) // "/w/api/.env" when it sets XDG_STATE_HOME
 */
export function repositoryDotenvChoice(
  cwd: string,
  home: string,
  candidates: readonly string[],
): string | undefined {
  if (!isAbsolute(cwd)) return undefined;
  let dir = cwd;
  for (let depth = 0; depth < MAX_DEPTH && dir !== home; depth++) {
    for (const name of candidates) {
      const path = join(dir, name);
      if (!entryExists(path)) continue;
      // The client loads this file: one that cannot be read here counts as choosing.
      const read = readLocalFile(path, { maxBytes: MAX_DOTENV_BYTES, followSymlink: true });
      if (!read.ok) return path;
      const names = dotenvNames(new TextDecoder().decode(read.bytes));
      return names.some(choosesForBrigade) ? path : undefined;
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}
