import { isAbsolute, join } from "node:path";

/** The environment members {@link resolveStateDir} reads. */
export interface StateDirEnv {
  readonly XDG_STATE_HOME?: string | undefined;
  readonly HOME?: string | undefined;
}

/** Result of {@link resolveStateDir}. */
export type StateDirResult =
  | { readonly ok: true; readonly dir: string }
  | { readonly ok: false; readonly reason: "state_dir_relative" };

/**
 * `BRIGADE_STATE_DIR` (docs/spec/claude-code.md §7.1): `$XDG_STATE_HOME/brigade` when
 * `XDG_STATE_HOME` is set and non-empty, else `$HOME/.local/state/brigade`. The base must be
 * absolute: a relative `XDG_STATE_HOME` (or a missing/relative `HOME`) fails with
 * `state_dir_relative` rather than resolving against the working directory, where a repository
 * could plant a map. Never throws.
 *
 * @example resolveStateDir({ HOME: "/home/dana" }) // { ok: true, dir: "/home/dana/.local/state/brigade" }
 */
export function resolveStateDir(env: StateDirEnv): StateDirResult {
  const xdg = env.XDG_STATE_HOME;
  if (xdg !== undefined && xdg !== "") {
    return isAbsolute(xdg)
      ? { ok: true, dir: join(xdg, "brigade") }
      : { ok: false, reason: "state_dir_relative" };
  }
  const home = env.HOME;
  if (home === undefined || !isAbsolute(home)) return { ok: false, reason: "state_dir_relative" };
  return { ok: true, dir: join(home, ".local", "state", "brigade") };
}
