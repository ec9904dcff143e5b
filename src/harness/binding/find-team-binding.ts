import { realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { entryExists, readLocalFile } from "../../local-files/index.ts";
import {
  MAX_TEAM_BINDING_BYTES,
  parseTeamBindingFile,
  TEAM_BINDING_FILE_NAME,
  type TeamBinding,
} from "./binding-file.ts";

/**
 * What {@link findTeamBinding} found: the binding, the file it came from and the checkout it
 * binds (realpath of the repository top, or of the folder holding the file outside a repository);
 * or why nothing usable was found.
 *
 * @example
 * { ok: true, checkout: "/home/dana/src/api", file: "/home/dana/src/api/.brigade.json",
 *   binding: { server: "http://127.0.0.1:7777", team_ref: "t-9c1e", team_name: "core" } }
 */
export type TeamBindingLookup =
  | {
      readonly ok: true;
      readonly checkout: string;
      readonly file: string;
      readonly binding: TeamBinding;
    }
  | {
      readonly ok: false;
      readonly reason: "no_binding" | "binding_unreadable" | "binding_invalid";
    };

/** The folder a lookup starts from and the repository top above it, both real paths. */
export interface CheckoutLocation {
  /** realpath of the start folder. */
  readonly start: string;
  /** realpath of the first folder from `start` upwards holding `.git` (file or folder), if any. */
  readonly repositoryTop: string | undefined;
}

/**
 * Resolves `startDir` (made absolute, symlinks resolved) and finds the repository top above it:
 * the first folder, from `startDir` itself upwards, holding a `.git` entry (a folder, or the file
 * a worktree or submodule has). `undefined` when `startDir` does not exist. Never throws.
 *
 * @example locateCheckout("/home/dana/src/api/lib"); // { start: …/lib, repositoryTop: …/api }
 */
export function locateCheckout(startDir: string): CheckoutLocation | undefined {
  let start: string;
  try {
    start = realpathSync(resolve(startDir));
  } catch {
    return undefined;
  }
  for (let dir = start; ; ) {
    if (entryExists(join(dir, ".git"))) return { start, repositoryTop: dir };
    const parent = dirname(dir);
    if (parent === dir) return { start, repositoryTop: undefined };
    dir = parent;
  }
}

/**
 * Finds the `.brigade.json` that binds `startDir` (docs/44-team-binding.md) and never throws.
 * Inside a repository (a `.git` entry in `startDir` or an ancestor) every folder from `startDir`
 * up to and including the repository top is checked, nearest first, and the checkout is the
 * repository top; outside a repository only `startDir` itself counts (a stray file in `$HOME`
 * must not bind every folder below it) and the checkout is `startDir`. Both are real paths.
 * Reasons: `no_binding` (no file, or `startDir` missing); `binding_unreadable` (a symlink, not a
 * regular file, or an I/O failure); `binding_invalid` (over 64 KiB or not a valid binding — see
 * `parseTeamBindingFile`). The nearest file decides: an invalid one is not skipped.
 *
 * @example
 * const found = findTeamBinding(process.cwd());
 * if (found.ok) teamKeyFor(found.binding.server, found.binding.team_ref);
 */
export function findTeamBinding(startDir: string): TeamBindingLookup {
  const location = locateCheckout(startDir);
  if (location === undefined) return { ok: false, reason: "no_binding" };
  const top = location.repositoryTop;
  for (let dir = location.start; ; dir = dirname(dir)) {
    const file = join(dir, TEAM_BINDING_FILE_NAME);
    // A committed file is read, not trusted: a symlink (it could point anywhere, even at a FIFO)
    // and anything but a regular file are refused.
    const read = readLocalFile(file, { maxBytes: MAX_TEAM_BINDING_BYTES });
    if (!read.ok && read.reason === "too_large") return { ok: false, reason: "binding_invalid" };
    if (!read.ok && read.reason !== "missing") return { ok: false, reason: "binding_unreadable" };
    if (read.ok) {
      const parsed = parseTeamBindingFile(read.bytes);
      if (!parsed.ok) return { ok: false, reason: parsed.reason };
      return { ok: true, checkout: top ?? dir, file, binding: parsed.binding };
    }
    if (top === undefined || dir === top || dirname(dir) === dir) {
      return { ok: false, reason: "no_binding" };
    }
  }
}
