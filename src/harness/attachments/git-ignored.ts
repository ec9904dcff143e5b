import { spawnSync } from "node:child_process";

/** What git says of a path: ignored, not ignored, or nothing (no git, or not a repository). */
export type GitIgnoreAnswer = "ignored" | "not_ignored" | "no_repository" | "no_git";

/**
 * Whether git ignores `relative` (a path inside `root`, `/`-separated) in the repository `root`
 * belongs to: `git -C <root> check-ignore -q -- <relative>`, run without a shell, with an
 * environment of `PATH` and `HOME` only (no `GIT_DIR`, `GIT_WORK_TREE` or other variable can
 * point it at another repository), git's own config otherwise (the person's global excludes
 * count). A tracked file is never ignored (git's rule). `no_repository` when `root` is in no
 * repository, `no_git` when git cannot be run. Never throws.
 *
 * @example gitIgnored("/home/dana/api", ".env") // "ignored"
 */
export function gitIgnored(
  root: string,
  relative: string,
  env: Readonly<Record<string, string | undefined>>,
): GitIgnoreAnswer {
  const result = spawnSync("git", ["-C", root, "check-ignore", "-q", "--", relative], {
    env: { PATH: env.PATH ?? "/usr/bin:/bin", HOME: env.HOME ?? "/" },
    stdio: "ignore",
    timeout: 10_000,
  });
  if (result.error !== undefined) return "no_git";
  if (result.status === 0) return "ignored";
  if (result.status === 1) return "not_ignored";
  return "no_repository";
}
