import { execFileSync } from "node:child_process";
import { isAbsolute } from "node:path";
import { oneLine } from "../../formats/sanitize/index.ts";

/** Longest `git config` may take before the name is given up, ms. */
export const GIT_USER_NAME_TIMEOUT_MS = 1_000;

/**
 * The `user.name` git would use in `cwd` (`git config --get user.name`: the repository's, the
 * user's or the system's), as a human label: one line through `oneLine`, at most 128 code points;
 * `undefined` when git is missing, slow, fails, or the name is empty. It is what the person
 * configured on this machine, never checked by anyone: consumers show it as unverified. Only
 * `HOME`, `XDG_CONFIG_HOME` and `PATH` are passed to git, so no inherited `GIT_*` setting chooses
 * the answer. Never throws.
 *
 * @example gitUserName("/home/dana/api", { HOME: "/home/dana", PATH: "/usr/bin" }) // "Dana Ito"
 */
export function gitUserName(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (cwd === "" || !isAbsolute(cwd)) return undefined;
  const childEnv: Record<string, string> = {};
  for (const name of ["HOME", "XDG_CONFIG_HOME", "PATH"] as const) {
    const value = env[name];
    if (value !== undefined) childEnv[name] = value;
  }
  try {
    const out = execFileSync("git", ["config", "--get", "user.name"], {
      cwd,
      env: childEnv,
      encoding: "utf8",
      timeout: GIT_USER_NAME_TIMEOUT_MS,
      maxBuffer: 4_096,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const name = oneLine(out, 128);
    return name === "" ? undefined : name;
  } catch {
    return undefined;
  }
}
