import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { locateCheckout } from "../../harness/binding/index.ts";
import { ensurePrivateFolder } from "../../local-files/index.ts";
import { CliUsageError } from "../cli-io.ts";
import { checkNewSecretFile } from "./team-flags.ts";
import { CONFIG_NOT_WRITABLE } from "./team-report.ts";

/** The folder below the configuration folder where `create` puts a join secret by default. */
export const JOIN_SECRETS_DIR = "join-secrets";

/** How long `git check-ignore` may take, ms. */
const GIT_TIMEOUT_MS = 5_000;

/**
 * Whether git ignores `path` in the work tree whose top is `top`: `git -C <top> check-ignore -q`
 * (exit 0 ignored, 1 not ignored). Anything else — no git, an error, a timeout — is not ignored:
 * a secret is only allowed inside a work tree that provably keeps it out of commits.
 */
function gitIgnores(top: string, path: string): boolean {
  // fsmonitor off: a repository's own configuration never gets to run a program here.
  const run = spawnSync(
    "git",
    ["-c", "core.fsmonitor=false", "-C", top, "check-ignore", "-q", "--", path],
    {
      stdio: "ignore",
      timeout: GIT_TIMEOUT_MS,
    },
  );
  return run.status === 0;
}

/**
 * Refuses a join-secret file inside a git work tree that does not ignore it (docs/44-team-binding.md):
 * anyone holding the secret can join, and a file there is one `git add -A` away from the
 * repository, beside the `.brigade.json` that is meant to be committed. The work tree is the first
 * folder from the file's folder upwards holding `.git`. Call it after the folder is known to exist.
 *
 * @throws CliUsageError naming the reason and the way out (exit 2); the path is never repeated.
 * @example checkSecretOutsideWorkTree("/home/dana/.config/brigade/join-secrets/core-1a2b.secret");
 */
export function checkSecretOutsideWorkTree(path: string, flag = "--secret-file"): void {
  const top = locateCheckout(dirname(path))?.repositoryTop;
  if (top === undefined || gitIgnores(top, path)) return;
  throw new CliUsageError(
    `the ${flag} is inside a git work tree that does not ignore it, where it could be committed with the repository; choose a path outside the repository (or add it to .gitignore first)`,
  );
}

/**
 * Where `team create` (and `rotate-secret`) write the join secret: the `--secret-file` given
 * (resolved from `cwd`: a new file in an existing, writable folder, outside any git work tree that
 * does not ignore it), else a new file `<config>/join-secrets/<team>-<8 hex>.secret` (the folder
 * created 0700), which is never inside the repository. Checked before any network call.
 *
 * @throws CliUsageError for an unusable `--secret-file`, or a default folder that is unusable or
 * lies inside a work tree that does not ignore it (exit 2).
 * @example joinSecretPath(undefined, "/home/dana/.config/brigade", "core", cwd) // ".../join-secrets/core-1a2b3c4d.secret"
 */
export function joinSecretPath(
  given: string | undefined,
  configDir: string,
  teamName: string,
): string {
  if (given !== undefined) {
    checkGivenSecretFile(given);
    return given;
  }
  return defaultSecretPath(configDir, teamName);
}

/**
 * Checks a `--secret-file` (absolute; `flag` names the option in the refusal: `--out` for
 * `team invite`): a new file in an existing, writable folder, outside any git work tree that
 * does not ignore it.
 *
 * @throws CliUsageError (exit 2), the path never repeated.
 * @example checkGivenSecretFile("/home/dana/core.secret");
 */
export function checkGivenSecretFile(path: string, flag = "--secret-file"): void {
  checkNewSecretFile(path, flag);
  checkSecretOutsideWorkTree(path, flag);
}

/**
 * A new file for a join secret in the configuration folder: `<config>/join-secrets/<team as
 * [a-z0-9-], ≤ 32>-<8 hex>.secret`, the folder created 0700, refused inside a git work tree that
 * does not ignore it (a home folder kept in git).
 *
 * @throws CliUsageError when the folder cannot be made private or lies in such a work tree.
 * @example defaultSecretPath("/home/dana/.config/brigade", "core") // ".../join-secrets/core-1a2b3c4d.secret"
 */
export function defaultSecretPath(configDir: string, teamName: string): string {
  const folder = join(configDir, JOIN_SECRETS_DIR);
  // --secret-file would not help: the credential goes into the same configuration folder.
  if (!ensurePrivateFolder(folder).ok) throw new CliUsageError(CONFIG_NOT_WRITABLE);
  const slug =
    teamName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 32) || "team";
  const path = join(folder, `${slug}-${randomBytes(4).toString("hex")}.secret`);
  checkSecretOutsideWorkTree(path, "default join-secret folder");
  return path;
}
